/**
 * The fixed schedule of an actor's periodic loop ("renews every 10 s", "every node-monitor-period"):
 * ticks at start + k·period of the actor's own monotonic clock, so the ticks of thousands of agents
 * started on a shared grid fall on few instants and share kernel events. A tick that overran skips
 * the ticks it missed rather than running them back to back, as Go's time.Ticker drops ticks.
 */
import type { TimerHandle } from "../kernel/clock.ts";
import type { ActorClock } from "./actor-clock.ts";

/**
 * Runs `tick` at `startMs` (now or past: at once), then every `periodMs` after it; never resolves,
 * and rejects when a tick does. A tick returns a promise of its work, or nothing when it finished
 * at once (most ticks of a large run: nothing to do). Callbacks rather than an await loop: the
 * loop's state is made once, not a promise and closures per period that live for the whole period.
 */
export function tickOnSchedule(clock: ActorClock, startMs: number, periodMs: number, tick: () => Promise<void> | void): Promise<never> {
  return tickOnScheduleWithDone(clock, startMs, periodMs, (done, fail) => {
    const working = tick();
    if (working === undefined) done();
    else working.then(done, fail);
  });
}

/**
 * `tickOnSchedule` for a tick that says it ended by calling `done` (or `fail` with an error, which
 * rejects the loop): no promise per tick, for a loop run millions of times (lease renewals).
 */
export function tickOnScheduleWithDone(clock: ActorClock, startMs: number, periodMs: number, tick: (done: () => void, fail: (error: unknown) => void) => void): Promise<never> {
  return new Promise<never>((_, reject) => {
    let next = startMs;
    const afterTick = (): void => {
      const nowMs = clock.monotonicMs();
      next += periodMs * Math.max(1, Math.ceil((nowMs - next) / periodMs));
      wakeAt(next - nowMs);
    };
    const runTick = (): void => tick(afterTick, reject);
    const wakeAt = clock.recurringWakeup(runTick);
    runTick();
  });
}

/** A loop of `tickWhenDue`. */
export interface QuietTicks {
  /** Never resolves; rejects when a tick does. */
  readonly running: Promise<never>;
  /**
   * What the loop's `idleUntilMs` reads changed (an informer's copy, say): the next tick comes
   * back to the first instant of the schedule after now, if one is due by then.
   */
  wake(): void;
}

/**
 * `tickOnSchedule` for a loop that mostly finds nothing to do, like a node agent's status loop
 * between reports: after each tick `idleUntilMs` says until when (on the actor's monotonic clock)
 * a tick would find nothing to do, and the loop sleeps over the ticks before that instead of
 * waking for each. Whatever that answer depends on must call `wake` when it changes. The ticks
 * that run are the same ones, at the same instants of the schedule; only the empty ones are gone
 * (5,000 agents × 360 an hour, each a wake-up and a few cache misses).
 */
export function tickWhenDue(clock: ActorClock, startMs: number, periodMs: number, tick: () => Promise<void> | void, idleUntilMs: () => number): QuietTicks {
  let next = startMs;
  // The pending wake-up while the loop waits; undefined while a tick runs.
  let timer: TimerHandle | undefined;
  let wake = (): void => {};
  const running = new Promise<never>((_, reject) => {
    // The first instant of the schedule at or after both `from` (on the schedule) and idleUntilMs().
    const firstDueFrom = (from: number): number => {
      const idleUntil = idleUntilMs();
      return idleUntil > from ? from + periodMs * Math.ceil((idleUntil - from) / periodMs) : from;
    };
    const afterTick = (): void => {
      const nowMs = clock.monotonicMs();
      next = firstDueFrom(next + periodMs * Math.max(1, Math.ceil((nowMs - next) / periodMs)));
      timer = clock.setTimer(next - nowMs, runTick);
    };
    const runTick = (): void => {
      timer = undefined;
      const working = tick();
      if (working === undefined) afterTick();
      else working.then(afterTick, reject);
    };
    wake = () => {
      if (timer === undefined) return; // a tick is running: it asks idleUntilMs when it ends
      const nowMs = clock.monotonicMs();
      // The first instant of the schedule strictly after now: one due now has run or is about to.
      const periodsBack = Math.ceil((next - nowMs) / periodMs) - 1;
      if (periodsBack <= 0) return;
      const due = firstDueFrom(next - periodsBack * periodMs);
      if (due >= next) return;
      timer.cancel();
      next = due;
      timer = clock.setTimer(next - nowMs, runTick);
    };
    runTick();
  });
  return { running, wake: () => wake() };
}
