import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Clock } from "./clock.ts";
import { Simulation } from "./simulation.ts";

const EPOCH = 1_700_000_000_000;

// Code written against the Clock interface, to show a Simulation stands in for one.
async function stampAfter(clock: Clock, ms: number): Promise<number> {
  await clock.sleep(ms);
  return clock.nowMs();
}

describe("Simulation epoch", () => {
  it("draws the epoch from the seed: whole seconds within 2020..2030", () => {
    const epochs = Array.from({ length: 50 }, (_, i) => new Simulation({ seed: `epoch-${i}` }).epochMs);
    for (const epochMs of epochs) {
      expect(epochMs % 1000).toBe(0);
      expect(epochMs).toBeGreaterThanOrEqual(Date.UTC(2020, 0, 1));
      expect(epochMs).toBeLessThan(Date.UTC(2030, 0, 1));
    }
    expect(new Set(epochs).size).toBeGreaterThan(45);
    expect(new Simulation({ seed: "epoch-3" }).epochMs).toBe(epochs[3]);
    expect(new Simulation({ seed: 42 }).epochMs).toBe(new Simulation({ seed: "42" }).epochMs);
  });

  it("uses a given epoch and starts the clock there", () => {
    const sim = new Simulation({ seed: 1, epochMs: EPOCH });
    expect(sim.epochMs).toBe(EPOCH);
    expect(sim.nowMs()).toBe(EPOCH);
  });

  it("draws the epoch without consuming the root stream", () => {
    const drawn = new Simulation({ seed: "s" });
    const given = new Simulation({ seed: "s", epochMs: EPOCH });
    expect(drawn.rng.float()).toBe(given.rng.float());
  });

  it("rejects an empty or non-finite seed and a non-finite epoch", () => {
    expect(() => new Simulation({ seed: "" })).toThrow(TypeError);
    expect(() => new Simulation({ seed: Number.NaN })).toThrow(TypeError);
    expect(() => new Simulation({ seed: 1, epochMs: Number.NaN })).toThrow(RangeError);
  });
});

describe("Simulation timers", () => {
  it("runs callbacks in time order, ties in scheduling order, at their due time", async () => {
    const sim = new Simulation({ seed: 1, epochMs: EPOCH });
    const fired: string[] = [];
    const at = (label: string) => () => fired.push(`${label}@${sim.nowMs() - EPOCH}`);
    sim.setTimer(20, at("a"));
    sim.setTimer(10, at("b"));
    sim.setTimer(20, at("c"));
    sim.setTimer(0, () => {
      fired.push(`d@${sim.nowMs() - EPOCH}`);
      sim.setTimer(10, at("e")); // due at 10, after b, which was scheduled first
    });
    const result = await sim.run();
    expect(fired).toEqual(["d@0", "b@10", "e@10", "a@20", "c@20"]);
    expect(result).toEqual({ eventsRun: 5, stoppedBy: "idle", nowMs: EPOCH + 20 });
  });

  it("never lets time go backwards, whatever is scheduled from callbacks", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.nat({ max: 50 }), { maxLength: 3 }), { minLength: 1, maxLength: 40 }), async (plan) => {
        const sim = new Simulation({ seed: "monotonic", epochMs: 0 });
        const seen: number[] = [];
        let next = 0;
        // Each callback schedules the next plan entry's delays, so nesting is arbitrary.
        const callback = (dueMs: number) => (): void => {
          expect(sim.nowMs()).toBe(dueMs);
          seen.push(sim.nowMs());
          for (const delay of plan[next++] ?? []) sim.setTimer(delay, callback(sim.nowMs() + delay));
        };
        sim.setTimer(0, callback(0));
        await sim.run();
        expect(seen).toEqual([...seen].sort((x, y) => x - y));
        expect(sim.pendingEvents).toBe(0);
      }),
    );
  });

  it("cancels timers, including from another callback at the same time", async () => {
    const sim = new Simulation({ seed: 1, epochMs: EPOCH });
    const fired: string[] = [];
    const late = sim.setTimer(5, () => fired.push("late"));
    sim.setTimer(5, () => fired.push("kept"));
    const cancelledEarly = sim.setTimer(1, () => fired.push("never"));
    sim.setTimer(0, () => late.cancel());
    cancelledEarly.cancel();
    cancelledEarly.cancel();
    expect(sim.pendingEvents).toBe(3);
    await sim.run();
    expect(fired).toEqual(["kept"]);
    late.cancel(); // after the fact: a no-op
  });

  it("rejects invalid delays", async () => {
    const sim = new Simulation({ seed: 1 });
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => sim.setTimer(bad, () => {})).toThrow(RangeError);
      await expect(sim.sleep(bad)).rejects.toThrow(RangeError);
    }
    expect(sim.pendingEvents).toBe(0);
  });

  it("resolves sleep at the right virtual time, through the Clock interface", async () => {
    const sim = new Simulation({ seed: 1, epochMs: EPOCH });
    const stamps = [stampAfter(sim, 250), stampAfter(sim, 0), stampAfter(sim, 1000.5)];
    await sim.run();
    expect(await Promise.all(stamps)).toEqual([EPOCH + 250, EPOCH, EPOCH + 1000.5]);
  });
});

