import { describe, expect, it } from "vitest";
import { clauseById, clauses, isClauseId } from "./clauses.ts";

// The numbered sections of doc 1, as its headings give them.
const DOC1_SECTIONS = [
  "1", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "3",
  "4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "4.7", "5", "6", "7", "8", "9",
];

describe("doc 1 clause catalog", () => {
  it("has unique ids", () => {
    const seen = new Set<string>();
    const duplicates = clauses.map((c) => c.id).filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
    expect(duplicates).toEqual([]);
  });

  it("has well-formed ids", () => {
    const malformed = clauses.map((c) => c.id).filter((id) => !/^doc1\/[0-9.]+\/[a-z0-9/-]+$/.test(id) || id.endsWith("/"));
    expect(malformed).toEqual([]);
  });

  it("covers every section of doc 1 and no other", () => {
    const sections = new Set(clauses.map((c) => c.section));
    expect([...sections].sort()).toEqual([...DOC1_SECTIONS].sort());
  });

  it("lists clauses in document order", () => {
    const order = clauses.map((c) => DOC1_SECTIONS.indexOf(c.section));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("explains every untestable clause, and only those", () => {
    const bad = clauses.filter((c) => c.testable === (c.why !== undefined) || c.why === "");
    expect(bad.map((c) => c.id)).toEqual([]);
  });

  it("records Kubernetes' answer for every gap, and only for gaps", () => {
    const bad = clauses.filter((c) => (c.origin === "gap") !== (c.kubernetes !== undefined && c.kubernetes !== ""));
    expect(bad.map((c) => c.id)).toEqual([]);
  });

  it("gives every clause a sentence of text", () => {
    const bad = clauses.filter((c) => c.text.length < 10 || !/[.)]$/.test(c.text));
    expect(bad.map((c) => c.id)).toEqual([]);
  });

  it("links table cells to an existing row that prefixes their id", () => {
    const cells = clauses.filter((c) => c.parent !== undefined);
    expect(cells.length).toBe(27);
    for (const cell of cells) {
      const parent = clauseById(cell.parent ?? "");
      expect(cell.id.startsWith(`${parent.id}/`), cell.id).toBe(true);
    }
  });

  it("holds the ids the team was given as examples", () => {
    for (const id of [
      "doc1/4.7/list/exact/limit-unset",
      "doc1/2.3/remaining-item-count/omitted-with-selector",
      "doc1/2.6/protobuf/prefix",
      "doc1/4.5/verbose/last-line",
      "doc1/3/finalizers/last-removed",
      "doc1/7/400/limit-continue-rv",
      "doc1/8/continue-token-lifetime",
    ]) {
      expect(isClauseId(id), id).toBe(true);
    }
  });

  it("is thorough: at least 80 clauses, most of them testable", () => {
    const testable = clauses.filter((c) => c.testable).length;
    expect(clauses.length).toBeGreaterThanOrEqual(80);
    expect(testable).toBeGreaterThan(clauses.length / 2);
  });

  it("marks client obligations untestable", () => {
    expect(clauseById("doc1/4.7/opaque").testable).toBe(false);
    expect(clauseById("doc1/2.6/protobuf/client-rejects-prefix").testable).toBe(false);
    expect(clauseById("doc1/7/400/limit-continue-rv").testable).toBe(true);
  });

  it("looks clauses up by id and refuses unknown ids", () => {
    expect(clauseById("doc1/8/retained-history").section).toBe("8");
    expect(clauseById("doc1/4.7/get/rv-0").doc).toBe(1);
    expect(() => clauseById("doc1/4.7/nope")).toThrow(/unknown clause id "doc1\/4.7\/nope"/);
    expect(isClauseId("doc1/4.7/nope")).toBe(false);
  });
});
