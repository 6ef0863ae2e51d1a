/**
 * A node agent (doc 3 §2.4): registers its Node (`registerNode`), renews the node's Lease every
 * 10 s with `nodeLeaseDurationSeconds` set on it (node-lease-renewal.ts), and computes its status
 * every `nodeStatusUpdateFrequency`, posting it when it changed or when
 * `nodeStatusReportFrequency` has passed since the last post. It reads its Node from an informer
 * (a watch of that one Node), as kubelet reads its node lister, and from the server only to retry
 * a post that conflicted: a GET per node every 10 s would be the bulk of a large cluster's
 * requests, as it was in Kubernetes before the lister.
 *
 * Both loops tick on a fixed schedule ("every 10 s") of the agent's own clock, from the same start,
 * so the ticks of thousands of agents fall on few instants and share kernel events.
 * The simulated node is always healthy: its computed Ready condition is True.
 */
import type { Dialect } from "../../spec/dialects.ts";
import type { NodeAgentParameters } from "../config/simulation-parameters.ts";
import type { ActorClock } from "./actor-clock.ts";
import { isAlreadyExists, isConflict, type ControlPlaneClient, type NodeInformer } from "./api-client.ts";
import { readyCondition, ZONE_LABEL, type Node, type NodeCondition } from "./api-objects.ts";
import type { HistoryRecorder } from "./history-recorder.ts";
import { NodeLeaseRenewal } from "./node-lease-renewal.ts";
import { rfc3339Seconds } from "./micro-time.ts";
import { tickOnScheduleWithDone, tickWhenDue } from "./tick-on-schedule.ts";

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
  #informer: NodeInformer | undefined;
  #lastPostMs = Number.NEGATIVE_INFINITY;

  constructor(options: NodeAgentOptions) {
    this.#options = options;
  }

  /** Registers, then runs the lease and status loops. */
  async run(): Promise<void> {
    await this.#register();
    const { clock, client, name, dialect, recorder, parameters } = this.#options;
    const informer = client.informNode(name);
    this.#informer = informer;
    const startMs = clock.monotonicMs();
    const lease = new NodeLeaseRenewal({ name, namespace: dialect.namespaces.nodeLease, durationSeconds: parameters.nodeLeaseDurationSeconds, client, clock, recorder });
    const leaseTicks = tickOnScheduleWithDone(clock, startMs, parameters.nodeLeaseRenewIntervalMs, lease);
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
