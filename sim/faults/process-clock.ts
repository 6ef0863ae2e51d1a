/**
 * The clock of one simulated process: the "candidate's own clock" of doc 2 §2.2, with the faults
 * of issue #6 that act on a process's sense of time and on when it runs.
 *
 * - Drift (ppm): the process's clock runs at (1 + ppm/10^6) × true time; its timers fire after
 *   the local delay divided by that rate.
 * - Step: the wall reading (`nowMs`, what goes into timestamps) jumps; the monotonic reading
 *   (`monotonicMs`, what durations are measured with, as Go's monotonic clock) does not.
 * - Pause (stop-the-world): nothing of the process runs for a while; timers and responses that
 *   come due meanwhile are delivered, in order, when it resumes.
 * - Kill (crash): nothing of the process ever runs again; a restart gets a new ProcessClock.
 *
 * Every continuation of an actor goes through its ProcessClock (its sleeps, and responses via
 * `gate`), so these faults reach all of the actor's code without the actor knowing about them.
 */
import type { Clock, TimerHandle } from "../kernel/clock.ts";
import type { Simulation } from "../kernel/simulation.ts";
import { assertTimerDelayMs } from "../kernel/timer-delay.ts";
import type { Wakeable, WakeupBatcher } from "./wakeup-batcher.ts";

/** What `deliverTo` hands to a process: an object that runs its part there. */
export interface Delivery {
  delivered(): void;
}

/** How a process's clock starts out. */
export interface ProcessClockOptions {
  /** Rate error in parts per million (positive: the clock runs fast). */
  readonly driftPpm?: number;
  /** Offset of the wall reading from true time, ms (accumulated steps). */
  readonly wallOffsetMs?: number;
}

/** A process's view of time over the simulation's true time, with its faults. */
export class ProcessClock implements Clock {
  readonly name: string;
  readonly #sim: Simulation;
  readonly #timers: WakeupBatcher;
  #rate: number;
  #anchorTrueMs: number;
  #anchorMonotonicMs: number;
  #wallOffsetMs: number;
  #pausedUntilMs = Number.NEGATIVE_INFINITY;
  #deferred: (() => void)[] = [];
  #alive = true;

  /** A clock for process `name`, reading true time at creation (plus the wall offset). */
  constructor(name: string, sim: Simulation, timers: WakeupBatcher, options: ProcessClockOptions = {}) {
    this.name = name;
    this.#sim = sim;
    this.#timers = timers;
    this.#rate = rateOf(options.driftPpm ?? 0);
    this.#anchorTrueMs = sim.nowMs();
    this.#anchorMonotonicMs = sim.nowMs();
    this.#wallOffsetMs = options.wallOffsetMs ?? 0;
  }

  /** Drift now in effect, ppm. */
  get driftPpm(): number {
    return (this.#rate - 1) * 1e6;
  }

  /** Accumulated wall-clock steps, ms. */
  get wallOffsetMs(): number {
    return this.#wallOffsetMs;
  }

  /** False once killed. */
  get alive(): boolean {
    return this.#alive;
  }

  /** True while stopped by a pause. */
  get paused(): boolean {
    return this.#sim.nowMs() < this.#pausedUntilMs;
  }

  /** The monotonic reading: drifts, never steps. Durations (lease expiry, grace periods) use it. */
  monotonicMs(): number {
    return this.#anchorMonotonicMs + (this.#sim.nowMs() - this.#anchorTrueMs) * this.#rate;
  }

  /** The wall reading: the monotonic one plus steps. Timestamps written to objects use it. */
  nowMs(): number {
    return this.monotonicMs() + this.#wallOffsetMs;
  }

  /** Runs `callback` after `delayMs` of this process's time, unless killed; deferred by pauses. */
  setTimer(delayMs: number, callback: () => void): TimerHandle {
    checkDelay(delayMs, this.name);
    let cancelled = false;
    const handle = this.#timers.after(delayMs / this.#rate, () => this.deliver(() => cancelled || callback()));
    return {
      cancel: () => {
        cancelled = true;
        handle.cancel();
      },
    };
  }

  /**
   * Wakes `wakeable` after `delayMs` of this process's time. It is woken outside the process: its
   * `wake` hands its work to `deliverTo`, which holds it over a pause and drops it after a kill.
   * Nothing is allocated per use: the promise and closures of each `sleep` of thousands of 10 s
   * loops outlived the young generation, and copying them out was most of the garbage
   * collector's work.
   */
  wakeAfter(delayMs: number, wakeable: Wakeable): void {
    checkDelay(delayMs, this.name);
    this.#timers.wakeAfter(delayMs / this.#rate, wakeable);
  }

  /** Resolves after `ms` of this process's time (never, if it is killed first). */
  sleep(ms: number): Promise<void> {
    checkDelay(ms, this.name);
    // The hottest path of a large simulation: no cancel handle, one closure.
    return new Promise((resolve) => void this.#timers.after(ms / this.#rate, () => this.deliver(resolve)));
  }

  /**
   * Hands `promise`'s outcome to this process: at once if it is running, when it resumes if it
   * is paused, never if it was killed. Responses from the network go through here.
   */
  gate<T>(promise: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      promise.then(
        (value) => this.deliver(() => resolve(value)),
        (error: unknown) => this.deliver(() => reject(error)),
      );
    });
  }

