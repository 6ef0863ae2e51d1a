/**
 * The speed target (`npm run bench -- sim/scenarios/node-eviction.bench.ts`): node eviction
 * with 5,000 nodes in 3 zones and 150,000 pods for one virtual hour, a zone cut off for 10
 * minutes in the middle. Time compression = 3,600 s / the run's mean time. The CLI prints the same
 * figure for any run (`simulate --scenario node-eviction --nodes 5000 --zones 3 --pods 150000
 * --duration 1h`), measured over the virtual-time run only (setup excluded, reported apart).
 */
import { bench, describe } from "vitest";
import { parseFaultSpec } from "../faults/fault-spec.ts";
import { runNodeEvictionScenario } from "./node-eviction-scenario.ts";
import { agentParameters, lifecycleParameters } from "./scenario-parameters.ts";

describe("node eviction, 5,000 nodes, 3 zones, 150,000 pods, 1 virtual hour", () => {
  bench(
    "run (setup included)",
    async () => {
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
      });
      if (result.verdicts.some((verdict) => !verdict.held)) throw new Error("an invariant was violated");
    },
    { iterations: 1, warmupIterations: 0, time: 0 },
  );
});
