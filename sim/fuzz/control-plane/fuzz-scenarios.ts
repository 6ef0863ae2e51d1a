/**
 * The two fuzz targets over the control-plane scenarios: the small configurations each generated
 * fault schedule runs against (short, so hundreds of runs take seconds) and the targets faults may
 * name. The same configuration is what the printed `simulate` replay command rebuilds.
 */
import type { Fault } from "../../faults/fault-schedule.ts";
import { runLeaderElectionScenario } from "../../scenarios/leader-election-scenario.ts";
import { runNodeEvictionScenario } from "../../scenarios/node-eviction-scenario.ts";
import type { ScenarioName, ScenarioResult } from "../../scenarios/scenario-result.ts";
import { agentParameters, electionParameters, lifecycleParameters } from "../../scenarios/scenario-parameters.ts";
import type { FaultShape } from "./fault-arbitraries.ts";
import { faultShapeFor } from "./fault-shapes.ts";

/** A fuzz target's fixed configuration. */
export interface FuzzScenario {
  readonly name: ScenarioName;
  readonly durationMs: number;
  /** Flags of `simulate` that rebuild this configuration (besides seed, duration and faults). */
  readonly simulateFlags: readonly string[];
  readonly shape: FaultShape;
  run(seed: number, faults: readonly Fault[]): Promise<ScenarioResult>;
}

const CANDIDATES = 3;
const NODES = 9;
const ZONES = 3;
const PODS = 45;

/** Leader election: 3 candidates of the controller manager, 3 minutes, doc 2 defaults. */
export const leaderElectionFuzzScenario: FuzzScenario = {
  name: "leader-election",
  durationMs: 180_000,
  simulateFlags: ["--candidates", String(CANDIDATES)],
  shape: faultShapeFor("leader-election", { durationMs: 180_000, candidates: CANDIDATES }),
  run: (seed, faults) =>
    runLeaderElectionScenario({ seed, durationMs: 180_000, candidates: CANDIDATES, dialect: "orb", election: electionParameters("controller-manager", "orb"), faults }),
};

/** Node eviction: 9 nodes in 3 zones with 45 pods, 15 minutes, doc 2 and doc 3 defaults. */
export const nodeEvictionFuzzScenario: FuzzScenario = {
  name: "node-eviction",
  durationMs: 900_000,
  simulateFlags: ["--nodes", String(NODES), "--zones", String(ZONES), "--pods", String(PODS)],
  shape: faultShapeFor("node-eviction", { durationMs: 900_000, nodes: NODES, zones: ZONES }),
  run: (seed, faults) =>
    runNodeEvictionScenario({
      seed,
      durationMs: 900_000,
      nodes: NODES,
      zones: ZONES,
      pods: PODS,
      dialect: "orb",
      lifecycle: lifecycleParameters("orb", undefined),
      agent: agentParameters("orb"),
      faults,
    }),
};

/** The fuzz scenario named `name`. */
export function fuzzScenario(name: ScenarioName): FuzzScenario {
  return name === "leader-election" ? leaderElectionFuzzScenario : nodeEvictionFuzzScenario;
}
