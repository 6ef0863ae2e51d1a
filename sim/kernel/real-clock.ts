/**
 * The real-time `Clock`: the ONLY file in sim/ allowed to read the wall clock and use the timer
 * globals (sim/determinism.test.ts exempts it by name). It is for `serve` and the HTTP transport;
 * simulations use `Simulation`, which implements the same interface in virtual time.
 *
 * Process lifetime: `setTimer` timers are unref'd, so a timer nobody cancelled (a lease renewal
 * of a stopped actor, a forgotten deadline) never keeps the process alive; whatever must keep it
 * alive holds its own handle (a listening server, an open socket). `sleep` is not unref'd: a
 * sleep always has an awaiting caller whose continuation is the program's progress, and an
 * unref'd sleep would let a CLI that only waits (a poll, a backoff) exit silently mid-run.
 */
import type { Clock, TimerHandle } from "./clock.ts";
import { assertTimerDelayMs } from "./timer-delay.ts";

// setTimeout's largest delay (2^31 - 1 ms, about 24.8 days); longer delays are chained.
const MAX_TIMEOUT_MS = 2_147_483_647;

/** The wall-clock `Clock`; its `setTimer` timers do not keep the process alive (see above). */
export const realClock: Clock = {
  nowMs(): number {
    return Date.now();
  },

  setTimer(delayMs: number, callback: () => void): TimerHandle {
    assertTimerDelayMs(delayMs, "realClock.setTimer");
    return armTimer(Date.now() + delayMs, callback, false);
  },

  sleep(ms: number): Promise<void> {
    try {
      assertTimerDelayMs(ms, "realClock.sleep");
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve) => armTimer(Date.now() + ms, resolve, true));
  },
};

// Arms a timer for the wall-clock time `dueMs`, re-arming in steps when it is beyond what one
// setTimeout can wait (Node would otherwise clamp the delay to 1 ms, with only a warning).
function armTimer(dueMs: number, callback: () => void, keepAlive: boolean): TimerHandle {
  let timeout: NodeJS.Timeout | undefined;
  let cancelled = false;
  const arm = (): void => {
    const remainingMs = Math.max(0, dueMs - Date.now());
    timeout = setTimeout(remainingMs > MAX_TIMEOUT_MS ? arm : callback, Math.min(remainingMs, MAX_TIMEOUT_MS));
    if (!keepAlive) timeout.unref();
  };
  arm();
  return {
    cancel(): void {
      if (cancelled) return;
      cancelled = true;
      clearTimeout(timeout);
    },
  };
}
