/**
 * Reading a watch (doc 1 §2.4, §6): opening one on the namespace's ConfigMaps, collecting the
 * case's events, and checking them against the changes the case made.
 */
import type { CaseContext } from "../../case-context.ts";
import { check } from "../../check.ts";
import type { WatchLine, WatchStream } from "../../client/conformance-client.ts";
import { recordOf } from "../../client/json-fields.ts";
import { configMaps } from "./config-maps.ts";
import { metadataOf } from "./object-body.ts";
import type { Change, Scope } from "./scoped-objects.ts";

/** Longest wait, in real time, for an event the case knows is due. */
export const EVENT_BOUND_MS = 10_000;

/** How long a stream must stay silent before a case concludes nothing more is coming. */
export function quietMs(context: Pick<CaseContext, "virtualTime">): number {
  // Virtual-time servers push events synchronously with the write; real ones may lag a little.
  return context.virtualTime ? 100 : 750;
}

/** Opens a watch on the namespace's ConfigMaps with `query` (after `watch=1`). */
export function openWatch(context: CaseContext, query: string): Promise<WatchStream> {
  return context.client.watch(`${configMaps(context)}?watch=1${query === "" ? "" : `&${query}`}`);
}

/** The name of the object an event carries. */
export function eventName(line: WatchLine): unknown {
  return metadataOf(line.object).name;
}

/** The resourceVersion of the object an event carries. */
export function eventVersion(line: WatchLine): unknown {
  return metadataOf(line.object).resourceVersion;
}

const OBJECT_EVENTS = new Set(["ADDED", "MODIFIED", "DELETED"]);

/** True for an event about an object the case did not write (the server's own objects). */
export function foreign(line: WatchLine, objects: Scope): boolean {
  return OBJECT_EVENTS.has(line.type) && !objects.ours(eventName(line));
}

/** An event for a failure message: `TYPE name@resourceVersion`. */
export function describeEvent(line: WatchLine): string {
  if (line.type === "BOOKMARK") return `BOOKMARK @${String(eventVersion(line))}`;
  if (line.type === "ERROR") return `ERROR ${recordOf(line.object).code ?? ""} ${recordOf(line.object).reason ?? ""}`.trim();
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
    const object = recordOf(event.object);
    check(
      object.kind === "ConfigMap" && object.apiVersion === "v1",
      `the object of ${describeEvent(event)} should be a ConfigMap of apiVersion v1 (the requested kind), got kind ${JSON.stringify(object.kind)} apiVersion ${JSON.stringify(object.apiVersion)}`,
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
