/**
 * resourceVersion semantics of a list (doc 1 §4.7): one case per cell of the list table, generated
 * from spec/doc1/resource-version-tables.ts: resourceVersionMatch, limit and continue, and the
 * resourceVersion, each answered with the semantic of its cell (or refused as invalid).
 *
 * Versions are opaque (doc 1 §4.7): the cases compare them only for equality, and judge "not older
 * than" by content: a read must show every write the client saw complete before the version.
 */
import { listTableCells, readSemantics, type ListCell } from "../../spec/doc1/resource-version-tables.ts";
import type { ClauseId } from "../../spec/doc1/clauses.ts";
import type { CaseContext } from "../case-context.ts";
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import type { ApiResponse } from "../client/conformance-client.ts";
import { recordOf } from "../client/json-fields.ts";
import { configMaps } from "./support/config-maps.ts";
import { checkAnswerForm } from "./support/dialect-answers.ts";
import { itemsOf, listItems } from "./support/list-body.ts";
import { expectObject, metadataOf } from "./support/object-body.ts";
import { sameState, show, stateOf, versionOf, type Version } from "./support/object-states.ts";
import { caseName, LIMIT, testable } from "./support/resource-version-cells.ts";
import { createObject, listOurs, scope, updateObject, type Change, type Scope } from "./support/scoped-objects.ts";
import { message } from "./support/status-answers.ts";
import { causesOf, detailsOf } from "./support/status-body.ts";

/**
 * Objects x-0 … x-4 written before version V (x-0 twice), a first page of limit 2 taken at V,
 * then "late" writes after V: x-3 changed, x-5 created.
 */
interface ListFixture {
  readonly objects: Scope;
  /** A list's version after the early writes, and the case's objects then. */
  readonly version: string;
  readonly atVersion: ReadonlyMap<string, Version>;
  /** The first page (limit 2) taken right after, its version and continue token. */
  readonly firstPage: { readonly version: string; readonly token: string; readonly items: readonly unknown[] };
  /** Every state of each object, in order, and whether it was written after V. */
  readonly history: ReadonlyMap<string, ReadonlyArray<Version & { readonly late: boolean }>>;
  /** The objects after the late writes. */
  readonly latest: ReadonlyMap<string, Version>;
}

async function listFixture(context: CaseContext): Promise<ListFixture> {
  const objects = scope(context, "rv");
  const history = new Map<string, Array<Version & { late: boolean }>>();
  const record = (change: Change, late: boolean) => {
    const states = history.get(change.name) ?? [];
    states.push({ ...versionOf(change.object), late });
    history.set(change.name, states);
  };
  for (let index = 0; index < 5; index++) record(await createObject(context, objects.name(String(index)), { v: "1" }), false);
  record(await updateObject(context, objects.name("0"), { v: "2" }), false);
  const listed = await listOurs(context, objects);
  const atVersion = stateOf(listed.items, objects);
  const page = await context.client.get(`${configMaps(context)}?limit=${LIMIT}`);
  check(page.status === 200, `setup: list ?limit=${LIMIT} answered ${page.status}: ${message(page)}`);
  const token = metadataOf(page.json).continue;
  check(typeof token === "string" && token !== "", `setup: a first page of limit ${LIMIT} over 5 objects carried no continue token: ${page.text.slice(0, 200)}`);
  const firstPage = { version: String(expectObject(page.json, "setup: the first page").metadata.resourceVersion), token, items: itemsOf(page.json, "setup: the first page") };
  record(await updateObject(context, objects.name("3"), { v: "late" }), true);
  record(await createObject(context, objects.name("5"), { v: "late" }), true);
  const latest = new Map([...history].map(([name, states]): [string, Version] => [name, states[states.length - 1]!]).sort(([a], [b]) => a.localeCompare(b)));
  return { objects, version: listed.resourceVersion, atVersion, firstPage, history, latest };
}

/** The query of a list cell: its resourceVersionMatch, limit, continue and resourceVersion. */
function cellQuery(cell: ListCell, fixture: ListFixture): URLSearchParams {
  const query = new URLSearchParams();
  if (cell.match !== "unset") query.set("resourceVersionMatch", cell.match);
  if (cell.paging !== "limit-unset") query.set("limit", String(LIMIT));
  if (cell.paging === "limit-continue") query.set("continue", fixture.firstPage.token);
  if (cell.resourceVersion === "0") query.set("resourceVersion", "0");
  // A real version the server returned: the list's, or the first page's with a continue token.
  if (cell.resourceVersion === "other") query.set("resourceVersion", cell.paging === "limit-continue" ? fixture.firstPage.version : fixture.version);
  return query;
}

