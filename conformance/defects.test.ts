/**
 * Proof of teeth (issue #5): for every defect the embedded server can plant that the suite must
 * catch (sim/apiserver/defects/defects.ts, `caughtBy: "suite"`), the suite run against a server with that one defect has at least
 * one failing case whose clauses name the broken rule: the same clause, or a parent or child of
 * it (a §4.7 table cell and its row), as reports/coverage.ts relates them. That everything passes
 * without defects is suite.test.ts's job.
 *
 * For speed each run is limited to the areas that have a case naming one of the defect's
 * clauses (a case elsewhere could not count anyway), and the runs go in parallel, each on its own
 * embedded server.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { defects, suiteDefects, type Defect } from "../sim/apiserver/defects/defects.ts";
import { clauseById } from "../spec/doc1/clauses.ts";
import type { ConformanceCase } from "./case-definition.ts";
import { allCases } from "./cases/index.ts";
import type { CaseResult } from "./results.ts";
import { runConformance } from "./run-conformance.ts";
import { namesBrokenRule } from "./selfcheck/selfcheck.ts";

const quiet = { isTTY: false, write: () => undefined };
const DIALECTS = ["orb", "kubernetes"] as const;
/** Long enough for a case that waits its 10 s for an event that never comes, and fails. */
const CASE_TIMEOUT_MS = 25_000;

/** The areas with a case naming one of the defect's clauses. */
function areasFor(defect: Defect): string[] {
  return [...new Set(allCases.filter((testCase: ConformanceCase) => namesBrokenRule(testCase.clauses, defect)).map((testCase) => testCase.area))];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("the defect catalog", () => {
  it("has at least 12 defects, kebab-case names, each once, with a description", () => {
    expect(defects.length).toBeGreaterThanOrEqual(12);
    const names = defects.map((defect) => defect.name);
    expect(new Set(names).size).toBe(names.length);
    for (const defect of defects) {
      expect(defect.name, defect.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(defect.description.length, defect.name).toBeGreaterThan(10);
    }
  });

  it("names testable clauses of doc 1, each one named by some case", () => {
    for (const defect of defects) {
      expect(defect.clauses.length, defect.name).toBeGreaterThan(0);
      for (const id of defect.clauses) expect(clauseById(id).testable, `${defect.name}: ${id}`).toBe(true);
      expect(areasFor(defect), `${defect.name}: no case names any of ${defect.clauses.join(", ")}`).not.toEqual([]);
    }
  });
});

// Only the defects the suite must catch: the concurrency defects (caughtBy "soak") need requests
// that overlap, which the suite's sequential cases never make, so a run with one of them passes;
// `orb-harness soak` finds those, and sim/apiserver/defects/concurrency-defects.test.ts shows the bugs.
describe("the suite against the embedded server with one planted defect", () => {
  const results = new Map<string, readonly CaseResult[]>();
  const key = (dialect: string, defect: Defect) => `${dialect}/${defect.name}`;

  // Every run at once, both dialects: each waits mostly on its own server's timers.
  beforeAll(async () => {
    const runs = DIALECTS.flatMap((dialect) =>
      suiteDefects.map(async (defect) => {
        const areas = areasFor(defect);
        const run = await runConformance({
          target: { kind: "embedded", dialect, defects: new Set([defect.name]) },
          cases: allCases,
          focus: new RegExp(`^(${areas.map(escape).join("|")})/`),
          readOnly: false,
          slow: false,
          parallel: 8,
          caseTimeoutMs: CASE_TIMEOUT_MS,
          keepNamespaces: false,
          command: `defects test: ${defect.name}`,
          progress: quiet,
        });
        results.set(key(dialect, defect), run.cases);
      }),
    );
    await Promise.all(runs);
  }, 120_000);

  for (const dialect of DIALECTS) {
    describe(`dialect ${dialect}`, () => {
      for (const defect of suiteDefects) {
        it(`catches ${defect.name}: a failing case names ${defect.clauses.join(" or ")}`, () => {
          const ran = results.get(key(dialect, defect)) ?? [];
          const failing = ran.filter((result) => result.status === "fail");
          const catching = failing.filter((result) => namesBrokenRule(result.clauses, defect));
          expect(
            catching.map((result) => result.id),
            `no failing case names the broken rule; ${ran.length} cases ran in ${areasFor(defect).join(", ")}, failing: ${failing.map((result) => `${result.id} [${result.clauses.join(" ")}]`).join("; ") || "none"}`,
          ).not.toEqual([]);
        });
      }
    });
  }
});
