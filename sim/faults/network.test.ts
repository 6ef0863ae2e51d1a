import { describe, expect, it } from "vitest";
import { Rng } from "../kernel/rng.ts";
import { Simulation } from "../kernel/simulation.ts";
import { Network, NetworkError } from "./network.ts";
import { ProcessClock } from "./process-clock.ts";
import { WakeupBatcher } from "./wakeup-batcher.ts";

// A network of fixed 5 ms one-way latency, and the clock of process "p".
function setup() {
  const sim = new Simulation({ seed: "network", epochMs: 0 });
  const timers = new WakeupBatcher(sim);
  const network = new Network({ sim, timers, rng: new Rng("network"), latency: { minMs: 5, meanExtraMs: 0, maxMs: 5 } });
  return { sim, network, clock: new ProcessClock("p", sim, timers) };
}

describe("Network.call", () => {
  it("applies at the server after one latency and settles in the process after the other", async () => {
    const { sim, network, clock } = setup();
    const seen: string[] = [];
    network.call(clock, () => (seen.push(`applied at ${sim.nowMs()}`), 42), 1_000, (ok, outcome) => seen.push(`${ok} ${String(outcome)} at ${sim.nowMs()}`));
    await sim.run();
    expect(seen).toEqual(["applied at 5", "true 42 at 10"]);
  });

  it("settles with the server's error when the operation throws, and with a timeout when cut off", async () => {
    const { sim, network, clock } = setup();
    const seen: unknown[] = [];
    network.call(clock, () => { throw new Error("conflict"); }, 1_000, (ok, outcome) => seen.push([ok, (outcome as Error).message, sim.nowMs()]));
    await sim.run();
    network.partition(["p"]);
    network.call(clock, () => 1, 1_000, (ok, outcome) => seen.push([ok, outcome instanceof NetworkError && outcome.reason, sim.nowMs()]));
    await sim.run();
    expect(seen).toEqual([[false, "conflict", 10], [false, "timeout", 1_010]]);
  });

  it("resolves and rejects roundTrip's promise the same way", async () => {
    const { sim, network, clock } = setup();
    const ok = network.roundTrip(clock, () => "value", 1_000);
    const failed = network.roundTrip(clock, () => { throw new Error("gone"); }, 1_000).catch((error: unknown) => (error as Error).message);
    await sim.run();
    expect([await ok, await failed]).toEqual(["value", "gone"]);
  });
});
