/**
 * Scenario `leader-election` (doc 2 §2.2): N candidates of one daemon compete for its lock through
 * the embedded API server, in virtual time, under a fault schedule; safety and liveness are
 * checked from the recorded history.
 */
import { dialectByName } from "../../spec/dialects.ts";
import type { LeaderElectionParameters } from "../config/simulation-parameters.ts";
import type { ControlPlaneClient } from "../actors/api-client.ts";
import { HttpApiClient } from "../actors/http-api-client.ts";
import { LeaderElectionCandidate } from "../actors/leader-election-candidate.ts";
import { leaderElectionTimingRules } from "../actors/leader-election-timing-rules.ts";
import { StoreApi } from "../actors/store-api.ts";
import { StoreApiClient } from "../actors/store-api-client.ts";
import type { ProcessClock } from "../faults/process-clock.ts";
import { checkLeaderElection, livenessBoundMs, safetySlackMs, type LeaderElectionBounds } from "../invariants/leader-election-checks.ts";
import { leadershipIntervals } from "../invariants/leadership-intervals.ts";
import { inMemoryTransport } from "../transport/in-memory-transport.ts";
import { checkTargets, ControlPlaneWorld, maxDriftPpm, resolveTarget } from "./control-plane-world.ts";
import type { ScenarioResult } from "./scenario-result.ts";
import type { ScenarioRunOptions } from "./scenario-run-options.ts";

/** How the leader election scenario runs. */
export interface LeaderElectionScenarioOptions extends ScenarioRunOptions {
  readonly candidates: number;
  /** Timing and lock (doc 2 §2.2, from sim/config/simulation-parameters.ts). Client default: http. */
  readonly election: LeaderElectionParameters;
}

/** Runs the scenario to its end and checks its invariants. */
export async function runLeaderElectionScenario(options: LeaderElectionScenarioOptions): Promise<ScenarioResult> {
  const dialect = dialectByName(options.dialect);
  const world = new ControlPlaneWorld({ seed: options.seed, dialect, ...(options.latency && { latency: options.latency }), ...(options.keepTraceLines && { keepTraceLines: true }) });
  const { election } = options;
  const timing = { leaseDurationMs: election.leaseDurationMs, renewDeadlineMs: election.renewDeadlineMs, retryPeriodMs: election.retryPeriodMs };
  const names = Array.from({ length: options.candidates }, (_, index) => `candidate-${index}`);
  const candidates = new Map<string, LeaderElectionCandidate>();
  const storeApi = new StoreApi({ server: world.server, rng: world.sim.rng.fork("store-api") });
  const clientFor = (clock: ProcessClock): ControlPlaneClient =>
    options.client === "store"
      ? new StoreApiClient(storeApi, world.network, clock, timing.renewDeadlineMs)
      : new HttpApiClient(inMemoryTransport({ clock, network: world.network, handler: world.server.handle, timeoutMs: timing.renewDeadlineMs }), dialect);
  const starts = world.sim.rng.fork("candidate-starts");
  for (const name of names) {
    // Candidates start spread over one retry period, as processes started together would.
    const offsetMs = starts.int(0, timing.retryPeriodMs - 1);
    world.host.add(name, (clock, incarnation) => {
      const candidate = new LeaderElectionCandidate({
        process: name,
        identity: `${name}_${incarnation}`,
        client: clientFor(clock),
        clock,
        lock: { namespace: election.resourceNamespace, name: election.resourceName },
        timing,
        recorder: world.recorder,
      });
      candidates.set(name, candidate);
      void world.sim.spawn(name, async () => {
        if (incarnation === 0) await clock.sleep(offsetMs);
        await candidate.run();
      });
    });
  }
  const groups = new Map<string, () => readonly string[]>([
    ["leader", () => names.filter((name) => world.host.alive(name) && candidates.get(name)?.leading === true).slice(0, 1)],
    ["candidates", () => names],
  ]);
  checkTargets(options.faults, groups, names);
  world.injectFaults(options.faults, (target) => resolveTarget(target, groups, names));
  options.onStarted?.();
  const kernelEvents = await world.runUntil(options.durationMs, options.onProgress, options.progressEveryMs);
  options.onRunEnded?.();
  const history = world.recorder.finish();
  const bounds: LeaderElectionBounds = { ...timing, maxOneWayMs: world.network.maxOneWayMs, maxDriftPpm: maxDriftPpm(options.faults), candidates: names };
  const intervals = leadershipIntervals(history);
  const rules = leaderElectionTimingRules(timing);
  return {
    scenario: "leader-election",
    seed: world.sim.seed,
    configuration: { dialect: options.dialect, candidates: options.candidates, durationMs: options.durationMs, ...timing, lock: `${election.resourceNamespace}/${election.resourceName}`, client: options.client ?? "http", latency: options.latency ?? null },
    faults: options.faults,
    virtualMs: options.durationMs,
    kernelEvents,
    wakeups: world.timers.callbacksRun,
    traceHash: world.sim.trace.hash(),
    verdicts: checkLeaderElection(history, bounds),
    history,
    summary: [
      `${names.length} candidates for lock ${election.resourceNamespace}/${election.resourceName}; ${intervals.length} leadership intervals; ${history.leaseTransitions.length} holder changes written`,
      `slack (lease duration − renew deadline − retry period): ${safetySlackMs(bounds)} ms; liveness bound ${Math.round(livenessBoundMs(bounds))} ms; faults: ${history.faults.length} recorded, ${world.drops} responses dropped`,
    ],
    notes: rules.map((rule) => `${rule.source} (${rule.ruleId}): ${rule.holds ? "holds" : "BROKEN"}: ${rule.text}`),
  };
}
