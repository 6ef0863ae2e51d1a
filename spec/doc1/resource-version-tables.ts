/**
 * The three resourceVersion decision tables of doc 1 §4.7 (get, list, watch), cell by cell, with
 * the meaning of each semantic and one lookup per table. Where doc 1 says "Invalid" without a
 * status, or has no row, the cell records what Kubernetes 1.26 answers and says `documented: false`.
 */
import type { ClauseId } from "./clauses.ts";

/** The resourceVersion column of every §4.7 table: unset, "0", or any other (opaque) value. */
export type ResourceVersionColumn = "unset" | "0" | "other";

/** Semantics of a get or list read (doc 1 §4.7, "Meaning"). */
export type ReadSemantic = "MostRecent" | "Any" | "NotOlderThan" | "Exact" | "ContinueTokenExact";

/** Semantics of a watch start (doc 1 §4.7, watch table). */
export type WatchSemantic = "GetStateAndStartAtMostRecent" | "GetStateAndStartAtAny" | "StartAtExact";

/** A semantic's name as doc 1 writes it, its rule, and the clauses that state the rule. */
export interface SemanticMeaning {
  readonly documentName: string;
  readonly rule: string;
  readonly clauses: readonly ClauseId[];
}

/** What each read semantic means (doc 1 §4.7, "Meaning" table and the bullets under it). */
export const readSemantics = {
  Any: {
    documentName: "Any",
    rule: "Data at any version. Newest is preferred. It may be older than what the client saw before.",
    clauses: ["doc1/4.7/semantic/any"],
  },
  MostRecent: {
    documentName: "Most Recent",
    rule: "Latest version, consistent (quorum read from the persistence layer).",
    clauses: ["doc1/4.7/semantic/most-recent"],
  },
  NotOlderThan: {
    documentName: "Not older than",
    rule: "At least as new as the given version. For list, the collection version is not older than requested. No guarantee is made for item versions.",
    clauses: ["doc1/4.7/semantic/not-older-than", "doc1/4.7/semantic/not-older-than/list"],
  },
  Exact: {
    documentName: "Exact",
    rule: "The given version. If unavailable, status 410. For list, the collection version equals the requested one. Item versions are not guaranteed.",
    clauses: ["doc1/4.7/semantic/exact", "doc1/4.7/semantic/exact/list"],
  },
  ContinueTokenExact: {
    documentName: "Continue Token, Exact",
    rule: "The version of the initial paginated call, carried inside the continue tokens.",
    clauses: ["doc1/4.7/semantic/continue-token-exact"],
  },
} as const satisfies Record<ReadSemantic, SemanticMeaning>;

/** What each watch start means (doc 1 §4.7, the bullets under the watch table). */
export const watchSemantics = {
  GetStateAndStartAtMostRecent: {
    documentName: "Get State and Start at Most Recent",
    rule: "Synthetic ADDED events for all existing instances at the starting version, then all later changes; requires a consistent (quorum) read.",
    clauses: ["doc1/4.7/watch/get-state/synthetic-added", "doc1/4.7/watch/start-at-most-recent/consistent"],
  },
  GetStateAndStartAtAny: {
    documentName: "Get State and Start at Any",
    rule: "Synthetic ADDED events for all existing instances at the starting version, then all later changes; may serve arbitrarily stale data or start at an older version than one seen before.",
    clauses: ["doc1/4.7/watch/get-state/synthetic-added", "doc1/4.7/watch/start-at-any/stale"],
  },
  StartAtExact: {
    documentName: "Start at Exact",
    rule: "The changes after the given version, with no synthetic ADDED events, because the client is assumed to hold the state.",
    clauses: ["doc1/4.7/watch/start-at-exact/changes-after", "doc1/4.7/watch/start-at-exact/no-synthetic"],
  },
} as const satisfies Record<WatchSemantic, SemanticMeaning>;

/** A field-level cause of a 422 Invalid answer (Kubernetes puts these in Status.details.causes). */
export interface FieldCause {
  readonly field: string;
  readonly type: "FieldValueForbidden" | "FieldValueNotSupported" | "FieldValueInvalid";
  readonly message: string;
}

/** A cell's answer: a semantic to serve, or a refusal with its status. */
export type CellAnswer<S extends string> =
  | { readonly kind: "semantic"; readonly semantic: S }
  | {
      readonly kind: "invalid";
      readonly status: 400 | 422;
      readonly reason: "BadRequest" | "Invalid";
      readonly message: string;
      readonly causes: readonly FieldCause[];
    };