/** The response to a paged request and every following page (continue tokens followed with `follow`). */
async function withFollowingPages(context: CaseContext, first: ApiResponse, follow: (token: string) => URLSearchParams): Promise<unknown[]> {
  const pages = [first.json];
  for (let round = 0; round < 20; round++) {
    const token = metadataOf(pages[pages.length - 1]).continue;
    if (typeof token !== "string" || token === "") return pages;
    const next = await context.client.get(`${configMaps(context)}?${follow(token)}`);
    check(next.status === 200, `list ?${follow(token)} (the next page) answered ${next.status}: ${message(next)}`);
    pages.push(next.json);
  }
  throw new Error("more than 20 pages for a handful of objects");
}

function checkCollection(list: unknown, what: string): void {
  check(recordOf(list).kind === "ConfigMapList", `${what}: expected kind ConfigMapList, got ${JSON.stringify(recordOf(list).kind)}`);
  check(Array.isArray(recordOf(list).items), `${what}: items is not an array`);
  const version = metadataOf(list).resourceVersion;
  check(typeof version === "string" && version !== "", `${what}: metadata.resourceVersion should be a non-empty string, got ${JSON.stringify(version)}`);
}

/** Not older than V, by content: each object in its state at V or a later one; objects created later may be missing. */
function checkNotOlderThan(state: ReadonlyMap<string, Version>, fixture: ListFixture, what: string): void {
  for (const [name, states] of fixture.history) {
    const atVersion = fixture.atVersion.get(name);
    const allowed = [...(atVersion === undefined ? [] : [atVersion]), ...states.filter((s) => s.late)];
    const got = state.get(name);
    if (got === undefined) {
      check(atVersion === undefined, `${what}: ${name}, written before the requested version, is missing (got ${show(state)})`);
      continue;
    }
    check(
      allowed.some((s) => s.v === got.v && s.resourceVersion === got.resourceVersion),
      `${what}: ${name} is ${got.v}@${got.resourceVersion}, older than the requested version: expected one of ${allowed.map((s) => `${s.v}@${s.resourceVersion}`).join(", ")}`,
    );
  }
  for (const name of state.keys()) check(fixture.history.has(name), `${what}: unexpected object ${name}`);
}

/** Any: some version; every item in a state it really had. */
function checkAnyState(state: ReadonlyMap<string, Version>, fixture: ListFixture, what: string): void {
  for (const [name, got] of state) {
    const states = fixture.history.get(name) ?? [];
    check(
      states.some((s) => s.v === got.v && s.resourceVersion === got.resourceVersion),
      `${what}: ${name}=${got.v}@${got.resourceVersion} is a state the object never had (it had ${states.map((s) => `${s.v}@${s.resourceVersion}`).join(", ") || "none"})`,
    );
  }
}