  /** Changes the drift from now on (timers already set keep their true due time). */
  setDriftPpm(ppm: number): void {
    this.#anchorMonotonicMs = this.monotonicMs();
    this.#anchorTrueMs = this.#sim.nowMs();
    this.#rate = rateOf(ppm);
  }

  /** Steps the wall reading by `stepMs` (either sign). */
  step(stepMs: number): void {
    this.#wallOffsetMs += stepMs;
  }

  /** Stops the process for `durationMs` of true time from now (overlapping pauses extend it). */
  pause(durationMs: number): void {
    assertTimerDelayMs(durationMs, `ProcessClock(${this.name}).pause`);
    const untilMs = this.#sim.nowMs() + durationMs;
    if (untilMs <= this.#pausedUntilMs) return;
    this.#pausedUntilMs = untilMs;
    this.#timers.at(untilMs, () => this.#resumeIfDue());
  }

  /** Kills the process: nothing scheduled through this clock runs any more. */
  kill(): void {
    this.#alive = false;
    this.#deferred = [];
  }

  /** Runs `run` in this process: now if it runs, when it resumes if paused, never if killed. */
  deliver(run: () => void): void {
    if (!this.#alive) return;
    if (this.#holdsDeliveries()) this.#deferred.push(run);
    else run();
  }

  /**
   * `deliver(() => target.delivered())`, with the closure made only while paused: the network
   * hands every response to its process through here (millions in a large run).
   */
  deliverTo(target: Delivery): void {
    if (this.#alive && !this.#holdsDeliveries()) target.delivered();
    else this.deliver(() => target.delivered());
  }

  #holdsDeliveries(): boolean {
    return this.#pausedUntilMs > Number.NEGATIVE_INFINITY && this.paused;
  }

  #resumeIfDue(): void {
    if (this.paused || !this.#alive) return;
    const deferred = this.#deferred;
    this.#deferred = [];
    for (const [index, run] of deferred.entries()) {
      // A callback may pause or kill the process again: the rest waits (or is dropped) in turn.
      if (!this.#alive) return;
      if (this.paused) {
        this.#deferred = [...deferred.slice(index), ...this.#deferred];
        return;
      }
      run();
    }
  }
}

function rateOf(driftPpm: number): number {
  if (!Number.isFinite(driftPpm) || driftPpm <= -1e6) throw new RangeError(`drift must be finite and > -10^6 ppm, got ${driftPpm}`);
  return 1 + driftPpm / 1e6;
}

// The kernel's delay rule, with the message built only on failure (this runs millions of times).
function checkDelay(delayMs: number, name: string): void {
  if (!(delayMs >= 0 && delayMs < Number.POSITIVE_INFINITY)) assertTimerDelayMs(delayMs, `ProcessClock(${name})`);
}
