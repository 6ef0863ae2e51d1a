/**
 * Scenario `node-eviction` (doc 2 §2.4, doc 3 §2.4): node agents in zones renew their leases and
 * post status, the node lifecycle controller watches them, marks the silent ones, taints them at
 * each zone's rate and evicts their pods, under a fault schedule; the six node lifecycle
 * invariants are checked from the recorded history.
 */
import { dialectByName } from "../../spec/dialects.ts";
import type { NodeAgentParameters, NodeLifecycleParameters } from "../config/simulation-parameters.ts";
import type { ControlPlaneClient } from "../actors/api-client.ts";
import { HttpApiClient } from "../actors/http-api-client.ts";
import { NodeAgent } from "../actors/node-agent.ts";
import { NodeLifecycleController } from "../actors/node-lifecycle-controller.ts";
import { StoreApi } from "../actors/store-api.ts";
import { StoreApiClient } from "../actors/store-api-client.ts";
import type { ProcessClock } from "../faults/process-clock.ts";
import type { ControlPlaneHistory } from "../invariants/control-plane-history.ts";
import type { NodeLifecycleBounds } from "../invariants/node-lifecycle-bounds.ts";
import { checkNodeLifecycle } from "../invariants/node-lifecycle-checks.ts";
import { inMemoryTransport } from "../transport/in-memory-transport.ts";
import { clusterNodes, createWorkload, zoneName } from "./cluster-workload.ts";
import { checkTargets, ControlPlaneWorld, maxDriftPpm, resolveTarget } from "./control-plane-world.ts";
import type { ScenarioResult } from "./scenario-result.ts";
import type { ScenarioRunOptions } from "./scenario-run-options.ts";

/** The controller's process name (fault target `controller`). */
export const CONTROLLER_PROCESS = "node-lifecycle-controller";

/** Node agents start on a grid of this many ms within their first status period. */
const START_GRID_MS = 100;

/** How the node eviction scenario runs. */
export interface NodeEvictionScenarioOptions extends ScenarioRunOptions {
  readonly nodes: number;
  readonly zones: number;
  readonly pods: number;
  /** The controller's parameters (doc 2 §2.4), grace period resolved for the dialect's version. */
  readonly lifecycle: NodeLifecycleParameters;
  /** The node agents' parameters (doc 3 §2.4). Client default: store (thousands of nodes). */
  readonly agent: NodeAgentParameters;
  /** Planted canary: tokens per zone bucket (Kubernetes: 1). */
  readonly evictionBurst?: number;
  /** The server's retained history (default doc 1 §8's 5 minutes); nothing here reads the past. */
  readonly historyWindowMs?: number;
}

