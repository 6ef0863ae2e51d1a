/**
 * The campaign contract: shards parse strictly, partition the runs exactly (every run in one
 * shard, none twice, whatever the sizes), run seeds depend on the campaign seed and the run alone,
 * and runCampaign makes the shard's runs with those seeds, stopping where it is told to.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { campaignTraceHash, parseShard, runSeed, runsOfShard, runsPerSecond, type CampaignRunRecord } from "./campaign.ts";
import { runCampaign } from "./run-campaign.ts";

describe("parseShard", () => {
  it("reads I/N with 1 ≤ I ≤ N", () => {
    expect(parseShard("2/4")).toEqual({ index: 2, count: 4 });
    expect(parseShard(" 1/1 ")).toEqual({ index: 1, count: 1 });
    expect(parseShard("4/4")).toEqual({ index: 4, count: 4 });
  });

  it.each(["0/4", "5/4", "1/0", "2", "2/", "/4", "-1/4", "1.5/4", "a/b", "2/4/8", ""])("refuses %j with a message naming the form", (text) => {
    expect(() => parseShard(text)).toThrow(/--shard must be I\/N with 1 ≤ I ≤ N \(as 2\/4\)/);
  });
});

describe("runsOfShard", () => {
  it("gives every run without a shard, and r % N = I - 1 with one", () => {
    expect(runsOfShard(5, undefined)).toEqual([0, 1, 2, 3, 4]);
    expect(runsOfShard(10, { index: 1, count: 4 })).toEqual([0, 4, 8]);
    expect(runsOfShard(10, { index: 4, count: 4 })).toEqual([3, 7]);
    expect(runsOfShard(2, { index: 3, count: 4 })).toEqual([]);
    expect(runsOfShard(0, undefined)).toEqual([]);
  });

  it("partitions the runs: the N shards together make each run exactly once", () => {
    fc.assert(
      fc.property(fc.nat(200), fc.integer({ min: 1, max: 12 }), (runs, count) => {
        const made = Array.from({ length: count }, (_, at) => runsOfShard(runs, { index: at + 1, count })).flat();
        expect(made.sort((a, b) => a - b)).toEqual(runsOfShard(runs, undefined));
      }),
    );
  });
});

describe("runSeed", () => {
  it("is a 32-bit integer fixed by the campaign seed and the run, and differs between runs and campaigns", () => {
    const seeds = Array.from({ length: 1000 }, (_, run) => runSeed(42, run));
    for (const seed of seeds) expect(seed).toBe(seed | 0);
    expect(new Set(seeds).size).toBe(1000);
    expect(runSeed(42, 7)).toBe(runSeed(42, 7));
    expect(runSeed(43, 7)).not.toBe(runSeed(42, 7));
    // Pinned: a change here would give every campaign's shards on other versions other runs.
    expect([runSeed(1, 0), runSeed(42, 1), runSeed(42, 5)]).toEqual([-1103239757, 398763914, 911780153]);
  });
});

describe("runCampaign", () => {
  const plan = { command: "fuzz --target test", target: "nowhere", campaignSeed: 9, runs: 7, shard: { index: 2, count: 3 } };

  it("makes the shard's runs in order with their seeds, and records each verdict", async () => {
    const calls: Array<[number, number]> = [];
    const told: number[] = [];
    const results = await runCampaign(
      plan,
      async (run, seed) => {
        calls.push([run, seed]);
        return run === 4 ? { verdict: "failed", traceHash: `h${run}`, summary: "broke", replayCommand: "again" } : { verdict: "passed", traceHash: `h${run}` };
      },
      { onRecord: (record) => told.push(record.run) },
    );
    expect(calls).toEqual([1, 4].map((run) => [run, runSeed(9, run)]));
    expect(told).toEqual([1, 4]);
    expect(results).toMatchObject({ kind: "orb-harness/campaign", command: "fuzz --target test", target: "nowhere", campaignSeed: 9, runs: 7, shard: { index: 2, count: 3 } });
    expect(results.records.map(({ durationMs: _, ...record }) => record)).toEqual([
      { run: 1, seed: runSeed(9, 1), verdict: "passed", traceHash: "h1" },
      { run: 4, seed: runSeed(9, 4), verdict: "failed", traceHash: "h4", summary: "broke", replayCommand: "again" },
    ]);
    for (const record of results.records) expect(record.durationMs).toBeGreaterThanOrEqual(0);
    expect("options" in results).toBe(false);
  });

  it("stops at a run that could not finish (not recorded) and when the signal aborts", async () => {
    const unfinished = await runCampaign({ ...plan, shard: undefined }, async (run) => (run === 2 ? undefined : { verdict: "passed", traceHash: "h" }));
    expect(unfinished.records.map((record) => record.run)).toEqual([0, 1]);
    const stop = new AbortController();
    const stopped = await runCampaign(
      { ...plan, shard: undefined },
      async (run) => {
        if (run === 1) stop.abort();
        return { verdict: "passed", traceHash: "h" };
      },
      { signal: stop.signal },
    );
    expect(stopped.records.map((record) => record.run)).toEqual([0, 1]);
  });
});

describe("campaignTraceHash and runsPerSecond", () => {
  const record = (run: number, traceHash: string, durationMs = 500): CampaignRunRecord => ({ run, seed: runSeed(1, run), verdict: "passed", traceHash, durationMs });

  it("hashes runs, seeds, verdicts and trace hashes, not durations", () => {
    const base = [record(0, "a"), record(1, "b")];
    expect(campaignTraceHash(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(campaignTraceHash([record(0, "a", 1), record(1, "b", 9)])).toBe(campaignTraceHash(base));
    expect(campaignTraceHash([record(0, "a"), record(1, "c")])).not.toBe(campaignTraceHash(base));
    expect(campaignTraceHash([{ ...record(0, "a"), verdict: "failed" }, record(1, "b")])).not.toBe(campaignTraceHash(base));
    expect(campaignTraceHash([record(0, "a")])).not.toBe(campaignTraceHash(base));
  });

  it("counts runs per second of the runs' own time", () => {
    const results = { kind: "orb-harness/campaign", command: "c", target: "t", campaignSeed: 1, runs: 4, shard: undefined, durationMs: 99_999 } as const;
    expect(runsPerSecond({ ...results, records: [record(0, "a"), record(1, "b")] })).toBe(2);
    expect(runsPerSecond({ ...results, records: [] })).toBe(0);
  });
});
