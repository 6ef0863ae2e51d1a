/**
 * Coalesces wake-ups due at the same virtual instant into one kernel event.
 *
 * Why: the kernel settles every promise continuation after each event (one `setImmediate` turn,
 * sim/kernel/simulation.ts `settleMicrotasks`), which costs microseconds per event. Thousands of
 * node agents renewing on the same grid of instants would each pay that turn; batched, they share
 * one. Callbacks due at the same time run in the order they were scheduled, as the kernel would
 * run them, so the interleaving stays a function of the seed alone.
 */
import type { Simulation } from "../kernel/simulation.ts";
import type { TimerHandle } from "../kernel/clock.ts";

// A wake-up is its own cancel handle: no closure per wake-up (millions of them in a large run).
class Wakeup implements TimerHandle {
  constructor(public callback: (() => void) | undefined) {}

  cancel(): void {
    this.callback = undefined;
  }
}

/** One kernel timer per distinct due time; the callbacks due then run in scheduling order. */
export class WakeupBatcher {
  readonly #sim: Simulation;
  readonly #due = new Map<number, Wakeup[]>();
  #callbacksRun = 0;

  /** Batches wake-ups on `sim`'s queue. */
  constructor(sim: Simulation) {
    this.#sim = sim;
  }

  /** Callbacks run so far (each counts, however many shared a kernel event): the bench's events. */
  get callbacksRun(): number {
    return this.#callbacksRun;
  }

  /** Runs `callback` at true (simulation) time `atMs`, or now when `atMs` is already past. */
  at(atMs: number, callback: () => void): TimerHandle {
    const nowMs = this.#sim.nowMs();
    const dueMs = atMs > nowMs ? atMs : nowMs;
    const wakeup = new Wakeup(callback);
    const batch = this.#due.get(dueMs);
    if (batch !== undefined) batch.push(wakeup);
    else {
      this.#due.set(dueMs, [wakeup]);
      this.#sim.setTimer(dueMs - nowMs, () => this.#flush(dueMs));
    }
    return wakeup;
  }

  /** Runs `callback` `delayMs` (>= 0) of true time from now. */
  after(delayMs: number, callback: () => void): TimerHandle {
    return this.at(this.#sim.nowMs() + delayMs, callback);
  }

  #flush(dueMs: number): void {
    const batch = this.#due.get(dueMs);
    this.#due.delete(dueMs);
    if (batch === undefined) return;
    for (const wakeup of batch) {
      const callback = wakeup.callback;
      if (callback === undefined) continue;
      wakeup.callback = undefined;
      this.#callbacksRun++;
      callback();
    }
  }
}
