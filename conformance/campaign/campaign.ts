/**
 * Campaigns (issue 16): a campaign is `runs` independent runs of one fuzz target (or soak), run
 * `r` (0-based) with a seed of its own derived from the campaign's seed and `r` alone. A shard
 * `I/N` runs the runs with `r % N === I - 1`, so the N shards of a campaign, on as many machines,
 * run exactly the runs of the unsharded campaign, each with the same seed, verdict and trace hash;
 * `report merge` puts their results back together.
 */
import { createHash } from "node:crypto";

/** One shard of a campaign: `index` of `count`, 1-based (as `--shard 2/4`). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Parses `I/N` (1 ≤ I ≤ N); throws an Error with a message fit for the user otherwise. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || index < 1 || index > count) throw new Error(`--shard must be I/N with 1 ≤ I ≤ N (as 2/4), got ${JSON.stringify(text)}`);
  return { index, count };
}

/** The runs (0-based) of a campaign of `runs` runs that `shard` makes, in order; all of them without a shard. */
export function runsOfShard(runs: number, shard: Shard | undefined): number[] {
  const all = Array.from({ length: runs }, (_, run) => run);
  return shard === undefined ? all : all.filter((run) => run % shard.count === shard.index - 1);
}

/** The seed of run `run` of the campaign seeded `campaignSeed`: a 32-bit integer, the same on every machine. */
export function runSeed(campaignSeed: number, run: number): number {
  return createHash("sha256").update(`orb-harness campaign ${campaignSeed} run ${run}`).digest().readInt32BE(0);
}

/** What one run of a campaign came to. */
export interface CampaignRunRecord {
  /** The run's index in the campaign, 0-based. */
  readonly run: number;
  readonly seed: number;
  readonly verdict: "passed" | "failed";
  /** Hex digest of what the run did and saw (same seed, same hash). */
  readonly traceHash: string;
  /** For a failure: what failed, in a line or a few. */
  readonly summary?: string;
  /** For a failure: the one-line command that replays it. */
  readonly replayCommand?: string;
  readonly durationMs: number;
}

/** The results of a campaign, or of one shard of it: `results.json` of a fuzz or soak campaign. */
export interface CampaignResults {
  readonly kind: "orb-harness/campaign";
  /** What was run: `fuzz --target api`, `fuzz --target store`, `soak`, … */
  readonly command: string;
  /** What it ran against: "embedded", a server URL, "kube-assets default", … (never a credential). */
  readonly target: string;
  /**
   * The campaign's other flags that shape every run (`--property …`, `--faults …`, soak's
   * workload), as one canonical string; absent when none. Shards must agree on it as on the seed:
   * `report merge` compares it, so shards of two different campaigns are never merged as one.
   */
  readonly options?: string;
  readonly campaignSeed: number;
  /** Runs in the whole campaign (not only this shard's). */
  readonly runs: number;
  /** The shard these results are of; undefined for a whole campaign (or a merge of all its shards). */
  readonly shard: Shard | undefined;
  /** One record per run made, ordered by run. */
  readonly records: readonly CampaignRunRecord[];
  readonly durationMs: number;
}

/** Runs per second of a campaign's records (over the sum of their durations, so merges add up). */
export function runsPerSecond(results: CampaignResults): number {
  const ms = results.records.reduce((sum, record) => sum + record.durationMs, 0);
  return ms === 0 ? 0 : (results.records.length * 1000) / ms;
}

/**
 * One hash for the runs of `records` (ordered by run): over each run's index, seed, verdict and
 * trace hash. A shard's is over its runs only; the merge of every shard of a campaign gives the
 * unsharded campaign's hash, so one line shows that sharding changed nothing.
 */
export function campaignTraceHash(records: readonly CampaignRunRecord[]): string {
  const hash = createHash("sha256");
  for (const record of records) hash.update(`${record.run} ${record.seed} ${record.verdict} ${record.traceHash}\n`);
  return hash.digest("hex");
}
