/**
 * The simulated network between processes and the API server (issue #6, "Faults"): a latency
 * distribution per process, partitions of any set of processes from the server, and dropped
 * responses (the server applies the request, the client sees an error — what makes lease races
 * interesting). Generic over what is carried, so the HTTP-shaped transport and the store-level
 * client share one set of faults.
 */
import type { Rng } from "../kernel/rng.ts";
import type { Simulation } from "../kernel/simulation.ts";
import type { ProcessClock } from "./process-clock.ts";
import type { Wakeable, WakeupBatcher } from "./wakeup-batcher.ts";

/**
 * One-way latency: `minMs` plus an exponential tail of mean `meanExtraMs`, capped at `maxMs`,
 * rounded up to whole milliseconds (so deliveries due at the same instant share a kernel event).
 * The cap is the "bounded latency" the invariants assume.
 */
export interface LatencyDistribution {
  readonly minMs: number;
  readonly meanExtraMs: number;
  readonly maxMs: number;
}

/** How a call ends: `ok` with the server's value, or not with the error (the server's answer, or the network's). */
export type CallOutcome = (ok: boolean, outcome: unknown) => void;

/** What a partitioned request does: hang until the client's own timeout, or fail after `rejectAfterMs`. */
export type PartitionMode = "hang" | "reject";

/** A request that got no answer: the client's timeout, a refused connection, a lost response. */
export class NetworkError extends Error {
  override readonly name = "NetworkError";
  constructor(
    readonly reason: "timeout" | "unreachable",
    message: string,
  ) {
    // Without a stack: a cut-off zone fails thousands of simulated calls a second, and the stack of
    // each (the kernel's event loop) says nothing the message does not; capturing it cost about 3%
    // of a 5,000-node run with a partition.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/** How a network starts. */
export interface NetworkOptions {
  readonly sim: Simulation;
  readonly timers: WakeupBatcher;
  /** The network's random stream; each process gets its own fork of it. */
  readonly rng: Rng;
  readonly latency: LatencyDistribution;
  readonly partitionMode?: PartitionMode;
  /** With `partitionMode: "reject"`: how long until the connection attempt fails (default 1 s). */
  readonly rejectAfterMs?: number;
  /** Told of every response the network drops (for the history). */
  readonly onDrop?: (process: string) => void;
}

/** What the network holds for one process: one lookup per call, not one per question. */
class Link {
  /** Its own latency; the default when undefined. */
  latency: LatencyDistribution | undefined;
  dropProbability = 0;
  /** Partitions in force: overlapping partitions heal one at a time. */
  partitions = 0;
  /** Its random stream, forked on first use. */
  rng: Rng | undefined;

  constructor(readonly process: string) {}
}

/** Latency, partitions and drops between the processes and the API server. */
export class Network {
  readonly #options: NetworkOptions;
  readonly #links = new Map<string, Link>();
  #maxOneWayMs: number;

  /** A fully connected network with the default latency for every process. */
  constructor(options: NetworkOptions) {
    assertLatency(options.latency);
    this.#options = options;
    this.#maxOneWayMs = options.latency.maxMs;
  }

  /** The largest one-way latency any distribution ever set allows: the invariants' latency bound. */
  get maxOneWayMs(): number {
    return this.#maxOneWayMs;
  }

  /** Sets the latency of `process`, or restores the default with undefined. */
  setLatency(process: string, latency: LatencyDistribution | undefined): void {
    if (latency === undefined) {
      this.#link(process).latency = undefined;
      return;
    }
    assertLatency(latency);
    this.#link(process).latency = latency;
    this.#maxOneWayMs = Math.max(this.#maxOneWayMs, latency.maxMs);
  }

  /** Drops each response to `process` with probability `p` (0 restores delivery). */
  setDropProbability(process: string, p: number): void {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`drop probability must be in [0, 1], got ${p}`);
    this.#link(process).dropProbability = p;
  }

  /** Cuts `processes` off from the API server. */
  partition(processes: readonly string[]): void {
    for (const process of processes) this.#link(process).partitions++;
  }

  /** Ends one partition of each of `processes` (they reconnect when none is left). */
  heal(processes: readonly string[]): void {
    for (const process of processes) {
      const link = this.#link(process);
      link.partitions = Math.max(0, link.partitions - 1);
    }
  }

  /** Whether `process` is cut off now. */
  isPartitioned(process: string): boolean {
    return (this.#links.get(process)?.partitions ?? 0) > 0;
  }

  /**
   * Carries one request of the process whose clock is `clock` to the server and its response
   * back: after the request's latency, `apply` runs at the server (unless a partition swallowed the
   * request); after the response's latency, the outcome is handed to the process (unless dropped
   * or partitioned). With no answer within `timeoutMs` of the process's clock, it gets a
   * NetworkError. Outcomes reach the process through its clock: deferred while it is paused,
   * dropped if it crashed.
   *
   * The timeout costs a timer only when it can fire: when the call is lost, or when its sampled
   * latencies already exceed it (this runs millions of times in a large cluster).
   */
  roundTrip<T>(clock: ProcessClock, apply: () => T | Promise<T>, timeoutMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.call(clock, apply, timeoutMs, (ok, outcome) => (ok ? resolve(outcome as T) : reject(outcome)));
    });
  }

