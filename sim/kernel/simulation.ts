/**
 * A discrete-event simulation in virtual time: the `Clock` that simulations hand to the model and
 * the actors, plus the run's root `Rng` and its `Trace` (docs/ARCHITECTURE.md, "Determinism contract").
 *
 * Time moves only when `run` takes the next event off the queue. Between two events, `run` lets
 * every ready promise continuation execute, so async actors written as ordinary
 * `while (…) { await clock.sleep(…) }` loops interleave in an order fixed by the seed alone.
 */
import type { Clock, TimerHandle } from "./clock.ts";
import { EventQueue, type ScheduledEvent } from "./event-queue.ts";
import { Rng } from "./rng.ts";
import { assertTimerDelayMs } from "./timer-delay.ts";
import { Trace } from "./trace.ts";

/** How to build a `Simulation`. */
export interface SimulationOptions {
  /** Identifies the run: every random draw and the epoch derive from it. */
  seed: string | number;
  /** Virtual time at start, ms since the Unix epoch; drawn from the seed when omitted. */
  epochMs?: number;
  /** Keep trace lines in memory for printing (the hash is always kept). */
  keepTraceLines?: boolean;
}

/** Limits for `Simulation.run`; with neither, it runs until no event is pending. */
export interface RunOptions {
  /** Run events due at or before this time, then set the clock to it. */
  untilMs?: number;
  /** Stop after this many events (the clock stays at the last event's time). */
  maxEvents?: number;
}

/** Why `run` returned: no event pending, next event after `untilMs`, or `maxEvents` reached. */
export type RunStopReason = "idle" | "until" | "maxEvents";

/** What `run` did. */
export interface RunResult {
  /** Events taken off the queue by this call. */
  eventsRun: number;
  /** Which limit ended the call. */
  stoppedBy: RunStopReason;
  /** Virtual time when the call returned. */
  nowMs: number;
}

// The drawn epoch lies in [2020-01-01, 2030-01-01) UTC, in whole seconds, so timestamps look
// like real ones (RFC 3339 in objects, lease times) without depending on today's date.
const EPOCH_MIN_S = 1_577_836_800; // 2020-01-01T00:00:00Z
const EPOCH_MAX_S = 1_893_455_999; // 2029-12-31T23:59:59Z

/** Virtual clock, event queue, root Rng and Trace of one deterministic run. */
export class Simulation implements Clock {
  /** The seed as a string (numbers are converted with `String`). */
  readonly seed: string;
  /** Virtual time at which the run started. */
  readonly epochMs: number;
  /** The root random stream; fork it per concern (`sim.rng.fork("faults")`). */
  readonly rng: Rng;
  /** The run's record; its hash identifies the run. */
  readonly trace: Trace;
  readonly #queue = new EventQueue<() => void>();
  #nowMs: number;
  #running = false;
  // The first error of a spawned process, held until `run` can reject with it.
  #processFailure: { error: unknown } | undefined;

  /** Creates a simulation at its epoch with nothing scheduled. */
  constructor(options: SimulationOptions) {
    const { seed, epochMs } = options;
    if (typeof seed === "number" ? !Number.isFinite(seed) : typeof seed !== "string" || seed === "") {
      throw new TypeError(`Simulation: seed must be a non-empty string or a finite number, got ${String(seed)}`);
    }
    this.seed = String(seed);
    this.rng = new Rng(this.seed);
    if (epochMs !== undefined && !Number.isFinite(epochMs)) {
      throw new RangeError(`Simulation: epochMs must be finite, got ${epochMs}`);
    }
    // A fork, so drawing the epoch consumes nothing from the root stream.
    this.epochMs = epochMs ?? this.rng.fork("epoch").int(EPOCH_MIN_S, EPOCH_MAX_S) * 1000;
    this.#nowMs = this.epochMs;
    this.trace = new Trace({ keepLines: options.keepTraceLines === true });
  }