/** One cell of a §4.7 table. */
export interface TableCell<S extends string> {
  readonly resourceVersion: ResourceVersionColumn;
  /** The cell as doc 1 writes it; undefined where doc 1 has no such row. */
  readonly documentText: string | undefined;
  /** True when doc 1 itself gives this answer (semantic, or status); false when Kubernetes fills it in. */
  readonly documented: boolean;
  readonly answer: CellAnswer<S>;
  readonly clause: ClauseId;
  /** Other clauses the answer also rests on (the §7 error row, the gap clause for the status). */
  readonly related: readonly ClauseId[];
  /** The reference transcript showing Kubernetes' answer for this cell, where there is one. */
  readonly transcript?: string;
}

/** The resourceVersionMatch row key of the list table. */
export type ListMatch = "unset" | "Exact" | "NotOlderThan";

/** The paging row key of the list table; `limit-continue` is any request carrying a continue token. */
export type ListPaging = "limit-unset" | "limit-no-continue" | "limit-continue";

/** One cell of the list table, with its row. */
export interface ListCell extends TableCell<ReadSemantic> {
  readonly match: ListMatch;
  readonly paging: ListPaging;
  readonly row: ClauseId;
}

const serve = <S extends string>(semantic: S): CellAnswer<S> => ({ kind: "semantic", semantic });

const MATCH_FIELD = "resourceVersionMatch";
const needsResourceVersion: FieldCause = {
  field: MATCH_FIELD,
  type: "FieldValueForbidden",
  message: "resourceVersionMatch needs resourceVersion",
};
const exactAtZero: FieldCause = {
  field: MATCH_FIELD,
  type: "FieldValueForbidden",
  message: "resourceVersionMatch Exact cannot be used with resourceVersion 0",
};
const withContinue: FieldCause = {
  field: MATCH_FIELD,
  type: "FieldValueForbidden",
  message: "resourceVersionMatch cannot be used with continue",
};

// Doc 1 §7: "the status for combinations marked Invalid other than the 400 case [is] not shown";
// not shown in doc 1; Kubernetes answers 422 Invalid listing every broken rule as a cause.
function invalid422(...causes: FieldCause[]): CellAnswer<ReadSemantic> {
  return { kind: "invalid", status: 422, reason: "Invalid", message: causes.map((c) => c.message).join("; "), causes };
}

// Doc 1 §4.7 "Invalid, HTTP 400" and §7 400 row: limit, continue and a resourceVersion other than 0.
const continueWithVersion: CellAnswer<ReadSemantic> = {
  kind: "invalid",
  status: 400,
  reason: "BadRequest",
  message: "a resourceVersion other than 0 cannot be combined with continue",
  causes: [],
};

type CellSpec = readonly [
  column: ResourceVersionColumn,
  documentText: string | undefined,
  answer: CellAnswer<ReadSemantic>,
  clause: ClauseId,
  transcript?: string,
];

function listRow(match: ListMatch, paging: ListPaging, row: ClauseId, cells: readonly CellSpec[]): ListCell[] {
  return cells.map(([resourceVersion, documentText, answer, clause, transcript]): ListCell => {
    // A cell is documented when doc 1 gives the full answer: a semantic, or "Invalid, HTTP 400".
    const documented = documentText !== undefined && (answer.kind === "semantic" || answer.status === 400);
    const related: ClauseId[] = [];
    if (answer.kind === "invalid" && answer.status === 400) related.push("doc1/7/400/limit-continue-rv");
    if (answer.kind === "invalid" && answer.status === 422) related.push("doc1/7/not-shown/invalid-status");
    if (answer.kind === "invalid" && answer.causes.includes(needsResourceVersion)) {
      related.push("doc1/4.2/resource-version-match/requires-resource-version");
    }
    const cell = { match, paging, row, resourceVersion, documentText, documented, answer, clause, related };
    return transcript === undefined ? cell : { ...cell, transcript };
  });
}