describe("Simulation.run limits", () => {
  it("stops before events due after untilMs and moves the clock to untilMs", async () => {
    const sim = new Simulation({ seed: 1, epochMs: EPOCH });
    const fired: number[] = [];
    for (const delay of [10, 20, 30]) sim.setTimer(delay, () => fired.push(delay));
    expect(await sim.run({ untilMs: EPOCH + 20 })).toEqual({ eventsRun: 2, stoppedBy: "until", nowMs: EPOCH + 20 });
    expect(fired).toEqual([10, 20]);
    expect(await sim.runFor(5)).toEqual({ eventsRun: 0, stoppedBy: "until", nowMs: EPOCH + 25 });
    expect(await sim.runFor(100)).toEqual({ eventsRun: 1, stoppedBy: "idle", nowMs: EPOCH + 125 });
    expect(fired).toEqual([10, 20, 30]);
  });

  it("stops after maxEvents without moving the clock further", async () => {
    const sim = new Simulation({ seed: 1, epochMs: EPOCH });
    for (const delay of [1, 2, 3]) sim.setTimer(delay, () => {});
    expect(await sim.run({ maxEvents: 2, untilMs: EPOCH + 100 })).toEqual({ eventsRun: 2, stoppedBy: "maxEvents", nowMs: EPOCH + 2 });
    expect(sim.pendingEvents).toBe(1);
    expect(await sim.run({ maxEvents: 0 })).toEqual({ eventsRun: 0, stoppedBy: "maxEvents", nowMs: EPOCH + 2 });
  });

  it("rejects untilMs in the past, a bad maxEvents, and reentrant runs", async () => {
    const sim = new Simulation({ seed: 1, epochMs: EPOCH });
    await expect(sim.run({ untilMs: EPOCH - 1 })).rejects.toThrow(RangeError);
    await expect(sim.run({ maxEvents: -1 })).rejects.toThrow(RangeError);
    await expect(sim.run({ maxEvents: 1.5 })).rejects.toThrow(RangeError);
    let inner: Promise<void> | undefined;
    sim.setTimer(1, () => {
      // The assertion attaches a handler at once, so the rejection is never unhandled.
      inner = expect(sim.run()).rejects.toThrow(/not reentrant/);
    });
    await sim.run();
    expect(inner).toBeDefined();
    await inner;
  });
});

