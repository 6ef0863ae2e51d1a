/**
 * Runs a campaign, or one shard of it: each run of the shard in order, seeded with
 * `runSeed(campaignSeed, run)`, each timed here (outside sim/, where the wall clock may be read)
 * and recorded with its verdict and trace hash. What a run is belongs to the caller (`runOne`):
 * the store properties once, one control-plane fuzz check, one soak, one `fuzz --target api`
 * sequence.
 */
import { runSeed, runsOfShard, type CampaignResults, type CampaignRunRecord, type Shard } from "./campaign.ts";

/** What a campaign is: the identity `report merge` checks, and which runs this process makes. */
export type CampaignPlan = Pick<CampaignResults, "command" | "target" | "options" | "campaignSeed" | "runs" | "shard">;

/** What one run came to, as `runOne` reports it (the campaign adds run, seed and duration). */
export interface CampaignRunVerdict {
  readonly verdict: "passed" | "failed";
  readonly traceHash: string;
  readonly summary?: string;
  readonly replayCommand?: string;
}

/** Hooks: told of each record as it is made; a signal that stops the campaign between runs (Ctrl-C). */
export interface CampaignHooks {
  readonly onRecord?: (record: CampaignRunRecord) => void;
  readonly signal?: AbortSignal;
}

/**
 * Runs the plan's runs one after another and returns their results. A run that throws ends the
 * campaign with that error (a harness failure is no verdict). `runOne` answers undefined for a run
 * it could not finish (a soak stopped by Ctrl-C): a partial run's verdict would claim what it never
 * checked, so it is not recorded and the campaign ends there. An aborted signal stops it before
 * the next run. Either way the results hold the runs made.
 */
export async function runCampaign(
  plan: CampaignPlan,
  runOne: (run: number, seed: number) => Promise<CampaignRunVerdict | undefined>,
  hooks: CampaignHooks = {},
): Promise<CampaignResults> {
  const started = performance.now();
  const records: CampaignRunRecord[] = [];
  for (const run of runsOfShard(plan.runs, plan.shard)) {
    if (hooks.signal?.aborted === true) break;
    const seed = runSeed(plan.campaignSeed, run);
    const runStarted = performance.now();
    const verdict = await runOne(run, seed);
    if (verdict === undefined) break;
    const record: CampaignRunRecord = {
      run,
      seed,
      verdict: verdict.verdict,
      traceHash: verdict.traceHash,
      ...(verdict.summary !== undefined && { summary: verdict.summary }),
      ...(verdict.replayCommand !== undefined && { replayCommand: verdict.replayCommand }),
      durationMs: performance.now() - runStarted,
    };
    records.push(record);
    hooks.onRecord?.(record);
  }
  return {
    kind: "orb-harness/campaign",
    command: plan.command,
    target: plan.target,
    ...(plan.options !== undefined && { options: plan.options }),
    campaignSeed: plan.campaignSeed,
    runs: plan.runs,
    shard: plan.shard,
    records,
    durationMs: performance.now() - started,
  };
}
