/**
 * The common ground of the control-plane scenarios: one simulation, the embedded API server,
 * the network with its faults, the processes, and the recorder (issue #6).
 */
import type { Dialect } from "../../spec/dialects.ts";
import { ApiServer } from "../apiserver/api-server.ts";
import { Simulation } from "../kernel/simulation.ts";
import { HistoryRecorder } from "../actors/history-recorder.ts";
import { injectFaults } from "../faults/fault-injector.ts";
import type { Fault } from "../faults/fault-schedule.ts";
import { Network, type LatencyDistribution, type PartitionMode } from "../faults/network.ts";
import { ProcessHost } from "../faults/process-host.ts";
import { WakeupBatcher } from "../faults/wakeup-batcher.ts";
import type { ScenarioProgress } from "./scenario-run-options.ts";

/** The default one-way API latency: 1 ms plus an exponential tail of mean 2 ms, capped at 50 ms. */
export const DEFAULT_LATENCY: LatencyDistribution = { minMs: 1, meanExtraMs: 2, maxMs: 50 };

/** How a world is built. */
export interface WorldOptions {
  readonly seed: string | number;
  readonly dialect: Dialect;
  readonly latency?: LatencyDistribution;
  readonly partitionMode?: PartitionMode;
  readonly keepTraceLines?: boolean;
  /** The server's retained history and compaction interval (doc 1 §8 default: 5 minutes). */
  readonly historyWindowMs?: number;
}

/** Simulation, server, network, processes and recorder of one run. */
export class ControlPlaneWorld {
  readonly sim: Simulation;
  readonly server: ApiServer;
  readonly timers: WakeupBatcher;
  readonly network: Network;
  readonly host: ProcessHost;
  readonly recorder: HistoryRecorder;
  readonly dialect: Dialect;
  readonly startMs: number;
  #drops = 0;

  constructor(options: WorldOptions) {
    this.dialect = options.dialect;
    this.sim = new Simulation({ seed: options.seed, ...(options.keepTraceLines === true && { keepTraceLines: true }) });
    this.startMs = this.sim.nowMs();
    this.server = new ApiServer({
      clock: this.sim,
      rng: this.sim.rng.fork("server"),
      tokenKey: this.sim.rng.fork("token").bytes(32),
      dialect: options.dialect,
      build: { platform: "linux/amd64" },
      ...(options.historyWindowMs !== undefined && { historyWindowMs: options.historyWindowMs, compactionIntervalMs: options.historyWindowMs }),
    });
    this.timers = new WakeupBatcher(this.sim);
    this.network = new Network({
      sim: this.sim,
      timers: this.timers,
      rng: this.sim.rng.fork("network"),
      latency: options.latency ?? DEFAULT_LATENCY,
      ...(options.partitionMode !== undefined && { partitionMode: options.partitionMode }),
      onDrop: () => this.#drops++,
    });
    this.host = new ProcessHost(this.sim, this.timers);
    this.recorder = new HistoryRecorder(this.sim);
  }

  /** Responses the network dropped so far. */
  get drops(): number {
    return this.#drops;
  }

  /** Schedules `faults` (times relative to now), resolving targets with `resolve`. */
  injectFaults(faults: readonly Fault[], resolve: (target: string) => readonly string[]): void {
    injectFaults({ sim: this.sim, host: this.host, network: this.network, resolve, record: (record) => this.recorder.fault(record) }, faults);
  }

  /**
   * Runs until `durationMs` after the start; returns the kernel events run. With `onProgress`,
   * runs in consecutive slices of `everyMs` virtual time and reports after each: the same events
   * in the same order as one call (each slice stops before the next due event and moves the clock
   * only to the slice's end, where nothing runs).
   */
  async runUntil(durationMs: number, onProgress?: (progress: ScenarioProgress) => void, everyMs = 10_000): Promise<number> {
    if (onProgress === undefined || !(everyMs > 0)) return (await this.sim.run({ untilMs: this.startMs + durationMs })).eventsRun;
    let eventsRun = 0;
    for (let sliceEnd = Math.min(everyMs, durationMs); ; sliceEnd = Math.min(sliceEnd + everyMs, durationMs)) {
      eventsRun += (await this.sim.run({ untilMs: this.startMs + sliceEnd })).eventsRun;
      onProgress({ virtualMs: sliceEnd, durationMs, kernelEvents: eventsRun });
      if (sliceEnd >= durationMs) return eventsRun;
    }
  }
}

/** The largest |drift| any fault sets, ppm (the checkers' ρ × 10^6). */
export function maxDriftPpm(faults: readonly Fault[]): number {
  return Math.max(0, ...faults.flatMap((fault) => (fault.kind === "drift" ? [Math.abs(fault.ppm)] : [])));
}

/** Throws, naming the known targets, when some fault's target names neither a group nor a process. */
export function checkTargets(faults: readonly Fault[], groups: ReadonlyMap<string, unknown>, known: readonly string[]): void {
  for (const fault of faults) {
    for (const part of fault.target.split("|")) {
      if (!groups.has(part) && !known.includes(part)) {
        throw new Error(`unknown fault target "${part}" in ${fault.kind}; known: ${[...groups.keys(), ...known.slice(0, 5)].join(", ")}${known.length > 5 ? ", …" : ""}`);
      }
    }
  }
}

/** `target` resolved against named groups, else as a `|`-separated list of known processes. */
export function resolveTarget(target: string, groups: ReadonlyMap<string, () => readonly string[]>, known: readonly string[]): string[] {
  const names: string[] = [];
  for (const part of target.split("|")) {
    const group = groups.get(part);
    if (group !== undefined) names.push(...group());
    else if (known.includes(part)) names.push(part);
    else throw new Error(`unknown fault target "${part}"; known: ${[...groups.keys(), ...known.slice(0, 5)].join(", ")}${known.length > 5 ? ", …" : ""}`);
  }
  return [...new Set(names)];
}
