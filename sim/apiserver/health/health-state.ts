/**
 * What the health checks report at a given moment (issue #4, doc 1 §4.5): which checks were made
 * to fail (`serve --fail-check NAME`), whether shutdown has begun (readyz's `shutdown` check fails
 * from SIGTERM on, while the server keeps serving for `--shutdown-delay-duration`), and the start-up
 * grace of /livez (`--livez-grace-period`). Time comes from a Clock only.
 *
 * Kubernetes semantics reproduced (k8s.io/apiserver, 1.26):
 * - `--livez-grace-period` (default 0s): "the maximum amount of time it should take for apiserver
 *   to complete its startup sequence and become live". From start until it has elapsed, /livez
 *   treats the start-up checks (post-start hooks, autoregister-completion) as passing, whatever
 *   they report; ping, log and the store check count from the start, and /healthz and /readyz
 *   are never affected. Kubernetes compares with `time.Now().After(start + grace)`, so at the exact
 *   instant start + grace it still ignores them; here the grace ends at that instant (`now <
 *   start + grace`), so that a grace of 0 means none, also in virtual time that has not moved.
 * - The `shutdown` check fails once shutdown has begun, with the error "process is shutting down".
 *   Liveness is not affected: /livez keeps answering 200 until the server closes.
 */
import type { Dialect } from "../../../spec/dialects.ts";
import type { Clock, TimerHandle } from "../../kernel/clock.ts";
import { findHealthCheck, healthCheckNames, type HealthEndpoint } from "./checks.ts";

/** How to build a HealthState (the daemon flags of doc 1 §4.5 and `serve --fail-check`). */
export interface HealthStateOptions {
  readonly dialect: Dialect;
  readonly clock: Clock;
  /** `--fail-check NAME`, repeatable: these checks fail until `passCheck`. Unknown names throw. */
  readonly failChecks?: readonly string[];
  /** `--livez-grace-period` in ms (default 0). */
  readonly livezGracePeriodMs?: number;
  /** `--shutdown-delay-duration` in ms (default 0). */
  readonly shutdownDelayMs?: number;
}

/** The error a check made to fail by `--fail-check` reports (shown by the single-check endpoints only). */
export const FAIL_CHECK_ERROR = "failing on purpose (--fail-check)";

/** The error of the `shutdown` check once shutdown has begun (Kubernetes' shutdownCheck). */
export const SHUTDOWN_ERROR = "process is shutting down";

/** The live state behind the health endpoints of one server. */
export class HealthState {
  readonly dialect: Dialect;
  /** When the server started (the livez grace period counts from here). */
  readonly startedAtMs: number;
  readonly livezGracePeriodMs: number;
  readonly shutdownDelayMs: number;
  readonly #clock: Clock;
  readonly #failing = new Set<string>();
  #shutdownBegunAtMs: number | undefined;
  #closeTimer: TimerHandle | undefined;

  constructor(options: HealthStateOptions) {
    this.dialect = options.dialect;
    this.#clock = options.clock;
    this.startedAtMs = options.clock.nowMs();
    this.livezGracePeriodMs = nonNegativeMs(options.livezGracePeriodMs ?? 0, "livezGracePeriodMs");
    this.shutdownDelayMs = nonNegativeMs(options.shutdownDelayMs ?? 0, "shutdownDelayMs");
    for (const name of options.failChecks ?? []) this.failCheck(name);
  }

  /** Makes the check named `name` fail on every endpoint that runs it; throws for a name no endpoint runs. */
  failCheck(name: string): void {
    this.#assertKnown(name);
    this.#failing.add(name);
  }

  /** Undoes `failCheck`. */
  passCheck(name: string): void {
    this.#assertKnown(name);
    this.#failing.delete(name);
  }

  /** The checks made to fail, in /readyz order. */
  get failingChecks(): readonly string[] {
    return healthCheckNames(this.dialect).filter((name) => this.#failing.has(name));
  }

  /** True while the livez grace period runs (start-up checks cannot fail /livez). */
  get inLivezGracePeriod(): boolean {
    return this.#clock.nowMs() < this.startedAtMs + this.livezGracePeriodMs;
  }

  /** True once `beginShutdown` was called: readyz's `shutdown` check fails. */
  get shuttingDown(): boolean {
    return this.#shutdownBegunAtMs !== undefined;
  }

  /** When shutdown began (ms since the epoch), if it has. */
  get shutdownBegunAtMs(): number | undefined {
    return this.#shutdownBegunAtMs;
  }

  /**
   * SIGTERM: from now on readyz's `shutdown` check fails; `close` runs once, after
   * `shutdownDelayMs` on the clock (a timer of 0 ms for the default 0s delay). The server keeps
   * serving every request, health included, until `close` stops it. A second call does nothing.
   */
  beginShutdown(close: () => void): void {
    if (this.#shutdownBegunAtMs !== undefined) return;
    this.#shutdownBegunAtMs = this.#clock.nowMs();
    this.#closeTimer = this.#clock.setTimer(this.shutdownDelayMs, close);
  }

  /** Cancels the pending close of `beginShutdown`, if any (for tests and for a server stopped another way). */
  cancelPendingClose(): void {
    this.#closeTimer?.cancel();
    this.#closeTimer = undefined;
  }

  /**
   * Why `name` fails on `endpoint` now, or undefined when it passes (or is not run there). This is
   * the detail Kubernetes writes to its log and to the single-check endpoint; the aggregated
   * bodies say only "reason withheld".
   */
  checkError(endpoint: HealthEndpoint, name: string): string | undefined {
    const check = findHealthCheck(this.dialect, endpoint, name);
    if (check === undefined) return undefined;
    if (endpoint === "livez" && check.bootSequence && this.inLivezGracePeriod) return undefined;
    if (this.#failing.has(name)) return FAIL_CHECK_ERROR;
    if (name === "shutdown" && this.shuttingDown) return SHUTDOWN_ERROR;
    return undefined;
  }

  #assertKnown(name: string): void {
    const known = healthCheckNames(this.dialect);
    if (!known.includes(name)) {
      throw new Error(`unknown health check "${name}" for dialect ${this.dialect.name}: expected one of ${known.join(", ")}`);
    }
  }
}

function nonNegativeMs(value: number, what: string): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`HealthState: ${what} must be a finite number >= 0, got ${value}`);
  return value;
}
