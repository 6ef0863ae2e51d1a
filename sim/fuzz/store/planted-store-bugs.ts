/**
 * Store variants with one planted bug each, built around the real store: the proof that each
 * store property has teeth (planted-store-bugs.test.ts), and the canary of docs/ARCHITECTURE.md, so a
 * fuzzer that silently stopped checking is noticed.
 */
import type { StoreInvariantId } from "../../../spec/invariants.ts";
import { ExpiredError } from "../../store/errors.ts";
import { MvccStore, type ListOptions, type ListResult, type MvccStoreOptions, type WatchOptions, type WritePreconditions } from "../../store/mvcc-store.ts";
import type { ObjectKey } from "../../store/object-key.ts";
import { restampResourceVersion, type StoredObject } from "../../store/stored-object.ts";
import type { WatchEvent } from "../../store/watch.ts";
import type { StoreUnderTest, WatchReader } from "./store-world.ts";

/** Passes every call to a real store; each planted bug overrides one method. */
class DelegatingStore implements StoreUnderTest {
  readonly inner: MvccStore;
  constructor(options: MvccStoreOptions) {
    this.inner = new MvccStore(options);
  }
  get revision(): number {
    return this.inner.revision;
  }
  get compactedRevision(): number {
    return this.inner.compactedRevision;
  }
  get historyWindowMs(): number {
    return this.inner.historyWindowMs;
  }
  create(key: ObjectKey, object: StoredObject): StoredObject {
    return this.inner.create(key, object);
  }
  update(key: ObjectKey, object: StoredObject, preconditions?: WritePreconditions): StoredObject {
    return this.inner.update(key, object, preconditions);
  }
  delete(key: ObjectKey, preconditions?: WritePreconditions): StoredObject {
    return this.inner.delete(key, preconditions);
  }
  get(key: ObjectKey, revision?: number): StoredObject | undefined {
    return this.inner.get(key, revision);
  }
  list(options: ListOptions): ListResult {
    return this.inner.list(options);
  }
  watch(options: WatchOptions): WatchReader {
    return this.inner.watch(options);
  }
  compact(revision: number): void {
    this.inner.compact(revision);
  }
  compactExpiredHistory(): number {
    return this.inner.compactExpiredHistory();
  }
}

/** A watch whose events pass through `rewrite` (which may drop them by returning undefined). */
function rewrittenWatch(reader: WatchReader, rewrite: (event: WatchEvent) => WatchEvent | undefined): WatchReader {
  return {
    tryNext() {
      for (let event = reader.tryNext(); event !== undefined; event = reader.tryNext()) {
        const rewritten = rewrite(event);
        if (rewritten !== undefined) return rewritten;
      }
      return undefined;
    },
    close: () => reader.close(),
    get endReason() {
      return reader.endReason;
    },
  };
}

/** Delete returns the object's last state without the deletion's revision. */
class DeleteKeepsOldVersion extends DelegatingStore {
  override delete(key: ObjectKey, preconditions?: WritePreconditions): StoredObject {
    const before = this.inner.get(key);
    const deleted = this.inner.delete(key, preconditions);
    return before === undefined ? deleted : restampResourceVersion(deleted, before.metadata.resourceVersion!);
  }
}

/** A list at a past revision is served from the latest state (an Exact list that is not exact). */
class ListIgnoresRevision extends DelegatingStore {
  override list(options: ListOptions): ListResult {
    const exact = this.inner.list(options); // still fails wherever the real list fails
    if (options.revision === undefined || options.continueToken !== undefined) return exact;
    return { ...this.inner.list({ ...options, revision: undefined }), revision: exact.revision };
  }
}

/** Paging skips the first item of a page when a write landed since the previous page. */
class PagingSkipsAfterWrite extends DelegatingStore {
  private readonly revisionAtToken = new Map<string, number>();
  override list(options: ListOptions): ListResult {
    const result = this.inner.list(options);
    const wroteSince = options.continueToken !== undefined && this.revisionAtToken.get(options.continueToken) !== this.revision;
    if (result.continueToken !== undefined) this.revisionAtToken.set(result.continueToken, this.revision);
    return wroteSince && result.items.length > 0 ? { ...result, items: result.items.slice(1) } : result;
  }
}

/** A watch resumed from a revision drops its first event. */
class ResumedWatchDropsFirstEvent extends DelegatingStore {
  override watch(options: WatchOptions): WatchReader {
    let dropped = options.fromRevision === undefined || options.initialState === true;
    return rewrittenWatch(this.inner.watch(options), (event) => {
      if (dropped || event.type === "BOOKMARK") return event;
      dropped = true;
      return undefined;
    });
  }
}

/** Reads at a compacted revision are served at the oldest retained one instead of failing. */
class CompactedReadsServed extends DelegatingStore {
  override list(options: ListOptions): ListResult {
    try {
      return this.inner.list(options);
    } catch (error) {
      if (!(error instanceof ExpiredError) || options.continueToken !== undefined) throw error;
      return this.inner.list({ ...options, revision: this.compactedRevision });
    }
  }
}

/** Bookmarks carry the revision the watch started at, so they go backwards behind its events. */
class BookmarksFromWatchStart extends DelegatingStore {
  override watch(options: WatchOptions): WatchReader {
    const start = options.fromRevision ?? this.revision;
    return rewrittenWatch(this.inner.watch(options), (event) =>
      event.type === "BOOKMARK" ? { ...event, revision: start, object: { metadata: { resourceVersion: String(start) } } } : event,
    );
  }
}

/** Updates ignore their resourceVersion precondition. */
class StaleUpdateApplies extends DelegatingStore {
  override update(key: ObjectKey, object: StoredObject): StoredObject {
    return this.inner.update(key, object);
  }
}

/** A planted bug: what is wrong, the property that must catch it, and the store that has it. */
export interface PlantedStoreBug {
  readonly bug: string;
  readonly property: StoreInvariantId;
  readonly store: new (options: MvccStoreOptions) => StoreUnderTest;
}

/** One planted bug per store property. */
export const plantedStoreBugs: readonly PlantedStoreBug[] = [
  { bug: "delete returns the old resourceVersion", property: "store/revision-monotonic", store: DeleteKeepsOldVersion },
  { bug: "list at a past revision serves the latest state", property: "store/list-at-revision", store: ListIgnoresRevision },
  { bug: "paging skips an item when a write lands between pages", property: "store/paging-consistent", store: PagingSkipsAfterWrite },
  { bug: "a resumed watch drops its first event", property: "watch/no-gap", store: ResumedWatchDropsFirstEvent },
  { bug: "a list at a compacted revision returns the oldest retained state", property: "store/expired-never-partial", store: CompactedReadsServed },
  { bug: "bookmarks carry the watch's start revision", property: "watch/bookmark-order", store: BookmarksFromWatchStart },
  { bug: "an update with a stale resourceVersion applies", property: "store/stale-write-rejected", store: StaleUpdateApplies },
];

