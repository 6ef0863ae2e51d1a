/**
 * Writes what the actors and fault injectors do into the run's trace (hashed: same seed, same
 * hash) and into the typed `ControlPlaneHistory` the checkers read. Times are true time, taken
 * from the simulation when the call is made.
 *
 * Heartbeats are by far the most frequent event (5,000 nodes × 2 per 10 s), so the trace gets
 * one line per instant listing the nodes that beat then, not one line per heartbeat.
 */
import type { Simulation } from "../kernel/simulation.ts";
import {
  emptyHistory,
  type ConditionRecord,
  type ControlPlaneHistory,
  type EvictionDecisionRecord,
  type FaultRecord,
  type LeadershipRecord,
  type NodeRecord,
  type TaintRecord,
  type ZoneRateRecord,
  type ZoneStateRecord,
} from "../invariants/control-plane-history.ts";

type WithoutTime<T> = Omit<T, "atMs">;

/** The recorder of one run. */
export class HistoryRecorder {
  readonly history: ControlPlaneHistory;
  readonly #sim: Simulation;
  #heartbeatMs = Number.NaN;
  #heartbeatNodes: string[] = [];
  // Heartbeats in time order, as (node record, time) in two arrays: appended where the last one
  // went, not to 5,000 per-node lists spread over the heap. `finish` gives each node its list.
  #beatRecords: NodeRecord[] = [];
  #beatTimesMs: number[] = [];

  /** Records into `sim`'s trace, from now on. */
  constructor(sim: Simulation) {
    this.#sim = sim;
    this.history = emptyHistory(sim.nowMs());
  }

  fault(record: WithoutTime<FaultRecord>): void {
    this.#push(this.history.faults, record, "faults", `fault-${record.kind}`);
  }

  leadership(record: WithoutTime<LeadershipRecord>): void {
    this.#push(this.history.leadership, record, record.candidate, `leader-${record.change}`);
  }

  leaseTransition(holder: string, transitions: number): void {
    this.#push(this.history.leaseTransitions, { holder, transitions }, "lock", "holder-changed");
  }

  nodeRegistered(name: string, zone: string): void {
    this.#flushHeartbeats();
    const existing = this.history.nodes.get(name);
    if (existing === undefined) {
      this.history.nodes.set(name, { name, zone, registeredAtMs: this.#sim.nowMs(), heartbeatsMs: [], statusPostsMs: [] });
    }
    this.#sim.record(name, "node-registered", { zone });
  }

  /** A lease renewal or status post by a node agent took effect. */
  heartbeat(node: string, kind: "lease" | "status"): void {
    this.#beat(this.#registered(node), node, kind === "status");
  }

  /**
   * `heartbeat(node, "lease")` as a function made once per agent: its node's record is looked up
   * at the first beat (after registration), not at each of the hour's 360.
   */
  leaseHeartbeatOf(node: string): () => void {
    let record: NodeRecord | undefined;
    return () => {
      record ??= this.#registered(node);
      this.#beat(record, node, false);
    };
  }

  condition(record: WithoutTime<ConditionRecord>): void {
    this.#push(this.history.conditions, record, record.by, "ready-condition");
  }

  taint(record: WithoutTime<TaintRecord>): void {
    this.#push(this.history.taints, record, "node-lifecycle", `taint-${record.change}`);
  }

  zoneRate(record: WithoutTime<ZoneRateRecord>): void {
    this.#push(this.history.zoneRates, record, "node-lifecycle", "zone-rate");
  }

  decision(record: WithoutTime<EvictionDecisionRecord>): void {
    this.#push(this.history.decisions, record, "node-lifecycle", "eviction-token");
  }

  zoneState(record: WithoutTime<ZoneStateRecord>): void {
    this.#push(this.history.zoneStates, record, "node-lifecycle", "zone-state");
  }

  fullDisruption(change: "enter" | "exit"): void {
    this.#push(this.history.fullDisruption, { change }, "node-lifecycle", `full-disruption-${change}`);
  }

  podEvicted(pod: string, node: string): void {
    this.#push(this.history.podEvictions, { pod, node }, "node-lifecycle", "pod-evicted");
  }

  /** Ends the record at the current time (writes buffered heartbeats). */
  finish(): ControlPlaneHistory {
    this.#flushHeartbeats();
    const records = this.#beatRecords;
    const timesMs = this.#beatTimesMs;
    for (let index = 0; index < records.length; index++) records[index]!.heartbeatsMs.push(timesMs[index]!);
    this.#beatRecords = [];
    this.#beatTimesMs = [];
    this.history.endMs = this.#sim.nowMs();
    return this.history;
  }

  #push<T extends { atMs: number }>(list: T[], record: Omit<T, "atMs">, actor: string, event: string): void {
    this.#flushHeartbeats();
    list.push({ atMs: this.#sim.nowMs(), ...record } as T);
    this.#sim.record(actor, event, record);
  }

  #registered(node: string): NodeRecord {
    const record = this.history.nodes.get(node);
    if (record === undefined) throw new Error(`heartbeat of unregistered node ${node}`);
    return record;
  }

  #beat(record: NodeRecord, node: string, status: boolean): void {
    const nowMs = this.#sim.nowMs();
    this.#beatRecords.push(record);
    this.#beatTimesMs.push(nowMs);
    if (status) record.statusPostsMs.push(nowMs);
    if (nowMs !== this.#heartbeatMs) this.#flushHeartbeats();
    this.#heartbeatMs = nowMs;
    this.#heartbeatNodes.push(status ? `${node}/status` : node);
  }

  #flushHeartbeats(): void {
    if (this.#heartbeatNodes.length === 0) return;
    this.#sim.trace.record(this.#heartbeatMs, "node-agents", "heartbeats", this.#heartbeatNodes);
    this.#heartbeatNodes = [];
  }
}
