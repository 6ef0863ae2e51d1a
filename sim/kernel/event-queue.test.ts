import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EventQueue, type ScheduledEvent } from "./event-queue.ts";
import { Rng } from "./rng.ts";

function drain<T>(queue: EventQueue<T>): T[] {
  const out: T[] = [];
  for (let event = queue.pop(); event !== undefined; event = queue.pop()) out.push(event.payload);
  return out;
}

describe("EventQueue ordering", () => {
  it("orders by time, and ties by insertion order", () => {
    const queue = new EventQueue<string>();
    queue.push(5, "a");
    queue.push(1, "b");
    queue.push(5, "c");
    queue.push(1, "d");
    queue.push(3, "e");
    queue.push(5, "f");
    expect(drain(queue)).toEqual(["b", "d", "e", "a", "c", "f"]);
  });

  it("numbers events with one counter across all times", () => {
    const queue = new EventQueue<null>();
    expect([queue.push(9, null), queue.push(1, null), queue.push(9, null)].map((e) => e.sequence)).toEqual([0, 1, 2]);
  });

  it("peek shows the next event without removing it", () => {
    const queue = new EventQueue<string>();
    expect(queue.peek()).toBeUndefined();
    queue.push(2, "later");
    queue.push(1, "first");
    expect(queue.peek()?.payload).toBe("first");
    expect(queue.size).toBe(2);
    expect(queue.pop()?.payload).toBe("first");
    expect(queue.size).toBe(1);
  });

  it("rejects a non-finite time", () => {
    const queue = new EventQueue<null>();
    expect(() => queue.push(Number.NaN, null)).toThrow(RangeError);
    expect(() => queue.push(Number.POSITIVE_INFINITY, null)).toThrow(RangeError);
  });

  it("handles 1e6 events in order", { timeout: 30_000 }, () => {
    const rng = new Rng("million");
    const queue = new EventQueue<number>();
    const n = 1_000_000;
    for (let i = 0; i < n; i++) queue.push(rng.int(0, 10_000), i);
    expect(queue.size).toBe(n);
    let previous = queue.pop() as ScheduledEvent<number>;
    let popped = 1;
    for (let event = queue.pop(); event !== undefined; event = queue.pop()) {
      const inOrder = previous.timeMs < event.timeMs || (previous.timeMs === event.timeMs && previous.sequence < event.sequence);
      if (!inOrder) expect.fail(`out of order: ${previous.timeMs}/${previous.sequence} then ${event.timeMs}/${event.sequence}`);
      previous = event;
      popped++;
    }
    expect(popped).toBe(n);
  });
});

describe("EventQueue.cancel", () => {
  it("skips cancelled events and reports whether it cancelled", () => {
    const queue = new EventQueue<string>();
    const a = queue.push(1, "a");
    const b = queue.push(2, "b");
    queue.push(3, "c");
    expect(queue.cancel(b)).toBe(true);
    expect(queue.cancel(b)).toBe(false);
    expect(queue.size).toBe(2);
    expect(queue.cancel(a)).toBe(true);
    expect(queue.peek()?.payload).toBe("c");
    expect(drain(queue)).toEqual(["c"]);
    expect(queue.size).toBe(0);
  });

  it("does nothing for an event already popped or from another queue", () => {
    const queue = new EventQueue<string>();
    const other = new EventQueue<string>();
    const popped = queue.push(1, "x");
    queue.pop();
    expect(queue.cancel(popped)).toBe(false);
    const foreign = other.push(1, "y");
    queue.push(1, "z");
    expect(queue.cancel(foreign)).toBe(false);
    expect(queue.size).toBe(1);
    expect(other.size).toBe(1);
  });

  it("stays correct through compaction when most events are cancelled", () => {
    const rng = new Rng("compact");
    const queue = new EventQueue<number>();
    const events = Array.from({ length: 5000 }, (_, i) => queue.push(rng.int(0, 100), i));
    const kept = new Set<number>();
    for (const event of events) {
      if (rng.bool(0.1)) kept.add(event.payload);
      else expect(queue.cancel(event)).toBe(true);
    }
    expect(queue.size).toBe(kept.size);
    const order = drain(queue);
    expect(new Set(order)).toEqual(kept);
    const times = order.map((i) => (events[i] as ScheduledEvent<number>).timeMs);
    expect(times).toEqual([...times].sort((x, y) => x - y));
    // Cancelling after compaction removed the entry must still be a no-op.
    expect(queue.cancel(events[0] as ScheduledEvent<number>)).toBe(false);
  });

  it("matches a sorted-list model under random push, pop and cancel", () => {
    type Op = { kind: "push"; time: number } | { kind: "pop" } | { kind: "cancel"; pick: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant("push" as const), time: fc.integer({ min: 0, max: 20 }) }),
      fc.record({ kind: fc.constant("pop" as const) }),
      fc.record({ kind: fc.constant("cancel" as const), pick: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const queue = new EventQueue<number>();
        const handles: ScheduledEvent<number>[] = [];
        let model: { time: number; id: number }[] = [];
        for (const step of ops) {
          if (step.kind === "push") {
            handles.push(queue.push(step.time, handles.length));
            model.push({ time: step.time, id: handles.length - 1 });
            model.sort((x, y) => x.time - y.time || x.id - y.id);
          } else if (step.kind === "pop") {
            expect(queue.pop()?.payload).toBe(model.shift()?.id);
          } else if (handles.length > 0) {
            const target = handles[step.pick % handles.length] as ScheduledEvent<number>;
            const live = model.some((m) => m.id === target.payload);
            expect(queue.cancel(target)).toBe(live);
            model = model.filter((m) => m.id !== target.payload);
          }
          expect(queue.size).toBe(model.length);
        }
        expect(drain(queue)).toEqual(model.map((m) => m.id));
      }),
    );
  });
});
