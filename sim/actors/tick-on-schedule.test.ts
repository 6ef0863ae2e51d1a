import { describe, expect, it } from "vitest";
import { ProcessClock } from "../faults/process-clock.ts";
import { WakeupBatcher } from "../faults/wakeup-batcher.ts";
import { Simulation } from "../kernel/simulation.ts";
import { tickOnSchedule, tickOnScheduleWithDone, tickWhenDue } from "./tick-on-schedule.ts";

// A simulation at epoch 0 and the clock of its process "p".
function setup() {
  const sim = new Simulation({ seed: 1, epochMs: 0 });
  return { sim, clock: new ProcessClock("p", sim, new WakeupBatcher(sim)) };
}

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

describe("tickWhenDue", () => {
  it("sleeps over the ticks before idleUntilMs, waking at the first instant of the schedule at or after it", async () => {
    const { sim, clock } = setup();
    const ticksAtMs: number[] = [];
    // Each tick has nothing to do for 35 s after it: ticks at 0, 40, 80 (the schedule's instants).
    void sim.spawn("p", () => tickWhenDue(clock, 0, 10_000, () => void ticksAtMs.push(sim.nowMs()), () => ticksAtMs.at(-1)! + 35_000).running);
    await sim.run({ untilMs: 100_000 });
    expect(ticksAtMs).toEqual([0, 40_000, 80_000]);
  });

  it("comes back to the first instant of the schedule after a wake, not to one due at that very instant", async () => {
    const { sim, clock } = setup();
    const ticksAtMs: number[] = [];
    let idleUntilMs = 100_000;
    const loop = tickWhenDue(clock, 0, 10_000, () => void ticksAtMs.push(sim.nowMs()), () => idleUntilMs);
    void sim.spawn("p", () => loop.running);
    sim.setTimer(23_000, () => {
      idleUntilMs = Number.NEGATIVE_INFINITY;
      loop.wake();
    });
    sim.setTimer(35_000, () => {
      idleUntilMs = 200_000;
      loop.wake(); // the tick at 40 s stays (it was due anyway); after it the loop sleeps to 200 s
    });
    sim.setTimer(150_000, () => {
      idleUntilMs = Number.NEGATIVE_INFINITY;
      loop.wake(); // at an instant of the schedule: the next tick is the one after it
    });
    await sim.run({ untilMs: 175_000 });
    expect(ticksAtMs).toEqual([0, 30_000, 40_000, 160_000, 170_000]);
  });

  it("ignores a wake while a tick runs: the tick's end asks idleUntilMs", async () => {
    const { sim, clock } = setup();
    const ticksAtMs: number[] = [];
    let idleUntilMs = 0;
    const loop = tickWhenDue(
      clock,
      0,
      10_000,
      async () => {
        ticksAtMs.push(sim.nowMs());
        await clock.sleep(1_000);
        loop.wake();
        idleUntilMs = sim.nowMs() + 45_000;
      },
      () => idleUntilMs,
    );
    void sim.spawn("p", () => loop.running);
    await sim.run({ untilMs: 60_000 });
    expect(ticksAtMs).toEqual([0, 50_000]);
  });
});

describe("tickOnScheduleWithDone", () => {
  it("ticks on the schedule, each tick ending when it calls done; one that ends late skips the ticks it missed", async () => {
    const { sim, clock } = setup();
    const ticksAtMs: number[] = [];
    void sim.spawn("p", () =>
      tickOnScheduleWithDone(clock, 0, 10_000, {
        tick: (end) => {
          ticksAtMs.push(sim.nowMs());
          if (ticksAtMs.length === 2) clock.setTimer(15_000, () => end.done()); // ends at 25 s: the tick at 20 s is skipped
          else end.done();
        },
      }),
    );
    await sim.run({ untilMs: 45_000 });
    expect(ticksAtMs).toEqual([0, 10_000, 30_000, 40_000]);
  });

  it("rejects with the error a tick fails with, and ticks no more", async () => {
    const { sim, clock } = setup();
    let ticks = 0;
    const loop = tickOnScheduleWithDone(clock, 0, 1_000, { tick: (end) => (++ticks === 2 ? end.fail(new Error("renewal failed")) : end.done()) });
    const outcome = loop.catch((error: unknown) => (error as Error).message);
    await sim.run({ untilMs: 5_000 });
    expect(await outcome).toBe("renewal failed");
    expect(ticks).toBe(2);
  });

  it("runs on its process's clock: drifted, deferred by a pause, never after a kill", async () => {
    const sim = new Simulation({ seed: 1, epochMs: 0 });
    const clock = new ProcessClock("p", sim, new WakeupBatcher(sim), { driftPpm: 100_000 }); // 1,100 ms of its time in 1,000 ms
    const ticksAtMs: number[] = [];
    void tickOnScheduleWithDone(clock, 0, 1_100, {
      tick: (end) => {
        ticksAtMs.push(Math.round(sim.nowMs()));
        end.done();
      },
    });
    sim.setTimer(1_500, () => clock.pause(1_000)); // the tick due at 2,000 waits until 2,500
    sim.setTimer(4_200, () => clock.kill()); // none from 5,000 on
    await sim.run({ untilMs: 8_000 });
    expect(ticksAtMs).toEqual([0, 1_000, 2_500, 3_000, 4_000]);
  });
});
