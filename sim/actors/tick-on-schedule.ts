/**
 * The fixed schedule of an actor's periodic loop ("renews every 10 s", "every node-monitor-period"):
 * ticks at start + k·period of the actor's own monotonic clock, so the ticks of thousands of agents
 * started on a shared grid fall on few instants and share kernel events. A tick that overran skips
 * the ticks it missed rather than running them back to back, as Go's time.Ticker drops ticks.
 */
import type { ActorClock } from "./actor-clock.ts";

/**
 * Runs `tick` at `startMs` (now or past: at once), then every `periodMs` after it; never resolves,
 * and rejects when a tick does. A tick returns a promise of its work, or nothing when it finished
 * at once (most ticks of a large run: nothing to do). Callbacks rather than an await loop: the
 * loop's state is made once, not a promise and closures per period that live for the whole period.
 */
export function tickOnSchedule(clock: ActorClock, startMs: number, periodMs: number, tick: () => Promise<void> | void): Promise<never> {
  return new Promise<never>((_, reject) => {
    let next = startMs;
    const afterTick = (): void => {
      const nowMs = clock.monotonicMs();
      next += periodMs * Math.max(1, Math.ceil((nowMs - next) / periodMs));
      wakeAt(next - nowMs);
    };
    const runTick = (): void => {
      const working = tick();
      if (working === undefined) afterTick();
      else working.then(afterTick, reject);
    };
    const wakeAt = clock.recurringWakeup(runTick);
    runTick();
  });
}
