/**
 * Watches (doc 1 §2.4, §4.6.1, §4.6.2, §6, §7, §8): list then watch misses nothing, the stream
 * format, restart after a disconnect, event types, bookmarks, and watches from versions no longer
 * retained. The helpers at the top are shared with resource-versions.ts and paging-expiry.ts.
 *
 * Every object a case writes is named under a prefix unique in the run, and everything else is
 * left out of the checks: a real cluster adds objects of its own to a new namespace (Kubernetes
 * publishes a `kube-root-ca.crt` ConfigMap in each one, shortly after the namespace appears).
 */
import type { Dialect } from "../../spec/dialects.ts";
import type { CaseContext } from "../case-context.ts";
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import type { ApiResponse, WatchLine, WatchStream } from "../client/conformance-client.ts";
import { describeRetention, type Retention } from "../retention.ts";
import { checkAnswerForm } from "./dialect-answers.ts";
import { configMaps, q } from "./fixtures.ts";

/** How long a real server gets to send an (optional) BOOKMARK: Kubernetes sends one about every minute. */
const BOOKMARK_BOUND_MS = 75_000;

/** Longest wait, in real time, for an event the case knows is due. */
export const EVENT_BOUND_MS = 10_000;

/** How long a stream must stay silent before a case concludes nothing more is coming. */
export function quietMs(context: Pick<CaseContext, "virtualTime">): number {
  // Virtual-time servers push events synchronously with the write; real ones may lag a little.
  return context.virtualTime ? 100 : 750;
}

/** How long a case waits, well inside the retention: 40% of the shortest time the target keeps a replaced version. */
export function wellInsideRetentionMs(retention: Retention): number {
  return Math.floor(retention.minimumMs * 0.4);
}

/** The objects of one case: names under a prefix unique in the run. */
export interface Scope {
  readonly prefix: string;
  /** The full name of the case's object `suffix`. */
  name(suffix: string): string;
  /** Whether `name` is one of the case's objects. */
  ours(name: unknown): boolean;
}

/** A scope for the case's objects, named `<prefix>-<run>-<n>-<suffix>`. */
export function scope(context: CaseContext, prefix: string): Scope {
  const base = context.name(prefix);
  return {
    prefix: base,
    name: (suffix) => `${base}-${suffix}`,
    ours: (name) => typeof name === "string" && name.startsWith(`${base}-`),
  };
}

/** What one write did, as a watch must report it (doc 1 §6). */
export interface Change {
  readonly type: "ADDED" | "MODIFIED" | "DELETED";
  readonly name: string;
  /** The resourceVersion the write answered with; undefined when the answer carried none (a DELETE's Status). */
  readonly resourceVersion: string | undefined;
  /** The object the write answered with (undefined for a DELETE answered with a Status). */
  readonly object: any;
}

function setupFailure(what: string, response: ApiResponse): string {
  return `setup: ${what} answered ${response.status}: ${response.json?.message ?? response.text.slice(0, 200)}`;
}

/** POSTs a ConfigMap `name` with `data` (and extra metadata); returns the ADDED change. */
export async function createObject(context: CaseContext, name: string, data: Record<string, string>, metadata: Record<string, unknown> = {}): Promise<Change> {
  const response = await context.client.post(configMaps(context), { apiVersion: "v1", kind: "ConfigMap", metadata: { ...metadata, name }, data });
  check(response.status === 201 || response.status === 200, setupFailure(`creating ConfigMap ${name}`, response));
  return { type: "ADDED", name, resourceVersion: response.json?.metadata?.resourceVersion, object: response.json };
}

/** Merge-patches `data` into ConfigMap `name`; returns the MODIFIED change. */
export async function updateObject(context: CaseContext, name: string, data: Record<string, string>): Promise<Change> {
  const response = await context.client.patch(`${configMaps(context)}/${name}`, { data });
  check(response.status === 200, setupFailure(`patching ConfigMap ${name}`, response));
  return { type: "MODIFIED", name, resourceVersion: response.json?.metadata?.resourceVersion, object: response.json };
}

