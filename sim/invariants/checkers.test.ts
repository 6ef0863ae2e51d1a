import { describe, expect, it } from "vitest";
import { emptyHistory, type ControlPlaneHistory } from "./control-plane-history.ts";
import { checkHealthyNodePodsKept, checkNoEvictionInFullDisruption, checkRecoveryClearsTaints } from "./eviction-checks.ts";
import { checkLeaderElection, type LeaderElectionBounds } from "./leader-election-checks.ts";
import { checkNotReadyAfterGrace, checkNotReadyWithinBound } from "./node-grace-checks.ts";
import type { NodeLifecycleBounds } from "./node-lifecycle-bounds.ts";
import { checkZoneEvictionRate } from "./zone-rate-check.ts";

const T0 = 1_000_000;
const s = (seconds: number) => T0 + seconds * 1000;

const electionBounds: LeaderElectionBounds = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000, maxOneWayMs: 5, maxDriftPpm: 0, candidates: ["a", "b"] };
const nodeBounds: NodeLifecycleBounds = {
  nodeMonitorPeriodMs: 5_000,
  nodeMonitorGracePeriodMs: 40_000,
  nodeStartupGracePeriodMs: 60_000,
  nodeStatusUpdateFrequencyMs: 10_000,
  nodeLeaseRenewIntervalMs: 10_000,
  maxOneWayMs: 5,
  maxDriftPpm: 0,
  controller: "controller",
};

function history(endSeconds: number, fill: (history: ControlPlaneHistory) => void): ControlPlaneHistory {
  const result = emptyHistory(T0);
  result.endMs = s(endSeconds);
  fill(result);
  return result;
}

function node(history: ControlPlaneHistory, name: string, zone: string, beatsSeconds: number[]): void {
  history.nodes.set(name, { name, zone, registeredAtMs: s(0), heartbeatsMs: beatsSeconds.map(s), statusPostsMs: [s(0)] });
}

describe("leader election checkers", () => {
  it("finds two overlapping leaders and holds for back-to-back ones", () => {
    const overlapping = history(100, (h) => {
      h.leadership.push({ atMs: s(1), candidate: "a", identity: "a_0", change: "start" });
      h.leadership.push({ atMs: s(30), candidate: "b", identity: "b_0", change: "start" });
      h.leadership.push({ atMs: s(40), candidate: "a", identity: "a_0", change: "stop", reason: "renew-deadline" });
    });
    const [safety] = checkLeaderElection(overlapping, electionBounds);
    expect(safety).toMatchObject({ held: false, witness: { explanation: expect.stringMatching(/both acted as leader for 10 s/) } });
    const sequential = history(100, (h) => {
      h.leadership.push({ atMs: s(1), candidate: "a", identity: "a_0", change: "start" });
      h.faults.push({ atMs: s(20), kind: "crash", processes: ["a"] });
      h.leadership.push({ atMs: s(36), candidate: "b", identity: "b_0", change: "start" });
    });
    expect(checkLeaderElection(sequential, electionBounds).map((verdict) => [verdict.held, verdict.checked])).toEqual([[true, 2], [true, 1]]);
  });

  it("flags a leader that died with no successor within the bound while another candidate ran", () => {
    const stuck = history(100, (h) => {
      h.leadership.push({ atMs: s(1), candidate: "a", identity: "a_0", change: "start" });
      h.faults.push({ atMs: s(20), kind: "crash", processes: ["a"] });
    });
    expect(checkLeaderElection(stuck, electionBounds)[1]!.held).toBe(false);
    stuck.faults.push({ atMs: s(19), kind: "partition", processes: ["b"], durationMs: 60_000 });
    expect(checkLeaderElection(stuck, electionBounds)[1]).toMatchObject({ held: true, checked: 0 });
  });
});

