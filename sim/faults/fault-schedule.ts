/**
 * A fault schedule (issue #6, "Faults"): what happens to which process when, relative to the
 * start of a scenario. Targets are process names, `|`-joined sets of them, or names a scenario
 * resolves when the fault fires (`leader`: the candidate leading then; `zone-a`: every node agent
 * of a zone; `nodes`; `controller`).
 */
import type { LatencyDistribution } from "./network.ts";

/** One scheduled fault; times are ms after the scenario's start. */
export type Fault =
  | { readonly kind: "crash"; readonly target: string; readonly atMs: number; readonly restartAfterMs?: number }
  | { readonly kind: "pause"; readonly target: string; readonly atMs: number; readonly durationMs: number }
  | { readonly kind: "drift"; readonly target: string; readonly atMs: number; readonly ppm: number }
  | { readonly kind: "step"; readonly target: string; readonly atMs: number; readonly stepMs: number }
  | { readonly kind: "partition"; readonly target: string; readonly atMs: number; readonly durationMs: number }
  | { readonly kind: "latency"; readonly target: string; readonly atMs: number; readonly durationMs: number; readonly latency: LatencyDistribution }
  | { readonly kind: "drop"; readonly target: string; readonly atMs: number; readonly durationMs: number; readonly probability: number };

/** The kinds of fault. */
export type FaultKind = Fault["kind"];

/** The schedule in firing order (stable for equal times). */
export function sortedSchedule(faults: readonly Fault[]): Fault[] {
  return faults.map((fault, index) => ({ fault, index })).sort((a, b) => a.fault.atMs - b.fault.atMs || a.index - b.index).map(({ fault }) => fault);
}
