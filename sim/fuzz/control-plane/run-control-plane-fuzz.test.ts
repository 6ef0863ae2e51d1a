import { describe, expect, it } from "vitest";
import { parseFaultSpec } from "../../faults/fault-spec.ts";
import { DEFAULT_FAULT_CLASSES, parseFaultClasses } from "./fault-arbitraries.ts";
import { formatFuzzOutcome, runControlPlaneFuzz, simulateReplayCommand } from "./run-control-plane-fuzz.ts";

describe("control-plane fuzz", () => {
  it("with pauses, finds a two-leader overlap and shrinks it to one pause of the leader", async () => {
    const outcome = await runControlPlaneFuzz({ target: "leader-election", seed: 1, runs: 20, classes: ["pauses"] });
    const failure = outcome.failure!;
    expect(failure.fuzzCase.faults).toHaveLength(1);
    expect(failure.fuzzCase.faults[0]).toMatchObject({ kind: "pause", target: "leader" });
    expect(failure.violations.map((verdict) => verdict.id)).toEqual(["leader-election/at-most-one-leader"]);
    expect(simulateReplayCommand(outcome)).toContain(`--faults '${"pause:leader@"}`);
    const lines = formatFuzzOutcome(outcome);
    expect(lines[0]).toMatch(/^FAIL {2}leader-election/);
    expect(lines.join("\n")).toMatch(/replay: npx tsx scripts\/cli\.ts fuzz --target leader-election --faults pauses --seed 1 --replay '/);
    // The printed path replays the same minimal case.
    const replayed = await runControlPlaneFuzz({ target: "leader-election", seed: 1, runs: 20, classes: ["pauses"], replayPath: failure.replayPath });
    expect(replayed.failure?.fuzzCase).toEqual(failure.fuzzCase);
  });

  it("without pauses, finds nothing; the session hash depends on the seed only", async () => {
    const run = (seed: number) => runControlPlaneFuzz({ target: "leader-election", seed, runs: 12, classes: DEFAULT_FAULT_CLASSES });
    const [first, again, other] = [await run(3), await run(3), await run(4)];
    expect(first.failure).toBeUndefined();
    expect(again.traceHash).toBe(first.traceHash);
    expect(other.traceHash).not.toBe(first.traceHash);
  });

  it("fuzzes node eviction too", async () => {
    const outcome = await runControlPlaneFuzz({ target: "node-eviction", seed: 2, runs: 4, classes: ["crashes", "partitions"] });
    expect(outcome.failure).toBeUndefined();
    expect(outcome.runs).toBe(4);
  });

  it("parses fault classes", () => {
    expect(parseFaultClasses("all")).toEqual(["pauses", "drift", "partitions", "crashes"]);
    expect(parseFaultClasses("drift,pauses")).toEqual(["pauses", "drift"]);
    expect(() => parseFaultClasses("meteors")).toThrow(/unknown fault class "meteors"/);
    expect(parseFaultSpec("pause:leader@1s+1s")).toHaveLength(1);
  });
});
