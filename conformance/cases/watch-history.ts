/**
 * Watches from old versions (doc 1 §7, §8): from a version still retained, every change since;
 * from one no longer retained, a 410.
 */
import type { CaseContext } from "../case-context.ts";
import { defineCases } from "../case-definition.ts";
import { check } from "../check.ts";
import type { WatchLine, WatchStream } from "../client/conformance-client.ts";
import { describeRetention } from "../retention.ts";
import { checkAnswerForm } from "./support/dialect-answers.ts";
import { isGoneStatus, wellInsideRetentionMs } from "./support/expired-versions.ts";
import { q } from "./support/query.ts";
import { createObject, listOurs, scope, updateObject, type Scope } from "./support/scoped-objects.ts";
import { checkChanges, collectEvents, describeEvent, drainEvents, EVENT_BOUND_MS, openWatch, quietMs } from "./support/watch-events.ts";

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
    const status: unknown = body === undefined || body === "timeout" ? undefined : body;
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

export const watchHistoryCases = defineCases("watch", [
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
