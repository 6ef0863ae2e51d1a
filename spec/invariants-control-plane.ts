/**
 * The invariants of the control-plane simulations (issue #6): leader election (doc 2 §2.2) and
 * node lifecycle and eviction (doc 2 §2.4, doc 3 §2.4), with stable ids, the rule in words and
 * the clauses they rest on. Checked on every `simulate` run and by `fuzz --target
 * leader-election|node-eviction`; checkers in sim/invariants/.
 *
 * Bounds below name δ, the largest one-way API latency the run allowed (the network's cap), and ρ,
 * the largest clock drift (ppm/10^6) of any process. Each bound counts one period for the poll
 * that OBSERVES the last heartbeat or renewal and one for the poll that ACTS on its expiry: a
 * periodic observer can be one period late for each.
 */
import type { Invariant } from "./invariants.ts";

/** Leader election invariants. */
export const leaderElectionInvariants = [
  {
    id: "leader-election/at-most-one-leader",
    rule: "no two candidates act as leader at the same true time (a candidate acts from its acquisition until its renew window fails or it crashes); guaranteed only under the documented assumptions: drift bounded, latency bounded, no pause longer than the slack lease duration − renew deadline − retry period",
    clauses: ["doc 2 §2.2 --leader-elect-lease-duration", "doc 2 §2.2 --leader-elect-renew-deadline", "doc 2 §2.2 --leader-elect-retry-period"],
  },
  {
    id: "leader-election/new-leader-within-bound",
    rule: "after the leader dies (its process crashes while leading), some candidate leads within (lease duration + 2 × retry period)/(1 − ρ) + 10δ, whenever another candidate runs undisturbed (no crash, pause, partition or dropped responses) throughout that window; a leader that only missed its renew deadline is not dead (its writes may still land, and it may lead again)",
    clauses: ["doc 2 §2.2 --leader-elect-lease-duration", "doc 2 §2.2 --leader-elect-retry-period"],
  },
] as const satisfies readonly Invariant[];

/** Node lifecycle and eviction invariants. */
export const nodeLifecycleInvariants = [
  {
    id: "node-lifecycle/not-ready-after-grace",
    rule: "a node is never marked Ready=Unknown before its grace period (node-monitor-grace-period, or node-startup-grace-period before its first status) has passed, divided by (1 + ρ), since its last heartbeat (lease renewal or status post) applied more than 2δ before the mark",
    clauses: ["doc 2 §2.4 --node-monitor-grace-period", "doc 2 §2.4 --node-startup-grace-period", "doc 3 §2.4 nodeLeaseDurationSeconds"],
  },
  {
    id: "node-lifecycle/not-ready-within-bound",
    rule: "a node silent for longer than (grace period + 2 × node-monitor-period)/(1 − ρ) + 20δ + 100 ms is marked Ready=Unknown within that bound of its last heartbeat (or already was), whenever the controller runs undisturbed throughout and does not leave full disruption meanwhile",
    clauses: ["doc 2 §2.4 --node-monitor-grace-period", "doc 2 §2.4 --node-monitor-period"],
  },
  {
    id: "node-lifecycle/zone-eviction-rate",
    rule: "per zone, nodes are tainted for eviction only with a token of a burst-1 token bucket at the zone's rate on the controller's clock (node-eviction-rate; secondary-node-eviction-rate when partially disrupted and larger than large-cluster-size-threshold, else 0), swapped as Kubernetes' SwapLimiter swaps it: checked exactly",
    clauses: ["doc 2 §2.4 --node-eviction-rate", "doc 2 §2.4 --secondary-node-eviction-rate", "doc 2 §2.4 --large-cluster-size-threshold", "doc 2 §2.4 --unhealthy-zone-threshold"],
  },
  {
    id: "node-lifecycle/no-eviction-in-full-disruption",
    rule: "while no zone has a Ready node (every zone fully disrupted, as written in the API), no node is tainted for eviction and no pod is evicted",
    clauses: ["doc 2 §2.4 --unhealthy-zone-threshold", "doc 2 §2.4 --enable-taint-manager"],
  },
  {
    id: "node-lifecycle/healthy-node-pods-kept",
    rule: "a pod is never evicted from a node whose agent, and the controller, ran undisturbed for the last (node-status-update-frequency + node-monitor-period)/(1 − ρ) + 20δ + 100 ms",
    clauses: ["doc 2 §2.4 --enable-taint-manager", "doc 3 §2.4 nodeStatusUpdateFrequency"],
  },
  {
    id: "node-lifecycle/recovery-clears-taints",
    rule: "once a node's agent and the controller have run undisturbed for (node-status-update-frequency + 2 × node-monitor-period)/(1 − ρ) + 20δ + 100 ms, the node carries no node-controller NoExecute taint and loses no more pods, to the end of the run",
    clauses: ["doc 2 §2.4 --enable-taint-manager", "doc 2 §2.4 --node-monitor-period"],
  },
] as const satisfies readonly Invariant[];

/** Every control-plane invariant. */
export const controlPlaneInvariants: readonly Invariant[] = [...leaderElectionInvariants, ...nodeLifecycleInvariants];

/** Id of a control-plane invariant. */
export type ControlPlaneInvariantId = (typeof leaderElectionInvariants)[number]["id"] | (typeof nodeLifecycleInvariants)[number]["id"];
