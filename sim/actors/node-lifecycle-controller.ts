/**
 * The node lifecycle controller with its taint manager (doc 2 §2.4; Kubernetes'
 * nodelifecycle.Controller with taint-based eviction):
 *
 * - Every `--node-monitor-period`: list Nodes and node Leases; a node not heard from within the
 *   grace period gets Ready=Unknown; zone states are recomputed and each zone's eviction rate
 *   set; not-ready nodes are queued for the NoExecute taint, ready ones lose it at once.
 * - Every 100 ms (Kubernetes' nodeEvictionPeriod): each zone's queue is tainted at the zone's rate
 *   (a token per node).
 * - A tainted node's pods that do not tolerate the taint are evicted at once, the others when
 *   their tolerationSeconds run out (300 s by default); a node that becomes Ready again loses its
 *   taint and its pending evictions.
 * - When every zone is fully disrupted, nothing is evicted and every taint is removed: the
 *   control plane losing its nodes is likelier than every node failing.
 *
 * The three activities take one lock, so no decision is taken on a half-updated view.
 */
import type { Dialect } from "../../spec/dialects.ts";
import type { TimerHandle } from "../kernel/clock.ts";
import type { NodeLifecycleParameters } from "../config/simulation-parameters.ts";
import type { ZoneState } from "../invariants/control-plane-history.ts";
import type { ActorClock } from "./actor-clock.ts";
import { isConflict, isNotFound, type ControlPlaneClient } from "./api-client.ts";
import { readyCondition, zoneOf, type Lease, type Node, type NodeCondition, type Taint } from "./api-objects.ts";
import { AsyncLock } from "./async-lock.ts";
import type { HistoryRecorder } from "./history-recorder.ts";
import { rfc3339Seconds } from "./micro-time.ts";
import { NodeHealthTracker, type NodeHealth } from "./node-health.ts";
import { evictionDelayMs } from "./pod-tolerations.ts";
import { tickOnSchedule } from "./tick-on-schedule.ts";
import { TokenBucket } from "./token-bucket.ts";
import { computeZoneState, zoneRate } from "./zone-disruption.ts";

/** Kubernetes' nodeEvictionPeriod: how often the zone queues are tainted from. */
export const TAINTING_PERIOD_MS = 100;
const UPDATE_ATTEMPTS = 5; // Kubernetes' nodeStatusUpdateRetry / swapNodeControllerTaintRetries

/** How the controller is set up. */
export interface NodeLifecycleControllerOptions {
  readonly process: string;
  /** Names this incarnation in the history (its rate limiters are its own). */
  readonly incarnation: string;
  readonly client: ControlPlaneClient;
  readonly clock: ActorClock;
  readonly parameters: NodeLifecycleParameters;
  readonly dialect: Dialect;
  readonly recorder: HistoryRecorder;
  /** Tokens a zone's bucket holds (Kubernetes: 1). Anything else is the planted canary of the rate checker. */
  readonly evictionBurst?: number;
}

interface Zone {
  state: ZoneState;
  limiter: TokenBucket;
  /** Nodes waiting for a token, in arrival order. */
  readonly queue: Set<string>;
}

/**
 * What a monitor pass knows of a node: its Ready status; "absent" before its first status (not
 * ready for the zone counts, never tainted: Kubernetes skips nodes without a Ready condition);
 * "uncertain" after a mark whose outcome is unknown (not ready for the counts, not tainted).
 */
type Readiness = "True" | "False" | "Unknown" | "absent" | "uncertain";

/** What the controller knows of one node; updated in place (thousands of nodes, every pass). */
interface ViewEntry {
  readonly name: string;
  /** Set with #setNode, which keeps the facts below. */
  node: Node;
  readiness: Readiness;
  /** The node's Lease as last listed, if it has one. */
  lease: Lease | undefined;
  /** The node's health record, kept here to save a lookup per node and pass. */
  readonly health: NodeHealth;
  // Facts of `node` every pass reads, worked out once per Node object (objects are immutable, and
  // most of thousands of nodes are the same object as in the last pass): its Ready condition,
  // zone, and whether it carries one of our NoExecute taints.
  ready: NodeCondition | undefined;
  zone: string;
  tainted: boolean;
}

