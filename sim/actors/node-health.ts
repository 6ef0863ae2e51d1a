/**
 * The node lifecycle controller's record of when it last heard from each node (doc 2 §2.4;
 * Kubernetes' nodeHealthMap and tryUpdateNodeHealth): the probe time, on the controller's own
 * monotonic clock, moves whenever the node's Ready heartbeat time or its Lease's renewTime is seen
 * to advance. A node is overdue once `--node-monitor-grace-period` has passed since then
 * (`--node-startup-grace-period` while it has never reported a Ready condition).
 *
 * Simplification: a node first seen gets the controller's now as its probe time (Kubernetes uses
 * the Node's creationTimestamp for a node that never reported, mixing in the server's clock).
 */
import type { NodeLifecycleParameters } from "../config/simulation-parameters.ts";
import { readyCondition, type Lease, type Node } from "./api-objects.ts";

/** The record of one node (opaque outside: obtain it with `NodeHealthTracker.recordOf`). */
export interface NodeHealth {
  probeMs: number;
  heartbeat: string;
  leaseRenew: string;
  /** The objects last looked at (undefined: never): the same objects again cannot have advanced. */
  node: Node | undefined;
  lease: Lease | undefined;
}

/** Probe times of every node seen. */
export class NodeHealthTracker {
  readonly #parameters: NodeLifecycleParameters;
  readonly #health = new Map<string, NodeHealth>();

  constructor(parameters: NodeLifecycleParameters) {
    this.#parameters = parameters;
  }

  /** The record of node `name`, made on first use; a caller that keeps it saves a lookup per pass. */
  recordOf(name: string): NodeHealth {
    let health = this.#health.get(name);
    if (health === undefined) {
      health = { probeMs: Number.NaN, heartbeat: "", leaseRenew: "", node: undefined, lease: undefined };
      this.#health.set(name, health);
    }
    return health;
  }

  /**
   * Notes what `node` and its `lease` show at `nowMs`, and says whether it is overdue: silent for
   * longer than its grace period (the startup one while it has no Ready condition). `health` is
   * the node's record when the caller keeps it, `ready` the node's Ready condition when it has it.
   */
  overdue(node: Node, lease: Lease | undefined, nowMs: number, health = this.recordOf(node.metadata.name), ready = readyCondition(node)): boolean {
    if (health.node === undefined) {
      health.probeMs = nowMs; // first seen
      health.heartbeat = ready?.lastHeartbeatTime ?? "";
      health.leaseRenew = lease?.spec.renewTime ?? "";
      health.node = node;
      health.lease = lease;
    } else if (node !== health.node || lease !== health.lease) {
      health.node = node;
      health.lease = lease;
      const heartbeat = ready?.lastHeartbeatTime ?? "";
      const leaseRenew = lease?.spec.renewTime ?? "";
      if (heartbeat !== health.heartbeat) {
        health.probeMs = nowMs;
        health.heartbeat = heartbeat;
      }
      // Kubernetes: only a renewTime AFTER the saved one counts (RFC 3339 in UTC orders as text).
      if (leaseRenew > health.leaseRenew) {
        health.probeMs = nowMs;
        health.leaseRenew = leaseRenew;
      }
    }
    const gracePeriodMs = ready === undefined ? this.#parameters.nodeStartupGracePeriodMs : this.#parameters.nodeMonitorGracePeriodMs;
    return nowMs > health.probeMs + gracePeriodMs;
  }

  /** Leaving full disruption: every node starts its grace period afresh (Kubernetes' handleDisruption). */
  restartAll(nowMs: number): void {
    for (const health of this.#health.values()) health.probeMs = nowMs;
  }
}
