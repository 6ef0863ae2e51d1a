/**
 * The configuration the node lifecycle checkers need, and the bounds of the catalog
 * (spec/invariants-control-plane.ts) computed from it.
 */

/** Parameters of the run that the checkers reason with, ms. */
export interface NodeLifecycleBounds {
  readonly nodeMonitorPeriodMs: number;
  readonly nodeMonitorGracePeriodMs: number;
  readonly nodeStartupGracePeriodMs: number;
  readonly nodeStatusUpdateFrequencyMs: number;
  readonly nodeLeaseRenewIntervalMs: number;
  /** δ: the largest one-way latency the network allowed. */
  readonly maxOneWayMs: number;
  /** ρ × 10^6: the largest |drift| of any process. */
  readonly maxDriftPpm: number;
  /** The controller's process name. */
  readonly controller: string;
}

// Requests a pass may chain (list, marks with conflict retries, taints) and one tainting tick.
function allowanceMs(bounds: NodeLifecycleBounds): number {
  return 20 * bounds.maxOneWayMs + 100;
}

function slow(bounds: NodeLifecycleBounds, ms: number): number {
  return ms / (1 - bounds.maxDriftPpm / 1e6);
}

/** Latest a silent node is marked, after its last heartbeat: (grace + 2·MP)/(1 − ρ) + allowance. */
export function markBoundMs(bounds: NodeLifecycleBounds, gracePeriodMs: number): number {
  return slow(bounds, gracePeriodMs + 2 * bounds.nodeMonitorPeriodMs) + allowanceMs(bounds);
}

/** Earliest a node is marked, after its last heartbeat: grace/(1 + ρ). */
export function earliestMarkMs(bounds: NodeLifecycleBounds, gracePeriodMs: number): number {
  return gracePeriodMs / (1 + bounds.maxDriftPpm / 1e6);
}

/** How long a recovered node may still lose pods: (status update + MP)/(1 − ρ) + allowance. */
export function evictionSettleMs(bounds: NodeLifecycleBounds): number {
  return slow(bounds, Math.max(bounds.nodeStatusUpdateFrequencyMs, bounds.nodeLeaseRenewIntervalMs) + bounds.nodeMonitorPeriodMs) + allowanceMs(bounds);
}

/** How long until a recovered node carries no taint: (status update + 2·MP)/(1 − ρ) + allowance. */
export function recoveryBoundMs(bounds: NodeLifecycleBounds): number {
  return slow(bounds, Math.max(bounds.nodeStatusUpdateFrequencyMs, bounds.nodeLeaseRenewIntervalMs) + 2 * bounds.nodeMonitorPeriodMs) + allowanceMs(bounds);
}