/** One controller incarnation; `run` never returns. */
export class NodeLifecycleController {
  readonly #options: NodeLifecycleControllerOptions;
  readonly #health: NodeHealthTracker;
  readonly #lock = new AsyncLock();
  readonly #zones = new Map<string, Zone>();
  readonly #view = new Map<string, ViewEntry>();
  // The view's entries in insertion (list) order: the per-pass loops walk an array, not a map.
  #entries: ViewEntry[] = [];
  // The entry of each lease of the last listing, by position: leases list in the same order every
  // pass, so a pass finds each lease's entry without a map lookup.
  #leaseEntries: (ViewEntry | undefined)[] = [];
  readonly #evictions = new Map<string, TimerHandle[]>();
  #allFullyDisrupted = false;

  constructor(options: NodeLifecycleControllerOptions) {
    this.#options = options;
    this.#health = new NodeHealthTracker(options.parameters);
  }

  /** Runs the monitor and tainting loops. */
  async run(): Promise<void> {
    const { clock, parameters } = this.#options;
    const startMs = clock.monotonicMs();
    // Each loop first sleeps to its offset (0 for the monitor: it yields once before its first pass).
    const every = async (offsetMs: number, periodMs: number, tick: () => Promise<void> | undefined): Promise<never> => {
      await clock.sleep(offsetMs);
      return tickOnSchedule(clock, startMs + offsetMs, periodMs, tick);
    };
    await Promise.all([
      every(0, parameters.nodeMonitorPeriodMs, () => this.#lock.run(() => this.#monitorPass())),
      every(TAINTING_PERIOD_MS / 2, TAINTING_PERIOD_MS, () => (this.#anyQueued() ? this.#lock.run(() => this.#taintingPass()) : undefined)),
    ]);
  }

  // ---- monitor pass ------------------------------------------------------------------------

  async #monitorPass(): Promise<void> {
    const { client, dialect, clock } = this.#options;
    let nodes: readonly Node[];
    let leases: readonly Lease[];
    try {
      [nodes, leases] = await Promise.all([client.listNodes(), client.listLeases(dialect.namespaces.nodeLease)]);
    } catch {
      return; // unreachable: try again next period
    }
    const overdue = this.#observe(nodes, leases, clock.monotonicMs());
    await Promise.all(overdue.map(({ node, lease }) => this.#markUnknown(node, lease)));
    await this.#handleDisruption();
    for (const name of this.#nodesWithTaintWork()) await this.#processTaints(name);
  }

  // Takes in a listing; returns the nodes overdue and not yet marked. Synchronous, as the loops
  // over thousands of nodes every pass are only optimized well outside an async function.
  #observe(nodes: readonly Node[], leases: readonly Lease[], nowMs: number): ViewEntry[] {
    if (this.#view.size > nodes.length) {
      // Nodes went away: rebuild.
      this.#view.clear();
      this.#entries = [];
      this.#leaseEntries = [];
    }
    const entries = this.#entries;
    for (let index = 0; index < nodes.length; index++) {
      const node = nodes[index]!;
      const name = node.metadata.name;
      // Nodes list in the order their entries were made: the entry at this index is usually it.
      const known = entries[index];
      const entry = this.#see(name, node, undefined, known !== undefined && known.name === name ? known : undefined);
      entry.lease = undefined;
    }
    const leaseEntries = this.#leaseEntries;
    for (let index = 0; index < leases.length; index++) {
      const lease = leases[index]!;
      const name = lease.metadata.name;
      let entry = leaseEntries[index];
      if (entry === undefined || entry.name !== name) {
        entry = this.#view.get(name);
        leaseEntries[index] = entry;
      }
      if (entry !== undefined) entry.lease = lease;
    }
    const overdue: ViewEntry[] = [];
    for (const entry of entries) {
      if (this.#health.overdue(entry.node, entry.lease, nowMs, entry.health, entry.ready) && entry.readiness !== "Unknown") overdue.push(entry);
    }
    return overdue;
  }

  // The nodes #processTaints has work for, in list order (entries are made in list order).
  // Collected up front: processing one node changes nothing another's check reads, and nothing
  // else runs meanwhile (the lock).
  #nodesWithTaintWork(): string[] {
    const names: string[] = [];
    for (const entry of this.#entries) if (this.#taintWorkFor(entry)) names.push(entry.name);
    return names;
  }

  // Records what is now known of node `name`, keeping its lease; returns its entry. `readiness`
  // undefined: the node's Ready status. `known`: its entry, when the caller has it at hand.
  #see(name: string, node: Node, readiness: Readiness | undefined, known = this.#view.get(name)): ViewEntry {
    let entry = known;
    if (entry === undefined) {
      entry = { name, node, readiness: "absent", lease: undefined, health: this.#health.recordOf(name), ready: undefined, zone: "", tainted: false };
      this.#view.set(name, entry);
      this.#entries.push(entry);
      this.#deriveFacts(entry, node);
    } else {
      this.#setNode(entry, node);
    }
    entry.readiness = readiness ?? entry.ready?.status ?? "absent";
    return entry;
  }

  #setNode(entry: ViewEntry, node: Node): void {
    if (node !== entry.node) this.#deriveFacts(entry, node);
  }

  #deriveFacts(entry: ViewEntry, node: Node): void {
    entry.node = node;
    entry.ready = readyCondition(node);
    entry.zone = zoneOf(node);
    entry.tainted = this.#hasOurTaint(node);
  }

  // Whether #processTaints has anything to do for `name` (checked synchronously: thousands of
  // healthy, untainted nodes per pass need nothing, and an await each would dominate the pass).
  #taintWorkFor(entry: ViewEntry): boolean {
    if (entry.readiness !== "True") return entry.readiness === "False" || entry.readiness === "Unknown";
    return entry.tainted || this.#evictions.has(entry.name) || (this.#zones.get(entry.zone)?.queue.has(entry.name) ?? false);
  }

  // Ready=Unknown for a node not heard from (Kubernetes: "Kubelet stopped posting node status").
  async #markUnknown(node: Node, lease: Lease | undefined): Promise<void> {
    const { client, clock, process, recorder } = this.#options;
    const name = node.metadata.name;
    let current = node;
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      const now = rfc3339Seconds(clock.nowMs());
      const ready = readyCondition(current);
      const unknown = ready === undefined
        ? { type: "Ready", status: "Unknown" as const, reason: "NodeStatusNeverUpdated", message: "Node agent never posted node status.", lastHeartbeatTime: current.metadata.creationTimestamp ?? now, lastTransitionTime: now }
        : { ...ready, status: "Unknown" as const, reason: "NodeStatusUnknown", message: "Node agent stopped posting node status.", lastTransitionTime: now };
      const conditions = [...(current.status.conditions ?? []).filter((condition) => condition.type !== "Ready"), unknown];
      try {
        const updated = await client.updateNodeStatus({ ...current, status: { ...current.status, conditions } }, {
          onApplied: () => recorder.condition({ node: name, status: "Unknown", by: process }),
        });
        this.#see(name, updated, "Unknown");
        return;
      } catch (error) {
        if (!isConflict(error)) {
          // The write may or may not have happened: not ready for the zone counts, untouched by tainting.
          this.#see(name, current, "uncertain");
          return;
        }
      }
      const fresh = await this.#getNode(name);
      if (fresh === undefined) return;
      this.#see(name, fresh, undefined);
      if (!this.#health.overdue(fresh, lease, clock.monotonicMs()) || readyCondition(fresh)?.status === "Unknown") return;
      current = fresh;
    }
  }

  // Kubernetes' handleDisruption: zone states, rates, and the all-zones-down brake.
  async #handleDisruption(): Promise<void> {
    const { parameters, recorder, clock } = this.#options;
    const counts = this.#countReadiness();
    const nowMs = clock.monotonicMs();
    const states = new Map<string, ZoneState>();
    for (const [zone, count] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      states.set(zone, computeZoneState(parameters, count.ready, count.notReady));
      if (!this.#zones.has(zone)) this.#createZone(zone, nowMs);
    }
    const allFull = states.size > 0 && [...states.values()].every((state) => state === "FullDisruption");
    if (allFull && !this.#allFullyDisrupted) {
      recorder.fullDisruption("enter");
      for (const [zone, entry] of this.#zones) this.#swapRate(zone, entry, 0, entry.state, nowMs);
      await this.#untaintAll();
    } else if (!allFull && this.#allFullyDisrupted) {
      recorder.fullDisruption("exit");
      this.#health.restartAll(nowMs);
    }
    for (const [zone, state] of states) {
      const entry = this.#zones.get(zone)!;
      const changed = state !== entry.state;
      if (changed) {
        const count = counts.get(zone)!;
        recorder.zoneState({ zone, state, ready: count.ready, notReady: count.notReady });
      }
      entry.state = state;
      const leaving = !allFull && this.#allFullyDisrupted;
      if (!allFull && (changed || leaving)) {
        const count = counts.get(zone)!;
        this.#swapRate(zone, entry, zoneRate(parameters, state, count.ready + count.notReady), state, nowMs);
      }
    }
    this.#allFullyDisrupted = allFull;
  }

  // Ready and not-ready nodes per zone (synchronous: a loop over every node, every pass).
  #countReadiness(): Map<string, { ready: number; notReady: number }> {
    const counts = new Map<string, { ready: number; notReady: number }>();
    for (const { zone, readiness } of this.#entries) {
      let count = counts.get(zone);
      if (count === undefined) {
        count = { ready: 0, notReady: 0 };
        counts.set(zone, count);
      }
      if (readiness === "True") count.ready++;
      else count.notReady++;
    }
    return counts;
  }

  #createZone(zone: string, nowMs: number): void {
    const { parameters, recorder, incarnation } = this.#options;
    const limiter = new TokenBucket(parameters.nodeEvictionRate, nowMs, this.#options.evictionBurst ?? 1);
    this.#zones.set(zone, { state: "Initial", limiter, queue: new Set() });
    recorder.zoneRate({ localMs: nowMs, incarnation, zone, rate: limiter.ratePerSecond, state: "Initial", how: "created" });
  }

  #swapRate(zone: string, entry: Zone, rate: number, state: ZoneState, nowMs: number): void {
    if (rate === entry.limiter.ratePerSecond) return;
    entry.limiter = entry.limiter.swap(rate, nowMs);
    this.#options.recorder.zoneRate({ localMs: nowMs, incarnation: this.#options.incarnation, zone, rate, state, how: "swapped" });
  }

