/**
 * The results file of `orb-harness simulate` (results.json): configuration, faults, counters,
 * wall-clock timings measured by the CLI, verdicts with witnesses, and the plotted series, so the
 * HTML page can be regenerated from it.
 */
import { formatFaultSpec } from "../../sim/faults/fault-spec.ts";
import { ruleOf } from "../../sim/invariants/verdict.ts";
import type { ScenarioResult } from "../../sim/scenarios/scenario-result.ts";
import { faultMarkers, leadershipLanes, podEvictionSeries, zoneSeries, type FaultMarker, type LeadershipLane, type Point, type ZoneSeries } from "./simulation-series.ts";

/** Wall-clock timings of a run, ms (measured outside sim/, by the CLI). */
export interface WallTimings {
  readonly setupMs: number;
  readonly runMs: number;
  readonly checksMs: number;
}

/** What results.json holds. */
export interface SimulationResults {
  readonly kind: "orb-harness/simulation-results";
  readonly scenario: string;
  readonly seed: string;
  readonly configuration: Readonly<Record<string, unknown>>;
  readonly faults: string;
  readonly virtualSeconds: number;
  readonly kernelEvents: number;
  readonly wakeups: number;
  readonly wall: WallTimings;
  /** Virtual seconds per wall second of the run phase. */
  readonly timeCompression: number;
  /** Wake-ups delivered per wall second of the run phase. */
  readonly eventsPerSecond: number;
  readonly traceHash: string;
  readonly summary: readonly string[];
  readonly notes: readonly string[];
  readonly invariants: readonly { readonly id: string; readonly rule: string; readonly held: boolean; readonly checked: number; readonly witness?: { readonly explanation: string; readonly events: readonly unknown[] } }[];
  readonly series: {
    readonly candidates: readonly string[];
    readonly leadership: readonly LeadershipLane[];
    readonly faults: readonly FaultMarker[];
    readonly zones: readonly ZoneSeries[];
    readonly podEvictions: readonly Point[];
  };
}

/** The results of `result`, timed by `wall`. */
export function simulationResults(result: ScenarioResult, wall: WallTimings): SimulationResults {
  const { history } = result;
  const virtualSeconds = result.virtualMs / 1000;
  const runSeconds = Math.max(wall.runMs, 1e-3) / 1000;
  const candidates = result.scenario === "leader-election" ? Array.from({ length: Number(result.configuration["candidates"] ?? 0) }, (_, index) => `candidate-${index}`) : [];
  return {
    kind: "orb-harness/simulation-results",
    scenario: result.scenario,
    seed: result.seed,
    configuration: result.configuration,
    faults: formatFaultSpec(result.faults),
    virtualSeconds,
    kernelEvents: result.kernelEvents,
    wakeups: result.wakeups,
    wall,
    timeCompression: virtualSeconds / runSeconds,
    eventsPerSecond: result.wakeups / runSeconds,
    traceHash: result.traceHash,
    summary: result.summary,
    notes: result.notes,
    invariants: result.verdicts.map((verdict) => ({
      id: verdict.id,
      rule: ruleOf(verdict.id),
      held: verdict.held,
      checked: verdict.checked,
      ...(verdict.witness !== undefined && { witness: { explanation: verdict.witness.explanation, events: relativeTimes(verdict.witness.events, history.startMs) } }),
    })),
    series: {
      candidates,
      leadership: leadershipLanes(history),
      faults: faultMarkers(history),
      zones: result.scenario === "node-eviction" ? zoneSeries(history) : [],
      podEvictions: result.scenario === "node-eviction" ? podEvictionSeries(history) : [],
    },
  };
}

// Witness events carry epoch ms; the results show them as seconds into the run as well.
function relativeTimes(events: readonly unknown[], startMs: number): unknown[] {
  return events.map((event) => {
    if (event === null || typeof event !== "object") return event;
    const entries = Object.entries(event as Record<string, unknown>).map(([key, value]) =>
      typeof value === "number" && key.endsWith("Ms") && value > startMs / 2 ? [key.replace(/Ms$/, "S"), Math.round((value - startMs)) / 1000] : [key, value],
    );
    return Object.fromEntries(entries);
  });
}
