/**
 * Proof that the store properties have teeth: for each property, the store variant with the bug
 * that property guards against must make it fail, and the failure must name that invariant.
 */
import { describe, expect, it } from "vitest";
import { plantedStoreBugs } from "./planted-store-bugs.ts";
import { formatOutcome, runStoreFuzz } from "./run-store-fuzz.ts";

describe("each store property catches the bug it guards against", () => {
  for (const { bug, property, store: Variant } of plantedStoreBugs) {
    it(`${property} fails when ${bug}`, async () => {
      const result = await runStoreFuzz({ seed: 2026, runs: 200, property, makeStore: (options) => new Variant(options) });
      const [outcome] = result.outcomes;
      expect(outcome?.passed, "the planted bug went unnoticed").toBe(false);
      expect(outcome?.error, formatOutcome(result.seed, outcome!).join("\n")).toMatch(new RegExp(`^${property}: `));
      expect(outcome?.replayPath).toBeTruthy();
    });
  }

  it("replays a failure exactly from its seed and path", async () => {
    const { property, store: Variant } = plantedStoreBugs.find((planted) => planted.property === "store/paging-consistent")!;
    const makeStore = (options: ConstructorParameters<typeof Variant>[0]) => new Variant(options);
    const found = (await runStoreFuzz({ seed: 99, runs: 200, property, makeStore })).outcomes[0]!;
    const replayed = (await runStoreFuzz({ seed: 99, runs: 200, property, makeStore, replayPath: found.replayPath! })).outcomes[0]!;
    expect(found.passed).toBe(false);
    expect(replayed.runs).toBe(1);
    expect(replayed.counterexample).toBe(found.counterexample);
    expect(replayed.error).toBe(found.error);
  });
});
