/**
 * The one rule for timer delays shared by both clocks, so code that runs against the virtual
 * clock fails the same way against the real one: a delay is a finite number of milliseconds,
 * 0 or more. (NaN, negative or infinite delays are bugs; the timer globals would silently
 * treat them as 1 ms.)
 */

/** Throws a RangeError naming `caller` unless `delayMs` is finite and >= 0. */
export function assertTimerDelayMs(delayMs: number, caller: string): void {
  if (typeof delayMs !== "number" || !Number.isFinite(delayMs) || delayMs < 0) {
    throw new RangeError(`${caller}: delay must be a finite number of ms >= 0, got ${String(delayMs)}`);
  }
}
