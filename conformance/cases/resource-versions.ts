/**
 * resourceVersion semantics (doc 1 §4.7): one case per cell of the get, list and watch tables,
 * generated from spec/doc1/resource-version-tables.ts, plus the two answers that need time to
 * pass: a version the server has not reached (wait, then 504) and an Exact read of a compacted
 * version (410).
 *
 * Versions are opaque (doc 1 §4.7): the cases compare them only for equality, and judge "not older
 * than" by content: a read must show every write the client saw complete before the version.
 */
import { clauseById, type ClauseId } from "../../spec/doc1/clauses.ts";
import {
  getTableCells,
  listTableCells,
  readSemantics,
  watchSemantics,
  watchTableCells,
  type ListCell,
  type ReadSemantic,
  type TableCell,
  type WatchSemantic,
} from "../../spec/doc1/resource-version-tables.ts";
import type { CaseContext } from "../case-context.ts";
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import type { ApiResponse } from "../client/conformance-client.ts";
import { describeRetention } from "../retention.ts";
import { checkAnswerForm } from "./dialect-answers.ts";
import { configMaps, q } from "./fixtures.ts";
import {
  checkChanges,
  checkEventObjects,
  collectEvents,
  createObject,
  describeEvent,
  drainEvents,
  eventName,
  isGoneStatus,
  listOurs,
  openWatch,
  quietMs,
  scope,
  updateObject,
  type Change,
  type Scope,
} from "./watch.ts";

/** Page size of the paged cells. */
const LIMIT = 2;