/** Every cell of the list table: doc 1's 21 cells, then the 6 of the rows doc 1 lacks. */
export const listTableCells: readonly ListCell[] = [
  ...listRow("unset", "limit-unset", "doc1/4.7/list/match-unset/limit-unset", [
    ["unset", "Most Recent", serve("MostRecent"), "doc1/4.7/list/match-unset/limit-unset/rv-unset", "list-unpaged"],
    ["0", "Any", serve("Any"), "doc1/4.7/list/match-unset/limit-unset/rv-0"],
    ["other", "Not older than", serve("NotOlderThan"), "doc1/4.7/list/match-unset/limit-unset/rv-other"],
  ]),
  ...listRow("unset", "limit-no-continue", "doc1/4.7/list/match-unset/limit-no-continue", [
    ["unset", "Most Recent", serve("MostRecent"), "doc1/4.7/list/match-unset/limit-no-continue/rv-unset", "list-page-1"],
    ["0", "Any", serve("Any"), "doc1/4.7/list/match-unset/limit-no-continue/rv-0", "list-rv0-limit"],
    ["other", "Exact", serve("Exact"), "doc1/4.7/list/match-unset/limit-no-continue/rv-other"],
  ]),
  ...listRow("unset", "limit-continue", "doc1/4.7/list/match-unset/limit-continue", [
    ["unset", "Continue Token, Exact", serve("ContinueTokenExact"), "doc1/4.7/list/match-unset/limit-continue/rv-unset", "list-page-2"],
    ["0", "Invalid, treated as Continue Token, Exact", serve("ContinueTokenExact"), "doc1/4.7/list/match-unset/limit-continue/rv-0", "list-continue-with-rv0"],
    ["other", "Invalid, HTTP 400", continueWithVersion, "doc1/4.7/list/match-unset/limit-continue/rv-other", "list-continue-with-rv"],
  ]),
  ...listRow("Exact", "limit-unset", "doc1/4.7/list/exact/limit-unset", [
    ["unset", "Invalid", invalid422(needsResourceVersion), "doc1/4.7/list/exact/limit-unset/rv-unset", "list-rvmatch-no-rv"],
    ["0", "Invalid", invalid422(exactAtZero), "doc1/4.7/list/exact/limit-unset/rv-0", "list-rvmatch-exact-rv0"],
    ["other", "Exact", serve("Exact"), "doc1/4.7/list/exact/limit-unset/rv-other", "list-exact-current"],
  ]),
  ...listRow("Exact", "limit-no-continue", "doc1/4.7/list/exact/limit-no-continue", [
    ["unset", "Invalid", invalid422(needsResourceVersion), "doc1/4.7/list/exact/limit-no-continue/rv-unset"],
    ["0", "Invalid", invalid422(exactAtZero), "doc1/4.7/list/exact/limit-no-continue/rv-0"],
    ["other", "Exact", serve("Exact"), "doc1/4.7/list/exact/limit-no-continue/rv-other", "list-exact-current-limit"],
  ]),
  ...listRow("NotOlderThan", "limit-unset", "doc1/4.7/list/not-older-than/limit-unset", [
    ["unset", "Invalid", invalid422(needsResourceVersion), "doc1/4.7/list/not-older-than/limit-unset/rv-unset"],
    ["0", "Any", serve("Any"), "doc1/4.7/list/not-older-than/limit-unset/rv-0"],
    ["other", "Not older than", serve("NotOlderThan"), "doc1/4.7/list/not-older-than/limit-unset/rv-other", "list-notolderthan"],
  ]),
  ...listRow("NotOlderThan", "limit-no-continue", "doc1/4.7/list/not-older-than/limit-no-continue", [
    ["unset", "Invalid", invalid422(needsResourceVersion), "doc1/4.7/list/not-older-than/limit-no-continue/rv-unset"],
    ["0", "Any", serve("Any"), "doc1/4.7/list/not-older-than/limit-no-continue/rv-0"],
    ["other", "Not older than", serve("NotOlderThan"), "doc1/4.7/list/not-older-than/limit-no-continue/rv-other"],
  ]),
  // No rows in doc 1: not shown in doc 1; Kubernetes answers 422 Invalid (resourceVersionMatch
  // is refused together with continue, and without resourceVersion; exact at 0 as above).
  ...listRow("Exact", "limit-continue", "doc1/4.7/list/exact/limit-continue", [
    ["unset", undefined, invalid422(needsResourceVersion, withContinue), "doc1/4.7/list/exact/limit-continue/rv-unset"],
    ["0", undefined, invalid422(withContinue, exactAtZero), "doc1/4.7/list/exact/limit-continue/rv-0"],
    ["other", undefined, invalid422(withContinue), "doc1/4.7/list/exact/limit-continue/rv-other"],
  ]),
  ...listRow("NotOlderThan", "limit-continue", "doc1/4.7/list/not-older-than/limit-continue", [
    ["unset", undefined, invalid422(needsResourceVersion, withContinue), "doc1/4.7/list/not-older-than/limit-continue/rv-unset", "list-rvmatch-with-continue"],
    ["0", undefined, invalid422(withContinue), "doc1/4.7/list/not-older-than/limit-continue/rv-0"],
    ["other", undefined, invalid422(withContinue), "doc1/4.7/list/not-older-than/limit-continue/rv-other"],
  ]),
];

