/**
 * Proof of teeth for dialect answers (issue #5: "where the dialect records a documented
 * deviation, assert the dialect's answer"): an embedded server that names itself in one dialect
 * but answers every deviation the other dialect's way must fail the cases of the deviations that
 * are strict for its dialect (conformance/cases/support/dialect-answers.ts), each failure naming the clause
 * of the deviation, and nothing else may fail.
 *
 * The embedded server takes its answers from the dialect object it is given (sim/apiserver reads
 * `dialect.answers` and `dialect.health.verboseLastLine`); the suite looks the recorded answers up
 * by the dialect's name. So a dialect object with one name and the other's answers is a server
 * that speaks one dialect and answers like the other. That both true dialects pass everything is
 * suite.test.ts's job.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialectByName, deviations, type Dialect } from "../spec/dialects.ts";
import { allCases } from "./cases/index.ts";
import type { CaseResult } from "./results.ts";
import { ConformanceRun, selectCases } from "./runner.ts";
import { startEmbeddedTarget } from "./targets/embedded-target.ts";

const orb = dialectByName("orb");
const kubernetes = dialectByName("kubernetes");

/** `names`' names, `answers`' answers to every deviation. */
function swapped(names: Dialect, answers: Dialect): Dialect {
  return { ...names, answers: answers.answers, health: { ...names.health, verboseLastLine: answers.health.verboseLastLine } };
}

/** The clause of a recorded deviation. */
function clauseOf(id: string): string {
  const found = deviations.find((deviation) => deviation.id === id);
  if (found === undefined) throw new Error(`no deviation ${id}`);
  return found.clause;
}

/** The areas holding the cases of the switched deviations (resource-version's rv0 case has no switch to pull). */
const FOCUS = /^(dry-run|crud|deletion|watch|health|paging)\//;

async function runAgainst(dialect: Dialect): Promise<CaseResult[]> {
  const target = await startEmbeddedTarget(dialect);
  try {
    const options = { focus: FOCUS, readOnly: false, slow: false, parallel: 2, caseTimeoutMs: 25_000, keepNamespaces: false };
    return await new ConformanceRun(target, options).run(selectCases(allCases, options));
  } finally {
    await target.close();
  }
}

const failing = (results: readonly CaseResult[]) => results.filter((result) => result.status === "fail" || result.status === "error");
const show = (results: readonly CaseResult[]) => results.map((result) => `${result.id} [${result.clauses.join(" ")}]: ${result.message}`).join("\n");

/**
 * Failing cases whose message names none of `ids`: a failure for another reason. (Cases beyond
 * the deviation's own meet it too, e.g. every DELETE and every verbose health read, and rightly fail.)
 */
const unexplained = (results: readonly CaseResult[], ids: readonly string[]) =>
  failing(results).filter((result) => !ids.some((id) => result.message?.includes(`deviation ${id}`)));

const runs = new Map<string, CaseResult[]>();

beforeAll(async () => {
  // One after the other: each run is light, and the machine is shared.
  runs.set("orb", await runAgainst(swapped(orb, kubernetes)));
  runs.set("kubernetes", await runAgainst(swapped(kubernetes, orb)));
}, 180_000);

afterAll(() => runs.clear());

describe("a server named orb that answers every deviation as Kubernetes does", () => {
  // Every deviation is strict for orb: doc 1's answer or nothing.
  const caught = ["bare-dry-run", "put-missing", "delete-response", "delete-query-dry-run-with-body", "watch-expired", "bookmark-object", "health-last-line"];

  for (const id of caught) {
    it(`fails a case naming ${clauseOf(id)} (deviation ${id})`, () => {
      const results = runs.get("orb")!;
      const named = failing(results).filter((result) => result.clauses.includes(clauseOf(id)));
      expect(named.map((result) => result.id), `${results.length} cases ran; failing:\n${show(failing(results))}`).not.toEqual([]);
      expect(named.some((result) => result.message?.includes(`deviation ${id}`)), show(named)).toBe(true);
    });
  }

  it("fails for those deviations only (continue-when-complete reads two ways: the paging cases pass)", () => {
    const results = runs.get("orb")!;
    expect(show(unexplained(results, caught))).toBe("");
    expect(failing(results.filter((result) => result.area === "paging"))).toEqual([]);
  });
});

describe("a server named kubernetes that answers every deviation as doc 1 does", () => {
  // Strict for kubernetes too: real Kubernetes gives one answer to these.
  const caught = ["bare-dry-run", "put-missing", "delete-response", "delete-query-dry-run-with-body", "health-last-line"];

  for (const id of caught) {
    it(`fails a case naming ${clauseOf(id)} (deviation ${id})`, () => {
      const results = runs.get("kubernetes")!;
      const named = failing(results).filter((result) => result.clauses.includes(clauseOf(id)));
      expect(named.map((result) => result.id), `${results.length} cases ran; failing:\n${show(failing(results))}`).not.toEqual([]);
    });
  }

  it("passes the watch cases: an HTTP 410 for an old watch and a bare BOOKMARK are legitimate from Kubernetes", () => {
    const results = runs.get("kubernetes")!;
    const watch = results.filter((result) => result.area === "watch");
    expect(watch.length).toBeGreaterThan(0);
    expect(show(failing(watch))).toBe("");
    expect(show(unexplained(results, caught))).toBe("");
  });
});
