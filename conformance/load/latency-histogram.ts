/**
 * Latency percentiles over millions of samples in constant memory: buckets 2% wide on a log
 * scale from 0.1 ms, so a reported percentile is within 2% of the true one.
 */
const FIRST_BUCKET_MS = 0.1;
const GROWTH = 1.02;
const BUCKETS = 800; // 0.1 ms · 1.02^800 ≈ 7.6 hours: enough for any load run

/** A histogram of latencies in milliseconds. */
export class LatencyHistogram {
  private readonly counts = new Float64Array(BUCKETS);
  private total = 0;
  private max = 0;

  record(ms: number): void {
    const bucket = ms <= FIRST_BUCKET_MS ? 0 : Math.min(BUCKETS - 1, Math.ceil(Math.log(ms / FIRST_BUCKET_MS) / Math.log(GROWTH)));
    this.counts[bucket]!++;
    this.total++;
    if (ms > this.max) this.max = ms;
  }

  get count(): number {
    return this.total;
  }

  /** The latency below which `fraction` of the samples fall (upper bucket edge), 0 when empty. */
  percentile(fraction: number): number {
    if (this.total === 0) return 0;
    const wanted = Math.ceil(fraction * this.total);
    let seen = 0;
    for (let bucket = 0; bucket < BUCKETS; bucket++) {
      seen += this.counts[bucket]!;
      if (seen >= wanted) return Math.min(this.max, FIRST_BUCKET_MS * GROWTH ** bucket);
    }
    return this.max;
  }
}
