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
});
