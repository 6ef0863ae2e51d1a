/**
 * `fuzz --target api` runs are exact on the embedded server: the same seed gives the same
 * per-run verdicts and trace hashes, a replay of a failure ends at the same shrunk program, and
 * shards of a campaign make exactly its runs.
 */
import { describe, expect, it } from "vitest";
import { openApiFuzzTarget } from "./api-fuzz-target.ts";
import { describeStep } from "./api-steps.ts";
import { runApiFuzz } from "./run-api-fuzz.ts";

describe("fuzz --target api campaigns", () => {
  it("give the same verdicts and trace hashes for the same seed, and shards make the same runs", async () => {
    const target = await openApiFuzzTarget({ kind: "embedded", defects: new Set(["stale-update-accepted"]) });
    const whole = await runApiFuzz({ target, campaignSeed: 11, runs: 12, replayCommand: () => "" });
    const again = await runApiFuzz({ target, campaignSeed: 11, runs: 12, replayCommand: () => "" });
    const shards = [];
    for (const index of [1, 2, 3]) shards.push(...(await runApiFuzz({ target, campaignSeed: 11, runs: 12, shard: { index, count: 3 }, replayCommand: () => "" })).records);
    const key = (record: { run: number; seed: number; verdict: string; traceHash: string }) => `${record.run} ${record.seed} ${record.verdict} ${record.traceHash}`;
    expect(again.records.map(key)).toEqual(whole.records.map(key));
    expect(shards.map(key).sort()).toEqual(whole.records.map(key).sort());
    expect(whole.failures.length).toBeGreaterThan(0);
  }, 120_000);

  it("replays a failure to the same shrunk program", async () => {
    const target = await openApiFuzzTarget({ kind: "embedded", defects: new Set(["deleted-events-missing"]) });
    const { failures } = await runApiFuzz({ target, campaignSeed: 7, runs: 200, untilFailure: true, replayCommand: () => "" });
    const failure = failures[0]!;
    const replayed = await runApiFuzz({ target, campaignSeed: 0, runs: 1, replay: { seed: failure.seed, path: failure.replayPath }, replayCommand: () => "" });
    expect(replayed.failures[0]?.program.map(describeStep)).toEqual(failure.program.map(describeStep));
    expect(replayed.failures[0]?.outcome.divergence).toEqual(failure.outcome.divergence);
  }, 120_000);
});
