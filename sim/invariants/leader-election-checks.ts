/**
 * The leader election checkers (spec/invariants-control-plane.ts): safety (at most one leader at
 * any true time) and liveness (a new leader within the bound after a leader ends). Pure functions
 * of the recorded history.
 */
import type { ControlPlaneHistory, FaultRecord } from "./control-plane-history.ts";
import { Disturbances } from "./disturbances.ts";
import { leadershipIntervals, type LeadershipInterval } from "./leadership-intervals.ts";
import { held, violated, type Verdict } from "./verdict.ts";

/** What the leader election checkers need to know of the run's configuration. */
export interface LeaderElectionBounds {
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  /** δ: the largest one-way latency the network allowed. */
  readonly maxOneWayMs: number;
  /** ρ × 10^6: the largest |drift| of any candidate's clock. */
  readonly maxDriftPpm: number;
  /** Every candidate process. */
  readonly candidates: readonly string[];
}

/** Time the leader keeps acting without renewing, beyond which another may take over: LD − RD − RP. */
export function safetySlackMs(bounds: LeaderElectionBounds): number {
  return bounds.leaseDurationMs - bounds.renewDeadlineMs - bounds.retryPeriodMs;
}

/** The liveness bound: (LD + 2·RP)/(1 − ρ) + 10δ (see the catalog). */
export function livenessBoundMs(bounds: LeaderElectionBounds): number {
  const rho = bounds.maxDriftPpm / 1e6;
  return (bounds.leaseDurationMs + 2 * bounds.retryPeriodMs) / (1 - rho) + 10 * bounds.maxOneWayMs + 1;
}

/** Both leader election verdicts. */
export function checkLeaderElection(history: ControlPlaneHistory, bounds: LeaderElectionBounds): Verdict[] {
  const intervals = leadershipIntervals(history);
  return [checkAtMostOneLeader(history, intervals, bounds), checkNewLeaderWithinBound(history, intervals, bounds)];
}

/** leader-election/at-most-one-leader: the earliest overlap of two candidates' intervals, if any. */
export function checkAtMostOneLeader(history: ControlPlaneHistory, intervals: readonly LeadershipInterval[], bounds: LeaderElectionBounds): Verdict {
  const id = "leader-election/at-most-one-leader";
  for (const [index, first] of intervals.entries()) {
    for (const second of intervals.slice(index + 1)) {
      if (second.startMs >= first.endMs) break; // sorted by start: no later one overlaps `first`
      if (second.candidate === first.candidate) continue;
      const overlapMs = Math.min(first.endMs, second.endMs) - second.startMs;
      if (overlapMs <= 0) continue;
      const faults = faultsNear(history, [first.candidate, second.candidate], first.startMs - bounds.leaseDurationMs, second.startMs + overlapMs);
      return violated(id, intervals.length, explainOverlap(first, second, overlapMs, faults, bounds), [first, second, ...faults]);
    }
  }
  return held(id, intervals.length);
}

function explainOverlap(first: LeadershipInterval, second: LeadershipInterval, overlapMs: number, faults: readonly FaultRecord[], bounds: LeaderElectionBounds): string {
  const slackMs = safetySlackMs(bounds);
  const pauses = faults.filter((fault) => fault.kind === "pause" && (fault.durationMs ?? 0) > slackMs);
  const why = pauses.length > 0
    ? `${pauses.map((pause) => `${pause.processes.join("|")} was paused for ${ms(pause.durationMs ?? 0)}`).join("; ")}, longer than the slack ${ms(slackMs)} (lease duration − renew deadline − retry period). A paused process cannot see time pass: on resuming, a renewal answered during the pause counts as just made (client-go notes the time when the call returns) and a renew window starts afresh, so the old leader acts until its renew deadline fails, while the other candidate, having seen no renewal for a lease duration on its own clock, has already taken over. Lease election without fencing cannot prevent this; a fencing token (e.g. leaseTransitions) checked by whatever the leader writes to can.`
    : `no pause beyond the slack ${ms(slackMs)} explains it: either an assumption (bounded drift ${bounds.maxDriftPpm} ppm, latency ≤ ${ms(bounds.maxOneWayMs)} one-way) was broken, or the candidates have a bug.`;
  return `${first.candidate} (${first.identity}) and ${second.candidate} (${second.identity}) both acted as leader for ${ms(overlapMs)} from +${ms(second.startMs - first.startMs)} after ${first.candidate} acquired; ${why}`;
}

/** leader-election/new-leader-within-bound. */
export function checkNewLeaderWithinBound(history: ControlPlaneHistory, intervals: readonly LeadershipInterval[], bounds: LeaderElectionBounds): Verdict {
  const id = "leader-election/new-leader-within-bound";
  const boundMs = livenessBoundMs(bounds);
  const disturbances = new Disturbances(history);
  let checked = 0;
  for (const ended of intervals) {
    // "After the leader dies": a leader that only missed its renew deadline may still be renewing
    // (its responses lost, its writes landing) and may lead again; a crashed one cannot.
    if (ended.ended !== "crash") continue;
    const deadlineMs = ended.endMs + boundMs;
    if (deadlineMs > history.endMs) continue;
    const others = bounds.candidates.filter((candidate) => candidate !== ended.candidate);
    const undisturbed = others.some((candidate) => !disturbances.during(candidate, ended.endMs, deadlineMs));
    if (!undisturbed) continue;
    checked++;
    const next = intervals.find((interval) => interval.startMs >= ended.endMs && interval !== ended);
    const alreadyLeading = intervals.some((interval) => interval !== ended && interval.startMs <= ended.endMs && interval.endMs > ended.endMs);
    if (alreadyLeading || (next !== undefined && next.startMs <= deadlineMs)) continue;
    const faults = faultsNear(history, bounds.candidates, ended.endMs - bounds.leaseDurationMs, deadlineMs);
    const waited = next === undefined ? `no candidate led again before the run ended ${ms(history.endMs - ended.endMs)} later` : `the next leader (${next.candidate}) started only ${ms(next.startMs - ended.endMs)} later`;
    return violated(id, checked, `${ended.candidate} died while leading; ${waited}, beyond the bound ${ms(boundMs)}, though another candidate ran undisturbed throughout`, [ended, ...(next ? [next] : []), ...faults]);
  }
  return held(id, checked);
}

function faultsNear(history: ControlPlaneHistory, processes: readonly string[], fromMs: number, toMs: number): FaultRecord[] {
  return history.faults.filter(
    (fault) => fault.processes.some((process) => processes.includes(process)) && fault.atMs <= toMs && fault.atMs + (fault.durationMs ?? 0) >= fromMs,
  );
}

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(3).replace(/\.?0+$/, "")} s` : `${Math.round(value * 1000) / 1000} ms`;
}
