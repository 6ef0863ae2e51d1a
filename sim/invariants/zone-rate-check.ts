/**
 * node-lifecycle/zone-eviction-rate, exactly: replays each zone's token bucket (burst 1) from the
 * recorded limiter creations, swaps and token takings, on the controller's own clock
 * (zone-token-bucket.ts), and fails at the first token taken from an empty bucket. Written here from the rule (doc 2 §2.4 rates;
 * Kubernetes' SwapLimiter), not by reusing the controller's bucket, so a bug there shows.
 * Also: every node-controller taint added by other than a swap follows a token for that node.
 */
import type { ControlPlaneHistory, EvictionDecisionRecord, ZoneRateRecord } from "./control-plane-history.ts";
import { held, violated, type Verdict } from "./verdict.ts";
import { nextBucket, take, type ZoneBucket } from "./zone-token-bucket.ts";

/** node-lifecycle/zone-eviction-rate. */
export function checkZoneEvictionRate(history: ControlPlaneHistory): Verdict {
  const id = "node-lifecycle/zone-eviction-rate";
  type Step = { localMs: number; order: number; rate?: ZoneRateRecord; decision?: EvictionDecisionRecord };
  const byLimiter = new Map<string, Step[]>();
  const add = (incarnation: string, zone: string, step: Step) => {
    const key = `${incarnation} ${zone}`;
    const steps = byLimiter.get(key);
    if (steps === undefined) byLimiter.set(key, [step]);
    else steps.push(step);
  };
  history.zoneRates.forEach((rate, order) => add(rate.incarnation, rate.zone, { localMs: rate.localMs, order, rate }));
  history.decisions.forEach((decision, order) => add(decision.incarnation, decision.zone, { localMs: decision.localMs, order: history.zoneRates.length + order, decision }));
  for (const steps of byLimiter.values()) {
    // Same instant: a swap recorded before a token was taken came first (both by the controller, in order).
    steps.sort((a, b) => a.localMs - b.localMs || a.order - b.order);
    let bucket: ZoneBucket | undefined;
    for (const step of steps) {
      if (step.rate !== undefined) {
        bucket = nextBucket(bucket, step.rate);
        continue;
      }
      const decision = step.decision!;
      if (bucket === undefined || !take(bucket, step.localMs)) {
        return violated(id, history.decisions.length, `zone ${decision.zone}: ${decision.node} was taken for eviction with no token in the bucket (rate ${bucket?.rate ?? "none"}/s, ${(bucket?.tokens ?? 0).toFixed(6)} tokens)`, [
          ...steps.filter((other) => other.localMs <= step.localMs && other.localMs >= step.localMs - 60_000).map((other) => other.rate ?? other.decision),
        ]);
      }
    }
  }
  return checkTaintsFollowTokens(history) ?? held(id, history.decisions.length);
}

function checkTaintsFollowTokens(history: ControlPlaneHistory): Verdict | undefined {
  const tokens = new Map<string, number>();
  const events = [
    ...history.decisions.map((decision) => ({ atMs: decision.atMs, kind: 0, node: decision.node, record: decision as unknown })),
    ...history.taints.filter((taint) => taint.change === "added" && taint.swap !== true).map((taint) => ({ atMs: taint.atMs, kind: 1, node: taint.node, record: taint as unknown })),
  ].sort((a, b) => a.atMs - b.atMs || a.kind - b.kind);
  for (const event of events) {
    const available = tokens.get(event.node) ?? 0;
    if (event.kind === 0) tokens.set(event.node, available + 1);
    else if (available === 0) {
      return violated("node-lifecycle/zone-eviction-rate", history.decisions.length, `${event.node} was tainted for eviction without a token of its zone's limiter`, [event.record]);
    } else tokens.set(event.node, available - 1);
  }
  return undefined;
}
