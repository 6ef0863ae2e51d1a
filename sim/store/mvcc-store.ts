/**
 * The MVCC object store behind the API server: one global revision, every retained version of
 * every key, a change log for watches, time-based compaction and signed continue tokens.
 *
 * Revision rules (etcd's, which Kubernetes inherits): the empty store is at revision 1; every
 * write (create, update, delete) takes the next revision. Reads, watches and continue tokens at a
 * revision r work for compactedRevision <= r <= revision and fail with ExpiredError below it
 * (doc 1 §7, 410) and TooLargeResourceVersionError above it (doc 1 §7, 504).
 */
import { assert } from "../kernel/assert.ts";
import type { Clock, TimerHandle } from "../kernel/clock.ts";
import { historyWindowMs as documentedHistoryWindowMs } from "../../spec/doc1/limits.ts";
import { ChangeLog, type Change, type ChangeType } from "./change-log.ts";
import { ContinueTokenCodec } from "./continue-token.ts";
import {
  AlreadyExistsError,
  ConflictError,
  ExpiredError,
  InvalidContinueTokenError,
  NotFoundError,
  TooLargeResourceVersionError,
} from "./errors.ts";
import { KeyHistory } from "./key-history.ts";
import { EncodedObjectKey, encodeKey, keyAfter, type ObjectKey } from "./object-key.ts";
import { decimalResourceVersions, type ResourceVersionCodec } from "./resource-version.ts";
import { SortedKeyIndex } from "./sorted-key-index.ts";
import { freezeWithResourceVersion, restampResourceVersion, type StoredObject } from "./stored-object.ts";
import { WATCH_BUFFER_CAPACITY, Watch, eventForChange, type BookmarkEvent, type ObjectEvent } from "./watch.ts";

/** How a store is built. */
export interface MvccStoreOptions {
  /** Time source for change times, compaction and bookmark timers. */
  readonly clock: Clock;
  /**
   * Secret for signing continue tokens (16 bytes or more). In a simulation draw it from the run's
   * Rng, so runs replay; a server that faces real clients must use real randomness, since anyone
   * who knows the seed could forge tokens.
   */
  readonly tokenKey: Uint8Array;
  /** How long history is kept before compaction may drop it (doc 1 §8: 5 minutes by default). */
  readonly historyWindowMs?: number;
  /** How revisions are written as resourceVersion strings. */
  readonly resourceVersions?: ResourceVersionCodec;
  /** Live events a watcher may leave unread before it is closed (see WATCH_BUFFER_CAPACITY). */
  readonly watchCapacity?: number;
  /** Bugs of the API server's concurrency defects that live in the store (PlantedStoreDefects); none by default. */
  readonly plantedDefects?: PlantedStoreDefects;
}

/**
 * What the store does wrong for the API server's planted concurrency defects
 * (sim/apiserver/defects/defects.ts, sim/apiserver/defects/write-pipeline.ts): only `serve --defect` and tests set
 * this, never a simulation.
 */
export interface PlantedStoreDefects {
  /** "watch-drops-simultaneous-write": a change committed at the same instant as the change before it reaches no watcher. */
  readonly dropSameInstantEvents?: boolean;
  /**
   * "versions-assigned-before-commit": the revision handed out (reserveRevision) to the write
   * committing now, or undefined for a write that has none (it takes a new one).
   */
  readonly reservedRevision?: () => number | undefined;
}

/** A resourceVersion precondition on a write: the object must still be at this revision. */
export interface WritePreconditions {
  readonly expectedRevision?: number;
}

/** A list of one collection (a key prefix), whole or one page of it. */
export interface ListOptions {
  readonly prefix: string;
  /** Read at this revision; the latest when undefined. Not allowed with `continueToken`. */
  readonly revision?: number;
  /** At most this many items (>= 1); all when undefined. */
  readonly limit?: number;
  /** Resume a paged list at its snapshot revision (doc 1 §4.7, "Continue Token, Exact"). */
  readonly continueToken?: string;
  /** Only objects for which this holds (selectors); disables remainingItemCount (doc 1 §2.3). */
  readonly filter?: (object: StoredObject) => boolean;
}

/** One page (or all) of a list. */
export interface ListResult {
  readonly items: readonly StoredObject[];
  /** The snapshot revision the list was read at: the same for every page of one list. */
  readonly revision: number;
  /** Token for the next page; undefined when the list is complete. */
  readonly continueToken?: string;
  /** Items after this page; only for unfiltered, incomplete lists (doc 1 §2.3). */
  readonly remainingItemCount?: number;
}

