/**
 * Canaries: every planted violation is caught by the invariant it breaks, and the witness names
 * the operations the planter broke. Each planter runs on several generated histories (with foreign
 * and opaque versions, both conventions for objects leaving a selector) and must find a spot in
 * most of them, so that no canary passes by never being planted.
 */
import { describe, expect, it } from "vitest";
import { Rng } from "../kernel/rng.ts";
import { checkHistory } from "./check-history.ts";
import { planters } from "./planted-violations.ts";
import { simulateHistory, simulatedWorkload, type SimulatedRun } from "./simulated-history.ts";

const SEEDS = [1, 2, 3, 4, 5, 6];

/** Valid runs, varied the way real servers vary. */
const runs: SimulatedRun[] = SEEDS.map((seed) =>
  simulateHistory(
    simulatedWorkload(seed, {
      durationMs: 500,
      foreignRevisions: seed % 2 === 0,
      opaqueVersions: seed % 3 === 0,
      leavingContent: seed % 2 === 0 ? "previous" : "new",
      deleteAnswer: seed % 3 === 1 ? "deletion" : "last-write",
    }),
  ),
);

describe("planted violations", () => {
  it("are planted into valid histories", () => {
    for (const run of runs) expect(checkHistory(run.history).filter((verdict) => !verdict.held)).toEqual([]);
  });

  for (const [name, planter] of Object.entries(planters)) {
    it(`${name}: caught by its invariant, the witness naming what was planted`, () => {
      let planted = 0;
      runs.forEach((run, i) => {
        const violation = planter(run, new Rng(`planted/${name}/${SEEDS[i]}`));
        if (violation === undefined) return;
        planted++;
        const verdict = checkHistory(violation.history).find((candidate) => candidate.id === violation.invariant)!;
        const context = `seed ${SEEDS[i]}: ${violation.description}`;
        expect(verdict.held, context).toBe(false);
        expect(verdict.witness!.operations, `${context}: ${verdict.witness!.explanation}`).toEqual(expect.arrayContaining([...violation.operations]));
        // Minimal: a handful of operations, and one sentence.
        expect(verdict.witness!.operations.length, context).toBeLessThanOrEqual(6);
        expect(verdict.witness!.explanation, context).not.toMatch(/\n/);
      });
      expect(planted).toBeGreaterThanOrEqual(SEEDS.length - 1);
    });
  }
});
