/**
 * `fuzz --target api` (issue 16), wiring only: the target the flags choose, a campaign of
 * generated programs run beside the model (conformance/fuzz-api), each failure printed shrunk
 * with its replay command.
 */
import { runCampaign } from "../../conformance/campaign/run-campaign.ts";
import type { CampaignResults, Shard } from "../../conformance/campaign/campaign.ts";
import { openApiFuzzTarget, type ApiFuzzTargetChoice } from "../../conformance/fuzz-api/api-fuzz-target.ts";
import { describeStep, flatSteps } from "../../conformance/fuzz-api/api-steps.ts";
import { apiFuzzRun, failureSummary, type ApiFuzzFailure } from "../../conformance/fuzz-api/run-api-fuzz.ts";
import { ControlPlaneError } from "../../conformance/control-plane/kube-assets.ts";
import { TargetError } from "../../conformance/targets/remote-target.ts";
import { redactSecrets } from "../../reports/redaction.ts";
import type { CliOutput } from "../cli-command.ts";
import { holdInterrupt } from "../interrupt.ts";

/** How often a campaign against the embedded server prints a progress line (runs). */
const PROGRESS_EVERY = 50;

export interface ApiCampaign {
  readonly seed: number;
  readonly runs: number;
  readonly shard: Shard | undefined;
  /** The flags that choose the target, as given (repeated in replay commands). */
  readonly targetArgs: readonly string[];
}

/**
 * Runs the campaign, or replays one run; resolves with the results of the runs made and whether
 * Ctrl-C ended it early (undefined when the target could not be opened: exit 2).
 */
export async function fuzzApiCampaign(
  choice: ApiFuzzTargetChoice,
  campaign: ApiCampaign,
  replay: { seed: number; path: string } | undefined,
  output: CliOutput,
): Promise<{ results: CampaignResults; interrupted: boolean } | undefined> {
  let target;
  try {
    target = await openApiFuzzTarget(choice);
  } catch (error) {
    if (!(error instanceof TargetError) && !(error instanceof ControlPlaneError)) throw error;
    output.err(`orb-harness fuzz: ${error.message}`);
    return undefined;
  }
  // Ctrl-C ends the campaign between runs: the run under way finishes and deletes its namespace.
  const interrupt = holdInterrupt(output, "interrupted: finishing the run under way and deleting its namespace (Ctrl-C again to quit at once)");
  const scrub = (line: string) => redactSecrets(line, target.secrets);
  const replayCommand = (seed: number, path: string) => ["npx tsx scripts/cli.ts fuzz --target api", ...campaign.targetArgs, `--seed ${seed}`, `--replay ${path}`].join(" ");
  try {
    output.out(scrub(`fuzzing api on ${target.description}: ${replay === undefined ? `seed ${campaign.seed}, ${campaign.runs} runs` : `replaying seed ${replay.seed} at ${replay.path}`}`));
    let made = 0;
    const results = await runCampaign(
      { command: "fuzz --target api", target: target.virtual ? target.description : scrub(target.description), campaignSeed: replay?.seed ?? campaign.seed, runs: replay === undefined ? campaign.runs : 1, shard: replay === undefined ? campaign.shard : undefined },
      async (run, seed) => {
        const { record, failure } = await apiFuzzRun({ target, replayCommand }, run, replay?.seed ?? seed, replay?.path);
        if (failure !== undefined) failureLines(failure, replayCommand(failure.seed, failure.replayPath)).forEach((line) => output.out(scrub(line)));
        if (++made % PROGRESS_EVERY === 0) output.out(`  ${made} runs made`);
        return { verdict: record.verdict, traceHash: record.traceHash, ...(record.summary !== undefined && { summary: scrub(record.summary) }), ...(record.replayCommand !== undefined && { replayCommand: record.replayCommand }) };
      },
      { signal: interrupt.signal },
    );
    const failedRuns = results.records.filter((record) => record.verdict === "failed").length;
    output.out(`${results.records.length - failedRuns} passed, ${failedRuns} failed`);
    return { results, interrupted: interrupt.signal.aborted };
  } finally {
    interrupt.release();
    const left = await target.close();
    if (left.length > 0) output.err(`orb-harness fuzz: ${left.length} namespace${left.length === 1 ? "" : "s"} of the run still there after 60 s: ${left.join(", ")}`);
  }
}

/** A failure as printed: the run, the shrunk program, what diverged, the replay command. */
function failureLines(failure: ApiFuzzFailure, replay: string): string[] {
  const steps = flatSteps(failure.program).length;
  return [
    `FAIL  run ${failure.run} (seed ${failure.seed}): ${failureSummary(failure)}`,
    `  shrunk to ${failure.program.length} step${failure.program.length === 1 ? "" : "s"} (${steps} operation${steps === 1 ? "" : "s"}) after ${failure.shrinks} shrinks:`,
    ...failure.program.map((step, index) => `    ${index + 1}. ${describeStep(step)}`),
    ...failure.outcome.violations.flatMap((verdict) => [`  ${verdict.id}: ${verdict.witness?.explanation ?? "violated"}`]),
    `  replay: ${replay}`,
  ];
}
