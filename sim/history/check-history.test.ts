/**
 * The history checkers on valid histories: generated ones of every shape (fast-check over seeds
 * and workload options; a failure prints the seed, the shrunk workload and the replay path), and
 * the catalog's contract: one verdict per invariant, in order, each exercised, the same verdicts
 * for the same history.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { historyInvariants } from "../../spec/invariants-history.ts";
import { storeInvariants } from "../../spec/invariants.ts";
import { analyzeHistory, checkHistory } from "./check-history.ts";
import { simulateHistory, simulatedWorkload, type SimulatedWorkload } from "./simulated-history.ts";

const SEED = Number(process.env["ORB_HISTORY_SEED"] ?? 20261507);

/** Workload options worth varying: every branch of the checkers' reasoning depends on some. */
const workloads: fc.Arbitrary<SimulatedWorkload> = fc
  .record({
    seed: fc.integer({ min: 1, max: 1_000_000 }),
    durationMs: fc.integer({ min: 200, max: 700 }),
    writers: fc.integer({ min: 1, max: 4 }),
    readers: fc.integer({ min: 0, max: 3 }),
    watchers: fc.integer({ min: 1, max: 6 }),
    steadyWatchers: fc.integer({ min: 0, max: 2 }),
    names: fc.integer({ min: 2, max: 12 }),
    foreignRevisions: fc.boolean(),
    opaqueVersions: fc.boolean(),
    leavingContent: fc.constantFrom("new" as const, "previous" as const),
    deleteAnswer: fc.constantFrom("last-write" as const, "deletion" as const),
    uncertainRate: fc.constantFrom(0, 0.03, 0.15),
    foreignObject: fc.boolean(),
    selectorWatchersOnly: fc.boolean(),
  })
  .map(({ seed, ...overrides }) => simulatedWorkload(seed, overrides));

describe("the history invariant catalog", () => {
  it("has unique ids, reuses the store's words where the rule is the store's, and cites doc 1", () => {
    const ids = historyInvariants.map((invariant) => invariant.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const invariant of historyInvariants) {
      expect(invariant.clauses.length).toBeGreaterThan(0);
      for (const clause of invariant.clauses) expect(clause).toMatch(/^doc 1 §\d/);
      const store = storeInvariants.find((candidate) => candidate.id === invariant.id);
      if (store !== undefined) expect(invariant).toBe(store);
      else expect(invariant.id).toMatch(/^history\//);
    }
    expect(ids).toEqual(expect.arrayContaining(["watch/no-gap", "watch/bookmark-order", "store/paging-consistent", "store/stale-write-rejected"]));
  });
});

describe(`valid generated histories (seed ${SEED})`, () => {
  it("hold every invariant, whatever the workload's shape", () => {
    fc.assert(
      fc.property(workloads, (workload) => {
        const { history } = simulateHistory(workload);
        const failed = checkHistory(history).filter((verdict) => !verdict.held);
        // The message names the workload: simulateHistory(<it>) rebuilds the history.
        expect(failed, JSON.stringify(workload)).toEqual([]);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it("answer one verdict per invariant, in catalog order, each with obligations checked", () => {
    const { history } = simulateHistory(simulatedWorkload(11, { durationMs: 700, foreignRevisions: true, foreignObject: true }));
    const verdicts = checkHistory(history);
    expect(verdicts.map((verdict) => verdict.id)).toEqual(historyInvariants.map((invariant) => invariant.id));
    for (const verdict of verdicts) {
      expect(verdict.held, verdict.witness?.explanation).toBe(true);
      expect(verdict.checked, verdict.id).toBeGreaterThan(0);
    }
  });

  it("are checked with no doubt when two watches see the whole namespace throughout", () => {
    const analysis = analyzeHistory(simulateHistory(simulatedWorkload(12, { durationMs: 600, foreignRevisions: true })).history);
    expect(analysis.order.uncertainCuts(0, analysis.order.length)).toBe(0);
    expect(analysis.states.anyDoubtful(0, analysis.order.length - 1)).toBe(false);
    expect(analysis.order.contradiction).toBeUndefined();
    // Every delivered change has a place, and the order is the server's commit order.
    const run = simulateHistory(simulatedWorkload(12, { durationMs: 600, foreignRevisions: true }));
    const versions = [...analysis.order.order].map((node) => analysis.catalog.nodes[node]!.version);
    expect(versions).toEqual(run.truth.namespace.changes.map((change) => change.version).slice(0, versions.length));
    expect(versions.length).toBeGreaterThan(run.truth.namespace.changes.length - 5);
  });

  it("are generated and judged deterministically", () => {
    const workload = simulatedWorkload(13, { foreignRevisions: true, opaqueVersions: true });
    const first = simulateHistory(workload).history;
    const again = simulateHistory(workload).history;
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(checkHistory(again)).toEqual(checkHistory(first));
    expect(JSON.stringify(simulateHistory(simulatedWorkload(14)).history)).not.toBe(JSON.stringify(first));
  });

  it("never compare versions as numbers: renaming every version by a bijection changes no verdict", () => {
    const { history } = simulateHistory(simulatedWorkload(15, { durationMs: 600, foreignRevisions: true }));
    // Reverse-order, non-numeric names for the same versions.
    const renamed = JSON.parse(JSON.stringify(history), (key, value: unknown) =>
      (key === "resourceVersion" || key === "bookmarkVersion" || key === "precondition") && typeof value === "string" && value !== "0"
        ? `zz${(1e9 - Number(value)).toString(36)}`
        : value,
    );
    const strip = (verdicts: ReturnType<typeof checkHistory>) => verdicts.map(({ id, held, checked }) => ({ id, held, checked }));
    expect(strip(checkHistory(renamed))).toEqual(strip(checkHistory(history)));
  });
});
