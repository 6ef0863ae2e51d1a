import { describe, expect, it } from "vitest";
import { Simulation } from "../kernel/simulation.ts";
import { Network } from "./network.ts";
import { ProcessClock } from "./process-clock.ts";
import { ServerStream } from "./server-stream.ts";
import { WakeupBatcher } from "./wakeup-batcher.ts";

function setup() {
  const sim = new Simulation({ seed: "server-stream", epochMs: 1_000_000 });
  const timers = new WakeupBatcher(sim);
  // A wide latency spread, so independently drawn latencies would reorder messages.
  const network = new Network({ sim, timers, rng: sim.rng.fork("network"), latency: { minMs: 1, meanExtraMs: 20, maxMs: 100 } });
  const clock = new ProcessClock("p", sim, timers);
  return { sim, network, clock, stream: new ServerStream(network, clock) };
}

describe("ServerStream", () => {
  it("delivers messages in the order sent, each after at least the minimum latency", async () => {
    const { sim, stream } = setup();
    const arrivals: { index: number; atMs: number }[] = [];
    for (let index = 0; index < 50; index++) {
      sim.setTimer(index, () => stream.send(() => arrivals.push({ index, atMs: sim.nowMs() - 1_000_000 }), () => arrivals.push({ index: -1, atMs: 0 })));
    }
    await sim.run();
    expect(arrivals.map((arrival) => arrival.index)).toEqual(Array.from({ length: 50 }, (_, index) => index));
    for (const { index, atMs } of arrivals) expect(atMs).toBeGreaterThanOrEqual(index + 1);
  });

  it("loses what is sent to, or would arrive at, a partitioned process, and delivers again after the heal", async () => {
    const { sim, network, stream } = setup();
    const seen: string[] = [];
    const send = (label: string) => stream.send(() => seen.push(`${label} delivered`), () => seen.push(`${label} lost`));
    send("in flight"); // partitioned before it arrives (latency >= 1 ms)
    network.partition(["p"]);
    send("sent while cut off");
    sim.setTimer(500, () => network.heal(["p"]));
    sim.setTimer(600, () => send("after heal"));
    await sim.run();
    expect(seen).toEqual(["sent while cut off lost", "in flight lost", "after heal delivered"]);
  });

  it("holds arrivals while the process is paused and drops them once it crashed", async () => {
    const { sim, clock, stream } = setup();
    const seen: number[] = [];
    clock.pause(1000);
    stream.send(() => seen.push(sim.nowMs() - 1_000_000), () => seen.push(-1));
    sim.setTimer(2000, () => {
      clock.kill();
      stream.send(() => seen.push(sim.nowMs() - 1_000_000), () => seen.push(-1));
    });
    await sim.run();
    expect(seen).toEqual([1000]);
  });
});
