/** What every control-plane scenario takes, whatever it simulates. */
import type { DialectName } from "../../spec/dialects.ts";
import type { Fault } from "../faults/fault-schedule.ts";
import type { LatencyDistribution } from "../faults/network.ts";

/** The options every scenario shares; each scenario's own options extend these. */
export interface ScenarioRunOptions {
  readonly seed: string | number;
  readonly durationMs: number;
  readonly dialect: DialectName;
  readonly faults: readonly Fault[];
  readonly latency?: LatencyDistribution;
  /** `http`: HTTP-shaped requests to the embedded server; `store`: the store-level client. Each scenario has its default. */
  readonly client?: "http" | "store";
  readonly keepTraceLines?: boolean;
  /** Told when setup is done and virtual time starts (the CLI times the run from there). */
  readonly onStarted?: () => void;
  /** Told when virtual time has run out, before the checkers run. */
  readonly onRunEnded?: () => void;
  /**
   * Told every `progressEveryMs` of virtual time (default 10 s) while the run goes on. The run is
   * split into consecutive `Simulation.run` calls at those times, which runs the same events in
   * the same order (the trace hash is unchanged); the callback must not touch the simulation.
   */
  readonly onProgress?: (progress: ScenarioProgress) => void;
  readonly progressEveryMs?: number;
}

/** How far a run has got. */
export interface ScenarioProgress {
  /** Virtual time since the start, ms. */
  readonly virtualMs: number;
  /** The run's length in virtual time, ms. */
  readonly durationMs: number;
  /** Kernel events run so far. */
  readonly kernelEvents: number;
}
