/**
 * The one source of time for everything in sim/ (see docs/ARCHITECTURE.md, "Determinism contract").
 *
 * Two implementations exist: the virtual clock of a `Simulation` (time moves only when the
 * event queue advances it) and the real-time adapter used by `serve` and the HTTP transport.
 * Code in sim/ takes a `Clock` and never reads the wall clock or calls the timer globals itself.
 */
export interface Clock {
  /** Current time in milliseconds since the Unix epoch (virtual or real). */
  nowMs(): number;
  /** Runs `callback` once, `delayMs` from now (0 or more); the returned handle cancels it. */
  setTimer(delayMs: number, callback: () => void): TimerHandle;
  /** Resolves `ms` from now. */
  sleep(ms: number): Promise<void>;
}

/** Cancels a timer set with `Clock.setTimer`; cancelling twice, or after it fired, does nothing. */
export interface TimerHandle {
  cancel(): void;
}