/** A watch request. */
export interface WatchOptions {
  readonly prefix: string;
  /** Deliver changes after this revision; the latest when undefined. */
  readonly fromRevision?: number;
  /** Start with a synthetic ADDED event per object at the start revision (doc 1 §4.7, watch table). */
  readonly initialState?: boolean;
  readonly filter?: (object: StoredObject) => boolean;
  /** Send a BOOKMARK with the store's revision this often (doc 1 §6); none when undefined. */
  readonly bookmarkIntervalMs?: number;
}

/**
 * What a subscription delivers changes to: a Watch, or a consumer that buffers for many watchers
 * at once (the API server's watch broadcast, sim/apiserver/watch/watch-broadcast.ts).
 */
export interface ChangeSink {
  push(event: ObjectEvent): void;
  close(): void;
}

interface Subscription {
  readonly prefix: string;
  readonly filter: (object: StoredObject) => boolean;
  readonly watch: ChangeSink;
}

interface RevisionWaiter {
  readonly revision: number;
  readonly resolve: () => void;
  readonly timer: TimerHandle;
}

const matchEverything = (): boolean => true;

/** The MVCC object store. */
export class MvccStore {
  readonly resourceVersions: ResourceVersionCodec;
  readonly historyWindowMs: number;
  private readonly clock: Clock;
  private readonly tokens: ContinueTokenCodec;
  /** Live events a watch may leave unread before it is cut off (watch.ts). */
  readonly watchCapacity: number;
  private readonly histories = new Map<string, KeyHistory>();
  // The histories compaction may shorten (see KeyHistory.compactable): a compaction visits these,
  // not every key (150,000 pods written once, and 5,000 leases renewed every 10 s).
  private readonly compactable = new Set<KeyHistory>();
  private readonly keys = new SortedKeyIndex();
  private readonly changes = new ChangeLog();
  private readonly subscriptions = new Set<Subscription>();
  private waiters: RevisionWaiter[] = [];
  private currentRevision = 1;
  private compacted = 1;
  private readonly planted: PlantedStoreDefects | undefined;
  // For the planted defects: the highest revision handed out, and the commit time of the last change.
  private reservedThrough = 0;
  private lastFanOutMs: number | undefined;

  constructor(options: MvccStoreOptions) {
    this.clock = options.clock;
    this.tokens = new ContinueTokenCodec(options.tokenKey);
    this.historyWindowMs = options.historyWindowMs ?? documentedHistoryWindowMs;
    this.resourceVersions = options.resourceVersions ?? decimalResourceVersions;
    this.watchCapacity = options.watchCapacity ?? WATCH_BUFFER_CAPACITY;
    this.planted = options.plantedDefects;
  }

  /** The latest revision: that of the last write, or 1 for an empty store. */
  get revision(): number {
    return this.currentRevision;
  }

  /** Keys with retained history (live, or deleted within the history): what compaction forgets. */
  get keyCount(): number {
    return this.histories.size;
  }

  /** The oldest revision still readable. */
  get compactedRevision(): number {
    return this.compacted;
  }

  /** Creates an object; AlreadyExistsError when the key holds a live object. */
  create(key: ObjectKey, object: StoredObject): StoredObject {
    const encoded = this.checkedKey(key, object);
    const history = this.historyOf(key, encoded);
    if (history !== undefined && history.latestObject() !== null) throw new AlreadyExistsError(encoded);
    return this.commit("ADDED", encoded, object, undefined, history);
  }

  /** Replaces an object; NotFoundError when absent, ConflictError on a stale precondition. */
  update(key: ObjectKey, object: StoredObject, preconditions: WritePreconditions = {}): StoredObject {
    const encoded = this.checkedKey(key, object);
    const history = this.historyOf(key, encoded);
    const previous = this.existing(encoded, history, preconditions);
    return this.commit("MODIFIED", encoded, object, previous, history);
  }

  /** Removes an object and returns its last state stamped with the deletion's revision. */
  delete(key: ObjectKey, preconditions: WritePreconditions = {}): StoredObject {
    const encoded = encodeKey(key);
    const history = this.historyOf(key, encoded);
    const previous = this.existing(encoded, history, preconditions);
    return this.commit("DELETED", encoded, null, previous, history);
  }

