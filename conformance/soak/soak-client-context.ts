/** What every client of a soak run shares: the connection, the recorder, the plan, and the signals to stop. */
import type { SoakConnection } from "./soak-connection.ts";
import type { SoakPlan } from "./soak-plan.ts";
import type { SoakRecorder } from "./soak-recorder.ts";

/** A client's view of the run. */
export interface SoakClientContext {
  readonly connection: SoakConnection;
  readonly recorder: SoakRecorder;
  readonly plan: SoakPlan;
  /** Aborts when the writers and readers must stop (the duration is over, or Ctrl-C). */
  readonly workloadStop: AbortSignal;
  /** Aborts when the watchers must close their streams: after the workload, once the last events arrived. */
  readonly watchStop: AbortSignal;
}