function singleRowCells<S extends string>(
  cells: readonly [ResourceVersionColumn, string, S, ClauseId][],
): TableCell<S>[] {
  return cells.map(([resourceVersion, documentText, semantic, clause]) => ({
    resourceVersion,
    documentText,
    documented: true,
    answer: serve(semantic),
    clause,
    related: [],
  }));
}

/** Every cell of the get table (doc 1 §4.7). */
export const getTableCells: readonly TableCell<ReadSemantic>[] = singleRowCells<ReadSemantic>([
  ["unset", "Most Recent", "MostRecent", "doc1/4.7/get/rv-unset"],
  ["0", "Any", "Any", "doc1/4.7/get/rv-0"],
  ["other", "Not older than", "NotOlderThan", "doc1/4.7/get/rv-other"],
]);

/** Every cell of the watch table (doc 1 §4.7). */
export const watchTableCells: readonly TableCell<WatchSemantic>[] = singleRowCells<WatchSemantic>([
  ["unset", "Get State and Start at Most Recent", "GetStateAndStartAtMostRecent", "doc1/4.7/watch/rv-unset"],
  ["0", "Get State and Start at Any", "GetStateAndStartAtAny", "doc1/4.7/watch/rv-0"],
  ["other", "Start at Exact", "StartAtExact", "doc1/4.7/watch/rv-other"],
]);

/** The answer to one request: the semantic to serve, or the refusal; with the clauses it rests on. */
export type TableLookup<S extends string> =
  | {
      readonly kind: "semantic";
      readonly semantic: S;
      readonly clause: ClauseId;
      /** False when doc 1 does not give this answer and Kubernetes' answer is used. */
      readonly documented: boolean;
      /** Further clauses the answer rests on (normalisations of the parameters, related rows). */
      readonly alsoCites: readonly ClauseId[];
    }
  | {
      readonly kind: "invalid";
      readonly status: 400 | 422;
      readonly reason: "BadRequest" | "Invalid";
      readonly message: string;
      readonly causes: readonly FieldCause[];
      readonly clause: ClauseId;
      readonly documented: boolean;
      readonly alsoCites: readonly ClauseId[];
    };

/** Which column a resourceVersion falls in; an empty string is unset, as Kubernetes treats it. */
export function resourceVersionColumn(resourceVersion: string | undefined): ResourceVersionColumn {
  if (resourceVersion === undefined || resourceVersion === "") return "unset";
  return resourceVersion === "0" ? "0" : "other";
}

/** A list's limit after parsing: none, a positive page size, or not an integer at all. */
export type ParsedLimit =
  | { readonly kind: "unset"; readonly nonPositive: boolean }
  | { readonly kind: "limit"; readonly limit: number }
  | { readonly kind: "invalid"; readonly raw: string };

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/**
 * Parse `limit` as Kubernetes does: a signed 64-bit integer (else 400, transcript list-limit-abc);
 * zero or below means no limit (transcript list-limit-negative). An empty value counts as unset.
 */
export function parseListLimit(raw: number | string | undefined): ParsedLimit {
  if (raw === undefined || raw === "") return { kind: "unset", nonPositive: false };
  let value: bigint;
  if (typeof raw === "number") {
    if (!Number.isInteger(raw)) return { kind: "invalid", raw: String(raw) };
    value = BigInt(raw);
  } else {
    if (!/^[+-]?[0-9]+$/.test(raw)) return { kind: "invalid", raw };
    value = BigInt(raw);
  }
  if (value > INT64_MAX || value < INT64_MIN) return { kind: "invalid", raw: String(raw) };
  if (value <= 0n) return { kind: "unset", nonPositive: true };
  return { kind: "limit", limit: Number(value) };
}

function fromCell<S extends string>(cell: TableCell<S>, normalisedBy: readonly ClauseId[]): TableLookup<S> {
  const documented = cell.documented && normalisedBy.length === 0;
  const alsoCites = [...cell.related, ...normalisedBy];
  if (cell.answer.kind === "semantic") {
    return { kind: "semantic", semantic: cell.answer.semantic, clause: cell.clause, documented, alsoCites };
  }
  const { status, reason, message, causes } = cell.answer;
  return { kind: "invalid", status, reason, message, causes, clause: cell.clause, documented, alsoCites };
}

