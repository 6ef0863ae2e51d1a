/**
 * `report merge`: the results of a campaign's shards, made on different machines, put back into
 * the results of one campaign. Inputs that are not shards of one campaign are refused (another
 * command, target, seed, size or set of options; a run twice; a run whose seed is not the one its
 * campaign gives it; a run outside its shard), because a merge of those would report runs that no
 * campaign made. Runs no input holds are not an error: they are listed (with the shards that
 * would have made them), since a shard that wrote no results has already failed its own job.
 */
import { runSeed, runsOfShard, type CampaignResults, type CampaignRunRecord, type Shard } from "./campaign.ts";

/** One input: where it came from (for messages) and what it holds. */
export interface CampaignMergeInput {
  readonly source: string;
  readonly results: CampaignResults;
}

/** The merge: one campaign's results, and what is missing from it. */
export interface CampaignMerge {
  /** The merged results; `shard` undefined, `durationMs` the sum of the inputs' (machine time). */
  readonly results: CampaignResults;
  /** Runs of the campaign no input holds, in order. */
  readonly missingRuns: readonly number[];
  /**
   * When every input names a shard of the same count: those shards none of the inputs was. A
   * shard that was given but stopped early (Ctrl-C) shows only in missingRuns.
   */
  readonly missingShards: readonly Shard[];
}

/** Inputs that cannot be merged as one campaign; the message says which and why. */
export class CampaignMergeError extends Error {}

// The fields that make a campaign: shards must agree on every one.
const IDENTITY = ["command", "target", "options", "campaignSeed", "runs"] as const;

/** Merges the inputs; throws CampaignMergeError when they are not shards of one campaign. */
export function mergeCampaignResults(inputs: readonly CampaignMergeInput[]): CampaignMerge {
  const [first] = inputs;
  if (first === undefined) throw new CampaignMergeError("nothing to merge");
  const owner = new Map<number, string>();
  const records: CampaignRunRecord[] = [];
  for (const input of inputs) {
    const { results, source } = input;
    for (const field of IDENTITY) {
      if (results[field] !== first.results[field]) {
        throw new CampaignMergeError(
          `${source} and ${first.source} are not shards of one campaign: ${field} ${show(results[field])} differs from ${show(first.results[field])}`,
        );
      }
    }
    const ofShard = results.shard === undefined ? undefined : new Set(runsOfShard(results.runs, results.shard));
    for (const record of results.records) {
      const earlier = owner.get(record.run);
      if (earlier !== undefined) throw new CampaignMergeError(`run ${record.run} is in both ${earlier} and ${source}: a shard given twice, or shards of two different --shard counts`);
      const expected = runSeed(results.campaignSeed, record.run);
      if (record.seed !== expected) {
        throw new CampaignMergeError(`${source}: run ${record.run} has seed ${record.seed}, but run ${record.run} of campaign seed ${results.campaignSeed} is seeded ${expected}: not a run of this campaign`);
      }
      if (ofShard !== undefined && !ofShard.has(record.run)) {
        throw new CampaignMergeError(`${source}: run ${record.run} is not a run of shard ${results.shard!.index}/${results.shard!.count}`);
      }
      owner.set(record.run, source);
      records.push(record);
    }
  }
  records.sort((a, b) => a.run - b.run);
  const missingRuns = runsOfShard(first.results.runs, undefined).filter((run) => !owner.has(run));
  return {
    results: {
      kind: "orb-harness/campaign",
      command: first.results.command,
      target: first.results.target,
      ...(first.results.options !== undefined && { options: first.results.options }),
      campaignSeed: first.results.campaignSeed,
      runs: first.results.runs,
      shard: undefined,
      records,
      durationMs: inputs.reduce((sum, input) => sum + input.results.durationMs, 0),
    },
    missingRuns,
    missingShards: missingShards(inputs, missingRuns),
  };
}

function missingShards(inputs: readonly CampaignMergeInput[], missingRuns: readonly number[]): Shard[] {
  const counts = new Set(inputs.map((input) => input.results.shard?.count));
  const [count] = counts;
  if (missingRuns.length === 0 || counts.size !== 1 || count === undefined) return [];
  const given = new Set(inputs.map((input) => input.results.shard!.index));
  return Array.from({ length: count }, (_, at) => ({ index: at + 1, count })).filter((shard) => !given.has(shard.index));
}

function show(value: string | number | undefined): string {
  return value === undefined ? "(none)" : JSON.stringify(value);
}
