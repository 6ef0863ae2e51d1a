/**
 * A node agent (doc 3 §2.4): registers its Node (`registerNode`), renews the node's Lease every
 * 10 s with `nodeLeaseDurationSeconds` set on it, and computes its status every
 * `nodeStatusUpdateFrequency`, posting it when it changed or when `nodeStatusReportFrequency` has
 * passed since the last post. It reads its Node from an informer (a watch of that one Node), as
 * kubelet reads its node lister, and from the server only to retry a post that conflicted: a
 * GET per node every 10 s would be the bulk of a large cluster's requests, as it was in Kubernetes
 * before the lister.
 *
 * Both loops tick on a fixed schedule ("every 10 s") of the agent's own clock, from the same start,
 * so the ticks of thousands of agents fall on few instants and share kernel events.
 * The simulated node is always healthy: its computed Ready condition is True.
 */
import type { Dialect } from "../../spec/dialects.ts";
import type { NodeAgentParameters } from "../config/simulation-parameters.ts";
import type { ActorClock } from "./actor-clock.ts";
import { isAlreadyExists, isConflict, isNotFound, type ControlPlaneClient, type NodeInformer } from "./api-client.ts";
import { readyCondition, ZONE_LABEL, type Lease, type Node, type NodeCondition } from "./api-objects.ts";
import type { HistoryRecorder } from "./history-recorder.ts";
import { microTime, rfc3339Seconds } from "./micro-time.ts";
import { tickOnSchedule } from "./tick-on-schedule.ts";

/** Kubelet's nodeStatusUpdateRetry: tries of one status update. */
const STATUS_UPDATE_ATTEMPTS = 5;

/** How a node agent is set up. */
export interface NodeAgentOptions {
  /** The node's name, also the process name and the Lease's name. */
  readonly name: string;
  readonly zone: string;
  readonly client: ControlPlaneClient;
  readonly clock: ActorClock;
  readonly parameters: NodeAgentParameters;
  readonly dialect: Dialect;
  readonly recorder: HistoryRecorder;
}

/** One node agent; `run` never returns. */
export class NodeAgent {
  readonly #options: NodeAgentOptions;
  // Made once: a callback created per call would be one more allocation per heartbeat.
  readonly #leaseApplied: () => void;
  #lease: Lease | undefined;
  #informer: NodeInformer | undefined;
  #lastPostMs = Number.NEGATIVE_INFINITY;

  constructor(options: NodeAgentOptions) {
    this.#options = options;
    this.#leaseApplied = () => options.recorder.heartbeat(options.name, "lease");
  }

  /** Registers, then runs the lease and status loops. */
  async run(): Promise<void> {
    await this.#register();
    this.#informer = this.#options.client.informNode(this.#options.name);
    const { parameters } = this.#options;
    const startMs = this.#options.clock.monotonicMs();
    const { clock } = this.#options;
    await Promise.all([
      tickOnSchedule(clock, startMs, parameters.nodeLeaseRenewIntervalMs, () => this.#renewLease()),
      tickOnSchedule(clock, startMs, parameters.nodeStatusUpdateFrequencyMs, () => this.#syncStatus()),
    ]);
  }

  async #register(): Promise<void> {
    const { client, clock, name, zone, recorder, parameters } = this.#options;
    const node: Node = { metadata: { name, labels: { [ZONE_LABEL]: zone } }, spec: {}, status: {} };
    for (;;) {
      try {
        await client.createNode(node, { onApplied: () => recorder.nodeRegistered(name, zone) });
        return;
      } catch (error) {
        if (isAlreadyExists(error)) return; // a restarted agent finds its Node
      }
      await clock.sleep(parameters.nodeStatusUpdateFrequencyMs);
    }
  }

  // Kubernetes' lease controller: update from the cached Lease; on failure read (or create) and retry once.
  async #renewLease(): Promise<void> {
    if (this.#lease !== undefined && (await this.#updateLease(this.#lease))) return;
    const lease = await this.#ensureLease();
    if (lease !== undefined) await this.#updateLease(lease);
  }

  async #updateLease(lease: Lease): Promise<boolean> {
    const { client, clock } = this.#options;
    try {
      const renewed: Lease = { metadata: lease.metadata, spec: { ...lease.spec, renewTime: microTime(clock.nowMs()) } };
      this.#lease = await client.updateLease(renewed, { onApplied: this.#leaseApplied });
      return true;
    } catch {
      this.#lease = undefined;
      return false;
    }
  }

  async #ensureLease(): Promise<Lease | undefined> {
    const { client, clock, name, dialect, parameters, recorder } = this.#options;
    const namespace = dialect.namespaces.nodeLease;
    try {
      return await client.getLease(namespace, name);
    } catch (error) {
      if (!isNotFound(error)) return undefined;
    }
    const lease: Lease = {
      metadata: { name, namespace },
      spec: { holderIdentity: name, leaseDurationSeconds: parameters.nodeLeaseDurationSeconds, renewTime: microTime(clock.nowMs()) },
    };
    try {
      this.#lease = await client.createLease(lease, { onApplied: this.#leaseApplied });
    } catch {
      // Created by an earlier incarnation, or unreachable: the next tick reads it.
    }
    return undefined;
  }

  // Kubelet's updateNodeStatus: tries of tryUpdateNodeStatus while the post conflicts.
  async #syncStatus(): Promise<void> {
    for (let attempt = 0; attempt < STATUS_UPDATE_ATTEMPTS; attempt++) {
      if ((await this.#tryUpdateStatus(attempt)) !== "conflict") return;
    }
  }

  // Kubelet's tryUpdateNodeStatus: read the Node (the first try from the informer, retries from
  // the server), compute status, post when it changed or a report is due.
  async #tryUpdateStatus(attempt: number): Promise<"done" | "conflict"> {
    const { client, clock, name, parameters, recorder } = this.#options;
    let node: Node;
    try {
      node = await (attempt === 0 ? this.#informer!.get() : client.getNode(name));
    } catch {
      return "done"; // unreachable: the next tick tries again
    }
    const current = readyCondition(node);
    const changed = current?.status !== "True";
    const nowMs = clock.monotonicMs();
    if (!changed && nowMs - this.#lastPostMs < parameters.nodeStatusReportFrequencyMs) return "done";
    const ready = this.#readyCondition(current, changed);
    const conditions = [...(node.status.conditions ?? []).filter((condition) => condition.type !== "Ready"), ready];
    try {
      await client.updateNodeStatus(
        { ...node, status: { ...node.status, conditions } },
        {
          onApplied: () => {
            recorder.heartbeat(name, "status");
            if (changed) recorder.condition({ node: name, status: "True", by: name });
          },
        },
      );
      this.#lastPostMs = nowMs;
      return "done";
    } catch (error) {
      return isConflict(error) ? "conflict" : "done"; // a stale copy, or unreachable: the next tick
    }
  }

  #readyCondition(current: NodeCondition | undefined, changed: boolean): NodeCondition {
    const now = rfc3339Seconds(this.#options.clock.nowMs());
    return {
      type: "Ready",
      status: "True",
      reason: "NodeAgentReady",
      message: "node agent is posting ready status",
      lastHeartbeatTime: now,
      lastTransitionTime: changed || current?.lastTransitionTime === undefined ? now : current.lastTransitionTime,
    };
  }
}