/** DELETEs ConfigMap `name` (no finalizers: it goes at once); returns the DELETED change. */
export async function deleteObject(context: CaseContext, name: string): Promise<Change> {
  const response = await context.client.delete(`${configMaps(context)}/${name}`);
  check(response.status === 200 || response.status === 202, setupFailure(`deleting ConfigMap ${name}`, response));
  // The object, or (Kubernetes, deviation delete-response) a Success Status, which carries no version.
  const object = response.json?.kind === "ConfigMap" ? response.json : undefined;
  return { type: "DELETED", name, resourceVersion: undefined, object };
}

/** The case's objects in an unpaged list of the namespace's ConfigMaps (a Most Recent read, doc 1 §4.7). */
export async function listOurs(context: CaseContext, objects: Scope, query = ""): Promise<{ resourceVersion: string; items: any[] }> {
  const response = await context.client.get(`${configMaps(context)}${query === "" ? "" : `?${query}`}`);
  check(response.status === 200, setupFailure(`listing ConfigMaps${query === "" ? "" : ` ?${query}`}`, response));
  const resourceVersion = response.json?.metadata?.resourceVersion;
  check(typeof resourceVersion === "string" && resourceVersion !== "", `setup: the list carried no metadata.resourceVersion: ${response.text.slice(0, 200)}`);
  const items = ((response.json.items ?? []) as any[]).filter((item) => objects.ours(item?.metadata?.name));
  return { resourceVersion, items };
}

/** Opens a watch on the namespace's ConfigMaps with `query` (after `watch=1`). */
export function openWatch(context: CaseContext, query: string): Promise<WatchStream> {
  return context.client.watch(`${configMaps(context)}?watch=1${query === "" ? "" : `&${query}`}`);
}

/** The name of the object an event carries. */
export function eventName(line: WatchLine): unknown {
  return line.object?.metadata?.name;
}

/** The resourceVersion of the object an event carries. */
export function eventVersion(line: WatchLine): unknown {
  return line.object?.metadata?.resourceVersion;
}

const OBJECT_EVENTS = new Set(["ADDED", "MODIFIED", "DELETED"]);

/** True for an event about an object the case did not write (the server's own objects). */
function foreign(line: WatchLine, objects: Scope): boolean {
  return OBJECT_EVENTS.has(line.type) && !objects.ours(eventName(line));
}

/** An event for a failure message: `TYPE name@resourceVersion`. */
export function describeEvent(line: WatchLine): string {
  if (line.type === "BOOKMARK") return `BOOKMARK @${String(eventVersion(line))}`;
  if (line.type === "ERROR") return `ERROR ${line.object?.code ?? ""} ${line.object?.reason ?? ""}`.trim();
  if (line.type === "UNPARSEABLE") return `UNPARSEABLE ${JSON.stringify(String(line.object).slice(0, 80))}`;
  return `${line.type} ${String(eventName(line))}@${String(eventVersion(line))}`;
}

function describeChange(change: Change): string {
  return `${change.type} ${change.name}@${change.resourceVersion ?? "?"}`;
}

/** The events read from a stream, and whether it ended. */
export interface Collected {
  readonly events: WatchLine[];
  readonly ended: boolean;
}

/**
 * Reads events (leaving out other objects' events) until `count` were read, the stream ended, or
 * `boundMs` of real time passed.
 */
export async function collectEvents(stream: WatchStream, objects: Scope, count: number, boundMs = EVENT_BOUND_MS): Promise<Collected> {
  const events: WatchLine[] = [];
  const deadline = Date.now() + boundMs;
  while (events.length < count) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return { events, ended: false };
    const next = await stream.next(remaining);
    if (next === "timeout") return { events, ended: false };
    if (next === undefined) return { events, ended: true };
    if (!foreign(next, objects)) events.push(next);
  }
  return { events, ended: false };
}

