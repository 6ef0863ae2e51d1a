/**
 * The lines a campaign prints on the terminal (fuzz, soak, report merge): which runs a shard makes,
 * a failed run with its replay command, and the closing `N runs in T s (R runs/s)`.
 */
import { runsOfShard, runsPerSecond, type CampaignResults, type CampaignRunRecord, type Shard } from "../conformance/campaign/campaign.ts";

// Runs named one by one in a list; past it, "and N more".
const LISTED_RUNS = 20;

/** `""` for a whole campaign; `, shard 2/4: 2 of 8 runs` for a shard. */
export function shardScopeText(runs: number, shard: Shard | undefined): string {
  if (shard === undefined) return "";
  return `, shard ${shard.index}/${shard.count}: ${runsOfShard(runs, shard).length} of ${runs} runs`;
}

/**
 * `N runs in T s (R runs/s)`, over the runs' own durations (so a merge of shards made in
 * parallel gives the machine time, and the rate per process).
 */
export function campaignRateLine(results: CampaignResults): string {
  const ms = results.records.reduce((sum, record) => sum + record.durationMs, 0);
  return `${results.records.length} runs in ${(ms / 1000).toFixed(1)} s (${rateText(runsPerSecond(results))} runs/s)`;
}

/** Two significant decimals for slow campaigns (a soak run takes a minute), fewer for fast ones. */
function rateText(rate: number): string {
  return rate >= 100 ? rate.toFixed(0) : rate >= 1 ? rate.toFixed(1) : rate.toFixed(3);
}

/** `8 runs: 7 passed, 1 failed` (with the missing runs when a merge lacks some). */
export function campaignCountLine(results: CampaignResults, missingRuns: readonly number[] = []): string {
  const failed = results.records.filter((record) => record.verdict === "failed").length;
  const missing = missingRuns.length === 0 ? "" : `, ${missingRuns.length} missing`;
  return `${results.records.length} runs: ${results.records.length - failed} passed, ${failed} failed${missing}`;
}

/** A failed run: its summary, seed and replay command, indented as the fuzzers print a failure. */
export function failedRunLines(record: CampaignRunRecord): string[] {
  const [headline = "(no summary)", ...rest] = (record.summary ?? "").split("\n").filter((line) => line !== "");
  return [
    `FAIL  run ${record.run} (seed ${record.seed}): ${headline}`,
    ...rest.map((line) => `      ${line}`),
    ...(record.replayCommand === undefined ? [] : [`      replay: ${record.replayCommand}`]),
  ];
}

/** Runs as a short list: `3, 7, 11–15`, at most LISTED_RUNS items, then `and N more`. */
export function runListText(runs: readonly number[]): string {
  const ranges: string[] = [];
  for (let at = 0; at < runs.length; ) {
    let end = at;
    while (end + 1 < runs.length && runs[end + 1] === runs[end]! + 1) end++;
    ranges.push(end - at >= 2 ? `${runs[at]}–${runs[end]}` : end > at ? `${runs[at]}, ${runs[end]}` : `${runs[at]}`);
    at = end + 1;
  }
  const items = ranges.join(", ").split(", ");
  return items.length <= LISTED_RUNS ? items.join(", ") : `${items.slice(0, LISTED_RUNS).join(", ")} and ${items.length - LISTED_RUNS} more`;
}
