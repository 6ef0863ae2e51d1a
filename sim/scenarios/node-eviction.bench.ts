/**
 * The speed target (`npm run bench:micro -- sim/scenarios/node-eviction.bench.ts`): node eviction
 * with 5,000 nodes in 3 zones and 150,000 pods for one virtual hour, a zone cut off for 10
 * minutes in the middle. Vitest's time includes the setup (150,000 pods written to the store);
 * the time compression, 3,600 s of virtual time over the wall time of the virtual-time run alone,
 * is printed beside it, as the CLI prints it for any run (`simulate --scenario node-eviction
 * --nodes 5000 --zones 3 --pods 150000 --duration 1h`).
 */
import { bench, describe } from "vitest";
import { parseFaultSpec } from "../faults/fault-spec.ts";
import { realClock } from "../kernel/real-clock.ts";
import { runNodeEvictionScenario } from "./node-eviction-scenario.ts";
import { agentParameters, lifecycleParameters } from "./scenario-parameters.ts";

// This machine's speed varies by about ±15% from run to run: every run is printed, with the median so far.
const compressions: number[] = [];

describe("node eviction, 5,000 nodes, 3 zones, 150,000 pods, 1 virtual hour", () => {
  bench(
    "run (setup included)",
    async () => {
      let runStartMs = 0;
      let runEndMs = 0;
      const result = await runNodeEvictionScenario({
        seed: 1,
        durationMs: 3_600_000,
        nodes: 5_000,
        zones: 3,
        pods: 150_000,
        dialect: "orb",
        lifecycle: lifecycleParameters("orb", undefined),
        agent: agentParameters("orb"),
        faults: parseFaultSpec("partition:zone-a@20m+10m"),
        // The wall clock through sim/'s one real-time adapter (a bench measures real time).
        onStarted: () => (runStartMs = realClock.nowMs()),
        onRunEnded: () => (runEndMs = realClock.nowMs()),
      });
      if (result.verdicts.some((verdict) => !verdict.held)) throw new Error("an invariant was violated");
      const runS = (runEndMs - runStartMs) / 1000;
      compressions.push(3600 / runS);
      const sorted = [...compressions].sort((a, b) => a - b);
      const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
      console.log(
        `virtual-time run ${runS.toFixed(1)} s, time-compression ${(3600 / runS).toFixed(1)} (median of ${sorted.length} runs: ${median.toFixed(1)}), ` +
          `${Math.round(result.wakeups / runS)} wake-ups/s, ${Math.round(result.kernelEvents / runS)} kernel events/s`,
      );
    },
    { iterations: 3, warmupIterations: 0, time: 0 },
  );
});
