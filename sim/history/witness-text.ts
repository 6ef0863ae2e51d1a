/**
 * The words of witnesses: one operation, change or event named the way a reader of the timeline
 * finds it again (its id, its client, its times), so that an explanation is one checkable sentence.
 */
import type { ObjectState, Operation, WatchEvent, WriteOperation } from "./api-history.ts";

/** Milliseconds as the timeline shows them. */
export function ms(value: number | undefined): string {
  return value === undefined ? "never" : `${value.toFixed(1)} ms`;
}

/** An object state: name, value and version. */
export function describeObject(object: ObjectState | undefined): string {
  if (object === undefined) return "no object";
  const value = object.value === undefined ? "" : `=${object.value}`;
  return `${object.name}${value} (rv ${object.resourceVersion})`;
}

function answered(operation: Operation): string {
  return operation.endMs === undefined ? "never answered" : `answered at ${ms(operation.endMs)}`;
}

/** A write, with what it wrote and when. */
export function describeWrite(write: WriteOperation): string {
  const value = write.value === undefined ? "" : ` = ${write.value}`;
  return `write #${write.id} (${write.verb} ${write.name}${value}, client ${write.client}, sent at ${ms(write.startMs)}, ${answered(write)})`;
}

/** Any operation, with its client and times. */
export function describeOperation(operation: Operation): string {
  switch (operation.kind) {
    case "write":
      return describeWrite(operation);
    case "watch": {
      const from = operation.resourceVersion === undefined ? "without resourceVersion" : `from rv ${operation.resourceVersion}`;
      const selector = operation.labelSelector === undefined ? "" : `, selector ${operation.labelSelector}`;
      return `watch #${operation.id} (client ${operation.client}, ${from}${selector}, opened at ${ms(operation.startMs)})`;
    }
    case "get": {
      const at = operation.resourceVersion === undefined ? "" : ` at rv ${operation.resourceVersion}`;
      return `get #${operation.id} (${operation.name}${at}, client ${operation.client}, sent at ${ms(operation.startMs)}, ${answered(operation)})`;
    }
    case "list": {
      const at = operation.resourceVersion === undefined ? "" : ` at rv ${operation.resourceVersion}${operation.resourceVersionMatch === undefined ? "" : ` (${operation.resourceVersionMatch})`}`;
      const selector = operation.labelSelector === undefined ? "" : `, selector ${operation.labelSelector}`;
      const paging = operation.limit === undefined ? "" : `, limit ${operation.limit}, ${operation.pages.length} page(s)`;
      return `list #${operation.id} (client ${operation.client}${at}${selector}${paging}, sent at ${ms(operation.startMs)}, ${answered(operation)})`;
    }
  }
}

/** One event of a watch, as the stream delivered it. */
export function describeEvent(event: WatchEvent): string {
  switch (event.type) {
    case "BOOKMARK":
      return `BOOKMARK rv ${event.bookmarkVersion ?? "?"} (at ${ms(event.atMs)})`;
    case "ERROR":
      return `ERROR ${event.status?.code ?? "?"} ${event.status?.reason ?? ""} (at ${ms(event.atMs)})`;
    default:
      return `${event.type} ${describeObject(event.object)} (at ${ms(event.atMs)})`;
  }
}

/** What witnesses need of a change (a ChangeNode). */
export interface ChangeLike {
  readonly kind: "write" | "delete" | "unknown";
  readonly version: string;
  readonly object: ObjectState;
}

/** A change: what it did, its version, and the write that made it when known. */
export function describeChange(change: ChangeLike, write: WriteOperation | undefined): string {
  const what =
    change.kind === "write"
      ? `${change.object.name}=${change.object.value ?? "?"}`
      : change.kind === "delete"
        ? `deletion of ${change.object.name}`
        : `change of ${change.object.name}`;
  const by = write === undefined ? "" : `, by write #${write.id} of ${write.client}`;
  return `change ${what} (rv ${change.version}${by})`;
}