/** Runs the scenario to its end and checks its invariants. */
export async function runNodeEvictionScenario(options: NodeEvictionScenarioOptions): Promise<ScenarioResult> {
  const dialect = dialectByName(options.dialect);
  const world = new ControlPlaneWorld({
    seed: options.seed,
    dialect,
    ...(options.latency && { latency: options.latency }),
    ...(options.keepTraceLines && { keepTraceLines: true }),
    ...(options.historyWindowMs !== undefined && { historyWindowMs: options.historyWindowMs }),
  });
  const storeApi = new StoreApi({ server: world.server, rng: world.sim.rng.fork("store-api") });
  const nodes = clusterNodes(options.nodes, options.zones);
  createWorkload(storeApi, dialect, nodes, options.pods);
  const clientFor = (clock: ProcessClock): ControlPlaneClient =>
    options.client === "http"
      ? new HttpApiClient(inMemoryTransport({ clock, network: world.network, handler: world.server.handle }), dialect)
      : new StoreApiClient(storeApi, world.network, clock);
  const starts = world.sim.rng.fork("node-starts");
  for (const { name, zone } of nodes) {
    const offsetMs = starts.int(0, Math.max(1, Math.floor(options.agent.nodeStatusUpdateFrequencyMs / START_GRID_MS)) - 1) * START_GRID_MS;
    world.host.add(name, (clock, incarnation) => {
      const agent = new NodeAgent({ name, zone, client: clientFor(clock), clock, parameters: options.agent, dialect, recorder: world.recorder });
      void world.sim.spawn(name, async () => {
        if (incarnation === 0) await clock.sleep(offsetMs);
        await agent.run();
      });
    });
  }
  world.host.add(CONTROLLER_PROCESS, (clock, incarnation) => {
    const controller = new NodeLifecycleController({
      process: CONTROLLER_PROCESS,
      incarnation: `${CONTROLLER_PROCESS}_${incarnation}`,
      client: clientFor(clock),
      clock,
      parameters: options.lifecycle,
      dialect,
      recorder: world.recorder,
      ...(options.evictionBurst !== undefined && { evictionBurst: options.evictionBurst }),
    });
    void world.sim.spawn(CONTROLLER_PROCESS, () => controller.run());
  });
  const nodeNames = nodes.map((node) => node.name);
  const groups = new Map<string, () => readonly string[]>([
    ["controller", () => [CONTROLLER_PROCESS]],
    ["nodes", () => nodeNames],
    ...Array.from({ length: options.zones }, (_, index): [string, () => readonly string[]] => {
      const zone = zoneName(index);
      return [zone, () => nodes.filter((node) => node.zone === zone).map((node) => node.name)];
    }),
  ]);
  const known = [...nodeNames, CONTROLLER_PROCESS];
  checkTargets(options.faults, groups, known);
  world.injectFaults(options.faults, (target) => resolveTarget(target, groups, known));
  options.onStarted?.();
  const kernelEvents = await world.runUntil(options.durationMs, options.onProgress, options.progressEveryMs);
  options.onRunEnded?.();
  const history = world.recorder.finish();
  const bounds: NodeLifecycleBounds = {
    nodeMonitorPeriodMs: options.lifecycle.nodeMonitorPeriodMs,
    nodeMonitorGracePeriodMs: options.lifecycle.nodeMonitorGracePeriodMs,
    nodeStartupGracePeriodMs: options.lifecycle.nodeStartupGracePeriodMs,
    nodeStatusUpdateFrequencyMs: options.agent.nodeStatusUpdateFrequencyMs,
    nodeLeaseRenewIntervalMs: options.agent.nodeLeaseRenewIntervalMs,
    maxOneWayMs: world.network.maxOneWayMs,
    maxDriftPpm: maxDriftPpm(options.faults),
    controller: CONTROLLER_PROCESS,
  };
  const heartbeats = [...history.nodes.values()].reduce((sum, node) => sum + node.heartbeatsMs.length, 0);
  return {
    scenario: "node-eviction",
    seed: world.sim.seed,
    configuration: {
      dialect: options.dialect,
      nodes: options.nodes,
      zones: options.zones,
      pods: options.pods,
      durationMs: options.durationMs,
      client: options.client ?? "store",
      lifecycle: options.lifecycle,
      agent: options.agent,
      latency: options.latency ?? null,
      ...(options.evictionBurst !== undefined && { evictionBurst: options.evictionBurst }),
    },
    faults: options.faults,
    virtualMs: options.durationMs,
    kernelEvents,
    wakeups: world.timers.callbacksRun,
    traceHash: world.sim.trace.hash(),
    verdicts: checkNodeLifecycle(history, bounds),
    history,
    summary: [
      `${options.nodes} nodes in ${options.zones} zones, ${options.pods} pods; ${heartbeats} heartbeats; ${history.conditions.filter((record) => record.status === "Unknown").length} marked Ready=Unknown`,
      `${history.taints.filter((taint) => taint.change === "added").length} node taints for eviction, ${history.podEvictions.length} pods evicted; ${fullDisruptionsAfterStartup(history)} times every zone fully disrupted after start-up; ${world.drops} responses dropped`,
    ],
    notes: [
      `grace period ${options.lifecycle.nodeMonitorGracePeriodMs} ms, monitor period ${options.lifecycle.nodeMonitorPeriodMs} ms, eviction rate ${options.lifecycle.nodeEvictionRate}/s (secondary ${options.lifecycle.secondaryNodeEvictionRate}/s above ${options.lifecycle.largeClusterSizeThreshold} nodes)`,
    ],
  };
}

// Entries into "every zone fully disrupted" once some node has been Ready: the controller's first
// passes, before any node has posted Ready, see every zone fully disrupted and are start-up.
function fullDisruptionsAfterStartup(history: ControlPlaneHistory): number {
  const firstReadyMs = history.conditions.find((record) => record.status === "True")?.atMs ?? Number.POSITIVE_INFINITY;
  return history.fullDisruption.filter((record) => record.change === "enter" && record.atMs >= firstReadyMs).length;
}
