import { describe, expect, it } from "vitest";
import { everyClause } from "../spec/doc1/clauses.ts";
import { clauseCoverage, uncoveredClauses, unknownClauseIds } from "./coverage.ts";
import { caseResult, runResults } from "./test-support/fixtures.ts";

const ROW = "doc1/4.7/list/match-unset/limit-unset";
const CELL = `${ROW}/rv-0`;
const OTHER_CELL = `${ROW}/rv-unset`;

function entry(coverage: ReturnType<typeof clauseCoverage>, id: string) {
  const found = coverage.find((item) => item.clause.id === id);
  if (found === undefined) throw new Error(`no clause ${id}`);
  return found;
}

describe("clauseCoverage", () => {
  it("lists every clause once, doc 1 in document order, then those of Kubernetes beyond it", () => {
    expect(clauseCoverage([]).map((item) => item.clause.id)).toEqual(everyClause.map((clause) => clause.id));
  });

  it("counts a case naming a §4.7 cell as covering the cell's row, not the row's other cells", () => {
    const coverage = clauseCoverage(runResults([caseResult({ id: "paging/rv0", clauses: [CELL] })]));
    expect(entry(coverage, CELL)).toMatchObject({ covered: true, verdict: "pass", cases: [{ id: "paging/rv0", status: "pass", via: CELL }] });
    expect(entry(coverage, ROW)).toMatchObject({ covered: true, verdict: "pass", cases: [{ id: "paging/rv0", via: CELL }] });
    expect(entry(coverage, OTHER_CELL)).toMatchObject({ covered: false, verdict: "uncovered", cases: [] });
  });

  it("lists a case once per clause even when it names the row and several of its cells", () => {
    const coverage = clauseCoverage([{ id: "a/b", clauses: [ROW, CELL, OTHER_CELL], status: "pass" }]);
    expect(entry(coverage, ROW).cases).toEqual([{ id: "a/b", status: "pass", via: ROW }]);
  });

  it("gives fail when any covering case failed or errored, skip when all skipped, not-run for definitions", () => {
    const coverage = clauseCoverage(
      runResults([
        caseResult({ id: "a/pass", clauses: [CELL] }),
        caseResult({ id: "a/error", clauses: [OTHER_CELL], status: "error" }),
        caseResult({ id: "a/skip", clauses: ["doc1/4.7/get/rv-0"], status: "skip" }),
      ]),
    );
    expect(entry(coverage, ROW).verdict).toBe("fail"); // a pass via one cell, an error via another
    expect(entry(coverage, CELL).verdict).toBe("pass");
    expect(entry(coverage, "doc1/4.7/get/rv-0").verdict).toBe("skip");
    expect(entry(clauseCoverage([{ id: "def", clauses: [CELL] }]), CELL).verdict).toBe("not-run");
  });

  it("tells untestable clauses without cases from uncovered testable ones", () => {
    const coverage = clauseCoverage([]);
    expect(entry(coverage, "doc1/4.7/opaque").verdict).toBe("untestable");
    expect(entry(coverage, "doc1/4.7/get/rv-0").verdict).toBe("uncovered");
  });
});

describe("uncoveredClauses and unknownClauseIds", () => {
  it("lists testable clauses without a case, and clause ids the catalog lacks", () => {
    const cases = [{ id: "x", clauses: [CELL, "doc1/99/made-up", "doc1/99/made-up"] }];
    const uncovered = uncoveredClauses(cases).map((clause) => clause.id);
    expect(uncovered).not.toContain(CELL);
    expect(uncovered).not.toContain(ROW);
    expect(uncovered).toContain(OTHER_CELL);
    expect(uncovered.length).toBe(everyClause.filter((clause) => clause.testable).length - 2);
    expect(unknownClauseIds(cases)).toEqual(["doc1/99/made-up"]);
  });
});
