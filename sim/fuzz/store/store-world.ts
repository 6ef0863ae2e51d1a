/**
 * What one fuzz run of the store works on: the store under test, the reference model beside it,
 * the simulation that owns time, and the pagers and watchers the commands have opened.
 */
import type { StoreInvariantId } from "../../../spec/invariants.ts";
import type { Simulation } from "../../kernel/simulation.ts";
import type { Trace } from "../../kernel/trace.ts";
import type { ListOptions, ListResult, WatchOptions, WritePreconditions } from "../../store/mvcc-store.ts";
import type { ObjectKey } from "../../store/object-key.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import type { WatchEndReason, WatchEvent } from "../../store/watch.ts";
import { ReferenceModel, type ReferenceEntry } from "./reference-model.ts";

/** The consumer side of a watch, as the fuzzer reads it. */
export interface WatchReader {
  tryNext(): WatchEvent | undefined;
  close(): void;
  readonly endReason: WatchEndReason | undefined;
}

/** The store operations the fuzzer drives; MvccStore has them, and so do planted-bug variants. */
export interface StoreUnderTest {
  readonly revision: number;
  readonly compactedRevision: number;
  readonly historyWindowMs: number;
  create(key: ObjectKey, object: StoredObject): StoredObject;
  update(key: ObjectKey, object: StoredObject, preconditions?: WritePreconditions): StoredObject;
  delete(key: ObjectKey, preconditions?: WritePreconditions): StoredObject;
  get(key: ObjectKey, revision?: number): StoredObject | undefined;
  list(options: ListOptions): ListResult;
  watch(options: WatchOptions): WatchReader;
  compact(revision: number): void;
  compactExpiredHistory(): number;
}

/** A paged list in progress. */
export interface Pager {
  readonly prefix: string;
  readonly limit: number;
  readonly firstRevision: number;
  readonly collected: StoredObject[];
  token: string;
}

/** A watcher that keeps a cache, reconnecting as a reflector does (doc 1 §4.6.2). */
export interface Watcher {
  readonly prefix: string;
  readonly bookmarkIntervalMs: number | undefined;
  reader: WatchReader;
  /** Revision up to which the watcher has seen every change. */
  seenRevision: number;
  /** Synthetic ADDED events still expected from an initial-state watch. */
  pendingInitial: Map<string, ReferenceEntry>;
  /** The watcher's view of the collection. */
  cache: Map<string, ReferenceEntry>;
  /** Revision of the last BOOKMARK, or 0. */
  lastBookmark: number;
}

/** A violated invariant, with what was seen. */
export class InvariantViolation extends Error {
  constructor(
    readonly invariant: StoreInvariantId,
    detail: string,
  ) {
    super(`${invariant}: ${detail}`);
  }
}

/** Bounds of the fuzzed workload: small, so that collisions, pages and compactions are common. */
export const WORLD_SHAPE = {
  resource: "configmaps",
  namespaces: ["a", "b"],
  names: ["n0", "n1", "n2", "n3", "n4"],
  historyWindowMs: 1_000,
  maxPagers: 3,
  maxWatchers: 3,
} as const;

/** The whole state of one run. */
export class StoreWorld {
  readonly reference = new ReferenceModel();
  readonly pagers: Pager[] = [];
  readonly watchers: Watcher[] = [];

  constructor(
    readonly store: StoreUnderTest,
    readonly sim: Simulation,
    readonly trace: Trace,
    /** The invariant this run enforces; checks of other invariants are not enforced. */
    readonly enforced: StoreInvariantId,
  ) {}

  /** Fails the run when `holds` is false and `invariant` is the one enforced. */
  expect(invariant: StoreInvariantId, holds: boolean, detail: () => string): void {
    if (!holds && invariant === this.enforced) throw new InvariantViolation(invariant, detail());
  }

  /** Records a line of this run in the trace. */
  note(event: string, details: unknown): void {
    this.trace.record(this.sim.nowMs(), "store-fuzz", event, details);
  }
}

/** The payload the fuzzer stores in an object (its `data.value`). */
export function valueOf(object: StoredObject): string {
  const data = object["data"] as { value?: unknown } | undefined;
  return String(data?.value);
}

/** A summary of an object for comparisons and messages: key, payload and resourceVersion. */
export function describe(key: string, entry: ReferenceEntry | undefined): string {
  return entry === undefined ? `${key}=absent` : `${key}=${entry.value}@${entry.revision}`;
}
