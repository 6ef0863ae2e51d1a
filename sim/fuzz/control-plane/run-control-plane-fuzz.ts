/**
 * `orb-harness fuzz --target leader-election|node-eviction`: fast-check generates fault schedules
 * of the chosen classes, each runs the target's small scenario (sim/fuzz/control-plane/
 * fuzz-scenarios.ts), every invariant is checked; a violation is shrunk to a minimal schedule and
 * printed with two replay commands: the fast-check path, and the `simulate` run of the minimal
 * case (which writes the report explaining it). Every run's trace hash goes into one session
 * trace, so same seed and runs ⇒ same session hash.
 *
 * The CLI runs campaigns (conformance/campaign/): each run of a campaign is one session of one
 * fast-check run with the run's own seed (`controlPlaneCampaignRun`), shrunk on failure, so runs
 * are independent and a failure replays from the run's seed and its path.
 */
import fc from "fast-check";
import { Trace } from "../../kernel/trace.ts";
import { formatFaultSpec, goDuration } from "../../faults/fault-spec.ts";
import type { Fault } from "../../faults/fault-schedule.ts";
import type { ScenarioName, ScenarioResult } from "../../scenarios/scenario-result.ts";
import { ruleOf, type Verdict } from "../../invariants/verdict.ts";
import { faultScheduleArbitrary, type FaultClass } from "./fault-arbitraries.ts";
import { fuzzScenario } from "./fuzz-scenarios.ts";

/** How to fuzz. */
export interface ControlPlaneFuzzOptions {
  readonly target: ScenarioName;
  /** The session seed (32-bit integer). */
  readonly seed: number;
  readonly runs: number;
  readonly classes: readonly FaultClass[];
  /** Replay one failure: the path printed with it (same seed and classes). */
  readonly replayPath?: string;
}

/** One generated case: the scenario's seed and the fault schedule. */
export interface FuzzCase {
  readonly seed: number;
  readonly faults: Fault[];
}

/** A shrunk failure. */
export interface FuzzFailure {
  readonly fuzzCase: FuzzCase;
  /** The violated verdicts of the minimal case, witnesses included. */
  readonly violations: readonly Verdict[];
  readonly result: ScenarioResult;
  readonly replayPath: string;
  readonly shrinks: number;
}

/** A fuzz session's outcome. */
export interface ControlPlaneFuzzOutcome {
  readonly target: ScenarioName;
  readonly seed: number;
  readonly classes: readonly FaultClass[];
  /** Runs before the first failure (or all of them). */
  readonly runs: number;
  readonly failure?: FuzzFailure;
  readonly traceHash: string;
}

class InvariantsViolated extends Error {}

/** Runs the session. */
export async function runControlPlaneFuzz(options: ControlPlaneFuzzOptions): Promise<ControlPlaneFuzzOutcome> {
  const scenario = fuzzScenario(options.target);
  const trace = new Trace();
  const caseArbitrary = fc.record({ seed: fc.nat(), faults: faultScheduleArbitrary(options.classes, scenario.shape) });
  const property = fc.asyncProperty(caseArbitrary, async (fuzzCase) => {
    const result = await scenario.run(fuzzCase.seed, fuzzCase.faults);
    trace.record(0, "control-plane-fuzz", "run", { seed: fuzzCase.seed, faults: formatFaultSpec(fuzzCase.faults), traceHash: result.traceHash });
    const violated = result.verdicts.filter((verdict) => !verdict.held).map((verdict) => verdict.id);
    if (violated.length > 0) throw new InvariantsViolated(violated.join(", "));
  });
  const details = await fc.check(property, {
    seed: options.seed,
    numRuns: options.runs,
    ...(options.replayPath !== undefined && { path: options.replayPath, endOnFailure: true }),
  });
  const base = { target: options.target, seed: options.seed, classes: options.classes, runs: details.numRuns };
  if (!details.failed) return { ...base, traceHash: trace.hash() };
  if (!(details.errorInstance instanceof InvariantsViolated) || details.counterexample === null) {
    throw new Error(`control-plane fuzz: the harness failed: ${details.errorInstance instanceof Error ? details.errorInstance.stack : String(details.errorInstance)}`);
  }
  const [fuzzCase] = details.counterexample;
  // Replayed to get the minimal case's verdicts and history (runs are deterministic).
  const result = await scenario.run(fuzzCase.seed, fuzzCase.faults);
  const failure: FuzzFailure = {
    fuzzCase,
    violations: result.verdicts.filter((verdict) => !verdict.held),
    result,
    replayPath: details.counterexamplePath ?? "",
    shrinks: details.numShrinks,
  };
  return { ...base, failure, traceHash: trace.hash() };
}

