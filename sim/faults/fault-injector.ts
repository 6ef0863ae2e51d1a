/**
 * Fires a fault schedule at its times on the kernel's queue, resolving each target to processes
 * when the fault fires, and records every fault (and heal, restart, end of a window) in the
 * history in true time.
 */
import type { Simulation } from "../kernel/simulation.ts";
import type { FaultRecord } from "../invariants/control-plane-history.ts";
import { sortedSchedule, type Fault } from "./fault-schedule.ts";
import type { Network } from "./network.ts";
import type { ProcessHost } from "./process-host.ts";

/** What the injector acts on. */
export interface FaultInjectorOptions {
  readonly sim: Simulation;
  readonly host: ProcessHost;
  readonly network: Network;
  /** Process names a target stands for when the fault fires (`leader`, `zone-a`, a `|` list, …). */
  readonly resolve: (target: string) => readonly string[];
  readonly record: (record: Omit<FaultRecord, "atMs">) => void;
}

/** Schedules every fault of `faults` (times relative to now). */
export function injectFaults(options: FaultInjectorOptions, faults: readonly Fault[]): void {
  for (const fault of sortedSchedule(faults)) {
    options.sim.setTimer(fault.atMs, () => fire(options, fault));
  }
}

function fire(options: FaultInjectorOptions, fault: Fault): void {
  const { sim, host, network, record } = options;
  const processes = options.resolve(fault.target);
  if (processes.length === 0) return;
  const later = (ms: number, then: () => void) => sim.setTimer(ms, then);
  switch (fault.kind) {
    case "crash":
      for (const process of processes) {
        if (!host.alive(process)) continue;
        record({ kind: "crash", processes: [process], ...(fault.restartAfterMs !== undefined && { durationMs: fault.restartAfterMs }) });
        host.crash(process, fault.restartAfterMs, () => record({ kind: "restart", processes: [process] }));
      }
      return;
    case "pause":
      record({ kind: "pause", processes, durationMs: fault.durationMs });
      for (const process of processes) host.pause(process, fault.durationMs);
      return;
    case "drift":
      record({ kind: "drift", processes, value: fault.ppm });
      for (const process of processes) host.setDrift(process, fault.ppm);
      return;
    case "step":
      record({ kind: "step", processes, value: fault.stepMs });
      for (const process of processes) host.step(process, fault.stepMs);
      return;
    case "partition":
      record({ kind: "partition", processes, durationMs: fault.durationMs });
      network.partition(processes);
      later(fault.durationMs, () => {
        record({ kind: "heal", processes });
        network.heal(processes);
      });
      return;
    case "latency":
      record({ kind: "latency", processes, durationMs: fault.durationMs, value: fault.latency.maxMs });
      for (const process of processes) network.setLatency(process, fault.latency);
      later(fault.durationMs, () => processes.forEach((process) => network.setLatency(process, undefined)));
      return;
    case "drop":
      record({ kind: "drop", processes, durationMs: fault.durationMs, value: fault.probability });
      for (const process of processes) network.setDropProbability(process, fault.probability);
      later(fault.durationMs, () => processes.forEach((process) => network.setDropProbability(process, 0)));
      return;
  }
}
