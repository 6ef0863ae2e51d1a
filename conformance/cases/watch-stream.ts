/**
 * What a watch sends (doc 1 §2.4, §4.6.1, §6): a list then a watch from its version misses
 * nothing, the stream is a series of JSON documents, and the response starts before the first
 * event.
 */
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import type { WatchLine } from "../client/conformance-client.ts";
import { recordOf } from "../client/json-fields.ts";
import { configMaps } from "./support/config-maps.ts";
import { metadataOf } from "./support/object-body.ts";
import { q } from "./support/query.ts";
import { createObject, deleteObject, listOurs, scope, updateObject } from "./support/scoped-objects.ts";
import {
  checkChanges,
  checkEventObjects,
  checkEventTypes,
  collectEvents,
  describeEvent,
  drainEvents,
  eventName,
  eventVersion,
  foreign,
  openWatch,
  quietMs,
} from "./support/watch-events.ts";

/** Name → resourceVersion of a list's items. */
function versionsOf(items: readonly unknown[]): Record<string, unknown> {
  return Object.fromEntries(items.map((item) => [String(metadataOf(item).name), metadataOf(item).resourceVersion] as const).sort(([a], [b]) => String(a).localeCompare(String(b))));
}

/** The state a client holds after applying `events` to `items` (name → resourceVersion). */
function fold(items: readonly unknown[], events: readonly WatchLine[]): Record<string, unknown> {
  const state = new Map<string, unknown>(items.map((item) => [String(metadataOf(item).name), metadataOf(item).resourceVersion]));
  for (const event of events) {
    const name = String(eventName(event));
    if (event.type === "DELETED") state.delete(name);
    else if (event.type === "ADDED" || event.type === "MODIFIED") state.set(name, String(eventVersion(event)));
  }
  return Object.fromEntries([...state].sort(([a], [b]) => a.localeCompare(b)));
}


/** Splits a body into its top-level JSON documents; `error` says where it is not a series of documents. */
function splitJsonDocuments(text: string): { documents: string[]; error?: string } {
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

export const watchStreamCases = defineCases("watch", [
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
        let parsed: unknown;
        try {
          parsed = JSON.parse(document);
        } catch (parseError) {
          throw new Error(`unreachable: a balanced document failed to parse: ${String(parseError)}`);
        }
        const { type, object } = recordOf(parsed);
        check(typeof type === "string" && typeof object === "object" && object !== null, `a document of the watch is not a watch event (type and object): ${document.slice(0, 200)}`);
        // Checked just above: a string type and an object.
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
      const version = String(metadataOf(listed.json).resourceVersion ?? "");
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
]);