  /** Current virtual time, ms since the Unix epoch. */
  nowMs(): number {
    return this.#nowMs;
  }

  /** Number of events scheduled and not yet run or cancelled. */
  get pendingEvents(): number {
    return this.#queue.size;
  }

  /** Runs `callback` at now + `delayMs` (finite, >= 0), after events already due then. */
  setTimer(delayMs: number, callback: () => void): TimerHandle {
    assertTimerDelayMs(delayMs, "Simulation.setTimer");
    // The event is its own handle: a closure per timer would cost more than the timer.
    return this.#queue.push(this.#nowMs + delayMs, callback);
  }

  /** Resolves at now + `ms` of virtual time (rejects on an invalid delay). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimer(ms, resolve));
  }

  /** Appends a trace line stamped with the current virtual time. */
  record(actor: string, event: string, details?: unknown): void {
    this.trace.record(this.#nowMs, actor, event, details);
  }

  /**
   * Starts an async process now and returns its promise. If it rejects, the error is recorded
   * in the trace and the current (or next) `run` rejects with it, so a failing actor stops the
   * run instead of surfacing later as an unhandled rejection, or not at all.
   */
  spawn<T>(actor: string, process: () => Promise<T>): Promise<T> {
    let running: Promise<T>;
    try {
      running = process();
    } catch (error) {
      running = Promise.reject(error);
    }
    running.catch((error: unknown) => {
      this.trace.record(this.#nowMs, actor, "process-error", errorDetails(error));
      this.#processFailure ??= { error };
    });
    return running;
  }

  /**
   * Runs events in (time, sequence) order until none is pending, the next is due after
   * `untilMs` (the clock then moves to `untilMs`), or `maxEvents` have run. After each event,
   * waits until no promise continuation is ready (see `settleMicrotasks`) before taking the next.
   * Rejects with the error of a callback that throws, or of a spawned process that rejects; both
   * are recorded in the trace. Not reentrant.
   */
  async run(options: RunOptions = {}): Promise<RunResult> {
    const untilMs = options.untilMs ?? Number.POSITIVE_INFINITY;
    const maxEvents = options.maxEvents ?? Number.POSITIVE_INFINITY;
    if (Number.isNaN(untilMs) || untilMs < this.#nowMs) {
      throw new RangeError(`Simulation.run: untilMs ${untilMs} is before now (${this.#nowMs})`);
    }
    if (maxEvents !== Number.POSITIVE_INFINITY && !(Number.isSafeInteger(maxEvents) && maxEvents >= 0)) {
      throw new RangeError(`Simulation.run: maxEvents must be a non-negative integer, got ${maxEvents}`);
    }
    if (this.#running) throw new Error("Simulation.run: already running (run is not reentrant)");
    this.#running = true;
    try {
      return await this.#loop(untilMs, maxEvents);
    } finally {
      this.#running = false;
    }
  }

  /** Runs for `ms` of virtual time: `run({ untilMs: nowMs() + ms })`. */
  runFor(ms: number): Promise<RunResult> {
    assertTimerDelayMs(ms, "Simulation.runFor");
    return this.run({ untilMs: this.#nowMs + ms });
  }

  // Callbacks, not an await per event: the await made a promise, its reactions and the settle's
  // closures for each of the 877,000 events of the 5,000-node hour. The order is the await's: each
  // step runs as the await's continuation ran, once every continuation its event readied has run
  // (see `settle`).
  #loop(untilMs: number, maxEvents: number): Promise<RunResult> {
    return new Promise<RunResult>((resolve, reject) => {
      let eventsRun = 0;
      const step = (): void => {
        try {
          this.#throwProcessFailure();
          if (eventsRun >= maxEvents) return resolve({ eventsRun, stoppedBy: "maxEvents", nowMs: this.#nowMs });
          const next = this.#queue.peek();
          if (next === undefined || next.timeMs > untilMs) {
            if (untilMs !== Number.POSITIVE_INFINITY) this.#nowMs = untilMs;
            return resolve({ eventsRun, stoppedBy: next === undefined ? "idle" : "until", nowMs: this.#nowMs });
          }
          this.#queue.pop();
          eventsRun++;
          this.#fire(next);
        } catch (error) {
          return reject(error);
        }
        settle(settled);
      };
      const settled = settledThen(step);
      // Settle first: continuations queued before `run` may still schedule events due now.
      settle(settled);
    });
  }

  #fire(event: ScheduledEvent<() => void>): void {
    // Cannot fail while delays are checked to be >= 0; checked anyway, as the contract's base.
    if (event.timeMs < this.#nowMs) {
      throw new Error(`Simulation: time would go backwards, from ${this.#nowMs} to ${event.timeMs}`);
    }
    this.#nowMs = event.timeMs;
    try {
      event.payload();
    } catch (error) {
      this.trace.record(this.#nowMs, "kernel", "callback-error", errorDetails(error));
      throw error;
    }
  }

  #throwProcessFailure(): void {
    const failure = this.#processFailure;
    if (failure === undefined) return;
    this.#processFailure = undefined;
    throw failure.error;
  }
}

/** The callbacks of `settle` for a loop whose next step is `step`: made once per run, not per event. */
interface Settled {
  /** Queues the tick (a settle within the turn of Node's tick loop). */
  readonly afterMicrotasks: () => void;
  /** Runs `step` as a promise job, where the awaiting loop's continuation ran. */
  readonly resume: () => void;
}

function settledThen(step: () => void): Settled {
  const resume = (): void => void SETTLED.then(step);
  return { afterMicrotasks: () => process.nextTick(resume), resume };
}

/**
 * Runs `settled.resume` once every promise continuation that is ready, or becomes ready while
 * they run, has run: i.e. once each async process has reached an await of something not yet
 * settled (in a simulation, normally a `sleep`: a future event).
 *
 * How: a promise job, queued behind every job ready now, queues a `process.nextTick`. Node runs the
 * next-tick queue only after V8 has drained the promise job queue, which V8 does completely, jobs
 * queued during the drain included; so when the tick runs, every chain of continuations started
 * by the event's callback has run as far as it can. The tick queues the loop's next step as a
 * promise job, which Node runs once the ticks queued before it have run: exactly where the
 * continuation of an `await` of this settle ran, so the order of a run is unchanged. This stays
 * inside one turn of Node's tick loop: a `setImmediate` per event, which waits the same way but
 * through the event loop, cost about 15% of a large run (877,000 events in the 5,000-node hour).
 * Every `SETTLES_PER_EVENT_LOOP_TURN`th settle still goes through the event loop, so a long run
 * lets the process around it (signals, a test runner's messages) be served. Both ways wait for
 * the same thing, so which settle yields changes nothing in a run. Microtasks run in the order
 * they were queued, which depends only on program order, so the interleaving is deterministic.
 * The job is a `then` on a settled promise rather than `queueMicrotask`, which wraps each
 * callback in an AsyncResource and a bound function.
 *
 * Limit: continuations that wait for real I/O (fs, sockets, worker threads) are not microtasks
 * and are not waited for, and code that queues its own next-ticks could run between; both are
 * banned in sim/ (sim/determinism.test.ts), which allows `setImmediate` and `process.nextTick`
 * here only.
 */
function settle(settled: Settled): void {
  settlesSinceEventLoopTurn++;
  if (settlesSinceEventLoopTurn >= SETTLES_PER_EVENT_LOOP_TURN) {
    settlesSinceEventLoopTurn = 0;
    setImmediate(settled.resume);
    return;
  }
  void SETTLED.then(settled.afterMicrotasks);
}

const SETTLED = Promise.resolve();
const SETTLES_PER_EVENT_LOOP_TURN = 1024;
let settlesSinceEventLoopTurn = 0;

// Error details for the trace: name and message only, as stacks hold machine-specific paths.
function errorDetails(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: typeof error, message: String(error) };
}
