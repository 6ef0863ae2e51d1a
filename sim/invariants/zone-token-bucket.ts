/**
 * The token bucket of one zone's eviction limiter (burst 1), replayed on the controller's own
 * clock from the recorded rate changes, as Kubernetes' SwapLimiter keeps it (doc 2 §2.4 rates).
 * The zone-rate checker judges with it, and the simulation report plots the same buckets.
 */
import type { ZoneRateRecord } from "./control-plane-history.ts";

const EPSILON = 1e-9;

export interface ZoneBucket {
  rate: number;
  tokens: number;
  /** The controller's clock at the bucket's last refill. */
  localMs: number;
}

/** Refills `bucket` up to `localMs` on the controller's clock, to one token at most. */
export function refill(bucket: ZoneBucket, localMs: number): void {
  if (localMs <= bucket.localMs) return;
  bucket.tokens = Math.min(1, bucket.tokens + ((localMs - bucket.localMs) * bucket.rate) / 1000);
  bucket.localMs = localMs;
}

/** Takes a token if there is one. */
export function take(bucket: ZoneBucket, localMs: number): boolean {
  if (bucket.rate === 0) return false;
  refill(bucket, localMs);
  if (bucket.tokens < 1 - EPSILON) return false;
  bucket.tokens -= 1;
  return true;
}

/** Kubernetes' SwapLimiter: a new bucket at the new rate; drained when the old one had no token. */
export function nextBucket(old: ZoneBucket | undefined, record: ZoneRateRecord): ZoneBucket {
  if (record.how === "created" || old === undefined) return { rate: record.rate, tokens: record.rate > 0 ? 1 : 0, localMs: record.localMs };
  if (record.rate === old.rate) return old;
  const next: ZoneBucket = { rate: record.rate, tokens: record.rate > 0 ? 1 : 0, localMs: record.localMs };
  if (record.rate > 0 && !take(old, record.localMs)) take(next, record.localMs);
  return next;
}
