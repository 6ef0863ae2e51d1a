/**
 * The clock an actor runs on: its own process's clock (sim/faults/process-clock.ts in a
 * simulation). Durations are measured on the monotonic reading, as Go measures them; the wall
 * reading only goes into timestamps written to objects.
 */
import type { Clock } from "../kernel/clock.ts";
import type { Delivery } from "../faults/process-clock.ts";
import type { Wakeable } from "../faults/wakeup-batcher.ts";

/** A process's clock, as actors use it. */
export interface ActorClock extends Clock {
  /** The monotonic reading, ms: drifts with the process's clock, never steps. */
  monotonicMs(): number;
  /**
   * Wakes `wakeable` after `delayMs` of this clock, outside the process: its `wake` hands what
   * it runs to `deliverTo`. Nothing is allocated per use, for loops that wake millions of times.
   */
  wakeAfter(delayMs: number, wakeable: Wakeable): void;
  /** Runs `target.delivered()` in this process: now if it runs, when it resumes if paused, never if killed. */
  deliverTo(target: Delivery): void;
}
