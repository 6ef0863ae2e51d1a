import { describe, expect, it } from "vitest";
import { ProcessClock } from "../faults/process-clock.ts";
import { WakeupBatcher } from "../faults/wakeup-batcher.ts";
import { Simulation } from "../kernel/simulation.ts";
import { tickOnSchedule } from "./tick-on-schedule.ts";

describe("tickOnSchedule", () => {
  it("ticks at start + k·period, and a tick that overran skips the ticks it missed", async () => {
    const sim = new Simulation({ seed: 1, epochMs: 0 });
    const clock = new ProcessClock("p", sim, new WakeupBatcher(sim));
    const ticksAtMs: number[] = [];
    void sim.spawn("p", () =>
      tickOnSchedule(clock, 0, 10_000, async () => {
        ticksAtMs.push(clock.monotonicMs());
        // The third tick takes 25 s: the ticks due at 30 s and 40 s are skipped, the next is at 50 s.
        if (ticksAtMs.length === 3) await clock.sleep(25_000);
      }),
    );
    await sim.run({ untilMs: 70_000 });
    expect(ticksAtMs).toEqual([0, 10_000, 20_000, 50_000, 60_000, 70_000]);
  });

  it("keeps the schedule of a process clock running fast (drift), measured on its own clock", async () => {
    const sim = new Simulation({ seed: 1, epochMs: 0 });
    const clock = new ProcessClock("p", sim, new WakeupBatcher(sim), { driftPpm: 100_000 });
    const trueTimesMs: number[] = [];
    void sim.spawn("p", () => tickOnSchedule(clock, 0, 11_000, async () => void trueTimesMs.push(sim.nowMs())));
    await sim.run({ untilMs: 30_000 });
    // 11 s of a clock 10% fast pass in 10 s of true time.
    expect(trueTimesMs.map((ms) => Math.round(ms))).toEqual([0, 10_000, 20_000, 30_000]);
  });

  it("keeps the schedule when ticks finish at once (returning nothing) and when they return a promise", async () => {
    const sim = new Simulation({ seed: 1, epochMs: 0 });
    const clock = new ProcessClock("p", sim, new WakeupBatcher(sim));
    const ticksAtMs: number[] = [];
    void sim.spawn("p", () =>
      tickOnSchedule(clock, 0, 5_000, () => {
        ticksAtMs.push(sim.nowMs());
        return ticksAtMs.length % 2 === 0 ? clock.sleep(1_000) : undefined;
      }),
    );
    await sim.run({ untilMs: 20_000 });
    expect(ticksAtMs).toEqual([0, 5_000, 10_000, 15_000, 20_000]);
  });

  it("rejects with the error of a tick that fails", async () => {
    const sim = new Simulation({ seed: 1, epochMs: 0 });
    const clock = new ProcessClock("p", sim, new WakeupBatcher(sim));
    let ticks = 0;
    const loop = tickOnSchedule(clock, 0, 1_000, async () => {
      if (++ticks === 3) throw new Error("tick failed");
    });
    const outcome = loop.catch((error: unknown) => (error as Error).message);
    await sim.run({ untilMs: 5_000 });
    expect(await outcome).toBe("tick failed");
    expect(ticks).toBe(3);
  });
});
