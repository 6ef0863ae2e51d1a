/**
 * Zone states and eviction rates of the node lifecycle controller (doc 2 §2.4): a zone is in
 * FullDisruption when none of its nodes is Ready, PartialDisruption when at least
 * `--unhealthy-zone-threshold` of its nodes are not Ready and at least 3 of them (doc 2: "minimum
 * 3"; Kubernetes: more than 2), Normal otherwise.
 */
import { zoneEvictionRate, zoneUnhealthy, type NodeLifecycleParameters } from "../config/simulation-parameters.ts";
import type { ZoneState } from "../invariants/control-plane-history.ts";

/** The state of a zone with these counts (Kubernetes' ComputeZoneState). */
export function computeZoneState(parameters: NodeLifecycleParameters, ready: number, notReady: number): ZoneState {
  if (ready === 0 && notReady > 0) return "FullDisruption";
  if (zoneUnhealthy(parameters, notReady, ready)) return "PartialDisruption";
  return "Normal";
}

/**
 * Nodes per second tainted for eviction in a zone (Kubernetes' setLimiterInZone): the primary rate
 * when Normal; when PartialDisruption the secondary rate, or 0 at or below
 * `--large-cluster-size-threshold` nodes; when FullDisruption of this zone alone, the primary rate
 * again (HealthyQPSFunc). Every zone fully disrupted stops all evictions: that is decided above
 * the zones, not here.
 */
export function zoneRate(parameters: NodeLifecycleParameters, state: ZoneState, zoneSize: number): number {
  if (state === "PartialDisruption") return zoneEvictionRate(parameters, { healthy: false, nodeCount: zoneSize });
  return zoneEvictionRate(parameters, { healthy: true, nodeCount: zoneSize });
}
