/**
 * When nodes are marked Ready=Unknown, against their heartbeats (doc 2 §2.4 grace periods):
 * never too early (node-lifecycle/not-ready-after-grace), never too late
 * (node-lifecycle/not-ready-within-bound). Pure functions of the history.
 */
import type { ConditionRecord, ControlPlaneHistory } from "./control-plane-history.ts";
import { Disturbances } from "./disturbances.ts";
import { earliestMarkMs, markBoundMs, type NodeLifecycleBounds } from "./node-lifecycle-bounds.ts";
import { held, violated, type Verdict } from "./verdict.ts";

/** node-lifecycle/not-ready-after-grace. */
export function checkNotReadyAfterGrace(history: ControlPlaneHistory, bounds: NodeLifecycleBounds): Verdict {
  const id = "node-lifecycle/not-ready-after-grace";
  const marks = history.conditions.filter((record) => record.status === "Unknown" && record.by === bounds.controller);
  for (const mark of marks) {
    const node = history.nodes.get(mark.node);
    if (node === undefined) continue;
    // Heartbeats that landed while the controller was between its list and its write are unseen.
    const seenBeforeMs = mark.atMs - 2 * bounds.maxOneWayMs;
    const lastMs = lastAtOrBefore(node.heartbeatsMs, seenBeforeMs) ?? node.registeredAtMs;
    const reported = lastAtOrBefore(node.statusPostsMs, seenBeforeMs) !== undefined;
    const graceMs = reported ? bounds.nodeMonitorGracePeriodMs : bounds.nodeStartupGracePeriodMs;
    const earliestMs = earliestMarkMs(bounds, graceMs);
    if (mark.atMs - lastMs < earliestMs - 1e-6) {
      return violated(id, marks.length, `${mark.node} was marked Ready=Unknown ${fmt(mark.atMs - lastMs)} after its last heartbeat, before its grace period (${fmt(graceMs)}, at least ${fmt(earliestMs)} with drift)`, [
        { node: mark.node, lastHeartbeatMs: lastMs, markedMs: mark.atMs, gracePeriodMs: graceMs },
      ]);
    }
  }
  return held(id, marks.length);
}

/** node-lifecycle/not-ready-within-bound. */
export function checkNotReadyWithinBound(history: ControlPlaneHistory, bounds: NodeLifecycleBounds): Verdict {
  const id = "node-lifecycle/not-ready-within-bound";
  const disturbances = new Disturbances(history);
  const exits = history.fullDisruption.filter((record) => record.change === "exit").map((record) => record.atMs);
  const conditionsOf = new Map<string, ConditionRecord[]>();
  for (const record of history.conditions) {
    const list = conditionsOf.get(record.node);
    if (list === undefined) conditionsOf.set(record.node, [record]);
    else list.push(record);
  }
  let checked = 0;
  for (const node of history.nodes.values()) {
    const marks = conditionsOf.get(node.name) ?? [];
    const beats = [node.registeredAtMs, ...node.heartbeatsMs, history.endMs];
    for (let index = 0; index + 1 < beats.length; index++) {
      const lastMs = beats[index]!;
      const graceMs = lastAtOrBefore(node.statusPostsMs, lastMs) === undefined ? bounds.nodeStartupGracePeriodMs : bounds.nodeMonitorGracePeriodMs;
      const deadlineMs = lastMs + markBoundMs(bounds, graceMs);
      if (beats[index + 1]! <= deadlineMs || deadlineMs > history.endMs) continue;
      if (disturbances.during(bounds.controller, lastMs - bounds.nodeMonitorPeriodMs, deadlineMs)) continue;
      if (exits.some((exitMs) => exitMs >= lastMs && exitMs <= deadlineMs)) continue;
      checked++;
      const before = marks.filter((record) => record.atMs <= lastMs).at(-1);
      if (before?.status === "Unknown") continue; // already marked, not heard from since
      if (marks.some((record) => record.status === "Unknown" && record.atMs > lastMs && record.atMs <= deadlineMs)) continue;
      return violated(id, checked, `${node.name} was silent from ${fmt(lastMs - history.startMs)} into the run but not marked Ready=Unknown within ${fmt(deadlineMs - lastMs)}`, [
        { node: node.name, lastHeartbeatMs: lastMs, deadlineMs, gracePeriodMs: graceMs },
      ]);
    }
  }
  return held(id, checked);
}

/** The last value ≤ `atMs` of an ascending list. */
export function lastAtOrBefore(sorted: readonly number[], atMs: number): number | undefined {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! <= atMs) low = middle + 1;
    else high = middle;
  }
  return low === 0 ? undefined : sorted[low - 1];
}

function fmt(ms: number): string {
  return `${(ms / 1000).toFixed(3)} s`;
}