describe("node lifecycle checkers", () => {
  it("grace: a mark before the grace period fails; one after it holds; a silent node never marked fails", () => {
    const early = history(200, (h) => {
      node(h, "n", "z", [10, 20, 30]);
      h.conditions.push({ atMs: s(60), node: "n", status: "Unknown", by: "controller" });
    });
    expect(checkNotReadyAfterGrace(early, nodeBounds).held).toBe(false);
    const late = history(200, (h) => {
      node(h, "n", "z", [10, 20, 30]);
      h.conditions.push({ atMs: s(75), node: "n", status: "Unknown", by: "controller" });
    });
    expect(checkNotReadyAfterGrace(late, nodeBounds).held).toBe(true);
    expect(checkNotReadyWithinBound(late, nodeBounds).held).toBe(true);
    const never = history(200, (h) => node(h, "n", "z", [10, 20, 30]));
    expect(checkNotReadyWithinBound(never, nodeBounds).held).toBe(false);
  });

  it("zone rate: replays the bucket exactly, including a swap that drains the new bucket", () => {
    const rates = (h: ControlPlaneHistory) => {
      h.zoneRates.push({ atMs: s(0), localMs: 0, incarnation: "c_0", zone: "z", rate: 0.1, state: "Initial", how: "created" });
      h.zoneRates.push({ atMs: s(5), localMs: 5_000, incarnation: "c_0", zone: "z", rate: 1, state: "Normal", how: "swapped" });
    };
    const decision = (localMs: number) => ({ atMs: T0 + localMs, localMs, incarnation: "c_0", zone: "z", node: `n${localMs}` });
    // A token at 1 s empties the 0.1/s bucket, so the 1/s bucket swapped in at 5 s starts drained: next token at 6 s.
    const ok = history(100, (h) => {
      rates(h);
      h.decisions.push(decision(1_000), decision(6_000), decision(7_000));
    });
    expect(checkZoneEvictionRate(ok).held).toBe(true);
    const tooSoon = history(100, (h) => {
      rates(h);
      h.decisions.push(decision(1_000), decision(5_500));
    });
    expect(checkZoneEvictionRate(tooSoon).held).toBe(false);
    const untokened = history(100, (h) => {
      rates(h);
      h.taints.push({ atMs: s(9), node: "x", zone: "z", key: "k", change: "added" });
    });
    expect(checkZoneEvictionRate(untokened).witness?.explanation).toMatch(/without a token/);
  });

  it("no eviction while no zone has a Ready node", () => {
    const h = history(100, (h) => {
      node(h, "a", "z1", [1]);
      node(h, "b", "z2", [1]);
      h.conditions.push({ atMs: s(1), node: "a", status: "True", by: "a" }, { atMs: s(1), node: "b", status: "True", by: "b" });
      h.conditions.push({ atMs: s(50), node: "a", status: "Unknown", by: "controller" });
      h.podEvictions.push({ atMs: s(55), pod: "default/p1", node: "a" });
      h.conditions.push({ atMs: s(60), node: "b", status: "Unknown", by: "controller" });
    });
    expect(checkNoEvictionInFullDisruption(h).held).toBe(true);
    h.podEvictions.push({ atMs: s(61), pod: "default/p2", node: "a" });
    expect(checkNoEvictionInFullDisruption(h).held).toBe(false);
  });

  it("healthy-node pods and recovery: an eviction from an undisturbed node fails; a taint left after recovery fails", () => {
    const h = history(600, (h) => {
      node(h, "a", "z", [1]);
      h.faults.push({ atMs: s(10), kind: "partition", processes: ["a"], durationMs: 100_000 });
      h.podEvictions.push({ atMs: s(100), pod: "default/p", node: "a" });
      h.taints.push({ atMs: s(60), node: "a", zone: "z", key: "k", change: "added" });
    });
    expect(checkHealthyNodePodsKept(h, nodeBounds).held).toBe(true);
    expect(checkRecoveryClearsTaints(h, nodeBounds).held).toBe(false);
    h.taints.push({ atMs: s(120), node: "a", zone: "z", key: "k", change: "removed" });
    expect(checkRecoveryClearsTaints(h, nodeBounds).held).toBe(true);
    h.podEvictions.push({ atMs: s(500), pod: "default/q", node: "a" });
    expect(checkHealthyNodePodsKept(h, nodeBounds).held).toBe(false);
  });
});
