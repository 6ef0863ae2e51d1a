/**
 * What a scenario run returns: configuration, counters, verdicts and the history the verdicts
 * and the report are computed from.
 */
import type { Fault } from "../faults/fault-schedule.ts";
import type { ControlPlaneHistory } from "../invariants/control-plane-history.ts";
import type { Verdict } from "../invariants/verdict.ts";

/** The scenarios. */
export type ScenarioName = "leader-election" | "node-eviction";

/** One finished run. */
export interface ScenarioResult {
  readonly scenario: ScenarioName;
  readonly seed: string;
  /** Everything that shaped the run (flags and defaults), for the results file and replay. */
  readonly configuration: Readonly<Record<string, unknown>>;
  readonly faults: readonly Fault[];
  readonly virtualMs: number;
  /** Events the kernel ran. */
  readonly kernelEvents: number;
  /** Wake-ups delivered (many can share one kernel event). */
  readonly wakeups: number;
  readonly traceHash: string;
  readonly verdicts: readonly Verdict[];
  readonly history: ControlPlaneHistory;
  /** Human-readable facts about the run ("3 leadership transitions", …). */
  readonly summary: readonly string[];
  /** Parameter findings worth showing (e.g. the two leader election validity rules). */
  readonly notes: readonly string[];
}
