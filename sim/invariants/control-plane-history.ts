/**
 * What a control-plane simulation records for its checkers (docs/ARCHITECTURE.md, "Invariants and
 * checkers"): faults as injected, leadership as the candidates saw it, and every write that
 * matters as the server applied it — all in TRUE (simulation) time, ms since the Unix epoch. The
 * same events go to the run's trace; checkers are pure functions of this record.
 */

/** A fault as injected (sim/faults): which processes, when, for how long. */
export interface FaultRecord {
  readonly atMs: number;
  readonly kind: "crash" | "restart" | "pause" | "partition" | "heal" | "drift" | "step" | "latency" | "drop";
  readonly processes: readonly string[];
  /** Pauses, partitions, latency and drop windows: how long (heal/restart are recorded too). */
  readonly durationMs?: number;
  /** Drift (ppm), step (ms), drop probability, latency cap (ms). */
  readonly value?: number;
}

/** A candidate started or stopped acting as leader (doc 2 §2.2). */
export interface LeadershipRecord {
  readonly atMs: number;
  readonly candidate: string;
  /** The candidate's identity in the lock record (one per process incarnation). */
  readonly identity: string;
  readonly change: "start" | "stop";
  readonly reason?: string;
}

/** A Ready condition written (server-applied). */
export interface ConditionRecord {
  readonly atMs: number;
  readonly node: string;
  readonly status: "True" | "False" | "Unknown";
  /** The process that wrote it: the node agent or the controller. */
  readonly by: string;
}

/** A NoExecute taint added or removed by the controller (server-applied). */
export interface TaintRecord {
  readonly atMs: number;
  readonly node: string;
  readonly zone: string;
  readonly key: string;
  readonly change: "added" | "removed";
  /** Added by swapping the other node-controller taint (not rate limited in Kubernetes). */
  readonly swap?: boolean;
}

/** A zone's eviction rate limiter was (re)built or its rate swapped (doc 2 §2.4). */
export interface ZoneRateRecord {
  readonly atMs: number;
  /** The controller's monotonic clock: the limiter's own time. */
  readonly localMs: number;
  /** The controller incarnation whose limiter it is. */
  readonly incarnation: string;
  readonly zone: string;
  readonly rate: number;
  readonly state: ZoneState;
  /** "created": a new full bucket; "swapped": Kubernetes' SwapLimiter (drained if the old was empty). */
  readonly how: "created" | "swapped";
}

/** A token taken from a zone's limiter to taint a node (an eviction decision). */
export interface EvictionDecisionRecord {
  readonly atMs: number;
  readonly localMs: number;
  readonly incarnation: string;
  readonly zone: string;
  readonly node: string;
}

/** Zone states of the node lifecycle controller (doc 2 §2.4). */
export type ZoneState = "Initial" | "Normal" | "PartialDisruption" | "FullDisruption";

/** A zone's state as the controller computed it. */
export interface ZoneStateRecord {
  readonly atMs: number;
  readonly zone: string;
  readonly state: ZoneState;
  readonly ready: number;
  readonly notReady: number;
}

/** The controller entered or left "every zone fully disrupted" (no evictions at all). */
export interface FullDisruptionRecord {
  readonly atMs: number;
  readonly change: "enter" | "exit";
}

/** A pod evicted (server-applied). */
export interface PodEvictionRecord {
  readonly atMs: number;
  readonly pod: string;
  readonly node: string;
}

/** A node as registered, with its heartbeats (lease renewals and status posts, server-applied). */
export interface NodeRecord {
  readonly name: string;
  readonly zone: string;
  readonly registeredAtMs: number;
  /** Times of lease renewals and status posts by the node agent, ascending. */
  readonly heartbeatsMs: number[];
  /** Times of status posts, ascending. */
  readonly statusPostsMs: number[];
}

/** Everything a control-plane run recorded. */
export interface ControlPlaneHistory {
  readonly startMs: number;
  endMs: number;
  readonly faults: FaultRecord[];
  readonly leadership: LeadershipRecord[];
  readonly nodes: Map<string, NodeRecord>;
  readonly conditions: ConditionRecord[];
  readonly taints: TaintRecord[];
  readonly zoneRates: ZoneRateRecord[];
  readonly decisions: EvictionDecisionRecord[];
  readonly zoneStates: ZoneStateRecord[];
  readonly fullDisruption: FullDisruptionRecord[];
  readonly podEvictions: PodEvictionRecord[];
  /** Lease writes by candidates that changed the holder (acquisitions), for the report. */
  readonly leaseTransitions: { readonly atMs: number; readonly holder: string; readonly transitions: number }[];
}

/** An empty history starting at `startMs`. */
export function emptyHistory(startMs: number): ControlPlaneHistory {
  return {
    startMs,
    endMs: startMs,
    faults: [],
    leadership: [],
    nodes: new Map(),
    conditions: [],
    taints: [],
    zoneRates: [],
    decisions: [],
    zoneStates: [],
    fullDisruption: [],
    podEvictions: [],
    leaseTransitions: [],
  };
}
