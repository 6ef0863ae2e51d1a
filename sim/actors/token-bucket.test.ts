import { describe, expect, it } from "vitest";
import { TokenBucket } from "./token-bucket.ts";

describe("TokenBucket (burst 1)", () => {
  it("grants one token at once, then one per 1/rate", () => {
    const bucket = new TokenBucket(0.1, 0);
    expect(bucket.tryAccept(0)).toBe(true);
    expect(bucket.tryAccept(9_999)).toBe(false);
    expect(bucket.tryAccept(10_000)).toBe(true);
    expect(bucket.tryAccept(10_001)).toBe(false);
  });

  it("never grants at rate 0", () => {
    expect(new TokenBucket(0, 0).tryAccept(1e9)).toBe(false);
  });

  it("swaps like Kubernetes' SwapLimiter: full if the old had a token, drained if not", () => {
    const full = new TokenBucket(0.1, 0).swap(1, 0);
    expect(full.tryAccept(0)).toBe(true);
    const used = new TokenBucket(0.1, 0);
    expect(used.tryAccept(0)).toBe(true);
    const drained = used.swap(1, 100);
    expect(drained.tryAccept(100)).toBe(false);
    expect(drained.tryAccept(1100)).toBe(true);
    expect(used.swap(0.1, 5)).toBe(used);
  });
});
