/**
 * What the simulation report plots, derived from a run's history (pure functions): leadership
 * lanes, ready nodes and state per zone over time, node evictions per zone against the rate
 * limit's envelope, pod evictions, and fault markers. Times are seconds since the run's start.
 */
import type { ControlPlaneHistory, ZoneRateRecord, ZoneState } from "../../sim/invariants/control-plane-history.ts";
import { leadershipIntervals } from "../../sim/invariants/leadership-intervals.ts";
import { nextBucket, refill, take, type ZoneBucket } from "../../sim/invariants/zone-token-bucket.ts";

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
  /** Zone states as the controller computed them; `startup` marks a band before any node of the zone had been Ready. */
  readonly states: readonly { readonly from: number; readonly to: number; readonly state: ZoneState; readonly startup?: boolean }[];
  readonly evictions: readonly Point[];
  /**
   * The rate limit as node-lifecycle/zone-eviction-rate checks it: by each time, the eviction
   * tokens taken in the zone plus the tokens in its current bucket (burst 1), replayed from the
   * recorded limiter creations, swaps and takings with the checker's rules. Evictions never exceed it.
   */
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

/** Spans where two or more candidates acted as leader at once (seconds), merged. */
export function overlapIntervals(lanes: readonly LeadershipLane[]): { readonly from: number; readonly to: number; readonly leaders: number }[] {
  const edges = lanes.flatMap((lane) => lane.intervals.flatMap((interval) => [{ t: interval.from, delta: 1 }, { t: interval.to, delta: -1 }]));
  edges.sort((a, b) => a.t - b.t || a.delta - b.delta);
  const out: { from: number; to: number; leaders: number }[] = [];
  let leaders = 0;
  let from = 0;
  let most = 0;
  for (const edge of edges) {
    const before = leaders;
    leaders += edge.delta;
    if (before < 2 && leaders >= 2) {
      from = edge.t;
      most = leaders;
    } else if (leaders >= 2) most = Math.max(most, leaders);
    else if (before >= 2 && leaders < 2 && edge.t > from) out.push({ from, to: edge.t, leaders: most });
  }
  return out;
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
      states: stateBands(history, zone, members),
      evictions: cumulative(history, history.taints.filter((taint) => taint.zone === zone && taint.change === "added" && taint.swap !== true).map((taint) => taint.atMs)),
      envelope: rateLimitSeries(history, zone),
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

function stateBands(history: ControlPlaneHistory, zone: string, members: ReadonlySet<string>): ZoneSeries["states"] {
  const changes = history.zoneStates.filter((record) => record.zone === zone);
  const firstReadyMs = history.conditions.find((record) => record.status === "True" && members.has(record.node))?.atMs ?? Number.POSITIVE_INFINITY;
  return changes.map((record, index) => ({
    from: seconds(history, record.atMs),
    to: seconds(history, changes[index + 1]?.atMs ?? history.endMs),
    state: record.state,
    ...(record.atMs < firstReadyMs && { startup: true }),
  }));
}

function cumulative(history: ControlPlaneHistory, timesMs: readonly number[]): Point[] {
  const points: Point[] = [{ t: 0, value: 0 }];
  [...timesMs].sort((a, b) => a - b).forEach((atMs, index) => points.push({ t: seconds(history, atMs), value: index + 1 }));
  points.push({ t: seconds(history, history.endMs), value: timesMs.length });
  return compact(points);
}

// The checker's token buckets (sim/invariants/zone-token-bucket.ts), replayed on the controller's
// clock per limiter (incarnation and zone); plotted on true time as tokens taken in the zone
// (by any incarnation) plus the tokens of the bucket of the limiter used last. Each bucket's
// offset is true time minus the controller's clock at its last step (to place refill points).
/** The allowed-evictions line of `zone` (see ZoneSeries.envelope). */
export function rateLimitSeries(history: ControlPlaneHistory, zone: string): Point[] {
  type Step = { atMs: number; localMs: number; order: number; incarnation: string; rate?: ZoneRateRecord };
  const steps: Step[] = [
    ...history.zoneRates.flatMap((rate, order) => (rate.zone === zone ? [{ atMs: rate.atMs, localMs: rate.localMs, order, incarnation: rate.incarnation, rate }] : [])),
    ...history.decisions.flatMap((decision, order) => (decision.zone === zone ? [{ atMs: decision.atMs, localMs: decision.localMs, order: history.zoneRates.length + order, incarnation: decision.incarnation }] : [])),
  ].sort((a, b) => a.atMs - b.atMs || a.order - b.order);
  const buckets = new Map<string, ZoneBucket>();
  const offsetMs = new Map<ZoneBucket, number>();
  const points: Point[] = [{ t: 0, value: 0 }];
  let taken = 0;
  let current: ZoneBucket | undefined;
  // The line up to true time `toMs`: the current bucket refills (on its clock) until full.
  const advance = (toMs: number) => {
    if (current === undefined || current.rate === 0 || current.tokens >= 1) return;
    const fullAtLocal = current.localMs + ((1 - current.tokens) * 1000) / current.rate;
    const fullAtMs = fullAtLocal + offsetMs.get(current)!;
    if (fullAtMs < toMs) {
      refill(current, fullAtLocal);
      points.push({ t: seconds(history, fullAtMs), value: taken + current.tokens });
    }
  };
  for (const step of steps) {
    advance(step.atMs);
    if (step.rate !== undefined) {
      const bucket = nextBucket(buckets.get(step.incarnation), step.rate);
      if (!offsetMs.has(bucket)) offsetMs.set(bucket, step.rate.atMs - step.rate.localMs);
      buckets.set(step.incarnation, bucket);
      current = bucket;
    } else {
      const bucket = buckets.get(step.incarnation);
      if (bucket !== undefined) {
        take(bucket, step.localMs);
        offsetMs.set(bucket, step.atMs - step.localMs);
        current = bucket;
      }
      taken++;
    }
    if (current !== undefined && current === buckets.get(step.incarnation)) {
      refill(current, step.localMs);
      offsetMs.set(current, step.atMs - step.localMs);
    }
    points.push({ t: seconds(history, step.atMs), value: taken + (current?.tokens ?? 0) });
  }
  advance(history.endMs);
  if (current !== undefined) refill(current, history.endMs - offsetMs.get(current)!);
  points.push({ t: seconds(history, history.endMs), value: taken + (current?.tokens ?? 0) });
  return compactKeepingJumps(points);
}

// Drops interior points of flat runs and keeps jumps as two points at one time.
function compactKeepingJumps(points: readonly Point[]): Point[] {
  const out: Point[] = [];
  for (const point of points) {
    const last = out.at(-1);
    const before = out.at(-2);
    if (last !== undefined && before !== undefined && before.value === last.value && last.value === point.value) out[out.length - 1] = point;
    else out.push(point);
  }
  return out;
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