/** Reads events (leaving out other objects' events) until the stream stays silent for `silenceMs` or ends. */
export async function drainEvents(stream: WatchStream, objects: Scope, silenceMs: number): Promise<Collected> {
  const events: WatchLine[] = [];
  for (let read = 0; read < 1000; read++) {
    const next = await stream.next(silenceMs);
    if (next === "timeout") return { events, ended: false };
    if (next === undefined) return { events, ended: true };
    if (!foreign(next, objects)) events.push(next);
  }
  throw new Error("a watch sent more than 1000 events for a handful of writes");
}

function matches(line: WatchLine | undefined, change: Change): boolean {
  if (line === undefined || line.type !== change.type || eventName(line) !== change.name) return false;
  return change.resourceVersion === undefined || eventVersion(line) === change.resourceVersion;
}

/** Fails unless `events` are exactly `expected`, in order: each change once, none missing, nothing else. */
export function checkChanges(events: readonly WatchLine[], expected: readonly Change[], what: string): void {
  const exact = events.length === expected.length && expected.every((change, index) => matches(events[index], change));
  check(exact, `${what}: expected [${expected.map(describeChange).join(", ")}], got [${events.map(describeEvent).join(", ")}]`);
}

/** Fails unless the object of every ADDED, MODIFIED or DELETED event is a v1 ConfigMap (doc 1 §2.4). */
export function checkEventObjects(events: readonly WatchLine[]): void {
  for (const event of events) {
    if (!OBJECT_EVENTS.has(event.type)) continue;
    check(
      event.object?.kind === "ConfigMap" && event.object?.apiVersion === "v1",
      `the object of ${describeEvent(event)} should be a ConfigMap of apiVersion v1 (the requested kind), got kind ${JSON.stringify(event.object?.kind)} apiVersion ${JSON.stringify(event.object?.apiVersion)}`,
    );
  }
}

/** Event types a watch may send: doc 1 §2.4's three, plus DELETED and ERROR (deviation event-type-names). */
const EVENT_TYPES = ["ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"];

/** Fails unless every event has one of the known types. */
export function checkEventTypes(events: readonly WatchLine[]): void {
  for (const event of events) {
    check(EVENT_TYPES.includes(event.type), `event type ${JSON.stringify(event.type)} is none of ${EVENT_TYPES.join(", ")} (${describeEvent(event)})`);
  }
}

/** Name → resourceVersion of a list's items. */
function versionsOf(items: readonly any[]): Record<string, string> {
  return Object.fromEntries(items.map((item) => [item.metadata.name, item.metadata.resourceVersion]).sort(([a], [b]) => String(a).localeCompare(String(b))));
}

/** The state a client holds after applying `events` to `items` (name → resourceVersion). */
function fold(items: readonly any[], events: readonly WatchLine[]): Record<string, string> {
  const state = new Map<string, string>(items.map((item) => [item.metadata.name, item.metadata.resourceVersion]));
  for (const event of events) {
    const name = String(eventName(event));
    if (event.type === "DELETED") state.delete(name);
    else if (event.type === "ADDED" || event.type === "MODIFIED") state.set(name, String(eventVersion(event)));
  }
  return Object.fromEntries([...state].sort(([a], [b]) => a.localeCompare(b)));
}

/** True for a 410 Status body (reason Expired, or Gone), as doc 1 §7's 410 comes. */
export function isGoneStatus(body: any): boolean {
  return body?.kind === "Status" && body?.code === 410 && (body?.reason === "Expired" || body?.reason === "Gone");
}

/**
 * How a watch from a version no longer retained ended (deviation watch-expired): a 410 answer,
 * an ERROR event carrying a 410 Status, or (when the version is still retained) events.
 */
type WatchStart = { kind: "gone"; form: string } | { kind: "events"; events: WatchLine[] } | { kind: "other"; detail: string };

/**
 * Reads the start of a watch from an old version. A 410 must come in a form the target's dialect
 * may give (deviation watch-expired, dialect-answers.ts): doc 1 §7's HTTP 410 for orb (strict:
 * §2.4 and §6 know no ERROR event), either form for kubernetes (1.26 sends HTTP 200 and an ERROR
 * event, transcript expiry-watch-old; client-go takes a plain 410 alike).
 */
