/**
 * The waits of time-dependent cases (issue #13): poll with backoff toward a deadline instead of
 * sleeping a fixed time, so a server that expires versions in 10 s is done in 10 s. Time moves the
 * same way for both kinds of target: a virtual clock is advanced by each step (no real time
 * passes), a real one is slept through. Every wait ends at once when the run is interrupted.
 */
import { CaseInterrupted } from "./case-outcome.ts";

/** Moves time on by `ms`: the virtual clock, or a real (abortable) sleep. */
export type Advance = (ms: number) => Promise<void>;

/** The shortest and longest pause between two probes. */
const FIRST_STEP_MS = 250;
const LONGEST_STEP_MS = 10_000;

/** One poll. */
export interface Poll<T> {
  /** What is awaited, for progress and messages: "the continue token to expire (410)". */
  readonly what: string;
  /** How long to keep trying. */
  readonly withinMs: number;
  /** The value once the awaited thing happened; undefined for "not yet". */
  readonly probe: () => Promise<T | undefined>;
}

/** What a poll gave: the value and how long it took, or undefined and the time it gave up after. */
export interface PollOutcome<T> {
  readonly value: T | undefined;
  readonly waitedMs: number;
}

/**
 * Probes, then pauses and probes again, each pause 1.5 times the last (from 250 ms up to a 20th of
 * the deadline, at most 10 s: a server that expires at the deadline is seen within 5% of it).
 */
export async function pollUntil<T>(poll: Poll<T>, advance: Advance, elapsedMs: () => number): Promise<PollOutcome<T>> {
  const started = elapsedMs();
  const longestStepMs = Math.min(LONGEST_STEP_MS, Math.max(FIRST_STEP_MS, Math.floor(poll.withinMs / 20)));
  let stepMs = Math.min(FIRST_STEP_MS, longestStepMs);
  for (;;) {
    const value = await poll.probe();
    const waitedMs = elapsedMs() - started;
    if (value !== undefined) return { value, waitedMs };
    if (waitedMs >= poll.withinMs) return { value: undefined, waitedMs };
    await advance(Math.min(stepMs, poll.withinMs - waitedMs));
    stepMs = Math.min(longestStepMs, Math.ceil(stepMs * 1.5));
  }
}

/** A real sleep that rejects with CaseInterrupted as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new CaseInterrupted("interrupted while waiting"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CaseInterrupted("interrupted while waiting"));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