/** One run of a campaign: one generated case with the run's seed (shrunk if it fails). */
export function controlPlaneCampaignRun(options: Omit<ControlPlaneFuzzOptions, "runs" | "replayPath">): Promise<ControlPlaneFuzzOutcome> {
  return runControlPlaneFuzz({ ...options, runs: 1 });
}

/** A campaign run's verdict from its session: the violations, the minimal schedule and both replay commands. */
export function controlPlaneRunVerdict(outcome: ControlPlaneFuzzOutcome): { verdict: "passed" | "failed"; traceHash: string; summary?: string; replayCommand?: string } {
  const { failure } = outcome;
  if (failure === undefined) return { verdict: "passed", traceHash: outcome.traceHash };
  const summary = [
    `violated ${failure.violations.map((verdict) => verdict.id).join(", ")}; minimal fault schedule: ${formatFaultSpec(failure.fuzzCase.faults)} (scenario seed ${failure.fuzzCase.seed}, shrunk ${failure.shrinks} times)`,
    ...failure.violations.map((verdict) => `witness: ${verdict.witness?.explanation ?? ""}`),
    `report: ${simulateReplayCommand(outcome)}`,
  ];
  return { verdict: "failed", traceHash: outcome.traceHash, summary: summary.join("\n"), replayCommand: fuzzReplayCommand(outcome) };
}

/** The command that replays the failure through fast-check. */
export function fuzzReplayCommand(outcome: ControlPlaneFuzzOutcome): string {
  return `npx tsx scripts/cli.ts fuzz --target ${outcome.target} --faults ${outcome.classes.join(",")} --seed ${outcome.seed} --replay '${outcome.failure?.replayPath ?? ""}'`;
}

/** The command that runs the minimal case as a scenario, with its report. */
export function simulateReplayCommand(outcome: ControlPlaneFuzzOutcome): string {
  const scenario = fuzzScenario(outcome.target);
  const fuzzCase = outcome.failure?.fuzzCase;
  return [
    "npx tsx scripts/cli.ts simulate",
    `--scenario ${outcome.target}`,
    `--seed ${fuzzCase?.seed ?? 0}`,
    `--duration ${goDuration(scenario.durationMs)}`,
    ...scenario.simulateFlags,
    `--faults '${formatFaultSpec(fuzzCase?.faults ?? [])}'`,
  ].join(" ");
}

/** Human-readable lines for the outcome; `run` names the campaign run it failed in. */
export function formatFuzzOutcome(outcome: ControlPlaneFuzzOutcome, run?: number): string[] {
  const { failure } = outcome;
  if (failure === undefined) return [`ok    ${outcome.target}  (${outcome.runs} runs, faults ${outcome.classes.join(",")}): every invariant held`];
  const lines = [
    `FAIL  ${outcome.target}  (${run === undefined ? `failed after ${outcome.runs} runs` : `run ${run}`}, shrunk ${failure.shrinks} times; seed ${outcome.seed})`,
    `      minimal fault schedule: ${formatFaultSpec(failure.fuzzCase.faults)}  (scenario seed ${failure.fuzzCase.seed})`,
  ];
  for (const verdict of failure.violations) {
    lines.push(`      violated: ${verdict.id}: ${ruleOf(verdict.id)}`);
    lines.push(`      witness: ${verdict.witness?.explanation ?? ""}`);
  }
  lines.push(`      replay: ${fuzzReplayCommand(outcome)}`);
  lines.push(`      report: ${simulateReplayCommand(outcome)}`);
  return lines;
}
