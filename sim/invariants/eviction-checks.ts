/**
 * Which evictions may happen at all (doc 2 §2.4): none while every zone is fully disrupted
 * (node-lifecycle/no-eviction-in-full-disruption), none of pods on healthy nodes
 * (node-lifecycle/healthy-node-pods-kept), none after recovery and no taint left
 * (node-lifecycle/recovery-clears-taints). Pure functions of the history.
 */
import type { ControlPlaneHistory } from "./control-plane-history.ts";
import { Disturbances } from "./disturbances.ts";
import { evictionSettleMs, recoveryBoundMs, type NodeLifecycleBounds } from "./node-lifecycle-bounds.ts";
import { held, violated, type Verdict } from "./verdict.ts";

/** node-lifecycle/no-eviction-in-full-disruption: replays Ready conditions as written and looks at each eviction. */
export function checkNoEvictionInFullDisruption(history: ControlPlaneHistory): Verdict {
  const id = "node-lifecycle/no-eviction-in-full-disruption";
  type Event = { atMs: number; order: number; apply: () => Verdict | undefined };
  const zoneOf = new Map([...history.nodes.values()].map((node) => [node.name, node.zone]));
  const ready = new Set<string>();
  const readyByZone = new Map<string, number>();
  const zones = new Set<string>();
  const allFullyDisrupted = () => zones.size > 0 && [...zones].every((zone) => (readyByZone.get(zone) ?? 0) === 0);
  const events: Event[] = [];
  let checked = 0;
  const check = (what: string, record: unknown) => {
    checked++;
    return allFullyDisrupted() ? violated(id, checked, `${what} while no zone had a Ready node (every zone fully disrupted)`, [record]) : undefined;
  };
  for (const node of history.nodes.values()) events.push({ atMs: node.registeredAtMs, order: 0, apply: () => void zones.add(node.zone) });
  history.conditions.forEach((record, order) =>
    events.push({
      atMs: record.atMs,
      order: 1 + order,
      apply: () => {
        const zone = zoneOf.get(record.node) ?? "";
        const was = ready.has(record.node);
        const is = record.status === "True";
        if (was === is) return undefined;
        if (is) ready.add(record.node);
        else ready.delete(record.node);
        readyByZone.set(zone, (readyByZone.get(zone) ?? 0) + (is ? 1 : -1));
        return undefined;
      },
    }),
  );
  const base = 1 + history.conditions.length;
  history.taints.forEach((taint, order) => {
    if (taint.change === "added" && taint.swap !== true) events.push({ atMs: taint.atMs, order: base + order, apply: () => check(`${taint.node} was tainted for eviction`, taint) });
  });
  history.podEvictions.forEach((eviction, order) => events.push({ atMs: eviction.atMs, order: base + history.taints.length + order, apply: () => check(`pod ${eviction.pod} was evicted`, eviction) }));
  events.sort((a, b) => a.atMs - b.atMs || a.order - b.order);
  for (const event of events) {
    const verdict = event.apply();
    if (verdict !== undefined) return verdict;
  }
  return held(id, checked);
}

/** node-lifecycle/healthy-node-pods-kept. */
export function checkHealthyNodePodsKept(history: ControlPlaneHistory, bounds: NodeLifecycleBounds): Verdict {
  const id = "node-lifecycle/healthy-node-pods-kept";
  const disturbances = new Disturbances(history);
  const windowMs = evictionSettleMs(bounds);
  for (const eviction of history.podEvictions) {
    const fromMs = eviction.atMs - windowMs;
    if (fromMs < history.startMs) continue;
    if (disturbances.during(eviction.node, fromMs, eviction.atMs) || disturbances.during(bounds.controller, fromMs, eviction.atMs)) continue;
    return violated(id, history.podEvictions.length, `pod ${eviction.pod} was evicted from ${eviction.node}, whose agent and the controller had run undisturbed for the last ${(windowMs / 1000).toFixed(3)} s`, [eviction]);
  }
  return held(id, history.podEvictions.length);
}

/** node-lifecycle/recovery-clears-taints. */
export function checkRecoveryClearsTaints(history: ControlPlaneHistory, bounds: NodeLifecycleBounds): Verdict {
  const id = "node-lifecycle/recovery-clears-taints";
  const disturbances = new Disturbances(history);
  const settleMs = recoveryBoundMs(bounds);
  const tainted = new Map<string, number>();
  for (const taint of history.taints) tainted.set(taint.node, (tainted.get(taint.node) ?? 0) + (taint.change === "added" ? 1 : -1));
  const lastEvictionOf = new Map<string, number>();
  for (const eviction of history.podEvictions) lastEvictionOf.set(eviction.node, eviction.atMs);
  const controllerCalmMs = Math.max(history.startMs, disturbances.lastEndMs(bounds.controller));
  let checked = 0;
  for (const node of history.nodes.values()) {
    const calmFromMs = Math.max(controllerCalmMs, disturbances.lastEndMs(node.name), node.registeredAtMs);
    if (history.endMs - calmFromMs < settleMs) continue;
    checked++;
    if ((tainted.get(node.name) ?? 0) > 0) {
      return violated(id, checked, `${node.name} still carries a node-controller taint at the end, though it and the controller ran undisturbed for the last ${((history.endMs - calmFromMs) / 1000).toFixed(3)} s`, [
        ...history.taints.filter((taint) => taint.node === node.name).slice(-2),
      ]);
    }
    const lastEvictionMs = lastEvictionOf.get(node.name);
    if (lastEvictionMs !== undefined && lastEvictionMs > calmFromMs + settleMs) {
      return violated(id, checked, `${node.name} lost a pod ${((lastEvictionMs - calmFromMs) / 1000).toFixed(3)} s after it and the controller were last disturbed`, [
        history.podEvictions.filter((eviction) => eviction.node === node.name).at(-1),
      ]);
    }
  }
  return held(id, checked);
}
