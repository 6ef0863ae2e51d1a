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
import { isAlreadyExists, isConflict, isNotFound, type CallOptions, type ControlPlaneClient, type NodeInformer } from "./api-client.ts";
import { readyCondition, ZONE_LABEL, type Lease, type Node, type NodeCondition } from "./api-objects.ts";
import type { HistoryRecorder } from "./history-recorder.ts";
import { microTime, rfc3339Seconds } from "./micro-time.ts";
import { tickOnScheduleWithDone, tickWhenDue, type TickEnd } from "./tick-on-schedule.ts";

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
  // Made once: objects made per heartbeat (5,000 nodes, every 10 s) are what a large run allocates.
  readonly #leaseApplied: () => void;
  readonly #leaseCallOptions: CallOptions;
  #lease: Lease | undefined;
  #informer: NodeInformer | undefined;
  #lastPostMs = Number.NEGATIVE_INFINITY;

  constructor(options: NodeAgentOptions) {
    this.#options = options;
    this.#leaseApplied = options.recorder.leaseHeartbeatOf(options.name);
    this.#leaseCallOptions = { onApplied: this.#leaseApplied };
  }

  /** Registers, then runs the lease and status loops. */
  async run(): Promise<void> {
    await this.#register();
    const informer = this.#options.client.informNode(this.#options.name);
    this.#informer = informer;
    const { parameters } = this.#options;
    const startMs = this.#options.clock.monotonicMs();
    const { clock } = this.#options;
    const leaseTicks = tickOnScheduleWithDone(clock, startMs, parameters.nodeLeaseRenewIntervalMs, (end) => this.#renewLease(end));
    // The status loop sleeps over the ticks that would find nothing to post; a change of the
    // informer's copy (the controller marked the node, the watch broke) brings it back.
    const statusTicks = tickWhenDue(clock, startMs, parameters.nodeStatusUpdateFrequencyMs, () => this.#syncStatus(), () => this.#idleUntilMs(informer.cached()));
    informer.onChange(statusTicks.wake);
    await Promise.all([leaseTicks, statusTicks.running]);
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

  // Kubernetes' lease controller: update from the cached Lease; on failure read (or create) and retry
  // once. The usual case, one update, runs on callbacks: no promise per renewal (5,000 every 10 s).
  #renewLease(end: TickEnd): void {
    const lease = this.#lease;
    if (lease === undefined) {
      this.#recoverLease().then(() => end.done(), (error: unknown) => end.fail(error));
      return;
    }
    this.#options.client.updateLeaseThen(this.#renewed(lease), this.#leaseCallOptions, (ok, outcome) => {
      if (ok) {
        this.#lease = outcome as Lease;
        end.done();
        return;
      }
      this.#lease = undefined;
      this.#recoverLease().then(() => end.done(), (error: unknown) => end.fail(error));
    });
  }

  async #recoverLease(): Promise<void> {
    const lease = await this.#ensureLease();
    if (lease === undefined) return;
    try {
      this.#lease = await this.#updateLease(lease);
    } catch {
      this.#lease = undefined;
    }
  }

  #updateLease(lease: Lease): Promise<Lease> {
    return this.#options.client.updateLease(this.#renewed(lease), this.#leaseCallOptions);
  }

  // `lease` renewed now: the same object but for renewTime.
  #renewed(lease: Lease): Lease {
    return { metadata: lease.metadata, spec: { ...lease.spec, renewTime: microTime(this.#options.clock.nowMs()) } };
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

  // Kubelet's syncNodeStatus. The usual tick, with the informer's copy at hand showing Ready and no
  // report due, posts nothing and finishes at once, without a promise.
  #syncStatus(): Promise<void> | undefined {
    const node = this.#informer!.cached();
    if (node !== undefined && !this.#postDue(node)) return undefined;
    return this.#updateStatus();
  }

  // Kubelet's updateNodeStatus: tries of tryUpdateNodeStatus while the post conflicts.
  async #updateStatus(): Promise<void> {
    for (let attempt = 0; attempt < STATUS_UPDATE_ATTEMPTS; attempt++) {
      if ((await this.#tryUpdateStatus(attempt)) !== "conflict") return;
    }
  }

  // Until when (monotonic) there is nothing to post for `node`: while it shows Ready, until the
  // next report is due; with no copy, or another status (it changed), there is something now.
  #idleUntilMs(node: Node | undefined): number {
    if (node === undefined || readyCondition(node)?.status !== "True") return Number.NEGATIVE_INFINITY;
    return this.#lastPostMs + this.#options.parameters.nodeStatusReportFrequencyMs;
  }

  // Whether `node`'s status must be posted now.
  #postDue(node: Node): boolean {
    return this.#options.clock.monotonicMs() >= this.#idleUntilMs(node);
  }

  // Kubelet's tryUpdateNodeStatus: read the Node (the first try from the informer, retries from
  // the server), compute status, post when it changed or a report is due.
  async #tryUpdateStatus(attempt: number): Promise<"done" | "conflict"> {
    const { client, clock, name, recorder } = this.#options;
    let node: Node;
    try {
      node = await (attempt === 0 ? this.#informer!.get() : client.getNode(name));
    } catch {
      return "done"; // unreachable: the next tick tries again
    }
    if (!this.#postDue(node)) return "done";
    const current = readyCondition(node);
    const changed = current?.status !== "True";
    const nowMs = clock.monotonicMs();
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