  /**
   * `roundTrip` with the outcome handed to `settle` (in the process, as `roundTrip` resolves)
   * instead of a promise: for the hottest call of a large run, a node's lease renewal, whose
   * promise chain was a tenth of the 5,000-node hour.
   */
  call<T>(clock: ProcessClock, apply: () => T | Promise<T>, timeoutMs: number, settle: CallOutcome): void {
    const link = this.#link(clock.name);
    const call = new InFlight<T>(this, link, clock, timeoutMs, settle);
    if (link.partitions > 0) return call.lose();
    const requestMs = this.#sample(link);
    const responseMs = this.#sample(link);
    if (requestMs + responseMs > timeoutMs) clock.setTimer(timeoutMs, () => call.timeOut()); // the answer comes too late
    // A request whose client already gave up still lands: bytes in flight are not recalled.
    call.send(requestMs, apply, responseMs);
  }

  /** Wakes `wakeable` after `delayMs` of true time (at once for 0). */
  wakeAfter(delayMs: number, wakeable: Wakeable): void {
    if (delayMs === 0) wakeable.wake();
    else this.#options.timers.wakeAfter(delayMs, wakeable);
  }

  /** Whether a response on `link` is lost (drawn with its drop probability). */
  dropsResponse(link: Link): boolean {
    const p = link.dropProbability;
    if (p === 0 || !this.#rng(link).bool(p)) return false;
    this.#options.onDrop?.(link.process);
    return true;
  }

  /** Runs `then` after `delayMs` of true time (at once for 0). */
  after(delayMs: number, then: () => void): void {
    this.#after(delayMs, then);
  }

  /** True (simulation) time now, ms. */
  nowMs(): number {
    return this.#options.sim.nowMs();
  }

  /** A one-way latency to or from `process`, drawn from its distribution (whole ms). */
  oneWayMs(process: string): number {
    return this.#sample(this.#link(process));
  }

  /** How partitioned calls end: `reject` after `rejectAfterMs`, or hang (undefined) until the client's timeout. */
  get rejectAfterMs(): number | undefined {
    return this.#options.partitionMode === "reject" ? (this.#options.rejectAfterMs ?? 1000) : undefined;
  }

  #after(delayMs: number, then: () => void): void {
    if (delayMs === 0) then();
    else this.#options.timers.after(delayMs, then);
  }

