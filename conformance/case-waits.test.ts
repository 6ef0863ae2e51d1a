/**
 * pollUntil: probes until a value, with pauses that grow 1.5 times from 250 ms up to a 20th of the
 * deadline (at most 10 s), and gives up at the deadline, never waiting past it. Time here is a
 * counter moved only by `advance`, as a virtual clock is.
 */
import { describe, expect, it } from "vitest";
import { CaseInterrupted } from "./case-outcome.ts";
import { abortableSleep, pollUntil } from "./case-waits.ts";

function virtualTime() {
  let nowMs = 0;
  const pauses: number[] = [];
  return {
    advance: async (ms: number) => {
      pauses.push(ms);
      nowMs += ms;
    },
    elapsed: () => nowMs,
    pauses,
  };
}

describe("pollUntil", () => {
  it("returns the first value a probe gives, with the time it took", async () => {
    const time = virtualTime();
    let probes = 0;
    const outcome = await pollUntil({ what: "x", withinMs: 60_000, probe: async () => (++probes === 4 ? "done" : undefined) }, time.advance, time.elapsed);
    expect(outcome).toEqual({ value: "done", waitedMs: 250 + 375 + 563 });
    expect(time.pauses).toEqual([250, 375, 563]);
  });

  it("backs off up to a 20th of the deadline and stops exactly at it", async () => {
    const time = virtualTime();
    const outcome = await pollUntil({ what: "x", withinMs: 10_000, probe: async () => undefined }, time.advance, time.elapsed);
    expect(outcome).toEqual({ value: undefined, waitedMs: 10_000 });
    expect(Math.max(...time.pauses)).toBe(500);
    expect(time.pauses.slice(0, 3)).toEqual([250, 375, 500]);
    expect(time.pauses.reduce((sum, ms) => sum + ms, 0)).toBe(10_000);
  });

  it("pauses at most 10 s however far the deadline", async () => {
    const time = virtualTime();
    await pollUntil({ what: "x", withinMs: 630_000, probe: async () => undefined }, time.advance, time.elapsed);
    expect(Math.max(...time.pauses)).toBe(10_000);
    expect(time.elapsed()).toBe(630_000);
  });

  it("passes a probe's failure on at once", async () => {
    const time = virtualTime();
    await expect(pollUntil({ what: "x", withinMs: 1_000, probe: async () => Promise.reject(new Error("HTTP 500")) }, time.advance, time.elapsed)).rejects.toThrow("HTTP 500");
    expect(time.pauses).toEqual([]);
  });
});

describe("abortableSleep", () => {
  it("resolves after its time, and rejects with CaseInterrupted as soon as the signal aborts", async () => {
    await expect(abortableSleep(5, new AbortController().signal)).resolves.toBeUndefined();
    const controller = new AbortController();
    const started = performance.now();
    const sleeping = abortableSleep(60_000, controller.signal);
    controller.abort();
    await expect(sleeping).rejects.toBeInstanceOf(CaseInterrupted);
    expect(performance.now() - started).toBeLessThan(1_000);
    const aborted = new AbortController();
    aborted.abort();
    await expect(abortableSleep(60_000, aborted.signal)).rejects.toBeInstanceOf(CaseInterrupted);
  });
});
