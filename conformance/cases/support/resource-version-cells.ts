/**
 * The resourceVersion cases generated from the tables of doc 1 §4.7
 * (spec/doc1/resource-version-tables.ts): their names, their clauses and the page size they use.
 */
import { clauseById, type ClauseId } from "../../../spec/doc1/clauses.ts";

/** Page size of the paged cells. */
export const LIMIT = 2;

/** The case name of a cell: its clause id after `doc1/4.7/`, e.g. `list/exact/limit-unset/rv-0`. */
export function caseName(clause: ClauseId): string {
  return clause.replace(/^doc1\/4\.7\//, "");
}

/** The clauses a case checks: testable ones only, each once. */
export function testable(ids: readonly ClauseId[]): ClauseId[] {
  return [...new Set(ids)].filter((id) => clauseById(id).testable);
}