describe("Simulation async processes", () => {
  it("lets a chain of continuations finish before virtual time advances", async () => {
    const sim = new Simulation({ seed: 1, epochMs: EPOCH, keepTraceLines: true });
    sim.setTimer(11, () => sim.record("timer", "fired"));
    const process = async (): Promise<void> => {
      await sim.sleep(10);
      // A deep chain of microtasks, as a promise-heavy client would produce.
      for (let i = 0; i < 1000; i++) await Promise.resolve();
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      sim.record("process", "woke");
    };
    const done = process();
    await sim.run();
    await done;
    expect(sim.trace.lines()).toEqual([`${EPOCH + 10} process woke {}`, `${EPOCH + 11} timer fired {}`]);
  });

  it("lets the process around it run during a long run (a real timer fires before the run ends)", async () => {
    const sim = new Simulation({ seed: "yield" });
    // 5,000 events, settled without an event-loop turn except every 1,024th: without those turns
    // the real timer below could only fire after run() returned.
    void sim.spawn("ticker", async () => {
      for (let tick = 0; tick < 5_000; tick++) await sim.sleep(1);
    });
    let eventsWhenTimerFired: number | undefined;
    let eventsSoFar = 0;
    sim.setTimer(0, function count() {
      eventsSoFar++;
      sim.setTimer(1, count);
    });
    setTimeout(() => void (eventsWhenTimerFired = eventsSoFar), 0);
    await sim.run({ untilMs: sim.nowMs() + 5_000 });
    expect(eventsWhenTimerFired).toBeDefined();
    expect(eventsWhenTimerFired!).toBeLessThan(eventsSoFar);
  });

  it("sees timers scheduled by continuations queued before run started", async () => {
    const sim = new Simulation({ seed: 1, epochMs: EPOCH });
    const fired: number[] = [];
    void Promise.resolve().then(() => sim.setTimer(0, () => fired.push(sim.nowMs())));
    await sim.run({ untilMs: EPOCH });
    expect(fired).toEqual([EPOCH]);
  });

  it("interleaves two sleeping processes deterministically", async () => {
    async function runTwoProcesses(): Promise<{ lines: readonly string[]; hash: string }> {
      const sim = new Simulation({ seed: "interleave", epochMs: EPOCH, keepTraceLines: true });
      const worker = (name: string, periodMs: number, rounds: number) => async (): Promise<void> => {
        for (let round = 1; round <= rounds; round++) {
          await sim.sleep(periodMs);
          sim.record(name, "tick", { round, t: sim.nowMs() - EPOCH });
        }
      };
      sim.spawn("fast", worker("fast", 3, 5));
      sim.spawn("slow", worker("slow", 5, 3));
      await sim.run();
      return { lines: sim.trace.lines(), hash: sim.trace.hash() };
    }
    const first = await runTwoProcesses();
    const short = first.lines.map((line) => line.split(" ").slice(1, 2).concat(JSON.parse(line.split(" ")[3] as string).t).join("@"));
    // At 15 both are due: slow's sleep was armed at 10, fast's at 12, so slow runs first.
    expect(short).toEqual(["fast@3", "slow@5", "fast@6", "fast@9", "slow@10", "fast@12", "slow@15", "fast@15"]);
    const second = await runTwoProcesses();
    expect(second.lines).toEqual(first.lines);
    expect(second.hash).toBe(first.hash);
  });
});

describe("Simulation errors", () => {
  it("rejects run with the error a callback throws, and traces it", async () => {
    const sim = new Simulation({ seed: 1, epochMs: EPOCH, keepTraceLines: true });
    const boom = new Error("boom");
    const fired: string[] = [];
    sim.setTimer(5, () => {
      throw boom;
    });
    sim.setTimer(6, () => fired.push("after"));
    await expect(sim.run()).rejects.toBe(boom);
    expect(sim.nowMs()).toBe(EPOCH + 5);
    expect(sim.trace.lines()).toEqual([`${EPOCH + 5} kernel callback-error {"message":"boom","name":"Error"}`]);
    expect(fired).toEqual([]);
    // The simulation stays usable: the rest of the agenda is still there.
    await sim.run();
    expect(fired).toEqual(["after"]);
  });

  it("rejects run with the error of a spawned process, and traces it", async () => {
    const sim = new Simulation({ seed: 1, epochMs: EPOCH, keepTraceLines: true });
    const fired: number[] = [];
    for (const delay of [5, 10, 20]) sim.setTimer(delay, () => fired.push(delay));
    const crashing = sim.spawn("crasher", async () => {
      await sim.sleep(7);
      throw new TypeError("bad state");
    });
    await expect(sim.run()).rejects.toThrow("bad state");
    await expect(crashing).rejects.toThrow(TypeError);
    expect(sim.nowMs()).toBe(EPOCH + 7);
    expect(fired).toEqual([5]);
    expect(sim.trace.lines()).toEqual([`${EPOCH + 7} crasher process-error {"message":"bad state","name":"TypeError"}`]);
  });

  it("reports a process that throws synchronously at the next run", async () => {
    const sim = new Simulation({ seed: 1 });
    const crashing = sim.spawn("sync", () => {
      throw new Error("at once");
    });
    await expect(crashing).rejects.toThrow("at once");
    await expect(sim.run()).rejects.toThrow("at once");
    expect((await sim.run()).stoppedBy).toBe("idle");
  });
});
