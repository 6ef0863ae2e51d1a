/**
 * The simulation kernel: the only source of time and randomness inside sim/ (docs/ARCHITECTURE.md,
 * "Determinism contract"). Import from here rather than from the individual files.
 */
export type { Clock, TimerHandle } from "./clock.ts";
export { canonicalJson } from "./canonical-json.ts";
export { EventQueue, type ScheduledEvent } from "./event-queue.ts";
export { realClock } from "./real-clock.ts";
export { NAME_SUFFIX_ALPHABET, Rng } from "./rng.ts";
export {
  Simulation,
  type RunOptions,
  type RunResult,
  type RunStopReason,
  type SimulationOptions,
} from "./simulation.ts";
export { assertTimerDelayMs } from "./timer-delay.ts";
export { Trace, type TraceOptions } from "./trace.ts";
export { assert, InvariantViolation } from "./assert.ts";
