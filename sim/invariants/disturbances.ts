/**
 * When each process was disturbed, from the recorded faults: crashed (until its restart),
 * paused, partitioned, or in a window of dropped responses. Drift, steps and latency within the
 * network's cap are not disturbances: the invariants' bounds allow for them.
 */
import type { ControlPlaneHistory } from "./control-plane-history.ts";

/** A closed interval of true time, ms. */
export interface Interval {
  readonly fromMs: number;
  readonly toMs: number;
}

/** Disturbance intervals per process. */
export class Disturbances {
  readonly #byProcess = new Map<string, Interval[]>();

  /** Builds the intervals of `history.faults`; a crash never followed by a restart lasts forever. */
  constructor(history: ControlPlaneHistory) {
    const openCrash = new Map<string, number>();
    for (const fault of history.faults) {
      for (const process of fault.processes) {
        switch (fault.kind) {
          case "crash":
            openCrash.set(process, fault.atMs);
            break;
          case "restart": {
            const fromMs = openCrash.get(process);
            if (fromMs !== undefined) this.#add(process, { fromMs, toMs: fault.atMs });
            openCrash.delete(process);
            break;
          }
          case "pause":
          case "partition":
          case "drop":
            this.#add(process, { fromMs: fault.atMs, toMs: fault.atMs + (fault.durationMs ?? 0) });
            break;
          default:
            break;
        }
      }
    }
    for (const [process, fromMs] of openCrash) this.#add(process, { fromMs, toMs: Number.POSITIVE_INFINITY });
  }

  /** Whether `process` was disturbed at any time in [fromMs, toMs]. */
  during(process: string, fromMs: number, toMs: number): boolean {
    return (this.#byProcess.get(process) ?? []).some((interval) => interval.fromMs <= toMs && interval.toMs >= fromMs);
  }

  /** The intervals of `process` that meet [fromMs, toMs]. */
  overlapping(process: string, fromMs: number, toMs: number): readonly Interval[] {
    return (this.#byProcess.get(process) ?? []).filter((interval) => interval.fromMs <= toMs && interval.toMs >= fromMs);
  }

  /** When `process`'s last disturbance ended (−∞ if never disturbed; +∞ if it never ended). */
  lastEndMs(process: string): number {
    return Math.max(Number.NEGATIVE_INFINITY, ...(this.#byProcess.get(process) ?? []).map((interval) => interval.toMs));
  }

  #add(process: string, interval: Interval): void {
    const list = this.#byProcess.get(process) ?? [];
    list.push(interval);
    this.#byProcess.set(process, list);
  }
}