async function watchStart(stream: WatchStream, objects: Scope, expectedCount: number, context: Pick<CaseContext, "dialect" | "virtualTime">): Promise<WatchStart> {
  const { dialect } = context;
  if (stream.status === 410) {
    const body = await stream.next(EVENT_BOUND_MS);
    const status = body === undefined || body === "timeout" ? undefined : (body as any);
    if (!isGoneStatus(status)) return { kind: "other", detail: `HTTP 410 whose body is not a 410 Status: ${JSON.stringify(status).slice(0, 200)}` };
    checkAnswerForm(dialect, "watch-expired", "status", "a watch from a resourceVersion no longer retained answered HTTP 410");
    return { kind: "gone", form: "HTTP 410" };
  }
  if (stream.status !== 200) return { kind: "other", detail: `HTTP ${stream.status}` };
  const collected = await collectEvents(stream, objects, Math.max(1, expectedCount));
  const first = collected.events[0];
  if (first?.type === "ERROR") {
    if (!isGoneStatus(first.object)) return { kind: "other", detail: `an ERROR event whose object is not a 410 Status: ${JSON.stringify(first.object).slice(0, 200)}` };
    // Nothing may follow the error: the watch is over.
    const rest = collected.events.slice(1);
    if (rest.length === 0) rest.push(...(await drainEvents(stream, objects, quietMs(context))).events);
    if (rest.length > 0) return { kind: "other", detail: `events after the 410 ERROR event: ${rest.map(describeEvent).join(", ")}` };
    checkAnswerForm(dialect, "watch-expired", "error-event", "a watch from a resourceVersion no longer retained answered HTTP 200, then an ERROR event with a 410 Status");
    return { kind: "gone", form: "HTTP 200 then an ERROR event" };
  }
  return { kind: "events", events: [...collected.events, ...(await drainEvents(stream, objects, quietMs(context))).events] };
}

/** Splits a body into its top-level JSON documents; `error` says where it is not a series of documents. */
export function splitJsonDocuments(text: string): { documents: string[]; error?: string } {
  const documents: string[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (/\s/.test(char)) {
      index++;
      continue;
    }
    if (char !== "{") return { documents, error: `byte ${index} (${JSON.stringify(text.slice(index, index + 40))}) does not start a JSON object` };
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let at = index; at < text.length; at++) {
      const c = text[at];
      if (inString) {
        if (c === "\\") at++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        depth--;
        if (depth === 0) {
          end = at + 1;
          break;
        }
      }
    }
    if (end < 0) return { documents, error: `the document at byte ${index} is not complete` };
    documents.push(text.slice(index, end));
    index = end;
  }
  return { documents };
}

function delay(ms: number): Promise<"timeout"> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve("timeout"), ms);
    timer.unref?.();
  });
}