  async #untaintAll(): Promise<void> {
    for (const entry of this.#zones.values()) entry.queue.clear();
    for (const name of [...this.#evictions.keys()]) this.#cancelEvictions(name);
    for (const [name, { node }] of this.#view) {
      if (this.#ourTaints(node).length > 0) await this.#setTaint(name, undefined);
    }
  }

  // Kubernetes' processTaintBaseEviction for one node.
  async #processTaints(name: string): Promise<void> {
    const entry = this.#view.get(name);
    if (entry === undefined || entry.readiness === "uncertain" || entry.readiness === "absent") return;
    const { node, readiness } = entry;
    const zone = this.#zones.get(zoneOf(node));
    const ours = this.#ourTaints(node);
    if (readiness === "True") {
      zone?.queue.delete(name);
      this.#cancelEvictions(name);
      if (ours.length > 0) await this.#setTaint(name, undefined);
      return;
    }
    if (this.#allFullyDisrupted) return;
    const wanted = this.#taintKey(readiness);
    if (ours.some((taint) => taint.key === wanted)) return this.#ensureEvictionsScheduled(name);
    if (ours.length > 0) {
      // The other node-controller taint: swapped at once, not rate limited (Kubernetes).
      if (await this.#setTaint(name, wanted, true)) await this.#ensureEvictionsScheduled(name);
      return;
    }
    zone?.queue.add(name);
  }

  // ---- tainting pass -----------------------------------------------------------------------

  #anyQueued(): boolean {
    for (const zone of this.#zones.values()) if (zone.queue.size > 0) return true;
    return false;
  }

  // Kubernetes' doNoExecuteTaintingPass: a token per queued node, zone by zone.
  async #taintingPass(): Promise<void> {
    const { clock, recorder, incarnation } = this.#options;
    for (const [zoneName, zone] of [...this.#zones].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      while (zone.queue.size > 0) {
        const nowMs = clock.monotonicMs();
        if (!zone.limiter.tryAccept(nowMs)) break;
        const name = zone.queue.values().next().value as string;
        zone.queue.delete(name);
        recorder.decision({ localMs: nowMs, incarnation, zone: zoneName, node: name });
        const entry = this.#view.get(name);
        if (this.#allFullyDisrupted || entry === undefined || !(entry.readiness === "False" || entry.readiness === "Unknown")) continue;
        if (await this.#setTaint(name, this.#taintKey(entry.readiness))) await this.#ensureEvictionsScheduled(name);
        else zone.queue.add(name); // Kubernetes re-queues a failed taint for a later token
      }
    }
  }

  // ---- taints and evictions ------------------------------------------------------------------

  #taintKey(readiness: Readiness): string {
    const { taints } = this.#options.dialect;
    return readiness === "False" ? taints.notReady : taints.unreachable;
  }

  #hasOurTaint(node: Node): boolean {
    const taints = node.spec.taints;
    return taints !== undefined && taints.length > 0 && this.#ourTaints(node).length > 0;
  }

  #ourTaints(node: Node): readonly Taint[] {
    const { taints } = this.#options.dialect;
    return (node.spec.taints ?? []).filter((taint) => taint.effect === "NoExecute" && (taint.key === taints.notReady || taint.key === taints.unreachable));
  }

  // Sets the node's node-controller NoExecute taint to `key` (undefined: none). True when done.
  async #setTaint(name: string, key: string | undefined, swap = false): Promise<boolean> {
    const { client, clock, recorder } = this.#options;
    let node: Node | undefined = this.#view.get(name)?.node;
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS && node !== undefined; attempt++) {
      const ours = this.#ourTaints(node);
      const others = (node.spec.taints ?? []).filter((taint) => !ours.includes(taint));
      const taints = key === undefined ? others : [...others, { key, effect: "NoExecute" as const, timeAdded: rfc3339Seconds(clock.nowMs()) }];
      const zone = zoneOf(node);
      const removed = ours.filter((taint) => taint.key !== key);
      const added = ours.some((taint) => taint.key === key) || key === undefined ? undefined : key;
      if (removed.length === 0 && added === undefined) return true;
      try {
        const updated = await client.updateNode({ ...node, spec: { ...node.spec, taints } }, {
          onApplied: () => {
            for (const taint of removed) recorder.taint({ node: name, zone, key: taint.key, change: "removed" });
            if (added !== undefined) recorder.taint({ node: name, zone, key: added, change: "added", ...(swap && { swap }) });
          },
        });
        const entry = this.#view.get(name);
        if (entry !== undefined) this.#setNode(entry, updated);
        return true;
      } catch (error) {
        if (!isConflict(error)) return false;
      }
      node = await this.#getNode(name);
    }
    return false;
  }

