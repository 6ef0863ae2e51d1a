/**
 * Watch broadcast (issue #14): behind a socket, the watchers of one collection that see every
 * change in the same representation share one stream of bytes. The broadcast subscribes to the
 * store once; each change is encoded once; the changes of one flush interval are joined once into
 * a batch; every watcher sends that same batch, and keeps only a cursor into the list of batches.
 * A write then costs the same whether ten watchers are open or a thousand; a thousand watchers
 * cost a socket write each per interval. A quiet broadcast (under QUIET_EVENTS_PER_SECOND) sends
 * each event at once; a busy one's interval grows with the members so that it makes at most
 * MEMBER_WRITES_PER_SECOND socket writes a second (50 ms with a thousand watchers, the flush
 * interval itself up to 1,000): past that, each write's fixed cost (a syscall, the chunk
 * framing, a promise or two) was what held the writers back. (Per-watcher buffers held writes to 0.15× of their rate
 * without watchers, with a thousand open: the store pushed each event to each watcher, and each
 * watcher joined its own copy of the same bytes.)
 *
 * A watcher that stops reading falls behind the batches; once it is more than the store's watch
 * capacity of events behind, it is cut off, as a store watch whose buffer is full (and as
 * kube-apiserver ends a watcher that cannot keep up). Batches every member has sent are dropped.
 *
 * Only for watches served with a flush interval (`serve`): in-process and virtual-time servers keep
 * the per-watcher streams of watch-stream.ts, so simulations deliver same-instant events exactly as
 * before and their trace hashes do not change.
 */
import type { Clock, TimerHandle } from "../../kernel/clock.ts";
import type { MvccStore } from "../../store/mvcc-store.ts";
import type { ObjectEvent } from "../../store/watch.ts";
import { joinedBytes } from "./joined-bytes.ts";

/**
 * Socket writes a second a busy broadcast makes, at most, across its members: a batch every 50 ms
 * with a thousand watchers. At 10,000 (100 ms) the write rate under `load` (1,000 watchers, 15 s
 * phases, interleaved, two rounds) was 0.30 and 0.49 of the rate without watchers; at 20,000,
 * 0.53 and 0.52; at 100,000 with a 10 ms floor it fell to 0.13.
 */
export const MEMBER_WRITES_PER_SECOND = 20_000;

/**
 * Under this many events a second, a broadcast seals each event at once (in the next timer turn),
 * so its watchers hear of a write about as soon as a kube-apiserver's do. `bench`, 1,000 watchers
 * of 100 writes, two repetitions in each of two interleaved rounds: p99 68–84 ms with every event
 * batched, 38–46 ms with this (a real kube-apiserver: mostly 31–38 ms, once 78). Batching is for a flood of
 * writes, where a socket write per member per event is what slows the writers (`load`, 1,000
 * watchers: 0.13 of the write rate without watchers at a 10 ms interval, 0.33–0.41 at 50 ms, and
 * 0.32–0.33 with this rule, which sees thousands of events a second there and batches).
 */
export const QUIET_EVENTS_PER_SECOND = 250;

/** The events of one flush interval, encoded and joined. */
interface Batch {
  readonly bytes: Uint8Array;
  /** Events in the batch. */
  readonly events: number;
}

/** One watcher's place in a broadcast. */
export class BroadcastMember {
  /** Absolute index of the next batch to send. */
  cursor: number;
  /** Events sent so far, counted from the broadcast's first. */
  sentEvents: number;
  ended = false;
  wake: (() => void) | undefined;

  constructor(
    private readonly broadcast: WatchBroadcast,
    cursor: number,
    sentEvents: number,
  ) {
    this.cursor = cursor;
    this.sentEvents = sentEvents;
  }

  /** The batches not sent yet, up to about `maxBytes` (at least one); marks them sent. */
  take(maxBytes: number): Uint8Array[] {
    return this.broadcast.take(this, maxBytes);
  }

