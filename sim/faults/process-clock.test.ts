import { describe, expect, it } from "vitest";
import { Simulation } from "../kernel/simulation.ts";
import { ProcessClock } from "./process-clock.ts";
import { WakeupBatcher } from "./wakeup-batcher.ts";

function setup(driftPpm = 0) {
  const sim = new Simulation({ seed: "process-clock", epochMs: 1_000_000 });
  const clock = new ProcessClock("p", sim, new WakeupBatcher(sim), { driftPpm });
  return { sim, clock };
}

describe("ProcessClock", () => {
  it("drifts: a clock 1000 ppm fast measures 1000 ms in 1000/1.001 ms of true time", async () => {
    const { sim, clock } = setup(1000);
    let firedAtMs = 0;
    void clock.sleep(1000).then(() => (firedAtMs = sim.nowMs()));
    await sim.run();
    expect(firedAtMs - 1_000_000).toBeCloseTo(1000 / 1.001, 6);
    expect(clock.monotonicMs() - 1_000_000).toBeCloseTo(1000, 6);
  });

  it("steps the wall reading only: timestamps jump, measured durations do not", () => {
    const { clock } = setup();
    const monotonic = clock.monotonicMs();
    clock.step(-5000);
    expect(clock.nowMs()).toBe(monotonic - 5000);
    expect(clock.monotonicMs()).toBe(monotonic);
  });

  it("defers timers and responses that come due during a pause, in order, to its end", async () => {
    const { sim, clock } = setup();
    const seen: string[] = [];
    clock.setTimer(100, () => seen.push(`timer@${sim.nowMs() - 1_000_000}`));
    void clock.gate(sim.sleep(50).then(() => "response")).then((value) => seen.push(`${value}@${sim.nowMs() - 1_000_000}`));
    clock.pause(1000);
    expect(clock.paused).toBe(true);
    await sim.run();
    // Both at the pause's end (the timer's callback runs in the resume; the response's continuation just after).
    expect(seen).toEqual(["timer@1000", "response@1000"]);
    expect(clock.paused).toBe(false);
  });

  it("drops everything once killed", async () => {
    const { sim, clock } = setup();
    const seen: string[] = [];
    clock.setTimer(10, () => seen.push("timer"));
    void clock.gate(Promise.resolve("late")).then(() => seen.push("response"));
    clock.kill();
    await sim.run();
    expect(seen).toEqual([]);
    expect(clock.alive).toBe(false);
  });

  it("wakes a wakeable after a delay of its time, over and over: drifted like a timer, deferred by a pause, never after a kill", async () => {
    const { sim, clock } = setup(100_000); // 10% fast: 1100 ms of its time pass in 1000 ms
    const firedAtMs: number[] = [];
    const loop = {
      wake: () => {
        clock.deliverTo(loop);
        return true;
      },
      delivered: () => {
        firedAtMs.push(Math.round(sim.nowMs() - 1_000_000));
        if (firedAtMs.length < 4) clock.wakeAfter(1100, loop);
      },
    };
    clock.wakeAfter(1100, loop);
    sim.setTimer(1500, () => clock.pause(1000)); // the second wake-up, due at 2000, waits until 2500
    sim.setTimer(4000, () => clock.kill()); // the fourth, due at 4500, never comes
    await sim.run();
    expect(firedAtMs).toEqual([1000, 2500, 3500]);
    expect(() => clock.wakeAfter(Number.NaN, loop)).toThrow(RangeError);
  });
});