export const watchCases = defineCases("watch", [
  {
    name: "list-then-watch-misses-nothing",
    clauses: [
      "doc1/4.6/watch/list-then-watch",
      "doc1/4.2/watch",
      "doc1/4.7/watch/start-at-exact/changes-after",
      "doc1/6/added/create",
      "doc1/6/modified/update",
      "doc1/6/itemize",
      "doc1/6/event-names/not-shown",
      "doc1/2.4/type/values",
      "doc1/2.4/object/requested-kind",
    ],
    tags: ["mutating"],
    async run(context) {
      const objects = scope(context, "lw");
      await createObject(context, objects.name("a"), { v: "1" });
      await createObject(context, objects.name("b"), { v: "1" });
      const listed = await listOurs(context, objects);
      // Changes between the list and the watch: the watch must still deliver them.
      const before = [
        await createObject(context, objects.name("c"), { v: "1" }),
        await updateObject(context, objects.name("a"), { v: "2" }),
        await deleteObject(context, objects.name("b")),
      ];
      const stream = await openWatch(context, `resourceVersion=${q(listed.resourceVersion)}`);
      try {
        checkEqual(stream.status, 200, "status of the watch from the list's resourceVersion");
        const first = await collectEvents(stream, objects, before.length);
        const after = [await updateObject(context, objects.name("c"), { v: "2" }), await createObject(context, objects.name("d"), { v: "1" })];
        const second = await collectEvents(stream, objects, after.length);
        const extra = await drainEvents(stream, objects, quietMs(context));
        const events = [...first.events, ...second.events, ...extra.events];
        checkEventTypes(events);
        checkChanges(events, [...before, ...after], "events of a watch from the list's resourceVersion (deletions as DELETED, per Kubernetes)");
        checkEventObjects(events);
        const now = await listOurs(context, objects);
        checkEqual(fold(listed.items, events), versionsOf(now.items), "the list plus the watch's events (name → resourceVersion) against a fresh list");
      } finally {
        await stream.close();
      }
    },
  },
  {
    name: "stream-of-json-documents",
    clauses: ["doc1/4.6/watch/chunked-json", "doc1/4.6/watch/json-documents", "doc1/6/one-json-document", "doc1/4.2/watch"],
    tags: ["mutating"],
    async run(context) {
      const objects = scope(context, "fmt");
      const listed = await listOurs(context, objects);
      const writes = [
        await createObject(context, objects.name("a"), { v: "1" }),
        await updateObject(context, objects.name("a"), { v: "2" }),
        await createObject(context, objects.name("b"), { v: "1" }),
      ];
      // The whole body of a watch that the server ends after 2 s (timeoutSeconds, which Kubernetes honours).
      const response = await context.client.get(`${configMaps(context)}?watch=1&resourceVersion=${q(listed.resourceVersion)}&timeoutSeconds=2`);
      checkEqual(response.status, 200, "status of the watch");
      const contentType = response.headers.get("content-type") ?? "";
      checkEqual(contentType.split(";")[0]!.trim(), "application/json", `media type of the watch's Content-Type (${JSON.stringify(contentType)})`);
      const transferEncoding = response.headers.get("transfer-encoding");
      if (transferEncoding !== null) {
        check(/\bchunked\b/i.test(transferEncoding), `Transfer-Encoding of the watch: expected chunked, got ${JSON.stringify(transferEncoding)}`);
      } else {
        // HTTP/2 and in-process transports have no Transfer-Encoding; a streamed body still has no length.
        check(response.headers.get("content-length") === null, `the watch was not streamed: no Transfer-Encoding, Content-Length ${response.headers.get("content-length")}`);
      }
      const { documents, error } = splitJsonDocuments(response.text);
      check(error === undefined, `the watch body is not a series of JSON documents: ${error}`);
      const events: WatchLine[] = [];
      for (const document of documents) {
        let parsed: any;
        try {
          parsed = JSON.parse(document);
        } catch (parseError) {
          throw new Error(`unreachable: a balanced document failed to parse: ${String(parseError)}`);
        }
        check(typeof parsed?.type === "string" && typeof parsed?.object === "object" && parsed.object !== null, `a document of the watch is not a watch event (type and object): ${document.slice(0, 200)}`);
        if (!foreign(parsed as WatchLine, objects)) events.push(parsed as WatchLine);
      }
      checkChanges(events, writes, "the documents of the watch body, one per event");
      // The same through the stream reader: one document per line, each parses on its own.
      const stream = await openWatch(context, `resourceVersion=${q(listed.resourceVersion)}`);
      try {
        const read = await collectEvents(stream, objects, writes.length);
        check(!read.events.some((event) => event.type === "UNPARSEABLE"), `a line of the watch is not one JSON document: ${read.events.map(describeEvent).join(", ")}`);
        checkChanges(read.events, writes, "events read one by one");
      } finally {
        await stream.close();
      }
    },
  },
  {
    name: "response-headers-before-the-first-event",
    clauses: ["doc1/4.6/watch/chunked-json", "doc1/4.2/watch"],
    tags: [],
    async run(context) {
      // A watch from the current version with nothing changing: the response (status, headers)
      // must come at once, not with the first event, or a client cannot tell the watch started.
      const listed = await context.client.get(configMaps(context));
      check(listed.status === 200, `setup: listing ConfigMaps answered ${listed.status}`);
      const version = String(listed.json?.metadata?.resourceVersion ?? "");
      const opening = context.client.watch(`${configMaps(context)}?watch=1&resourceVersion=${q(version)}`);
      const outcome = await Promise.race([opening, delay(5_000)]);
      if (outcome === "timeout") {
        void opening.then((stream) => stream.close()).catch(() => undefined);
        check(false, "a watch with no event to send yet gave no response (status and headers) within 5 s; the response must not wait for the first event");
        return;
      }
      try {
        checkEqual(outcome.status, 200, "status of the watch");
        const contentType = outcome.headers.get("content-type") ?? "";
        checkEqual(contentType.split(";")[0]!.trim(), "application/json", "media type of the watch's Content-Type");
      } finally {
        await outcome.close();
      }
    },
  },
  {
    name: "restart-from-last-resource-version",
    clauses: ["doc1/4.6/watch/restart", "doc1/4.7/watch/rv-other", "doc1/4.7/watch/start-at-exact/changes-after", "doc1/6/itemize"],
    tags: ["mutating"],
    async run(context) {
      const objects = scope(context, "rs");
      await createObject(context, objects.name("a"), { v: "1" });
      await createObject(context, objects.name("b"), { v: "1" });
      const listed = await listOurs(context, objects);
      const changes = [
        await updateObject(context, objects.name("a"), { v: "2" }),
        await updateObject(context, objects.name("b"), { v: "2" }),
        await createObject(context, objects.name("c"), { v: "1" }),
        await deleteObject(context, objects.name("b")),
      ];
      const first = await openWatch(context, `resourceVersion=${q(listed.resourceVersion)}`);
      let delivered: WatchLine[];
      try {
        checkEqual(first.status, 200, "status of the first watch");
        delivered = (await collectEvents(first, objects, 2)).events;
      } finally {
        await first.close();
      }
      checkChanges(delivered, changes.slice(0, 2), "the first two events before the disconnect");
      const last = eventVersion(delivered[1]!);
      check(typeof last === "string" && last !== "", `the last event carried no resourceVersion: ${describeEvent(delivered[1]!)}`);
      // Changes while the client is away.
      changes.push(await updateObject(context, objects.name("c"), { v: "2" }), await createObject(context, objects.name("d"), { v: "1" }));
      const second = await openWatch(context, `resourceVersion=${q(last)}`);
      try {
        checkEqual(second.status, 200, `status of the watch restarted from the last returned resourceVersion ${last}`);
        const resumed = await collectEvents(second, objects, changes.length - 2);
        const extra = await drainEvents(second, objects, quietMs(context));
        checkChanges([...resumed.events, ...extra.events], changes.slice(2), `events after restarting from ${last} (no duplicates, no misses)`);
      } finally {
        await second.close();
      }
    },
  },
  {
    name: "bookmarks-when-asked",
    clauses: [
      "doc1/4.2/allow-watch-bookmarks",
      "doc1/6/bookmark/requested-only",
      "doc1/6/bookmark/object",
      "doc1/6/bookmark/meaning",
      "doc1/2.4/bookmark/resource-version-only",
      "doc1/2.4/type/values",
    ],
    tags: ["mutating", "virtual-time"],
    async run(context) {
      const objects = scope(context, "bm");
      await createObject(context, objects.name("a"), { v: "1" });
      const listed = await listOurs(context, objects);
      const writes = [await updateObject(context, objects.name("a"), { v: "2" }), await createObject(context, objects.name("b"), { v: "1" })];
      const asked = await openWatch(context, `resourceVersion=${q(listed.resourceVersion)}&allowWatchBookmarks=true`);
      const notAsked = await openWatch(context, `resourceVersion=${q(listed.resourceVersion)}`);
      const seen: WatchLine[] = [];
      const seenNotAsked: WatchLine[] = [];
      try {
        checkEqual([asked.status, notAsked.status], [200, 200], "status of the watches with and without allowWatchBookmarks");
        // Bookmarks are optional (doc 1 §6): wait a bounded time for one, write once after it, wait
        // for the next, and check whatever arrives. Kubernetes sends one about every minute (none
        // with its watch cache off).
        const drainBoth = async () => {
          seen.push(...(await drainEvents(asked, objects, quietMs(context))).events);
          seenNotAsked.push(...(await drainEvents(notAsked, objects, quietMs(context))).events);
          return seen.filter((event) => event.type === "BOOKMARK").length;
        };
        const boundMs = context.virtualTime ? 10_000 : BOOKMARK_BOUND_MS;
        const first = await context.pollUntil({ what: "a BOOKMARK event (optional)", withinMs: boundMs, probe: async () => ((await drainBoth()) > 0 ? true : undefined) });
        if (first.value === true) {
          const before = seen.filter((event) => event.type === "BOOKMARK").length;
          writes.push(await updateObject(context, objects.name("b"), { v: "2" }));
          await context.pollUntil({ what: "a BOOKMARK event after a write (optional)", withinMs: boundMs, probe: async () => ((await drainBoth()) > before ? true : undefined) });
        }
        await drainBoth();
      } finally {
        await asked.close();
        await notAsked.close();
      }
      checkEventTypes([...seen, ...seenNotAsked]);
      const unasked = seenNotAsked.filter((event) => event.type === "BOOKMARK");
      check(unasked.length === 0, `a watch without allowWatchBookmarks got ${unasked.length} BOOKMARK event(s): ${unasked.map(describeEvent).join(", ")}`);
      checkChanges(seenNotAsked, writes, "events of the watch without bookmarks");
      checkChanges(seen.filter((event) => event.type !== "BOOKMARK"), writes, "non-bookmark events of the watch with bookmarks");
      for (const [index, event] of seen.entries()) {
        if (event.type !== "BOOKMARK") continue;
        checkBookmarkObject(event, context.dialect);
        // Doc 1 §6: all changes up to the bookmark's version have been sent. Then the changes sent
        // before it plus a watch from its version are every change, each once.
        const version = String(eventVersion(event));
        const before = seen.slice(0, index).filter((line) => line.type !== "BOOKMARK");
        const from = await openWatch(context, `resourceVersion=${q(version)}`);
        try {
          checkEqual(from.status, 200, `status of a watch from the bookmark's resourceVersion ${version}`);
          const after = await drainEvents(from, objects, quietMs(context));
          checkChanges(
            [...before, ...after.events],
            writes,
            `events sent before the BOOKMARK at ${version}, then a watch from ${version} (a change up to the bookmark not yet sent, or one sent twice, breaks it)`,
          );
        } finally {
          await from.close();
        }
      }
    },
  },
  {
    name: "expired-version-410",
    clauses: ["doc1/7/410/watch-too-old", "doc1/7/410/outside-retained", "doc1/6/event-names/not-shown", "doc1/4.7/watch/rv-other"],
    tags: ["mutating", "virtual-time"],
    async run(context) {
      const objects = scope(context, "gone");
      await createObject(context, objects.name("a"), { v: "1" });
      const listed = await listOurs(context, objects);
      // Later writes, so that compaction has later revisions to keep.
      const changes = [await updateObject(context, objects.name("a"), { v: "2" }), await updateObject(context, objects.name("a"), { v: "3" })];
      const retention = await context.retention();
      let lastEvents: WatchLine[] = [];
      const outcome = await context.pollUntil({
        what: `a watch from resourceVersion ${listed.resourceVersion} to answer 410 (${describeRetention(retention)})`,
        withinMs: retention.certainlyGoneMs,
        probe: async () => {
          const stream = await openWatch(context, `resourceVersion=${q(listed.resourceVersion)}`);
          try {
            const start = await watchStart(stream, objects, changes.length, context);
            if (start.kind === "other") check(false, `a watch from a compacted resourceVersion: expected 410 (a 410 Status, or HTTP 200 and an ERROR event with a 410 Status), got ${start.detail}`);
            if (start.kind === "gone") return start;
            // Until then, the server still holds the version: the watch must replay every change since.
            checkChanges(start.events, changes, "events of a watch from an old resourceVersion that the server still retains");
            lastEvents = start.events;
            return undefined;
          } finally {
            await stream.close();
          }
        },
      });
      if (outcome.value !== undefined) return;
      // Only a server that serves watches from its retained history alone must have dropped the
      // version by now; a real server's watch cache may still hold it (doc 1 §7: "cache dependent").
      check(
        context.historyWindowMs === undefined,
        `a watch from a resourceVersion replaced ${Math.round(outcome.waitedMs / 1000)} s ago (${describeRetention(retention)}) should get 410, got the events [${lastEvents.map(describeEvent).join(", ")}]`,
      );
    },
  },
  {
    name: "history-retained-within-window",
    clauses: ["doc1/8/retained-history", "doc1/4.7/watch/start-at-exact/changes-after"],
    tags: ["mutating", "virtual-time"],
    async run(context) {
      // Learned first: measuring it takes time, which the version must not spend.
      const retention = await context.retention();
      const objects = scope(context, "kept");
      await createObject(context, objects.name("a"), { v: "1" });
      const listed = await listOurs(context, objects);
      const changes = [await updateObject(context, objects.name("a"), { v: "2" })];
      const waitMs = wellInsideRetentionMs(retention);
      await context.advance(waitMs);
      changes.push(await updateObject(context, objects.name("a"), { v: "3" }));
      const stream = await openWatch(context, `resourceVersion=${q(listed.resourceVersion)}`);
      try {
        const start = await watchStart(stream, objects, changes.length, context);
        if (start.kind === "gone") {
          // A real server serves watches from its cache, which may hold less (doc 1 §7: "cache dependent").
          check(context.historyWindowMs === undefined, `a watch from a resourceVersion ${waitMs / 1000} s old (${describeRetention(retention)}) got 410 (${start.form})`);
          return;
        }
        if (start.kind === "other") check(false, `a watch from a resourceVersion inside the history window: ${start.detail}`);
        if (start.kind === "events") checkChanges(start.events, changes, "events of a watch from a resourceVersion inside the history window");
      } finally {
        await stream.close();
      }
    },
  },
]);

