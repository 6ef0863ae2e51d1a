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
import type { WakeupBatcher } from "./wakeup-batcher.ts";

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

/** What a partitioned request does: hang until the client's own timeout, or fail after `rejectAfterMs`. */
export type PartitionMode = "hang" | "reject";

/** A request that got no answer: the client's timeout, a refused connection, a lost response. */
export class NetworkError extends Error {
  override readonly name = "NetworkError";
  constructor(
    readonly reason: "timeout" | "unreachable",
    message: string,
  ) {
    super(message);
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

/** Latency, partitions and drops between the processes and the API server. */
export class Network {
  readonly #options: NetworkOptions;
  readonly #latency = new Map<string, LatencyDistribution>();
  readonly #dropProbability = new Map<string, number>();
  // Partitions in force per process: overlapping partitions heal one at a time.
  readonly #partitioned = new Map<string, number>();
  readonly #rngs = new Map<string, Rng>();
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
      this.#latency.delete(process);
      return;
    }
    assertLatency(latency);
    this.#latency.set(process, latency);
    this.#maxOneWayMs = Math.max(this.#maxOneWayMs, latency.maxMs);
  }

  /** Drops each response to `process` with probability `p` (0 restores delivery). */
  setDropProbability(process: string, p: number): void {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`drop probability must be in [0, 1], got ${p}`);
    if (p === 0) this.#dropProbability.delete(process);
    else this.#dropProbability.set(process, p);
  }

  /** Cuts `processes` off from the API server. */
  partition(processes: readonly string[]): void {
    for (const process of processes) this.#partitioned.set(process, (this.#partitioned.get(process) ?? 0) + 1);
  }

  /** Ends one partition of each of `processes` (they reconnect when none is left). */
  heal(processes: readonly string[]): void {
    for (const process of processes) {
      const count = (this.#partitioned.get(process) ?? 0) - 1;
      if (count > 0) this.#partitioned.set(process, count);
      else this.#partitioned.delete(process);
    }
  }

  /** Whether `process` is cut off now. */
  isPartitioned(process: string): boolean {
    return this.#partitioned.has(process);
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
      const call = new InFlight<T>(this, clock, timeoutMs, resolve, reject);
      if (this.isPartitioned(clock.name)) return call.lose();
      const requestMs = this.#sample(clock.name);
      const responseMs = this.#sample(clock.name);
      if (requestMs + responseMs > timeoutMs) clock.setTimer(timeoutMs, () => call.timeOut()); // the answer comes too late
      // A request whose client already gave up still lands: bytes in flight are not recalled.
      this.#after(requestMs, () => call.arrive(apply, responseMs));
    });
  }

  /** Whether the response to `process` is lost (drawn with its drop probability). */
  dropsResponse(process: string): boolean {
    const p = this.#dropProbability.get(process);
    if (p === undefined || !this.#rng(process).bool(p)) return false;
    this.#options.onDrop?.(process);
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
    return this.#sample(process);
  }

  /** How partitioned calls end: `reject` after `rejectAfterMs`, or hang (undefined) until the client's timeout. */
  get rejectAfterMs(): number | undefined {
    return this.#options.partitionMode === "reject" ? (this.#options.rejectAfterMs ?? 1000) : undefined;
  }

  #after(delayMs: number, then: () => void): void {
    if (delayMs === 0) then();
    else this.#options.timers.after(delayMs, then);
  }

  #sample(process: string): number {
    const { minMs, meanExtraMs, maxMs } = this.#latency.get(process) ?? this.#options.latency;
    const extraMs = meanExtraMs > 0 ? this.#rng(process).exponential(meanExtraMs) : 0;
    return Math.ceil(Math.min(maxMs, minMs + extraMs));
  }

  #rng(process: string): Rng {
    let rng = this.#rngs.get(process);
    if (rng === undefined) {
      rng = this.#options.rng.fork(process);
      this.#rngs.set(process, rng);
    }
    return rng;
  }
}

function assertLatency(latency: LatencyDistribution): void {
  const { minMs, meanExtraMs, maxMs } = latency;
  if (!(minMs >= 0 && meanExtraMs >= 0 && maxMs >= minMs && Number.isFinite(maxMs))) {
    throw new RangeError(`latency needs 0 <= minMs <= maxMs (finite) and meanExtraMs >= 0, got ${JSON.stringify(latency)}`);
  }
}

/** One call on the wire (a class, not closures: millions are made in a large run). */
class InFlight<T> {
  #done = false;
  readonly #sentMs: number;

  constructor(
    private readonly network: Network,
    private readonly clock: ProcessClock,
    private readonly timeoutMs: number,
    private readonly resolve: (value: T) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.#sentMs = clock.monotonicMs();
  }

  /** At the server: apply, then send the outcome back. */
  arrive(apply: () => T | Promise<T>, responseMs: number): void {
    if (this.network.isPartitioned(this.clock.name)) return this.lose();
    let result: T | Promise<T>;
    try {
      result = apply();
    } catch (error) {
      return this.#respond(responseMs, false, error);
    }
    if (result instanceof Promise) {
      result.then(
        (value) => this.#respond(responseMs, true, value),
        (error: unknown) => this.#respond(responseMs, false, error),
      );
    } else this.#respond(responseMs, true, result);
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

  #respond(responseMs: number, ok: boolean, outcome: unknown): void {
    if (this.network.dropsResponse(this.clock.name)) return this.lose();
    this.network.after(responseMs, () => (this.network.isPartitioned(this.clock.name) ? this.lose() : this.#finish(ok, outcome)));
  }

  #finish(ok: boolean, outcome: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.clock.deliver(ok ? () => this.resolve(outcome as T) : () => this.reject(outcome));
  }
}