async function runListCell(context: CaseContext, cell: ListCell): Promise<void> {
  const fixture = await listFixture(context);
  const query = cellQuery(cell, fixture);
  const response = await context.client.get(`${configMaps(context)}?${query}`);
  const request = `list ?${query}`;
  if (cell.answer.kind === "invalid") {
    const { status, reason, causes } = cell.answer;
    check(response.status === status, `${request}: expected ${status} ${reason} (${cell.documentText ?? "no row in doc 1"}), got ${response.status}: ${message(response)}`);
    checkEqual(recordOf(response.json).reason, reason, `${request}: reason of the Status`);
    const given = detailsOf(response.json).causes;
    if (given !== undefined) {
      for (const cause of causes) {
        check(
          causesOf(response.json, request).some((g) => g.field === cause.field && g.reason === cause.type),
          `${request}: expected a cause ${cause.type} on ${cause.field} (${cause.message}), got ${JSON.stringify(given)}`,
        );
      }
    }
    return;
  }
  const semantic = cell.answer.semantic;
  check(response.status === 200, `${request} (${readSemantics[semantic].documentName}): expected 200, got ${response.status}: ${message(response)}`);
  checkCollection(response.json, request);
  const paged = cell.paging !== "limit-unset";
  switch (semantic) {
    case "Any": {
      // Deviation rv0-limit-ignored (dialect-answers.ts): doc 1 §8 "the server returns at most
      // that many", strict for orb; Kubernetes serves resourceVersion=0 from its watch cache, every
      // item and no continue token (transcript list-rv0-limit), or pages when the cache is off:
      // cache dependent, so either form for kubernetes. Every item with a token is wrong for both.
      const items = listItems(response.json, request).length;
      const token = metadataOf(response.json).continue;
      if (paged) {
        check(
          items <= LIMIT || token === undefined || token === "",
          `${request}: ${items} items with a continue token; expected at most limit=${LIMIT}, or every item and no continue token (deviation rv0-limit-ignored)`,
        );
        checkAnswerForm(context.dialect, "rv0-limit-ignored", items <= LIMIT ? "at-most-limit" : "every-item", `${request}: ${items} items for limit=${LIMIT}`);
      }
      checkAnyState(stateOf(listItems(response.json, request), fixture.objects), fixture, request);
      return;
    }
    case "MostRecent": {
      const pages = paged ? await withFollowingPages(context, response, (token) => new URLSearchParams({ limit: String(LIMIT), continue: token })) : [response.json];
      const state = stateOf(pages.flatMap((page) => itemsOf(page)), fixture.objects);
      check(
        sameState(state, fixture.latest),
        `${request} (Most Recent) must show every write made before it, each item at the resourceVersion of its last write: expected ${show(fixture.latest)}, got ${show(state)}`,
      );
      return;
    }
    case "NotOlderThan": {
      const pages = paged ? await withFollowingPages(context, response, (token) => new URLSearchParams({ limit: String(LIMIT), continue: token })) : [response.json];
      checkNotOlderThan(stateOf(pages.flatMap((page) => itemsOf(page)), fixture.objects), fixture, `${request} (Not older than ${fixture.version})`);
      return;
    }
    case "Exact": {
      const pages = paged ? await withFollowingPages(context, response, (token) => new URLSearchParams({ limit: String(LIMIT), continue: token })) : [response.json];
      checkEqual(
        pages.map((page) => metadataOf(page).resourceVersion),
        pages.map(() => fixture.version),
        `${request} (Exact): metadata.resourceVersion of ${pages.length === 1 ? "the collection" : "each page"}`,
      );
      const state = stateOf(pages.flatMap((page) => itemsOf(page)), fixture.objects);
      check(
        sameState(state, fixture.atVersion),
        `${request} (Exact) must show the objects as they were at ${fixture.version}, without the writes made after it: expected ${show(fixture.atVersion)}, got ${show(state)}`,
      );
      return;
    }
    case "ContinueTokenExact": {
      const follow = (token: string) => {
        const next = new URLSearchParams({ limit: String(LIMIT), continue: token });
        if (cell.resourceVersion === "0") next.set("resourceVersion", "0");
        return next;
      };
      const pages = await withFollowingPages(context, response, follow);
      checkEqual(
        pages.map((page) => metadataOf(page).resourceVersion),
        pages.map(() => fixture.firstPage.version),
        `${request} (Continue Token, Exact): metadata.resourceVersion of each page, against the first page's`,
      );
      const state = stateOf([...fixture.firstPage.items, ...pages.flatMap((page) => itemsOf(page))], fixture.objects);
      check(
        sameState(state, fixture.atVersion),
        `${request} (Continue Token, Exact): the first page and the pages after it must show the objects at the first page's version, without later writes: expected ${show(fixture.atVersion)}, got ${show(state)}`,
      );
      return;
    }
  }
}

function listCellClauses(cell: ListCell): ClauseId[] {
  const extra: ClauseId[] = [];
  if (cell.answer.kind === "semantic") {
    extra.push(...readSemantics[cell.answer.semantic].clauses);
    if (cell.answer.semantic === "MostRecent") extra.push("doc1/4.7/item-resource-version");
    if (cell.answer.semantic === "Any" && cell.paging !== "limit-unset") extra.push("doc1/8/limit/at-most");
  }
  return testable([cell.clause, cell.row, ...cell.related, ...extra]);
}

export const resourceVersionListCases = defineCases(
  "resource-version",
  listTableCells.map((cell) => ({
    name: caseName(cell.clause),
    clauses: listCellClauses(cell),
    tags: ["mutating"] as const,
    run: (context: CaseContext) => runListCell(context, cell),
  })),
);