/** The case name of a cell: its clause id after `doc1/4.7/`, e.g. `list/exact/limit-unset/rv-0`. */
function caseName(clause: ClauseId): string {
  return clause.replace(/^doc1\/4\.7\//, "");
}

/** The clauses a case checks: testable ones only, each once. */
function testable(ids: readonly ClauseId[]): ClauseId[] {
  return [...new Set(ids)].filter((id) => clauseById(id).testable);
}

/** A state an object was in: its data.v and resourceVersion. */
interface Version {
  readonly v: string;
  readonly resourceVersion: string;
}

function versionOf(object: any): Version {
  return { v: String(object?.data?.v), resourceVersion: String(object?.metadata?.resourceVersion) };
}

function show(state: ReadonlyMap<string, Version>): string {
  return [...state].map(([name, version]) => `${name}=${version.v}@${version.resourceVersion}`).join(", ");
}

/** Name → state of the case's items, sorted by name; fails when an object comes twice. */
function stateOf(items: readonly any[], objects: Scope): Map<string, Version> {
  const ours = items.filter((item) => objects.ours(item?.metadata?.name));
  const names = ours.map((item) => String(item.metadata.name));
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  check(repeated.length === 0, `the same object came more than once: ${[...new Set(repeated)].join(", ")}`);
  return new Map(ours.map((item): [string, Version] => [item.metadata.name, versionOf(item)]).sort(([a], [b]) => a.localeCompare(b)));
}

function sameState(actual: ReadonlyMap<string, Version>, expected: ReadonlyMap<string, Version>): boolean {
  if (actual.size !== expected.size) return false;
  for (const [name, version] of expected) {
    const got = actual.get(name);
    if (got === undefined || got.v !== version.v || got.resourceVersion !== version.resourceVersion) return false;
  }
  return true;
}

function body(response: ApiResponse): string {
  return response.json?.message ?? response.text.slice(0, 200);
}

// ---------------------------------------------------------------------------------------------
// The list table.

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
  readonly firstPage: { readonly version: string; readonly token: string; readonly items: readonly any[] };
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
  check(page.status === 200, `setup: list ?limit=${LIMIT} answered ${page.status}: ${body(page)}`);
  const token = page.json?.metadata?.continue;
  check(typeof token === "string" && token !== "", `setup: a first page of limit ${LIMIT} over 5 objects carried no continue token: ${page.text.slice(0, 200)}`);
  const firstPage = { version: String(page.json.metadata.resourceVersion), token, items: (page.json.items ?? []) as any[] };
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
async function withFollowingPages(context: CaseContext, first: ApiResponse, follow: (token: string) => URLSearchParams): Promise<any[]> {
  const pages = [first.json];
  for (let round = 0; round < 20; round++) {
    const token = pages[pages.length - 1]?.metadata?.continue;
    if (typeof token !== "string" || token === "") return pages;
    const next = await context.client.get(`${configMaps(context)}?${follow(token)}`);
    check(next.status === 200, `list ?${follow(token)} (the next page) answered ${next.status}: ${body(next)}`);
    pages.push(next.json);
  }
  throw new Error("more than 20 pages for a handful of objects");
}

function checkCollection(list: any, what: string): void {
  check(list?.kind === "ConfigMapList", `${what}: expected kind ConfigMapList, got ${JSON.stringify(list?.kind)}`);
  check(Array.isArray(list?.items), `${what}: items is not an array`);
  const version = list?.metadata?.resourceVersion;
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
    check(response.status === status, `${request}: expected ${status} ${reason} (${cell.documentText ?? "no row in doc 1"}), got ${response.status}: ${body(response)}`);
    checkEqual(response.json?.reason, reason, `${request}: reason of the Status`);
    const given = response.json?.details?.causes as Array<{ field?: string; reason?: string }> | undefined;
    if (given !== undefined) {
      for (const cause of causes) {
        check(
          given.some((g) => g.field === cause.field && g.reason === cause.type),
          `${request}: expected a cause ${cause.type} on ${cause.field} (${cause.message}), got ${JSON.stringify(given)}`,
        );
      }
    }
    return;
  }
  const semantic = cell.answer.semantic;
  check(response.status === 200, `${request} (${readSemantics[semantic].documentName}): expected 200, got ${response.status}: ${body(response)}`);
  checkCollection(response.json, request);
  const paged = cell.paging !== "limit-unset";
  switch (semantic) {
    case "Any": {
      // Deviation rv0-limit-ignored (dialect-answers.ts): doc 1 §8 "the server returns at most
      // that many", strict for orb; Kubernetes serves resourceVersion=0 from its watch cache, every
      // item and no continue token (transcript list-rv0-limit), or pages when the cache is off:
      // cache dependent, so either form for kubernetes. Every item with a token is wrong for both.
      const items = response.json.items.length as number;
      const token = response.json.metadata?.continue;
      if (paged) {
        check(
          items <= LIMIT || token === undefined || token === "",
          `${request}: ${items} items with a continue token; expected at most limit=${LIMIT}, or every item and no continue token (deviation rv0-limit-ignored)`,
        );
        checkAnswerForm(context.dialect, "rv0-limit-ignored", items <= LIMIT ? "at-most-limit" : "every-item", `${request}: ${items} items for limit=${LIMIT}`);
      }
      checkAnyState(stateOf(response.json.items, fixture.objects), fixture, request);
      return;
    }
    case "MostRecent": {
      const pages = paged ? await withFollowingPages(context, response, (token) => new URLSearchParams({ limit: String(LIMIT), continue: token })) : [response.json];
      const state = stateOf(pages.flatMap((page) => page.items ?? []), fixture.objects);
      check(
        sameState(state, fixture.latest),
        `${request} (Most Recent) must show every write made before it, each item at the resourceVersion of its last write: expected ${show(fixture.latest)}, got ${show(state)}`,
      );
      return;
    }
    case "NotOlderThan": {
      const pages = paged ? await withFollowingPages(context, response, (token) => new URLSearchParams({ limit: String(LIMIT), continue: token })) : [response.json];
      checkNotOlderThan(stateOf(pages.flatMap((page) => page.items ?? []), fixture.objects), fixture, `${request} (Not older than ${fixture.version})`);
      return;
    }
    case "Exact": {
      const pages = paged ? await withFollowingPages(context, response, (token) => new URLSearchParams({ limit: String(LIMIT), continue: token })) : [response.json];
      checkEqual(
        pages.map((page) => page.metadata?.resourceVersion),
        pages.map(() => fixture.version),
        `${request} (Exact): metadata.resourceVersion of ${pages.length === 1 ? "the collection" : "each page"}`,
      );
      const state = stateOf(pages.flatMap((page) => page.items ?? []), fixture.objects);
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
        pages.map((page) => page.metadata?.resourceVersion),
        pages.map(() => fixture.firstPage.version),
        `${request} (Continue Token, Exact): metadata.resourceVersion of each page, against the first page's`,
      );
      const state = stateOf([...fixture.firstPage.items, ...pages.flatMap((page) => page.items ?? [])], fixture.objects);
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

// ---------------------------------------------------------------------------------------------
// The get table.

async function runGetCell(context: CaseContext, cell: TableCell<ReadSemantic>): Promise<void> {
  const objects = scope(context, "get");
  const name = objects.name("a");
  const created = await createObject(context, name, { v: "1" });
  const updated = await updateObject(context, name, { v: "2" });
  const other = await createObject(context, objects.name("b"), { v: "1" });
  const states = [versionOf(created.object), versionOf(updated.object)];
  const path = `${configMaps(context)}/${name}`;
  if (cell.answer.kind !== "semantic") throw new Error(`the get table has no invalid cell (${cell.clause})`);
  const semantic = cell.answer.semantic;
  switch (semantic) {
    case "MostRecent": {
      const response = await context.client.get(path);
      check(response.status === 200, `GET ${name} (Most Recent): expected 200, got ${response.status}: ${body(response)}`);
      checkEqual(versionOf(response.json), versionOf(updated.object), `GET ${name} (Most Recent) right after a write: data.v and resourceVersion of the object`);
      return;
    }
    case "Any": {
      // Any may be stale: a cache may not have the object yet; give it a moment, then any real state is right.
      let response = await context.client.get(`${path}?resourceVersion=0`);
      for (let attempt = 0; response.status === 404 && attempt < 5; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        response = await context.client.get(`${path}?resourceVersion=0`);
      }
      check(response.status === 200, `GET ${name}?resourceVersion=0 (Any): expected 200, got ${response.status}: ${body(response)}`);
      const got = versionOf(response.json);
      check(
        states.some((state) => state.v === got.v && state.resourceVersion === got.resourceVersion),
        `GET ${name}?resourceVersion=0 (Any): ${got.v}@${got.resourceVersion} is a state the object never had (${states.map((s) => `${s.v}@${s.resourceVersion}`).join(", ")})`,
      );
      return;
    }
    case "NotOlderThan": {
      // A version after both writes to the object: the object's state must be its last one.
      const version = String(other.resourceVersion);
      const response = await context.client.get(`${path}?resourceVersion=${q(version)}`);
      check(response.status === 200, `GET ${name}?resourceVersion=${version} (Not older than): expected 200, got ${response.status}: ${body(response)}`);
      checkEqual(
        versionOf(response.json),
        versionOf(updated.object),
        `GET ${name}?resourceVersion=${version} (Not older than a version after its last write): data.v and resourceVersion`,
      );
      return;
    }
    default:
      throw new Error(`the get table has no ${semantic} cell`);
  }
}

// ---------------------------------------------------------------------------------------------
// The watch table.

async function runWatchCell(context: CaseContext, cell: TableCell<WatchSemantic>): Promise<void> {
  const objects = scope(context, "wt");
  if (cell.answer.kind !== "semantic") throw new Error(`the watch table has no invalid cell (${cell.clause})`);
  const semantic = cell.answer.semantic;
  const a = await createObject(context, objects.name("a"), { v: "1" });
  const b = await createObject(context, objects.name("b"), { v: "1" });
  const listed = await listOurs(context, objects);
  const late = [await updateObject(context, objects.name("a"), { v: "2" }), await createObject(context, objects.name("c"), { v: "1" })];
  const query = cell.resourceVersion === "unset" ? "" : `resourceVersion=${q(cell.resourceVersion === "0" ? "0" : listed.resourceVersion)}`;
  const stream = await openWatch(context, query);
  const request = `watch ?${query || "(no resourceVersion)"}`;
  try {
    checkEqual(stream.status, 200, `status of ${request}`);
    if (semantic === "StartAtExact") {
      // Only the changes after the version: no synthetic ADDED for a or b.
      const read = await collectEvents(stream, objects, late.length);
      const live = await createObject(context, objects.name("d"), { v: "1" });
      const rest = await collectEvents(stream, objects, 1);
      const extra = await drainEvents(stream, objects, quietMs(context));
      const events = [...read.events, ...rest.events, ...extra.events];
      checkChanges(events, [...late, live], `${request} (Start at Exact: the changes after ${listed.resourceVersion} only, no synthetic ADDED)`);
      checkEventObjects(events);
      return;
    }
    // Get State: synthetic ADDED for every existing object, then the changes.
    const latest = new Map<string, Version>([
      [a.name, versionOf(late[0]!.object)],
      [b.name, versionOf(b.object)],
      [late[1]!.name, versionOf(late[1]!.object)],
    ]);
    const initial = await collectEvents(stream, objects, latest.size);
    const live = await createObject(context, objects.name("d"), { v: "1" });
    const events = [...initial.events];
    if (!events.some((event) => event.type === "ADDED" && eventName(event) === live.name)) {
      const deadline = Date.now() + 10_000;
      while (!events.some((event) => event.type === "ADDED" && eventName(event) === live.name) && Date.now() < deadline) {
        const more = await collectEvents(stream, objects, 1, deadline - Date.now());
        events.push(...more.events);
        if (more.ended || more.events.length === 0) break;
      }
    }
    events.push(...(await drainEvents(stream, objects, quietMs(context))).events);
    checkEventObjects(events);
    if (semantic === "GetStateAndStartAtMostRecent") {
      // Most Recent: the synthetic events are the current state, in any order.
      const synthetic = events.slice(0, latest.size);
      check(
        synthetic.every((event) => event.type === "ADDED"),
        `${request} (Get State and Start at Most Recent) should start with ${latest.size} ADDED events, got [${events.map(describeEvent).join(", ")}]`,
      );
      const state = new Map(synthetic.map((event): [string, Version] => [String(eventName(event)), versionOf(event.object)]).sort(([x], [y]) => x.localeCompare(y)));
      check(sameState(state, latest), `${request}: the synthetic ADDED events must be the latest state: expected ${show(latest)}, got ${show(state)}`);
      checkChanges(events.slice(latest.size), [live], `${request}: events after the synthetic ones`);
      return;
    }
    // Any: the start may be stale, so the stream may hold real ADDED and MODIFIED events of the
    // late writes too; but every existing object comes as ADDED before any change to it, and the
    // events add up to the current state.
    const folded = new Map<string, Version>();
    for (const event of events) {
      const name = String(eventName(event));
      check(
        event.type === "ADDED" || (event.type === "MODIFIED" && folded.has(name)),
        `${request} (Get State and Start at Any): ${describeEvent(event)} before any ADDED for ${name} (all events: ${events.map(describeEvent).join(", ")})`,
      );
      folded.set(name, versionOf(event.object));
    }
    latest.set(live.name, versionOf(live.object));
    const sorted = new Map([...folded].sort(([x], [y]) => x.localeCompare(y)));
    check(sameState(sorted, latest), `${request}: the events must add up to the current state: expected ${show(latest)}, got ${show(sorted)}`);
  } finally {
    await stream.close();
  }
}

function watchCellClauses(cell: TableCell<WatchSemantic>): ClauseId[] {
  const extra: ClauseId[] = cell.answer.kind === "semantic" ? [...watchSemantics[cell.answer.semantic].clauses] : [];
  if (cell.resourceVersion !== "other") extra.push("doc1/6/added/synthetic");
  return testable([cell.clause, ...cell.related, ...extra]);
}

// ---------------------------------------------------------------------------------------------
// Answers that need time: a version not reached yet, and an Exact read of a compacted one.

/** A version far ahead of `current` (decimal versions only: opaque ones cannot be made up). */
function futureVersion(context: CaseContext, current: string, ahead: bigint): string {
  if (!/^[0-9]{1,30}$/.test(current)) {
    context.skip(`resourceVersions of this server are not decimal (${JSON.stringify(current)}): there is no way to name a version it has not reached`);
  }
  return String(BigInt(current) + ahead);
}

/** Awaits `pending` for at most `ms` of real time. */
async function within<T>(pending: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([pending, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function checkTooLarge(response: ApiResponse, what: string): void {
  check(response.status === 504, `${what}: expected 504 (doc 1 §7: a version the server does not recognize), got ${response.status}: ${body(response)}`);
  const message = String(response.json?.message ?? response.text);
  check(/too large resource version/i.test(message), `${what}: the message should mention "Too large resource version", got ${JSON.stringify(message.slice(0, 200))}`);
  const retryAfter = response.headers.get("retry-after");
  if (retryAfter !== null) check(/^[0-9]+$/.test(retryAfter.trim()), `${what}: Retry-After should be a number of seconds, got ${JSON.stringify(retryAfter)}`);
}

const timedCases = defineCases("resource-version", [
  {
    name: "not-older-than-future-version-504",
    clauses: [
      "doc1/7/504/too-large-resource-version",
      "doc1/7/retry-after",
      "doc1/4.7/semantic/not-older-than",
      "doc1/4.7/get/rv-other",
      "doc1/4.7/list/match-unset/limit-unset/rv-other",
      "doc1/4.7/list/not-older-than/limit-unset/rv-other",
    ],
    tags: ["mutating", "virtual-time"],
    async run(context) {
      const objects = scope(context, "fut");
      const a = await createObject(context, objects.name("a"), { v: "1" });
      const listed = await listOurs(context, objects);
      const far = futureVersion(context, listed.resourceVersion, 1_000_000n);
      const path = `${configMaps(context)}/${a.name}`;
      // Started, then time moves past the server's bounded wait (Kubernetes: about 3 s), then read.
      const pending = [
        ["GET of one object", context.client.get(`${path}?resourceVersion=${far}`)],
        ["list", context.client.get(`${configMaps(context)}?resourceVersion=${far}`)],
        ["list with resourceVersionMatch=NotOlderThan", context.client.get(`${configMaps(context)}?resourceVersion=${far}&resourceVersionMatch=NotOlderThan`)],
      ] as const;
      await context.advance(10_000);
      for (const [what, request] of pending) checkTooLarge(await within(request, 60_000, what), `${what} at resourceVersion ${far}, far ahead of ${listed.resourceVersion}`);
      // A version reached while the server waits: the read succeeds (or, if the server answers at
      // once with Retry-After instead of waiting, doc 1 §7, a 504).
      const fresh = await listOurs(context, objects);
      const next = futureVersion(context, fresh.resourceVersion, 1n);
      const waiting = context.client.get(`${path}?resourceVersion=${next}`);
      const written = await updateObject(context, a.name, { v: "2" });
      await context.advance(1_000);
      const answer = await within(waiting, 60_000, `GET at resourceVersion ${next}`);
      if (answer.status === 504) {
        // Doc 1 §7: a server may answer at once only with Retry-After; Kubernetes without its watch
        // cache answers at once without one (deviation future-version-no-wait).
        if (answer.headers.get("retry-after") === null) {
          checkAnswerForm(context.dialect, "future-version-no-wait", "answers-at-once", `GET at resourceVersion ${next}, reached by a write during the wait, answered 504 without Retry-After (so it did not wait either)`);
        }
        return;
      }
      check(answer.status === 200, `GET at resourceVersion ${next}, reached by a write during the wait: expected 200, got ${answer.status}: ${body(answer)}`);
      // When the write got that very version, the object must show it; on a busy real server another
      // write may have reached the version first, and then the state before the write is not older.
      const allowed = written.resourceVersion === next ? [versionOf(written.object)] : [versionOf(a.object), versionOf(written.object)];
      const got = versionOf(answer.json);
      check(
        allowed.some((state) => state.v === got.v && state.resourceVersion === got.resourceVersion),
        `GET at resourceVersion ${next} (not older than it; the write answered ${written.resourceVersion}): got ${got.v}@${got.resourceVersion}, expected ${allowed.map((s) => `${s.v}@${s.resourceVersion}`).join(" or ")}`,
      );
    },
  },
  {
    name: "exact-compacted-version-410",
    clauses: [
      "doc1/4.7/semantic/exact",
      "doc1/7/410/exact-unavailable",
      "doc1/7/410/outside-retained",
      "doc1/4.7/list/exact/limit-unset/rv-other",
      "doc1/4.7/list/exact/limit-no-continue/rv-other",
      "doc1/4.7/list/match-unset/limit-no-continue/rv-other",
    ],
    tags: ["mutating", "virtual-time"],
    async run(context) {
      const objects = scope(context, "cmp");
      await createObject(context, objects.name("a"), { v: "1" });
      await createObject(context, objects.name("b"), { v: "1" });
      await createObject(context, objects.name("c"), { v: "1" });
      const listed = await listOurs(context, objects);
      // Writes after the version, so that compaction has later revisions to keep.
      await updateObject(context, objects.name("a"), { v: "2" });
      await updateObject(context, objects.name("a"), { v: "3" });
      const version = q(listed.resourceVersion);
      const queries = [`resourceVersionMatch=Exact&resourceVersion=${version}`, `resourceVersionMatch=Exact&resourceVersion=${version}&limit=${LIMIT}`, `resourceVersion=${version}&limit=${LIMIT}`];
      const retention = await context.retention();
      const outcome = await context.pollUntil({
        what: `an Exact list at resourceVersion ${listed.resourceVersion} to answer 410 (${describeRetention(retention)})`,
        withinMs: retention.certainlyGoneMs,
        probe: async () => {
          const response = await context.client.get(`${configMaps(context)}?${queries[0]}`);
          return response.status === 200 ? undefined : response;
        },
      });
      for (const query of queries) {
        const response = await context.client.get(`${configMaps(context)}?${query}`);
        check(
          response.status === 410 && isGoneStatus(response.json),
          `list ?${query}, ${Math.round(outcome.waitedMs / 1000)} s after later writes (${describeRetention(retention)}; Exact at a compacted version): expected 410 with a Status (reason Expired), got ${response.status}: ${body(response)}`,
        );
      }
    },
  },
]);

// ---------------------------------------------------------------------------------------------

export const resourceVersionCases = [
  ...defineCases("resource-version", [
    ...getTableCells.map((cell) => ({
      name: caseName(cell.clause),
      clauses: testable([cell.clause, ...cell.related, ...(cell.answer.kind === "semantic" ? readSemantics[cell.answer.semantic].clauses : [])]),
      tags: ["mutating"] as const,
      run: (context: CaseContext) => runGetCell(context, cell),
    })),
    ...listTableCells.map((cell) => ({
      name: caseName(cell.clause),
      clauses: listCellClauses(cell),
      tags: ["mutating"] as const,
      run: (context: CaseContext) => runListCell(context, cell),
    })),
    ...watchTableCells.map((cell) => ({
      name: caseName(cell.clause),
      clauses: watchCellClauses(cell),
      tags: ["mutating"] as const,
      run: (context: CaseContext) => runWatchCell(context, cell),
    })),
  ]),
  ...timedCases,
];
