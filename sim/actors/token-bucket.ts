/**
 * The per-zone eviction rate limiter of the node lifecycle controller (doc 2 §2.4
 * `--node-eviction-rate`, `--secondary-node-eviction-rate`): a token bucket of burst 1 on the
 * controller's own clock (Kubernetes: flowcontrol.NewTokenBucketRateLimiter(qps, 1), a fake
 * "never" limiter for qps 0), and Kubernetes' SwapLimiter, which replaces the bucket when the rate
 * changes and drains the new one when the old one had no token, so a swap never grants a token the
 * old rate would not have.
 */

/** A token bucket; times are ms of the owner's monotonic clock. */
export class TokenBucket {
  readonly ratePerSecond: number;
  readonly burst: number;
  #tokens: number;
  #lastMs: number;

  /** A full bucket (`burst` tokens) at `nowMs`; rate 0 never grants a token. */
  constructor(ratePerSecond: number, nowMs: number, burst = 1) {
    if (!(ratePerSecond >= 0 && Number.isFinite(ratePerSecond))) throw new RangeError(`rate must be finite and >= 0, got ${ratePerSecond}`);
    if (!(Number.isInteger(burst) && burst >= 1)) throw new RangeError(`burst must be a positive integer, got ${burst}`);
    this.ratePerSecond = ratePerSecond;
    this.burst = burst;
    this.#tokens = ratePerSecond > 0 ? burst : 0;
    this.#lastMs = nowMs;
  }

  /** Takes a token if one is there at `nowMs`. */
  tryAccept(nowMs: number): boolean {
    if (this.ratePerSecond === 0) return false;
    this.#refill(nowMs);
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  /** Kubernetes' SwapLimiter: the same bucket if the rate is unchanged, else a new one (drained if this one is empty). */
  swap(ratePerSecond: number, nowMs: number): TokenBucket {
    if (ratePerSecond === this.ratePerSecond) return this;
    const next = new TokenBucket(ratePerSecond, nowMs, this.burst);
    if (ratePerSecond > 0 && !this.tryAccept(nowMs)) next.tryAccept(nowMs);
    return next;
  }

  #refill(nowMs: number): void {
    if (nowMs > this.#lastMs) {
      this.#tokens = Math.min(this.burst, this.#tokens + ((nowMs - this.#lastMs) * this.ratePerSecond) / 1000);
      this.#lastMs = nowMs;
    }
  }
}
