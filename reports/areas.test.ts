import { describe, expect, it } from "vitest";
import { areaSummaries } from "./areas.ts";
import { caseResult, runResults } from "./test-support/fixtures.ts";

describe("areaSummaries", () => {
  it("groups cases by area, areas sorted by name, cases in run order, with counts and summed time", () => {
    const summaries = areaSummaries(
      runResults([
        caseResult({ id: "b/1", durationMs: 5 }),
        caseResult({ id: "a/2", status: "fail", durationMs: 7 }),
        caseResult({ id: "b/0", status: "skip", durationMs: 1 }),
      ]),
    );
    expect(summaries.map(({ area, cases, counts, durationMs }) => [area, cases.map((c) => c.id), counts, durationMs])).toEqual([
      ["a", ["a/2"], { total: 1, pass: 0, fail: 1, skip: 0, error: 0 }, 7],
      ["b", ["b/1", "b/0"], { total: 2, pass: 1, fail: 0, skip: 1, error: 0 }, 6],
    ]);
  });
});
