/**
 * What the simulation report plots, derived from a run's history (pure functions): leadership
 * lanes, ready nodes and state per zone over time, node evictions per zone against the rate
 * limit's envelope, pod evictions, and fault markers. Times are seconds since the run's start.
 */
import type { ControlPlaneHistory, ZoneState } from "../../sim/invariants/control-plane-history.ts";
import { leadershipIntervals } from "../../sim/invariants/leadership-intervals.ts";

/** A point of a step series. */
export interface Point {
  readonly t: number;
  readonly value: number;
}

/** One candidate's leadership intervals. */
export interface LeadershipLane {
  readonly candidate: string;
  readonly intervals: readonly { readonly from: number; readonly to: number; readonly identity: string; readonly ended: string }[];
}

/** A fault on the time axis. */
export interface FaultMarker {
  readonly from: number;
  readonly to: number;
  readonly label: string;
}

/** A zone's series. */
export interface ZoneSeries {
  readonly zone: string;
  readonly nodes: number;
  readonly ready: readonly Point[];
  readonly states: readonly { readonly from: number; readonly to: number; readonly state: ZoneState }[];
  readonly evictions: readonly Point[];
  /** Most node evictions the zone's limiter could have granted by each time (burst 1 at each new limiter). */
  readonly envelope: readonly Point[];
}

const seconds = (history: ControlPlaneHistory, atMs: number) => (atMs - history.startMs) / 1000;

/** Leadership lanes, one per candidate that ever led, by name. */
export function leadershipLanes(history: ControlPlaneHistory): LeadershipLane[] {
  const lanes = new Map<string, LeadershipLane["intervals"][number][]>();
  for (const interval of leadershipIntervals(history)) {
    const lane = lanes.get(interval.candidate) ?? [];
    lane.push({ from: seconds(history, interval.startMs), to: seconds(history, interval.endMs), identity: interval.identity, ended: interval.ended });
    lanes.set(interval.candidate, lane);
  }
  return [...lanes].sort(([a], [b]) => (a < b ? -1 : 1)).map(([candidate, intervals]) => ({ candidate, intervals }));
}

/** Every recorded fault, as a span (instants have from = to). */
export function faultMarkers(history: ControlPlaneHistory): FaultMarker[] {
  return history.faults
    .filter((fault) => fault.kind !== "heal" && fault.kind !== "restart")
    .map((fault) => {
      const from = seconds(history, fault.atMs);
      const restart = fault.kind === "crash" ? history.faults.find((other) => other.kind === "restart" && other.atMs >= fault.atMs && other.processes[0] === fault.processes[0]) : undefined;
      const to = fault.kind === "crash" ? (restart === undefined ? seconds(history, history.endMs) : seconds(history, restart.atMs)) : from + (fault.durationMs ?? 0) / 1000;
      const processes = fault.processes.length > 3 ? `${fault.processes.length} processes` : fault.processes.join("|");
      return { from, to, label: `${fault.kind} ${processes}${fault.value !== undefined ? ` (${fault.value})` : ""}` };
    });
}

/** Per-zone series for the node eviction charts. */
export function zoneSeries(history: ControlPlaneHistory): ZoneSeries[] {
  const zones = [...new Set([...history.nodes.values()].map((node) => node.zone))].sort();
  return zones.map((zone) => {
    const members = new Set([...history.nodes.values()].filter((node) => node.zone === zone).map((node) => node.name));
    return {
      zone,
      nodes: members.size,
      ready: readySeries(history, members),
      states: stateBands(history, zone),
      evictions: cumulative(history, history.taints.filter((taint) => taint.zone === zone && taint.change === "added" && taint.swap !== true).map((taint) => taint.atMs)),
      envelope: envelope(history, zone),
    };
  });
}

/** Cumulative pod evictions over the run. */
export function podEvictionSeries(history: ControlPlaneHistory): Point[] {
  return cumulative(history, history.podEvictions.map((eviction) => eviction.atMs));
}

function readySeries(history: ControlPlaneHistory, members: ReadonlySet<string>): Point[] {
  const ready = new Set<string>();
  const points: Point[] = [{ t: 0, value: 0 }];
  for (const record of history.conditions) {
    if (!members.has(record.node)) continue;
    if (record.status === "True") ready.add(record.node);
    else ready.delete(record.node);
    points.push({ t: seconds(history, record.atMs), value: ready.size });
  }
  points.push({ t: seconds(history, history.endMs), value: ready.size });
  return compact(points);
}

function stateBands(history: ControlPlaneHistory, zone: string): ZoneSeries["states"] {
  const changes = history.zoneStates.filter((record) => record.zone === zone);
  return changes.map((record, index) => ({
    from: seconds(history, record.atMs),
    to: seconds(history, changes[index + 1]?.atMs ?? history.endMs),
    state: record.state,
  }));
}

function cumulative(history: ControlPlaneHistory, timesMs: readonly number[]): Point[] {
  const points: Point[] = [{ t: 0, value: 0 }];
  [...timesMs].sort((a, b) => a - b).forEach((atMs, index) => points.push({ t: seconds(history, atMs), value: index + 1 }));
  points.push({ t: seconds(history, history.endMs), value: timesMs.length });
  return compact(points);
}

// Upper envelope of granted tokens: each new limiter may grant one at once, then `rate` per second.
function envelope(history: ControlPlaneHistory, zone: string): Point[] {
  const segments = history.zoneRates.filter((record) => record.zone === zone);
  const points: Point[] = [{ t: 0, value: 0 }];
  let granted = 0;
  segments.forEach((segment, index) => {
    const from = seconds(history, segment.atMs);
    const to = seconds(history, segments[index + 1]?.atMs ?? history.endMs);
    if (segment.rate > 0) {
      points.push({ t: from, value: granted });
      granted += 1;
      points.push({ t: from, value: granted });
      granted += segment.rate * (to - from);
      points.push({ t: to, value: granted });
    } else points.push({ t: to, value: granted });
  });
  return points;
}

// At most one point per distinct time (the last), so a 5,000-node hour stays a few hundred points per chart.
function compact(points: readonly Point[]): Point[] {
  const out: Point[] = [];
  for (const point of points) {
    const last = out.at(-1);
    if (last !== undefined && last.t === point.t) out[out.length - 1] = point;
    else out.push(point);
  }
  return out;
}
