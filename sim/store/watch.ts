/**
 * A watch: the ordered stream of changes to a key prefix after a start revision (doc 1 §4.6.1,
 * §6). The store pushes events synchronously as it commits, so a watch can never miss or reorder
 * one; the consumer pulls them at its own pace from a bounded buffer.
 */
import { assert } from "../kernel/assert.ts";
import type { Change } from "./change-log.ts";
import { restampResourceVersion, type StoredObject } from "./stored-object.ts";

/** Event types a watch delivers (doc 1 §2.4, §6; DELETED is Kubernetes' name, "not shown" there). */
export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK";

/**
 * An event about an object. `revision` is the revision the event brings the watcher to: the
 * change's revision, or the start revision for the synthetic ADDED events of the initial state.
 */
export interface ObjectEvent {
  readonly type: Exclude<WatchEventType, "BOOKMARK">;
  readonly revision: number;
  readonly object: StoredObject;
}

/** "Every change up to `revision` has been sent" (doc 1 §6); the object has only a resourceVersion (§2.4). */
export interface BookmarkEvent {
  readonly type: "BOOKMARK";
  readonly revision: number;
  readonly object: { readonly metadata: { readonly resourceVersion: string } };
}

/** One event of a watch. */
export type WatchEvent = ObjectEvent | BookmarkEvent;

/** Why a watch ended: closed by its consumer or the store, or its buffer overflowed. */
export type WatchEndReason = "closed" | "overflow";

/**
 * Live events a consumer may leave unread before the watch is closed with reason "overflow"
 * (the client then resumes from the last revision it saw, doc 1 §4.6.2). A backlog replayed from
 * history at open is allowed on top of this; it is bounded by the retained history itself.
 */
export const WATCH_BUFFER_CAPACITY = 1000;

/** The consumer's end of a watch. */
export class Watch implements AsyncIterable<WatchEvent> {
  private readonly buffer: WatchEvent[] = [];
  private head = 0;
  private limit: number;
  private waiter: ((event: WatchEvent | undefined) => void) | undefined;
  private ended: WatchEndReason | undefined;

  private lastRevision = Number.NEGATIVE_INFINITY;

  /** `ordered`: events are checked to come in revision order (off only under a planted store defect). */
  constructor(
    private readonly capacity: number,
    private readonly onEnd: () => void,
    readonly ordered = true,
  ) {
    this.limit = capacity;
  }

  /** Why the watch ended, or undefined while it is open. */
  get endReason(): WatchEndReason | undefined {
    return this.ended;
  }

  /** Events pushed and not yet read. */
  get pending(): number {
    return this.buffer.length - this.head;
  }

  /** The next event, waiting for one; undefined once the watch has ended and its buffer is read. */
  next(): Promise<WatchEvent | undefined> {
    const event = this.tryNext();
    if (event !== undefined || this.ended !== undefined) return Promise.resolve(event);
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  /** The next buffered event, or undefined when none is buffered now. */
  tryNext(): WatchEvent | undefined {
    if (this.head >= this.buffer.length) return undefined;
    const event = this.buffer[this.head++]!;
    if (this.head > 1024 && this.head * 2 > this.buffer.length) {
      this.buffer.splice(0, this.head);
      this.head = 0;
    }
    return event;
  }

  /** Ends the watch; events already buffered can still be read. */
  close(): void {
    this.end("closed");
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    for (;;) {
      const event = await this.next();
      if (event === undefined) return;
      yield event;
    }
  }

  /** Store side: queues the backlog replayed at open, which is not counted against the capacity. */
  pushBacklog(event: WatchEvent): void {
    this.limit++;
    this.push(event);
  }

  /** Store side: queues a live event; past the capacity the watch ends with "overflow". */
  push(event: WatchEvent): void {
    if (this.ended !== undefined) return;
    // Produced: the store replays and sends changes in revision order (consumed by the watch handler).
    assert(!this.ordered || event.revision >= this.lastRevision, "watch/next-after-last", () => `${event.type} at revision ${event.revision} after ${this.lastRevision}`);
    this.lastRevision = event.revision;
    if (this.pending >= this.limit) {
      this.end("overflow");
      return;
    }
    const waiter = this.waiter;
    if (waiter !== undefined) {
      this.waiter = undefined;
      waiter(event);
      return;
    }
    this.buffer.push(event);
  }

  private end(reason: WatchEndReason): void {
    if (this.ended !== undefined) return;
    this.ended = reason;
    this.onEnd();
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.(undefined);
  }
}

/**
 * The event a watcher with an object filter sees for a change, as Kubernetes does: an object that
 * starts matching is ADDED, one that stops matching is DELETED, one that never matches is nothing.
 */
export function eventForChange(change: Change, matches: (object: StoredObject) => boolean): ObjectEvent | undefined {
  const { revision, object } = change;
  switch (change.type) {
    case "ADDED":
      return matches(object) ? { type: "ADDED", revision, object } : undefined;
    case "DELETED":
      return matches(object) ? { type: "DELETED", revision, object } : undefined;
    case "MODIFIED": {
      const was = change.previous !== undefined && matches(change.previous);
      const is = matches(object);
      if (was && is) return { type: "MODIFIED", revision, object };
      if (is) return { type: "ADDED", revision, object };
      // The object's previous state, at the change's version: kube-apiserver 1.26.4 sends that
      // (its cacher's convertToWatchEvent; recorded by `soak` with and without the watch cache).
      if (was) return { type: "DELETED", revision, object: restampResourceVersion(change.previous!, object.metadata.resourceVersion!) };
      return undefined;
    }
  }
}