  /** The object at `revision` (the latest when undefined), or undefined when absent there. */
  get(key: ObjectKey, revision?: number): StoredObject | undefined {
    const at = this.readableRevision(revision);
    return this.historyOf(key, encodeKey(key))?.at(at) ?? undefined;
  }

  /** A list of a key prefix at one revision, in key order, whole or paged. */
  list(options: ListOptions): ListResult {
    const { prefix, limit } = options;
    if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1)) throw new Error(`list: bad limit ${limit}`);
    const { revision, startKey } = this.listStart(options);
    const filter = options.filter ?? matchEverything;
    const items: StoredObject[] = [];
    let lastKey: string | undefined;
    let remaining = 0;
    for (const key of this.keys.scan(prefix, startKey)) {
      const object = this.histories.get(key)?.at(revision);
      if (object === null || object === undefined) continue;
      if (limit !== undefined && items.length >= limit) {
        // A full page with a filter continues while any object follows, matching or not, as
        // kube-apiserver's etcd store does (it reads keys in chunks and filters after): doc 1 says
        // only that the token is empty once the list is complete; `fuzz --target api` found a
        // 1.26 server answering a one-item page of a selector with a token and an empty next page.
        if (options.filter !== undefined) {
          remaining++;
          break;
        }
        remaining++;
        continue;
      }
      if (!filter(object)) continue;
      items.push(object);
      lastKey = key;
    }
    if (remaining === 0 || lastKey === undefined) return { items, revision };
    const continueToken = this.tokens.encode({ revision, prefix, startKey: keyAfter(lastKey) });
    // The token must resume the list at this page's snapshot: read back, as the next page will read it.
    assert(this.tokens.decode(continueToken).revision === revision, "store/page-token-revision", () => `a page read at ${revision} made a token of another revision`);
    return options.filter !== undefined
      ? { items, revision, continueToken }
      : { items, revision, continueToken, remainingItemCount: remaining };
  }

  /**
   * Opens a watch on a key prefix: (optionally) the state at the start revision as synthetic
   * ADDED events, then every change after it, in order, exactly once, then live changes.
   */
  watch(options: WatchOptions): Watch {
    const start = this.readableRevision(options.fromRevision);
    const filter = options.filter ?? matchEverything;
    let bookmarkTimer: TimerHandle | undefined;
    // With a planted defect a change may be sent behind a later one on purpose: order is not checked then.
    const watch = new Watch(this.watchCapacity, () => {
      this.subscriptions.delete(subscription);
      bookmarkTimer?.cancel();
    }, this.planted === undefined);
    const subscription: Subscription = { prefix: options.prefix, filter, watch };
    if (options.initialState === true) {
      for (const object of this.list({ prefix: options.prefix, revision: start, filter }).items) {
        watch.pushBacklog({ type: "ADDED", revision: start, object });
      }
    }
    for (const change of this.changes.after(start)) {
      if (!change.key.startsWith(options.prefix)) continue;
      const event = eventForChange(change, filter);
      if (event !== undefined) watch.pushBacklog(event);
    }
    this.subscriptions.add(subscription);
    const intervalMs = options.bookmarkIntervalMs;
    if (intervalMs !== undefined) {
      if (!(intervalMs > 0)) throw new Error(`watch: bad bookmark interval ${intervalMs}`);
      const sendBookmark = (): void => {
        if (watch.endReason !== undefined) return;
        watch.push(this.bookmark());
        bookmarkTimer = this.clock.setTimer(intervalMs, sendBookmark);
      };
      bookmarkTimer = this.clock.setTimer(intervalMs, sendBookmark);
    }
    return watch;
  }

  /**
   * Resolves once the store reaches `revision`; rejects with TooLargeResourceVersionError when it
   * has not within `maxWaitMs` (doc 1 §7: a version the server does not recognize yet).
   */
  waitForRevision(revision: number, maxWaitMs: number): Promise<void> {
    if (revision <= this.currentRevision) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = this.clock.setTimer(maxWaitMs, () => {
        this.waiters = this.waiters.filter((waiter) => waiter.timer !== timer);
        reject(new TooLargeResourceVersionError(revision, this.currentRevision));
      });
      this.waiters.push({ revision, resolve, timer });
    });
  }

  /**
   * Delivers every later change under `prefix` to `sink`, synchronously as it commits, until the
   * returned function is called. `closeAllWatches` closes the sink.
   */
  subscribe(prefix: string, sink: ChangeSink): () => void {
    const subscription: Subscription = { prefix, filter: matchEverything, watch: sink };
    this.subscriptions.add(subscription);
    return () => {
      this.subscriptions.delete(subscription);
    };
  }

  /** Subscriptions open now: watches (each ends when closed by its consumer, the store, or an overflow) and sinks. */
  get openWatches(): number {
    return this.subscriptions.size;
  }

  /** Ends every open watch (their buffered events can still be read); used when a server stops. */
  closeAllWatches(): void {
    for (const { watch } of [...this.subscriptions]) watch.close();
  }

  /** Drops history before `revision`: reads, watches and tokens below it fail with Expired. */
  compact(revision: number): void {
    if (revision > this.currentRevision) throw new Error(`compact: ${revision} is ahead of ${this.currentRevision}`);
    if (revision <= this.compacted) return;
    this.compacted = revision;
    this.changes.dropThrough(revision);
    const forgotten = new Set<string>();
    for (const history of this.compactable) {
      if (history.compact(revision)) {
        forgotten.add(history.key);
        this.histories.delete(history.key);
        history.retired = true;
        this.compactable.delete(history);
      } else if (!history.compactable) {
        this.compactable.delete(history); // one live version left: nothing to drop until the next write
      }
    }
    this.keys.removeAll(forgotten);
  }

  /**
   * Compacts away what is older than the history window: everything before the revision that was
   * current `historyWindowMs` ago. Run every compaction interval, history then survives between
   * one and two intervals, as on real servers. Returns the compacted revision.
   */
  compactExpiredHistory(): number {
    const cutoffMs = this.clock.nowMs() - this.historyWindowMs;
    const first = this.changes.first();
    const revisionAtCutoff =
      this.changes.lastRevisionAtOrBefore(cutoffMs) ??
      (first === undefined ? this.currentRevision : first.revision - 1);
    if (revisionAtCutoff > this.compacted) this.compact(revisionAtCutoff);
    return this.compacted;
  }

  /** The resourceVersion string of a revision, by this store's codec. */
  formatRevision(revision: number): string {
    return this.resourceVersions.format(revision);
  }

  private listStart(options: ListOptions): { revision: number; startKey: string } {
    if (options.continueToken === undefined) {
      return { revision: this.readableRevision(options.revision), startKey: options.prefix };
    }
    if (options.revision !== undefined) throw new Error("list: a continue token carries its own revision");
    const position = this.tokens.decode(options.continueToken);
    if (position.prefix !== options.prefix || !position.startKey.startsWith(options.prefix)) {
      throw new InvalidContinueTokenError("it belongs to another collection");
    }
    const revision = position.revision ?? this.currentRevision;
    if (revision < this.compacted) {
      // Offer to go on at the latest revision from the same key, as Kubernetes does in its 410.
      const inconsistent = this.tokens.encode({ revision: undefined, prefix: position.prefix, startKey: position.startKey });
      throw new ExpiredError(revision, this.compacted, inconsistent);
    }
    if (revision > this.currentRevision) throw new InvalidContinueTokenError("revision from the future");
    return { revision, startKey: position.startKey };
  }

  private readableRevision(revision: number | undefined): number {
    if (revision === undefined) return this.currentRevision;
    if (!Number.isSafeInteger(revision)) throw new Error(`store: bad revision ${revision}`);
    if (revision < this.compacted) throw new ExpiredError(revision, this.compacted);
    if (revision > this.currentRevision) throw new TooLargeResourceVersionError(revision, this.currentRevision);
    return revision;
  }

  // The history of `key` (encoded: `encoded`), if the store has one: through the key object when it
  // kept the history from an earlier write (EncodedObjectKey), else from the map of every key.
  private historyOf(key: ObjectKey, encoded: string): KeyHistory | undefined {
    if (!(key instanceof EncodedObjectKey)) return this.histories.get(encoded);
    const kept = key.historyOwner === this ? key.history : undefined;
    if (kept !== undefined && !kept.retired) return kept;
    const history = this.histories.get(encoded);
    key.historyOwner = this;
    key.history = history;
    return history;
  }

  private checkedKey(key: ObjectKey, object: StoredObject): string {
    const { name, namespace } = object.metadata;
    if (name !== key.name || (namespace ?? "") !== key.namespace) {
      throw new Error(`store: object ${namespace ?? ""}/${name} written at key of ${key.namespace}/${key.name}`);
    }
    return encodeKey(key);
  }

  // The latest object under `key`, whose history is `history` (looked up once per write by the caller).
  private existing(key: string, history: KeyHistory | undefined, preconditions: WritePreconditions): StoredObject {
    const version = history?.latest();
    if (version === undefined || version.type === "DELETED") throw new NotFoundError(key);
    const { expectedRevision } = preconditions;
    if (expectedRevision !== undefined && expectedRevision !== version.revision) {
      throw new ConflictError(key, expectedRevision, version.revision);
    }
    return version.object;
  }

  private commit(type: ChangeType, key: string, object: StoredObject | null, previous: StoredObject | undefined, known: KeyHistory | undefined): StoredObject {
    // Planted defect "versions-assigned-before-commit" (sim/apiserver/defects/defects.ts): the revision may have been handed out earlier.
    const revision = this.planted === undefined ? this.currentRevision + 1 : this.plantedRevision();
    const resourceVersion = this.resourceVersions.format(revision);
    const stored =
      object !== null
        ? freezeWithResourceVersion(object, resourceVersion)
        : restampResourceVersion(previous!, resourceVersion);
    let history = known;
    if (history === undefined) {
      history = new KeyHistory(key);
      this.histories.set(key, history);
      this.keys.add(key);
    }
    // One record serves the key's history and the change log; its key is the history's string.
    const change: Change = { type, key: history.key, revision, timeMs: this.clock.nowMs(), object: stored, previous, older: undefined };
    // Produced: each commit takes a revision after every earlier one (but for the planted defect below).
    assert(this.planted !== undefined || revision > this.currentRevision, "store/revision-grows", () => `commit at revision ${revision}, store at ${this.currentRevision}`);
    if (revision > this.currentRevision) {
      history.push(change);
      this.changes.append(change);
      this.currentRevision = revision;
    } else {
      // Planted defect "versions-assigned-before-commit" (sim/apiserver/defects/defects.ts): a write handed
      // its revision before a later-numbered write committed goes in behind it, and is sent after it.
      history.insertLate(change);
      this.changes.insertLate(change);
    }
    if (history.compactable) this.compactable.add(history);
    this.notify(change);
    return stored;
  }

  /**
   * Hands out a revision before its write commits: the planted defect
   * "versions-assigned-before-commit" (sim/apiserver/defects/defects.ts), whose write pipeline calls this
   * when a write arrives and commits it later with `PlantedStoreDefects.reservedRevision`.
   */
  reserveRevision(): number {
    this.reservedThrough = Math.max(this.reservedThrough, this.currentRevision) + 1;
    return this.reservedThrough;
  }

  // With planted defects: the revision handed out to the committing write, or a new one.
  private plantedRevision(): number {
    const reserved = this.planted?.reservedRevision;
    if (reserved === undefined) return this.currentRevision + 1;
    return reserved() ?? this.reserveRevision();
  }

  // Planted defect "watch-drops-simultaneous-write" (sim/apiserver/defects/defects.ts): whether `change`
  // was committed at the same instant as the change before it (and so is sent to nobody).
  private droppedAtSameInstant(change: Change): boolean {
    if (this.planted?.dropSameInstantEvents !== true) return false;
    const previousMs = this.lastFanOutMs;
    this.lastFanOutMs = change.timeMs;
    return previousMs === change.timeMs;
  }

  private notify(change: Change): void {
    // Watchers without a filter all get the same event: made once, not once per watcher (a
    // thousand watchers of one collection are common; events are immutable once made).
    let unfiltered: ObjectEvent | undefined;
    // Planted defect "watch-drops-simultaneous-write" (sim/apiserver/defects/defects.ts): a same-instant change reaches no watcher.
    const subscriptions = this.planted !== undefined && this.droppedAtSameInstant(change) ? [] : this.subscriptions;
    for (const { prefix, filter, watch } of subscriptions) {
      if (!change.key.startsWith(prefix)) continue;
      const event = filter === matchEverything ? (unfiltered ??= eventForChange(change, filter)) : eventForChange(change, filter);
      if (event !== undefined) watch.push(event);
    }
    if (this.waiters.length === 0) return;
    const ready = this.waiters.filter((waiter) => waiter.revision <= this.currentRevision);
    this.waiters = this.waiters.filter((waiter) => waiter.revision > this.currentRevision);
    for (const waiter of ready) {
      waiter.timer.cancel();
      waiter.resolve();
    }
  }

  private bookmark(): BookmarkEvent {
    const revision = this.currentRevision;
    return { type: "BOOKMARK", revision, object: { metadata: { resourceVersion: this.formatRevision(revision) } } };
  }
}