  #sample(link: Link): number {
    const { minMs, meanExtraMs, maxMs } = link.latency ?? this.#options.latency;
    const extraMs = meanExtraMs > 0 ? this.#rng(link).exponential(meanExtraMs) : 0;
    return Math.ceil(Math.min(maxMs, minMs + extraMs));
  }

  #rng(link: Link): Rng {
    link.rng ??= this.#options.rng.fork(link.process);
    return link.rng;
  }

  #link(process: string): Link {
    let link = this.#links.get(process);
    if (link === undefined) {
      link = new Link(process);
      this.#links.set(process, link);
    }
    return link;
  }
}

function assertLatency(latency: LatencyDistribution): void {
  const { minMs, meanExtraMs, maxMs } = latency;
  if (!(minMs >= 0 && meanExtraMs >= 0 && maxMs >= minMs && Number.isFinite(maxMs))) {
    throw new RangeError(`latency needs 0 <= minMs <= maxMs (finite) and meanExtraMs >= 0, got ${JSON.stringify(latency)}`);
  }
}

/** One call on the wire: a class that is woken for each leg, not closures (millions in a large run). */
class InFlight<T> implements Wakeable {
  #done = false;
  #toClient = false; // which leg the next wake-up ends
  #apply: () => T | Promise<T> = unusable;
  #responseMs = 0;
  #ok = false;
  #outcome: unknown;
  readonly #sentMs: number;

  constructor(
    private readonly network: Network,
    private readonly link: Link,
    private readonly clock: ProcessClock,
    private readonly timeoutMs: number,
    private readonly settle: CallOutcome,
  ) {
    this.#sentMs = clock.monotonicMs();
  }

  /** Sends the request: `apply` runs at the server after `requestMs`; the answer takes `responseMs` back. */
  send(requestMs: number, apply: () => T | Promise<T>, responseMs: number): void {
    this.#apply = apply;
    this.#responseMs = responseMs;
    this.network.wakeAfter(requestMs, this);
  }

  /** The end of a leg: the request reaches the server, or the response the client. */
  wake(): boolean {
    if (!this.#toClient) this.#arrive();
    else if (this.link.partitions > 0) this.lose();
    else this.#finish(this.#ok, this.#outcome);
    return true;
  }

  /** No answer will come: the client's timeout (or a refused connection) ends the call. */
  lose(): void {
    const rejectAfterMs = this.network.rejectAfterMs;
    if (rejectAfterMs !== undefined) {
      this.network.after(rejectAfterMs, () => this.#finish(false, new NetworkError("unreachable", `${this.clock.name}: API server unreachable`)));
      return;
    }
    const remainingMs = Math.max(0, this.timeoutMs - (this.clock.monotonicMs() - this.#sentMs));
    this.clock.setTimer(remainingMs, () => this.timeOut());
  }

  /** The client's timeout fired. */
  timeOut(): void {
    this.#finish(false, new NetworkError("timeout", `${this.clock.name}: no response within ${this.timeoutMs} ms`));
  }

  // At the server: apply, then send the outcome back.
  #arrive(): void {
    if (this.link.partitions > 0) return this.lose();
    let result: T | Promise<T>;
    try {
      result = this.#apply();
    } catch (error) {
      return this.#respond(false, error);
    }
    if (result instanceof Promise) {
      result.then(
        (value) => this.#respond(true, value),
        (error: unknown) => this.#respond(false, error),
      );
    } else this.#respond(true, result);
  }

  #respond(ok: boolean, outcome: unknown): void {
    if (this.network.dropsResponse(this.link)) return this.lose();
    this.#toClient = true;
    this.#ok = ok;
    this.#outcome = outcome;
    this.network.wakeAfter(this.#responseMs, this);
  }

  #finish(ok: boolean, outcome: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.#ok = ok;
    this.#outcome = outcome;
    this.clock.deliverTo(this);
  }

  /** In the process (ProcessClock.deliverTo): hands it the outcome. */
  delivered(): void {
    this.settle(this.#ok, this.#outcome);
  }
}

// What an InFlight applies before `send` gives it its operation (never called).
function unusable(): never {
  throw new Error("InFlight: applied before it was sent");
}
