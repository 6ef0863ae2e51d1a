/** Every node lifecycle verdict of a run (spec/invariants-control-plane.ts, nodeLifecycleInvariants). */
import type { ControlPlaneHistory } from "./control-plane-history.ts";
import { checkHealthyNodePodsKept, checkNoEvictionInFullDisruption, checkRecoveryClearsTaints } from "./eviction-checks.ts";
import { checkNotReadyAfterGrace, checkNotReadyWithinBound } from "./node-grace-checks.ts";
import type { NodeLifecycleBounds } from "./node-lifecycle-bounds.ts";
import type { Verdict } from "./verdict.ts";
import { checkZoneEvictionRate } from "./zone-rate-check.ts";

/** The six node lifecycle verdicts, in catalog order. */
export function checkNodeLifecycle(history: ControlPlaneHistory, bounds: NodeLifecycleBounds): Verdict[] {
  return [
    checkNotReadyAfterGrace(history, bounds),
    checkNotReadyWithinBound(history, bounds),
    checkZoneEvictionRate(history),
    checkNoEvictionInFullDisruption(history),
    checkHealthyNodePodsKept(history, bounds),
    checkRecoveryClearsTaints(history, bounds),
  ];
}