  /** Resolves at the next batch, or when the member ends. */
  waitForBatch(): Promise<void> {
    if (this.ended || this.broadcast.hasBatchFor(this)) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  /** Leaves the broadcast (the watch ended or its client went). */
  leave(): void {
    this.end();
    this.broadcast.remove(this);
  }

  /** Ends the member; a waiting stream wakes and closes. */
  end(): void {
    this.ended = true;
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/** What a broadcast needs of the server. */
export interface BroadcastOptions {
  readonly store: MvccStore;
  readonly clock: Clock;
  readonly prefix: string;
  readonly flushIntervalMs: number;
  /** Events a member may fall behind before it is cut off. */
  readonly capacity: number;
  /** The bytes of one event, in the broadcast's representation. */
  readonly encode: (event: ObjectEvent) => Uint8Array;
  /** Called once the last member has left and the broadcast has unsubscribed. */
  readonly onIdle: () => void;
}

/** The shared stream of one collection in one representation. */
export class WatchBroadcast {
  private pending: ObjectEvent[] = [];
  private batches: Batch[] = [];
  /** Absolute index of `batches[0]`. */
  private firstBatch = 0;
  /** Events in all batches ever sealed. */
  private sealedEvents = 0;
  private readonly members = new Set<BroadcastMember>();
  private sealTimer: TimerHandle | undefined;
  private lastSealMs = Number.NEGATIVE_INFINITY;
  // Events of this second and of the one before: the broadcast's event rate, roughly.
  private rateWindowStartMs = Number.NEGATIVE_INFINITY;
  private windowEvents = 0;
  private previousWindowEvents = 0;
  private readonly unsubscribe: () => void;
  private closed = false;

  constructor(private readonly options: BroadcastOptions) {
    this.unsubscribe = options.store.subscribe(options.prefix, {
      push: (event) => this.push(event),
      close: () => this.close(),
    });
  }

  /** Members now. */
  get size(): number {
    return this.members.size;
  }

  /**
   * A new member, placed after every change the store has committed: the caller sends the
   * changes up to now (a backlog, synthetic ADDED events) itself, read from the store in the same
   * synchronous step, so nothing is missed or sent twice.
   */
  join(): BroadcastMember {
    // Changes waiting for the next batch are already committed, so the caller's backlog has them.
    this.seal();
    const member = new BroadcastMember(this, this.firstBatch + this.batches.length, this.sealedEvents);
    if (this.closed) member.end();
    else this.members.add(member);
    return member;
  }

  hasBatchFor(member: BroadcastMember): boolean {
    return member.cursor < this.firstBatch + this.batches.length;
  }

  take(member: BroadcastMember, maxBytes: number): Uint8Array[] {
    const chunks: Uint8Array[] = [];
    // A member cut off has no cursor in the batches any more; one whose watch timed out is done.
    if (member.ended) return chunks;
    let bytes = 0;
    const end = this.firstBatch + this.batches.length;
    while (member.cursor < end && (chunks.length === 0 || bytes < maxBytes)) {
      const batch = this.batches[member.cursor - this.firstBatch]!;
      chunks.push(batch.bytes);
      bytes += batch.bytes.length;
      member.sentEvents += batch.events;
      member.cursor++;
    }
    return chunks;
  }

  remove(member: BroadcastMember): void {
    if (!this.members.delete(member)) return;
    if (this.members.size === 0) this.close();
  }

  /** Ends every member and unsubscribes (the store closed, or the last member left). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.sealTimer?.cancel();
    for (const member of this.members) member.end();
    this.members.clear();
    this.batches = [];
    this.pending = [];
    this.options.onIdle();
  }

  private push(event: ObjectEvent): void {
    this.pending.push(event);
    const nowMs = this.options.clock.nowMs();
    if (nowMs - this.rateWindowStartMs >= 1000) {
      this.previousWindowEvents = nowMs - this.rateWindowStartMs < 2000 ? this.windowEvents : 0;
      this.windowEvents = 0;
      this.rateWindowStartMs = nowMs;
    }
    this.windowEvents++;
    if (this.sealTimer !== undefined) return;
    const quiet = Math.max(this.windowEvents, this.previousWindowEvents) < QUIET_EVENTS_PER_SECOND;
    const intervalMs = quiet ? 0 : Math.max(this.options.flushIntervalMs, (this.members.size * 1000) / MEMBER_WRITES_PER_SECOND);
    const dueMs = Math.max(0, this.lastSealMs + intervalMs - nowMs);
    this.sealTimer = this.options.clock.setTimer(dueMs, () => {
      this.sealTimer = undefined;
      this.seal();
      // Every member was cut off: nobody is left to leave, so the broadcast ends here.
      if (this.members.size === 0) this.close();
    });
  }

  /** Joins the waiting events into a batch, cuts off members too far behind, wakes the rest. */
  private seal(): void {
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    this.lastSealMs = this.options.clock.nowMs();
    let chunks: Uint8Array[];
    try {
      chunks = events.map(this.options.encode);
    } catch {
      // An event no watcher can be sent: every member's stream ends here, as one watcher's does
      // on the per-watcher path; clients resume from the last version they saw.
      this.close();
      return;
    }
    this.batches.push({ bytes: joinedBytes(chunks), events: events.length });
    this.sealedEvents += events.length;
    let oldestCursor = this.firstBatch + this.batches.length;
    for (const member of this.members) {
      if (this.sealedEvents - member.sentEvents > this.options.capacity) {
        this.members.delete(member);
        member.end();
        continue;
      }
      oldestCursor = Math.min(oldestCursor, member.cursor);
      const wake = member.wake;
      member.wake = undefined;
      wake?.();
    }
    if (oldestCursor > this.firstBatch) {
      this.batches.splice(0, oldestCursor - this.firstBatch);
      this.firstBatch = oldestCursor;
    }
  }
}

/** The broadcasts of one server, by collection and representation. */
export class WatchBroadcasts {
  private readonly byKey = new Map<string, WatchBroadcast>();

  /** The broadcast for `key`, made with `options` if there is none. */
  broadcastFor(key: string, options: Omit<BroadcastOptions, "onIdle">): WatchBroadcast {
    let broadcast = this.byKey.get(key);
    if (broadcast === undefined) {
      const made: WatchBroadcast = new WatchBroadcast({
        ...options,
        onIdle: () => {
          if (this.byKey.get(key) === made) this.byKey.delete(key);
        },
      });
      broadcast = made;
      this.byKey.set(key, broadcast);
    }
    return broadcast;
  }

  /** Broadcasts open now (each one store subscription). */
  get broadcasts(): number {
    return this.byKey.size;
  }

  /** Watchers served by broadcasts now. */
  get watchers(): number {
    let count = 0;
    for (const broadcast of this.byKey.values()) count += broadcast.size;
    return count;
  }
}
