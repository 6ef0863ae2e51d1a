/**
 * The suite against the embedded server, both dialects: every case must pass (or skip with a
 * reason that is about the target, never about the suite), and every case must name clauses that
 * exist in the catalog.
 */
import { describe, expect, it } from "vitest";
import { isClauseId } from "../spec/doc1/clauses.ts";
import { allCases } from "./cases/index.ts";
import { runConformance } from "./run-conformance.ts";

const quiet = { isTTY: false, write: () => undefined };

describe("the conformance cases", () => {
  it("have unique ids and name only clauses of the catalog", () => {
    const ids = allCases.map((testCase) => testCase.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const testCase of allCases) {
      expect(testCase.clauses.length, testCase.id).toBeGreaterThan(0);
      for (const clause of testCase.clauses) expect(isClauseId(clause), `${testCase.id} names ${clause}`).toBe(true);
    }
  });

  for (const dialect of ["orb", "kubernetes"] as const) {
    it(`all pass against the embedded server, dialect ${dialect}`, async () => {
      const results = await runConformance({
        target: { kind: "embedded", dialect },
        cases: allCases,
        readOnly: false,
        slow: false,
        parallel: 4,
        caseTimeoutMs: 30_000,
        keepNamespaces: false,
        command: "test",
        progress: quiet,
      });
      const problems = results.cases.filter((result) => result.status === "fail" || result.status === "error");
      expect(problems.map((result) => `${result.id}: ${result.message}`)).toEqual([]);
      // Against the embedded server only the second-identity cases may skip (no --restricted-* target).
      const skipped = results.cases.filter((result) => result.status === "skip" && !result.tags.includes("needs-second-identity"));
      expect(skipped.map((result) => `${result.id}: ${result.message}`)).toEqual([]);
    }, 120_000);
  }
});
