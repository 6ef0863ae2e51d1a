/**
 * Which targets and times generated faults may use, per scenario configuration: shared by the
 * fuzz targets and by `simulate --faults <classes>`, which draws one schedule from the same
 * arbitraries with a seed derived from the run's.
 */
import fc from "fast-check";
import type { Fault } from "../../faults/fault-schedule.ts";
import { zoneName } from "../../scenarios/cluster-workload.ts";
import type { ScenarioName } from "../../scenarios/scenario-result.ts";
import { faultScheduleArbitrary, type FaultClass, type FaultShape } from "./fault-arbitraries.ts";

/** The size of a scenario, as far as fault targets go. */
export interface ScenarioSize {
  readonly durationMs: number;
  readonly candidates?: number;
  readonly nodes?: number;
  readonly zones?: number;
}

/** Targets and windows for faults in `scenario` of `size`. */
export function faultShapeFor(scenario: ScenarioName, size: ScenarioSize): FaultShape {
  const latestStartMs = Math.floor(size.durationMs * 0.7);
  if (scenario === "leader-election") {
    const candidates = size.candidates ?? 3;
    return {
      targets: ["leader", ...Array.from({ length: candidates }, (_, index) => `candidate-${index}`), ...(candidates >= 2 ? ["candidate-0|candidate-1"] : [])],
      latestStartMs,
      longestMs: 60_000,
      maxFaults: 4,
    };
  }
  const zones = size.zones ?? 3;
  const nodes = Math.min(size.nodes ?? 9, 50);
  return {
    targets: ["controller", ...Array.from({ length: zones }, (_, index) => zoneName(index)), ...Array.from({ length: nodes }, (_, index) => `node-${index}`), "nodes"],
    latestStartMs,
    longestMs: Math.min(240_000, Math.floor(size.durationMs / 4)),
    maxFaults: 4,
  };
}

/** One schedule of `classes`, drawn deterministically from `seed`. */
export function sampleFaultSchedule(classes: readonly FaultClass[], shape: FaultShape, seed: number): Fault[] {
  const [schedule] = fc.sample(faultScheduleArbitrary(classes, shape), { seed, numRuns: 1 });
  return schedule ?? [];
}
