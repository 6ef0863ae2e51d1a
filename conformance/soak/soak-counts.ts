/**
 * What a history holds, counted by kind and outcome: writes by verb (label flips and conditioned
 * writes apart), gets and lists by resourceVersion mode, paged lists, watches by how they started,
 * their events and how they ended. From the history alone, so a saved history (`soak --check`)
 * is counted as the run that recorded it.
 */
import type { ApiHistory, ListOperation, Operation, WatchOperation, WriteOperation } from "../../sim/history/api-history.ts";
import { SELECTED_LABEL } from "./soak-settings.ts";

/** Operations of one sort, by outcome: ok, failed (by HTTP status), uncertain (no answer). */
export interface OutcomeTally {
  readonly total: number;
  readonly ok: number;
  /** HTTP status → count. */
  readonly failed: Readonly<Record<string, number>>;
  readonly uncertain: number;
}

/** The counts of a history. */
export interface SoakCounts {
  readonly operations: number;
  /** "create", "update", "update if-version", "patch", "patch if-version", "label flip", "delete", "delete if-version". */
  readonly writes: Readonly<Record<string, OutcomeTally>>;
  /** "most recent", "any (0)", "not older than". */
  readonly gets: Readonly<Record<string, OutcomeTally>>;
  /** The same, plus "exact", each also "… paged"; a list's outcome is its last page's. */
  readonly lists: Readonly<Record<string, OutcomeTally>>;
  readonly pages: { readonly total: number; readonly multiPageLists: number };
  /** How each watch started: "from now", "from any (0)", "after a list", "resumed"; its outcome is the opening's. */
  readonly watches: Readonly<Record<string, OutcomeTally>>;
  readonly watchDetails: {
    readonly withBookmarks: number;
    readonly withSelector: number;
    readonly events: number;
    /** Event type → count. */
    readonly eventTypes: Readonly<Record<string, number>>;
    /** How the streams ended: server-closed, client-closed, connection-lost, run-ended. */
    readonly endings: Readonly<Record<string, number>>;
  };
}

/** Counts the operations of `history`. */
export function soakCounts(history: ApiHistory): SoakCounts {
  const writes = new TallyTable();
  const gets = new TallyTable();
  const lists = new TallyTable();
  const watches = new TallyTable();
  let pages = 0;
  let multiPageLists = 0;
  let withBookmarks = 0;
  let withSelector = 0;
  let events = 0;
  const eventTypes: Record<string, number> = {};
  const endings: Record<string, number> = {};
  for (const operation of history.operations) {
    switch (operation.kind) {
      case "write":
        writes.add(writeSort(operation), operation.answer);
        break;
      case "get":
        gets.add(versionSort(operation.resourceVersion, undefined), operation.answer);
        break;
      case "list": {
        const last = operation.pages.at(-1);
        lists.add(`${versionSort(operation.resourceVersion, operation.resourceVersionMatch, operation.limit)}${operation.limit === undefined ? "" : " paged"}`, last?.answer);
        pages += operation.pages.length;
        if (operation.pages.length > 1) multiPageLists++;
        break;
      }
      case "watch":
        watches.add(watchSort(operation), operation.opened);
        if (operation.allowWatchBookmarks) withBookmarks++;
        if (operation.labelSelector !== undefined) withSelector++;
        events += operation.events.length;
        for (const event of operation.events) eventTypes[event.type] = (eventTypes[event.type] ?? 0) + 1;
        endings[operation.ending] = (endings[operation.ending] ?? 0) + 1;
        break;
    }
  }
  return {
    operations: history.operations.length,
    writes: writes.tallies(),
    gets: gets.tallies(),
    lists: lists.tallies(),
    pages: { total: pages, multiPageLists },
    watches: watches.tallies(),
    watchDetails: { withBookmarks, withSelector, events, eventTypes, endings },
  };
}

/** `12 ok, 3 × 409, 1 uncertain`. */
export function outcomeText(tally: OutcomeTally): string {
  const parts = [`${tally.ok} ok`, ...Object.entries(tally.failed).map(([code, count]) => `${count} × ${code}`)];
  if (tally.uncertain > 0) parts.push(`${tally.uncertain} uncertain`);
  return parts.join(", ");
}

function writeSort(operation: WriteOperation): string {
  if (operation.verb === "patch" && operation.labels !== undefined && SELECTED_LABEL in operation.labels) return `label flip${operation.precondition === undefined ? "" : " if-version"}`;
  return `${operation.verb}${operation.precondition === undefined ? "" : " if-version"}`;
}

/** The resourceVersion mode of a read (doc 1 §4.7). */
function versionSort(resourceVersion: string | undefined, match: ListOperation["resourceVersionMatch"], limit?: number): string {
  if (resourceVersion === undefined) return "most recent";
  if (resourceVersion === "0") return "any (0)";
  if (match === "Exact" || (match === undefined && limit !== undefined)) return "exact";
  return "not older than";
}

function watchSort(operation: WatchOperation): string {
  if (operation.resumes?.kind === "watch") return "resumed";
  if (operation.resumes?.kind === "list") return "after a list";
  return operation.resourceVersion === "0" ? "from any (0)" : operation.resourceVersion === undefined ? "from now" : "from a version";
}

type Answer = Operation extends infer O ? (O extends { answer: infer A } ? A : never) : never;

class TallyTable {
  private readonly table = new Map<string, { total: number; ok: number; failed: Record<string, number>; uncertain: number }>();

  add(sort: string, answer: Answer | WatchOperation["opened"] | ListOperation["pages"][number]["answer"] | undefined): void {
    let tally = this.table.get(sort);
    if (tally === undefined) this.table.set(sort, (tally = { total: 0, ok: 0, failed: {}, uncertain: 0 }));
    tally.total++;
    if (answer === undefined || answer.type === "uncertain") tally.uncertain++;
    else if (answer.type === "failed") tally.failed[String(answer.code)] = (tally.failed[String(answer.code)] ?? 0) + 1;
    else tally.ok++;
  }

  tallies(): Record<string, OutcomeTally> {
    return Object.fromEntries([...this.table.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }
}
