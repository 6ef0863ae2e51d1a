import { afterEach, describe, expect, it, vi } from "vitest";
import { realClock } from "./real-clock.ts";

describe("realClock", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads the wall clock", () => {
    const before = Date.now();
    const now = realClock.nowMs();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it("fires a timer once, and not after cancel", async () => {
    const fired: string[] = [];
    realClock.setTimer(1, () => fired.push("kept"));
    const cancelled = realClock.setTimer(1, () => fired.push("cancelled"));
    cancelled.cancel();
    cancelled.cancel();
    await realClock.sleep(20);
    expect(fired).toEqual(["kept"]);
  });

  it("sleeps at least the given time", async () => {
    const start = performance.now();
    await realClock.sleep(15);
    // Node may fire a timer up to 1 ms early by its own millisecond rounding.
    expect(performance.now() - start).toBeGreaterThanOrEqual(14);
  });

  it("rejects invalid delays like the virtual clock does", async () => {
    expect(() => realClock.setTimer(-1, () => {})).toThrow(RangeError);
    expect(() => realClock.setTimer(Number.NaN, () => {})).toThrow(RangeError);
    await expect(realClock.sleep(Number.POSITIVE_INFINITY)).rejects.toThrow(RangeError);
  });

  it("waits delays longer than one setTimeout can, instead of firing at once", () => {
    vi.useFakeTimers();
    const fired: number[] = [];
    const threeBillionMs = 3_000_000_000;
    realClock.setTimer(threeBillionMs, () => fired.push(Date.now()));
    const start = Date.now();
    vi.advanceTimersByTime(2_147_483_647);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(threeBillionMs - 2_147_483_647);
    expect(fired).toEqual([start + threeBillionMs]);
  });

  it("cancels a long timer after it has re-armed", () => {
    vi.useFakeTimers();
    const fired: number[] = [];
    const handle = realClock.setTimer(3_000_000_000, () => fired.push(1));
    vi.advanceTimersByTime(2_200_000_000);
    handle.cancel();
    vi.advanceTimersByTime(1_000_000_000);
    expect(fired).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
