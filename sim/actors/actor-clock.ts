/**
 * The clock an actor runs on: its own process's clock (sim/faults/process-clock.ts in a
 * simulation). Durations are measured on the monotonic reading, as Go measures them; the wall
 * reading only goes into timestamps written to objects.
 */
import type { Clock } from "../kernel/clock.ts";

/** A process's clock, as actors use it. */
export interface ActorClock extends Clock {
  /** The monotonic reading, ms: drifts with the process's clock, never steps. */
  monotonicMs(): number;
  /** A wake-up made once and set again and again: the function runs `callback` after `delayMs` of this clock. */
  recurringWakeup(callback: () => void): (delayMs: number) => void;
}
