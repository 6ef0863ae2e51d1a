/**
 * resourceVersion semantics of a watch (doc 1 §4.7, §6): one case per cell of the watch table,
 * generated from spec/doc1/resource-version-tables.ts: where the watch starts, and the synthetic
 * ADDED events of the state it starts from.
 */
import type { ClauseId } from "../../spec/doc1/clauses.ts";
import { watchSemantics, watchTableCells, type TableCell, type WatchSemantic } from "../../spec/doc1/resource-version-tables.ts";
import type { CaseContext } from "../case-context.ts";
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import { sameState, show, versionOf, type Version } from "./support/object-states.ts";
import { q } from "./support/query.ts";
import { caseName, testable } from "./support/resource-version-cells.ts";
import { createObject, listOurs, scope, updateObject } from "./support/scoped-objects.ts";
import { checkChanges, checkEventObjects, collectEvents, describeEvent, drainEvents, eventName, openWatch, quietMs } from "./support/watch-events.ts";

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

export const resourceVersionWatchCases = defineCases(
  "resource-version",
  watchTableCells.map((cell) => ({
    name: caseName(cell.clause),
    clauses: watchCellClauses(cell),
    tags: ["mutating"] as const,
    run: (context: CaseContext) => runWatchCell(context, cell),
  })),
);