/**
 * Doc 1 §2.4, §6 and deviation bookmark-object: the requested type and only
 * metadata.resourceVersion. Fields set to null come in a form the dialect may give
 * (dialect-answers.ts): never for orb (strict: doc 1 says "only"), allowed for kubernetes (1.26
 * adds creationTimestamp: null, transcript watch-from-rv; a Go zero value, which releases differ on).
 */
function checkBookmarkObject(event: WatchLine, dialect: Dialect): void {
  const object = event.object ?? {};
  check(object.kind === "ConfigMap" && object.apiVersion === "v1", `a BOOKMARK's object should have the requested type (ConfigMap, v1), got ${JSON.stringify(object).slice(0, 200)}`);
  const extraFields = Object.keys(object).filter((key) => !["kind", "apiVersion", "metadata"].includes(key));
  check(extraFields.length === 0, `a BOOKMARK's object carries only kind, apiVersion and metadata, got also ${extraFields.join(", ")}`);
  const metadata = object.metadata ?? {};
  check(typeof metadata.resourceVersion === "string" && metadata.resourceVersion !== "", `a BOOKMARK's metadata.resourceVersion should be a non-empty string, got ${JSON.stringify(metadata.resourceVersion)}`);
  const extraMetadata = Object.entries(metadata).filter(([key, value]) => key !== "resourceVersion" && value !== null);
  check(
    extraMetadata.length === 0,
    `a BOOKMARK's metadata carries only resourceVersion (doc 1 §2.4; deviation bookmark-object allows at most fields set to null), got also ${extraMetadata.map(([key]) => key).join(", ")}`,
  );
  const nullFields = Object.keys(metadata).filter((key) => key !== "resourceVersion");
  checkAnswerForm(
    dialect,
    "bookmark-object",
    nullFields.length === 0 ? "resource-version-only" : "null-creation-timestamp",
    `a BOOKMARK's metadata ${nullFields.length === 0 ? "holds only resourceVersion" : `also holds ${nullFields.map((key) => `${key}: null`).join(", ")}`}`,
  );
}
