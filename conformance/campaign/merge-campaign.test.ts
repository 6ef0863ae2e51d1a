/**
 * Merging shards: the shards of one campaign merge into its runs in order; anything that is not
 * a shard of the same campaign is refused with a message naming the input and the field; runs no
 * shard holds are reported, with the shards that were not given.
 */
import { describe, expect, it } from "vitest";
import { runSeed, runsOfShard, type CampaignResults, type Shard } from "./campaign.ts";
import { CampaignMergeError, mergeCampaignResults, type CampaignMergeInput } from "./merge-campaign.ts";

const CAMPAIGN = { command: "fuzz --target store", target: "in-process model", campaignSeed: 5, runs: 10 } as const;

function shardResults(shard: Shard | undefined, overrides: Partial<CampaignResults> = {}): CampaignResults {
  const records = runsOfShard(CAMPAIGN.runs, shard).map((run) => ({
    run,
    seed: runSeed(CAMPAIGN.campaignSeed, run),
    verdict: run === 6 ? ("failed" as const) : ("passed" as const),
    traceHash: `hash-${run}`,
    ...(run === 6 && { summary: "store/paging-consistent: pages ended early", replayCommand: "npx tsx scripts/cli.ts fuzz --target store --seed 1 --property store/paging-consistent --replay '0:1'" }),
    durationMs: 10,
  }));
  return { kind: "orb-harness/campaign", ...CAMPAIGN, shard, records, durationMs: records.length * 10 + 1, ...overrides };
}

const shards = (count: number, overrides: Partial<CampaignResults> = {}): CampaignMergeInput[] =>
  Array.from({ length: count }, (_, at) => ({ source: `shard-${at + 1}`, results: shardResults({ index: at + 1, count }, overrides) }));

describe("mergeCampaignResults", () => {
  it("merges the shards of one campaign into its runs, in order, whatever order they come in", () => {
    const merge = mergeCampaignResults(shards(3).reverse());
    expect(merge.results.records).toEqual(shardResults(undefined).records);
    expect(merge.results).toMatchObject({ ...CAMPAIGN, shard: undefined, durationMs: 100 + 3 });
    expect(merge.missingRuns).toEqual([]);
    expect(merge.missingShards).toEqual([]);
  });

  it("lists the runs no input holds, and the shards not given", () => {
    const [first, , third] = shards(4);
    const merge = mergeCampaignResults([first!, third!]);
    expect(merge.results.records.map((record) => record.run)).toEqual([0, 2, 4, 6, 8]);
    expect(merge.missingRuns).toEqual([1, 3, 5, 7, 9]);
    expect(merge.missingShards).toEqual([{ index: 2, count: 4 }, { index: 4, count: 4 }]);
    // A shard stopped early is no missing shard; its runs are missing runs.
    const stopped = { source: "stopped", results: { ...shardResults({ index: 2, count: 2 }), records: shardResults({ index: 2, count: 2 }).records.slice(0, 2) } };
    const partial = mergeCampaignResults([shards(2)[0]!, stopped]);
    expect(partial.missingRuns).toEqual([5, 7, 9]);
    expect(partial.missingShards).toEqual([]);
  });

  it.each([
    ["command", { command: "fuzz --target api" }, /shard-2 and shard-1 are not shards of one campaign: command "fuzz --target api" differs from "fuzz --target store"/],
    ["target", { target: "https://10.0.0.1:6443" }, /target "https:\/\/10\.0\.0\.1:6443" differs from "in-process model"/],
    ["options", { options: "--property watch/no-gap" }, /options "--property watch\/no-gap" differs from \(none\)/],
    ["runs", { runs: 12 }, /runs 12 differs from 10/],
  ] as const)("refuses shards that differ in %s", (_field, overrides, message) => {
    const [first, second] = shards(2);
    expect(() => mergeCampaignResults([first!, { ...second!, results: { ...second!.results, ...overrides } }])).toThrow(message);
  });

  it("refuses shards of another campaign seed: their runs' seeds are not this campaign's", () => {
    const [first] = shards(2);
    const other = { source: "other", results: { ...shardResults({ index: 2, count: 2 }), campaignSeed: 6 } };
    expect(() => mergeCampaignResults([first!, other])).toThrow(/campaignSeed 6 differs from 5/);
    const forged = shardResults({ index: 2, count: 2 });
    const wrongSeed = { source: "forged", results: { ...forged, records: forged.records.map((record) => (record.run === 3 ? { ...record, seed: 77 } : record)) } };
    expect(() => mergeCampaignResults([first!, wrongSeed])).toThrow(`forged: run 3 has seed 77, but run 3 of campaign seed 5 is seeded ${runSeed(5, 3)}: not a run of this campaign`);
  });

  it("refuses a run twice (a shard given twice, or two --shard counts) and a run outside its shard", () => {
    const [first, second] = shards(2);
    expect(() => mergeCampaignResults([first!, second!, first!])).toThrow(new CampaignMergeError("run 0 is in both shard-1 and shard-1: a shard given twice, or shards of two different --shard counts"));
    expect(() => mergeCampaignResults([first!, ...shards(4)])).toThrow(/run 0 is in both shard-1 and shard-1/);
    const misplaced = { source: "misplaced", results: { ...second!.results, records: [...first!.results.records.slice(0, 1)] } };
    expect(() => mergeCampaignResults([misplaced])).toThrow("misplaced: run 0 is not a run of shard 2/2");
  });

  it("needs an input", () => {
    expect(() => mergeCampaignResults([])).toThrow(CampaignMergeError);
  });
});
