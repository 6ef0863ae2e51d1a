/**
 * Which cases cover which clause of doc 1: the spec coverage matrix of report.html, the clause
 * texts of summary.md, and the runner's `--list-uncovered`. A case covers the clauses it names and
 * every ancestor of them: a case naming a cell of a §4.7 table (`parent` = its row) covers the row
 * too. A row does not cover its cells: each cell is its own statement.
 */
import type { CaseStatus } from "../conformance/results.ts";
import { everyClause as clauses, type Clause } from "../spec/doc1/clauses.ts";

/** What coverage needs of a case: a result, or a case definition that has not run (no status). */
export interface CoverageCase {
  readonly id: string;
  readonly clauses: readonly string[];
  readonly status?: CaseStatus;
}

/** A case covering a clause, and the clause it names that brings it here (the clause or a descendant). */
export interface CoveringCase {
  readonly id: string;
  readonly status: CaseStatus | undefined;
  readonly via: string;
}

/**
 * The state of a clause: `fail` when a covering case failed or errored, else `pass` when one passed,
 * `skip` when all were skipped, `not-run` when the cases have no status (definitions); without
 * cases, `uncovered` for a testable clause and `untestable` for the others.
 */
export type CoverageVerdict = "fail" | "pass" | "skip" | "not-run" | "uncovered" | "untestable";

/** One clause of doc 1 with the cases that cover it. */
export interface ClauseCoverage {
  readonly clause: Clause;
  /** Covering cases in input order, each once. */
  readonly cases: readonly CoveringCase[];
  readonly covered: boolean;
  readonly verdict: CoverageVerdict;
}

/** Every clause of doc 1, in document order, with its covering cases. */
export function clauseCoverage(input: { readonly cases: readonly CoverageCase[] } | readonly CoverageCase[]): ClauseCoverage[] {
  const cases = isCaseList(input) ? input : input.cases;
  const parentOf = new Map(clauses.map((clause) => [clause.id as string, clause.parent as string | undefined]));
  const covering = new Map<string, CoveringCase[]>();
  for (const testCase of cases) {
    for (const named of testCase.clauses) {
      // The named clause and its ancestors; `seen` guards against a cycle in a malformed catalog.
      const seen = new Set<string>();
      for (let id: string | undefined = named; id !== undefined && !seen.has(id); id = parentOf.get(id)) {
        seen.add(id);
        const list = covering.get(id) ?? [];
        if (!list.some((entry) => entry.id === testCase.id)) list.push({ id: testCase.id, status: testCase.status, via: named });
        covering.set(id, list);
      }
    }
  }
  return clauses.map((clause) => {
    const list = covering.get(clause.id) ?? [];
    return { clause, cases: list, covered: list.length > 0, verdict: verdictOf(clause, list) };
  });
}

/** Testable clauses no case covers, in document order. */
export function uncoveredClauses(input: { readonly cases: readonly CoverageCase[] } | readonly CoverageCase[]): Clause[] {
  return clauseCoverage(input)
    .filter((entry) => entry.verdict === "uncovered")
    .map((entry) => entry.clause);
}

/** Clause ids that cases name but the catalog does not have (a typo, or a newer catalog), sorted, each once. */
export function unknownClauseIds(input: { readonly cases: readonly CoverageCase[] } | readonly CoverageCase[]): string[] {
  const cases = isCaseList(input) ? input : input.cases;
  const known = new Set<string>(clauses.map((clause) => clause.id));
  return [...new Set(cases.flatMap((testCase) => testCase.clauses.filter((id) => !known.has(id))))].sort();
}

function isCaseList(input: { readonly cases: readonly CoverageCase[] } | readonly CoverageCase[]): input is readonly CoverageCase[] {
  return Array.isArray(input);
}

function verdictOf(clause: Clause, cases: readonly CoveringCase[]): CoverageVerdict {
  if (cases.length === 0) return clause.testable ? "uncovered" : "untestable";
  const statuses = new Set(cases.map((entry) => entry.status));
  if (statuses.has("fail") || statuses.has("error")) return "fail";
  if (statuses.has("pass")) return "pass";
  if (statuses.has("skip")) return "skip";
  return "not-run";
}