function cellFor<S extends string>(cells: readonly TableCell<S>[], resourceVersion: string | undefined): TableCell<S> {
  const column = resourceVersionColumn(resourceVersion);
  const cell = cells.find((c) => c.resourceVersion === column);
  if (cell === undefined) throw new Error(`no cell for resourceVersion column ${column}`);
  return cell;
}

/** The get table (doc 1 §4.7): which semantic a GET of one object with this resourceVersion has. */
export function lookupGetSemantic(query: { resourceVersion?: string | undefined }): TableLookup<ReadSemantic> {
  return fromCell(cellFor(getTableCells, query.resourceVersion), []);
}

/** Query parameters of a watch that decide its start. */
export interface WatchQuery {
  readonly resourceVersion?: string | undefined;
  readonly resourceVersionMatch?: string | undefined;
}

/**
 * The watch table (doc 1 §4.7). resourceVersionMatch is for list only (doc 1 §4.2); not shown in
 * doc 1 what a watch carrying it gets; Kubernetes 1.26 answers 422 Invalid (its ListOptions
 * validation; not in the reference transcripts).
 */
export function lookupWatchSemantic(query: WatchQuery): TableLookup<WatchSemantic> {
  if (query.resourceVersionMatch !== undefined && query.resourceVersionMatch !== "") {
    const cause: FieldCause = { field: MATCH_FIELD, type: "FieldValueForbidden", message: "resourceVersionMatch is for list only, not watch" };
    return {
      kind: "invalid",
      status: 422,
      reason: "Invalid",
      message: cause.message,
      causes: [cause],
      clause: "doc1/4.2/resource-version-match/list-only",
      documented: false,
      alsoCites: ["doc1/7/not-shown/invalid-status"],
    };
  }
  return fromCell(cellFor(watchTableCells, query.resourceVersion), []);
}

/** Query parameters of a list that decide its semantic. */
export interface ListQuery {
  readonly resourceVersion?: string | undefined;
  readonly resourceVersionMatch?: string | undefined;
  /** The limit as a number, or the raw query value (so `limit=abc` can be judged). */
  readonly limit?: number | string | undefined;
  readonly continueToken?: string | undefined;
}

/** The list cell for a row and column; throws if the table lacks it (it never should). */
export function listCell(match: ListMatch, paging: ListPaging, column: ResourceVersionColumn): ListCell {
  const cell = listTableCells.find((c) => c.match === match && c.paging === paging && c.resourceVersion === column);
  if (cell === undefined) throw new Error(`list table has no cell ${match}/${paging}/${column}`);
  return cell;
}

/**
 * The list table (doc 1 §4.7), checked in Kubernetes' order: the limit must parse (400), then an
 * unknown resourceVersionMatch is 422 (transcript list-rvmatch-unknown), then the table decides.
 * A continue token without a limit takes the continue row (not shown in doc 1; Kubernetes does).
 */
export function lookupListSemantic(query: ListQuery): TableLookup<ReadSemantic> {
  const limit = parseListLimit(query.limit);
  if (limit.kind === "invalid") {
    return {
      kind: "invalid",
      status: 400,
      reason: "BadRequest",
      message: `limit must be an integer, got "${limit.raw}"`,
      causes: [],
      clause: "doc1/4.2/limit/not-integer",
      documented: false,
      alsoCites: ["doc1/4.2/limit"],
    };
  }
  const match = query.resourceVersionMatch === "" ? undefined : query.resourceVersionMatch;
  if (match !== undefined && match !== "Exact" && match !== "NotOlderThan") {
    const cause: FieldCause = { field: MATCH_FIELD, type: "FieldValueNotSupported", message: `resourceVersionMatch must be Exact or NotOlderThan, got "${match}"` };
    return {
      kind: "invalid",
      status: 422,
      reason: "Invalid",
      message: cause.message,
      causes: [cause],
      clause: "doc1/4.2/resource-version-match/values",
      documented: false,
      alsoCites: ["doc1/7/not-shown/invalid-status"],
    };
  }
  const normalisedBy: ClauseId[] = [];
  if (limit.kind === "unset" && limit.nonPositive) normalisedBy.push("doc1/4.2/limit/non-positive");
  const hasContinue = query.continueToken !== undefined && query.continueToken !== "";
  if (hasContinue && limit.kind === "unset") normalisedBy.push("doc1/4.2/continue/without-limit");
  const paging: ListPaging = hasContinue ? "limit-continue" : limit.kind === "limit" ? "limit-no-continue" : "limit-unset";
  return fromCell(listCell(match ?? "unset", paging, resourceVersionColumn(query.resourceVersion)), normalisedBy);
}
