import { describe, expect, it } from "vitest";
import { Simulation } from "../kernel/simulation.ts";
import { WakeupBatcher } from "./wakeup-batcher.ts";

describe("WakeupBatcher", () => {
  it("runs wake-ups due at one instant in one kernel event, in scheduling order", async () => {
    const sim = new Simulation({ seed: "batcher" });
    const timers = new WakeupBatcher(sim);
    const order: number[] = [];
    for (let i = 0; i < 50; i++) timers.after(i % 2 === 0 ? 10 : 20, () => order.push(i));
    expect(sim.pendingEvents).toBe(2);
    const result = await sim.run();
    expect(result.eventsRun).toBe(2);
    expect(order).toEqual([...Array.from({ length: 25 }, (_, k) => 2 * k), ...Array.from({ length: 25 }, (_, k) => 2 * k + 1)]);
    expect(timers.callbacksRun).toBe(50);
  });

  it("skips cancelled wake-ups and runs past-due ones now", async () => {
    const sim = new Simulation({ seed: "batcher" });
    const timers = new WakeupBatcher(sim);
    const seen: string[] = [];
    timers.after(5, () => seen.push("cancelled")).cancel();
    timers.at(sim.nowMs() - 100, () => seen.push("past-due"));
    await sim.run();
    expect(seen).toEqual(["past-due"]);
  });

  it("wakes scheduled objects in the same batches and order as callbacks, and counts what ran", async () => {
    const sim = new Simulation({ seed: "batcher" });
    const timers = new WakeupBatcher(sim);
    const order: string[] = [];
    const reused = { wake: () => order.push(`reused@${sim.nowMs() - sim.epochMs}`) > 0 };
    timers.after(10, () => order.push("handle@10"));
    timers.wakeAfter(10, reused);
    timers.wakeAfter(20, reused);
    timers.after(10, () => order.push("handle@10 again"));
    expect(sim.pendingEvents).toBe(2);
    await sim.run();
    expect(order).toEqual(["handle@10", "reused@10", "handle@10 again", "reused@20"]);
    expect(timers.callbacksRun).toBe(4);
  });
});
