/**
 * Resuming a watch (doc 1 §4.6.2, §6): restarted from the last resourceVersion it returned, or
 * from the version of a BOOKMARK, which a watch sends only when asked.
 */
import type { Dialect } from "../../spec/dialects.ts";
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import type { WatchLine } from "../client/conformance-client.ts";
import { recordOf } from "../client/json-fields.ts";
import { checkAnswerForm } from "./support/dialect-answers.ts";
import { q } from "./support/query.ts";
import { createObject, deleteObject, listOurs, scope, updateObject } from "./support/scoped-objects.ts";
import { checkChanges, checkEventTypes, collectEvents, describeEvent, drainEvents, eventVersion, openWatch, quietMs } from "./support/watch-events.ts";

/** How long a real server gets to send an (optional) BOOKMARK: Kubernetes sends one about every minute. */
const BOOKMARK_BOUND_MS = 75_000;

export const watchResumeCases = defineCases("watch", [
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
]);

/**
 * Doc 1 §2.4, §6 and deviation bookmark-object: the requested type and only
 * metadata.resourceVersion. Fields set to null come in a form the dialect may give
 * (dialect-answers.ts): never for orb (strict: doc 1 says "only"), allowed for kubernetes (1.26
 * adds creationTimestamp: null, transcript watch-from-rv; a Go zero value, which releases differ on).
 */
function checkBookmarkObject(event: WatchLine, dialect: Dialect): void {
  const object = event.object ?? {};
  const fields = recordOf(object);
  check(fields.kind === "ConfigMap" && fields.apiVersion === "v1", `a BOOKMARK's object should have the requested type (ConfigMap, v1), got ${JSON.stringify(object).slice(0, 200)}`);
  const extraFields = Object.keys(fields).filter((key) => !["kind", "apiVersion", "metadata"].includes(key));
  check(extraFields.length === 0, `a BOOKMARK's object carries only kind, apiVersion and metadata, got also ${extraFields.join(", ")}`);
  const metadata = recordOf(fields.metadata);
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