  async #ensureEvictionsScheduled(name: string): Promise<void> {
    if (this.#evictions.has(name)) return;
    const { client, clock } = this.#options;
    const entry = this.#view.get(name);
    if (entry === undefined) return;
    const taints = this.#ourTaints(entry.node);
    let pods;
    try {
      pods = await client.listPodsOnNode(name);
    } catch {
      return; // the next pass tries again
    }
    const byDelay = new Map<number, { namespace: string; name: string }[]>();
    for (const pod of pods) {
      const delayMs = evictionDelayMs(pod, taints);
      if (delayMs === undefined) continue;
      const group = byDelay.get(delayMs) ?? [];
      group.push({ namespace: pod.metadata.namespace ?? "", name: pod.metadata.name });
      byDelay.set(delayMs, group);
    }
    const handles: TimerHandle[] = [];
    this.#evictions.set(name, handles);
    for (const [delayMs, group] of [...byDelay].sort(([a], [b]) => a - b)) {
      handles.push(clock.setTimer(delayMs, () => void this.#lock.run(() => this.#evict(name, group, 0))));
    }
  }

  #cancelEvictions(name: string): void {
    for (const handle of this.#evictions.get(name) ?? []) handle.cancel();
    this.#evictions.delete(name);
  }

  async #evict(nodeName: string, pods: readonly { namespace: string; name: string }[], attempt: number): Promise<void> {
    const { client, clock, recorder } = this.#options;
    const entry = this.#view.get(nodeName);
    // Cancelled meanwhile (ready again, or every zone down): nothing to do.
    if (this.#allFullyDisrupted || !this.#evictions.has(nodeName) || entry === undefined || this.#ourTaints(entry.node).length === 0) return;
    const failed: { namespace: string; name: string }[] = [];
    await Promise.all(
      pods.map(async (pod) => {
        try {
          await client.evictPod(pod.namespace, pod.name, { onApplied: () => recorder.podEvicted(`${pod.namespace}/${pod.name}`, nodeName) });
        } catch (error) {
          if (!isNotFound(error)) failed.push(pod);
        }
      }),
    );
    if (failed.length > 0 && attempt < UPDATE_ATTEMPTS) {
      this.#evictions.get(nodeName)?.push(clock.setTimer(1000, () => void this.#lock.run(() => this.#evict(nodeName, failed, attempt + 1))));
    }
  }

  async #getNode(name: string): Promise<Node | undefined> {
    try {
      return await this.#options.client.getNode(name);
    } catch {
      return undefined;
    }
  }
}
