/**
 * The store's seven properties, 200 runs each against the real store. The seed is fixed so the
 * suite is deterministic; set ORB_FUZZ_SEED to explore others. A failure prints the seed, the
 * shrunk counterexample and the one-line replay command.
 */
import { describe, expect, it } from "vitest";
import { formatOutcome, runStoreFuzz, storePropertyIds } from "./run-store-fuzz.ts";

const SEED = Number(process.env["ORB_FUZZ_SEED"] ?? 20261121);
const RUNS = 200;

describe(`store properties (seed ${SEED}, ${RUNS} runs each)`, () => {
  for (const property of storePropertyIds) {
    it(`${property} holds`, async () => {
      const result = await runStoreFuzz({ seed: SEED, runs: RUNS, property });
      const [outcome] = result.outcomes;
      expect(outcome?.runs).toBe(RUNS);
      expect(outcome?.passed, formatOutcome(SEED, outcome!).join("\n")).toBe(true);
    });
  }
});

describe("fuzz sessions are deterministic", () => {
  it("gives the same trace hash for the same seed and runs, and another for another seed", async () => {
    const first = await runStoreFuzz({ seed: 42, runs: 20 });
    const again = await runStoreFuzz({ seed: 42, runs: 20 });
    const other = await runStoreFuzz({ seed: 43, runs: 20 });
    expect(first.traceHash).toMatch(/^[0-9a-f]{64}$/);
    expect(again.traceHash).toBe(first.traceHash);
    expect(other.traceHash).not.toBe(first.traceHash);
  });

});
