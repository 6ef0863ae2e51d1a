/**
 * The simulation's agenda: events totally ordered by (timeMs, sequence), where sequence is the
 * queue's insertion counter, so events due at the same time run in the order they were scheduled
 * (docs/ARCHITECTURE.md, "Determinism contract"). A binary min-heap: push and pop are O(log n).
 *
 * Cancellation is lazy: a cancelled event stays in the heap, marked, and is discarded when it
 * reaches the top. Lease renewals and request deadlines cancel most of their timers, so when
 * cancelled entries outnumber live ones the heap is rebuilt without them (O(n), amortised over
 * the cancellations that caused it), which bounds memory at twice the live events.
 */

/** An event as handed back by `EventQueue.push`: when it is due, its tie-breaker, its payload, and its cancel. */
export interface ScheduledEvent<T> {
  /** Cancels the event if still pending (`EventQueue.cancel`). */
  cancel(): void;
  /** When the event is due. */
  readonly timeMs: number;
  /** The queue's insertion counter at push: breaks ties between equal times. */
  readonly sequence: number;
  /** What the event carries (for a `Simulation`, the callback). */
  readonly payload: T;
}

const PENDING = 0;
const CANCELLED = 1;
const REMOVED = 2;
type EntryState = typeof PENDING | typeof CANCELLED | typeof REMOVED;

class Entry<T> implements ScheduledEvent<T> {
  state: EntryState = PENDING;
  constructor(
    readonly owner: EventQueue<T>,
    readonly timeMs: number,
    readonly sequence: number,
    readonly payload: T,
  ) {}

  /** Cancels this event (see `EventQueue.cancel`): an event is its own cancel handle. */
  cancel(): void {
    this.owner.cancel(this);
  }
}

// Heaps smaller than this are never compacted: rebuilding them saves too little to matter.
const MIN_COMPACT_SIZE = 64;

/** A min-priority queue of events keyed by (timeMs, sequence), with lazy cancellation. */
export class EventQueue<T> {
  #heap: Entry<T>[] = [];
  #nextSequence = 0;
  #cancelledInHeap = 0;

  /** Number of events pushed and neither popped nor cancelled. */
  get size(): number {
    return this.#heap.length - this.#cancelledInHeap;
  }

  /** Schedules `payload` at `timeMs` (finite); it sorts after every event already queued for that time. */
  push(timeMs: number, payload: T): ScheduledEvent<T> {
    if (!Number.isFinite(timeMs)) throw new RangeError(`EventQueue.push: time must be finite, got ${timeMs}`);
    const entry = new Entry(this, timeMs, this.#nextSequence++, payload);
    this.#heap.push(entry);
    this.#siftUp(this.#heap.length - 1);
    return entry;
  }

  /** Cancels a pending event; returns false if it already ran, was cancelled, or is not from this queue. */
  cancel(event: ScheduledEvent<T>): boolean {
    if (!(event instanceof Entry) || event.owner !== this || event.state !== PENDING) return false;
    (event as Entry<T>).state = CANCELLED;
    this.#cancelledInHeap++;
    if (this.#heap.length >= MIN_COMPACT_SIZE && this.#cancelledInHeap * 2 > this.#heap.length) {
      this.#compact();
    }
    return true;
  }

  /** The next live event without removing it, or undefined when none is pending. */
  peek(): ScheduledEvent<T> | undefined {
    this.#discardCancelledTop();
    return this.#heap[0];
  }

  /** Removes and returns the next live event, or undefined when none is pending. */
  pop(): ScheduledEvent<T> | undefined {
    this.#discardCancelledTop();
    const top = this.#removeTop();
    if (top !== undefined) top.state = REMOVED;
    return top;
  }

  #discardCancelledTop(): void {
    while (this.#heap.length > 0 && (this.#heap[0] as Entry<T>).state === CANCELLED) {
      (this.#removeTop() as Entry<T>).state = REMOVED;
      this.#cancelledInHeap--;
    }
  }

  #removeTop(): Entry<T> | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last !== undefined) {
      heap[0] = last;
      this.#siftDown(0);
    }
    return top;
  }

  #compact(): void {
    this.#heap = this.#heap.filter((entry) => {
      if (entry.state !== CANCELLED) return true;
      entry.state = REMOVED;
      return false;
    });
    this.#cancelledInHeap = 0;
    // Floyd's heap construction: sift down every internal node, last first.
    for (let i = (this.#heap.length >>> 1) - 1; i >= 0; i--) this.#siftDown(i);
  }

  // Both sifts move a "hole" and write the moving entry once, instead of swapping at every level.
  #siftUp(index: number): void {
    const heap = this.#heap;
    const moving = heap[index] as Entry<T>;
    while (index > 0) {
      const parentIndex = (index - 1) >>> 1;
      const parent = heap[parentIndex] as Entry<T>;
      if (!before(moving, parent)) break;
      heap[index] = parent;
      index = parentIndex;
    }
    heap[index] = moving;
  }

  #siftDown(index: number): void {
    const heap = this.#heap;
    const length = heap.length;
    const moving = heap[index] as Entry<T>;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      let child = left;
      if (right < length && before(heap[right] as Entry<T>, heap[left] as Entry<T>)) child = right;
      const childEntry = heap[child] as Entry<T>;
      if (!before(childEntry, moving)) break;
      heap[index] = childEntry;
      index = child;
    }
    heap[index] = moving;
  }
}

function before<T>(a: Entry<T>, b: Entry<T>): boolean {
  return a.timeMs < b.timeMs || (a.timeMs === b.timeMs && a.sequence < b.sequence);
}
