/**
 * `fuzz --target api` campaigns (issue 16): run `r` of a campaign generates one program with the
 * run's own seed (conformance/campaign), runs it on the target beside the model, and on failure
 * lets fast-check shrink it, re-running each smaller program from scratch (fresh servers in virtual
 * time; a fresh namespace on a real server, where a shrink step that does not fail again counts
 * as passing). Runs are independent, so shards of a campaign make the same runs.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { runSeed, runsOfShard, type CampaignRunRecord, type Shard } from "../campaign/campaign.ts";
import { programArbitrary } from "./api-program-arbitrary.ts";
import type { ApiStep } from "./api-steps.ts";
import { failed, runApiProgram, type ProgramOutcome, type RunServers } from "./run-api-program.ts";

/** Most steps a generated program has. */
export const MAX_PROGRAM_STEPS = 24;

/** Where a campaign's programs run. */
export interface ApiFuzzTarget {
  /** What reports call it (never a credential). */
  readonly description: string;
  /** In virtual time: programs may wait (expiry, bookmarks) and runs are exact. */
  readonly virtual: boolean;
  /** Fresh servers for one execution of a program in `namespace`: the model, and the target (or the shared one). */
  servers(namespace: string): RunServers;
  /** Namespaces must differ from any earlier campaign's (a real server may still be deleting them). */
  readonly namespaceSuffix: string;
  /** Stops what was started; on a shared server, first waits for the run's namespaces to be gone (the names of those still there). */
  close(): Promise<string[]>;
}

/** What a failed run printed. */
export interface ApiFuzzFailure {
  readonly run: number;
  readonly seed: number;
  readonly replayPath: string;
  /** The shrunk program and what it came to. */
  readonly program: readonly ApiStep[];
  readonly outcome: ProgramOutcome;
  /** Programs fast-check tried while shrinking. */
  readonly shrinks: number;
}

export interface ApiFuzzOptions {
  readonly target: ApiFuzzTarget;
  readonly campaignSeed: number;
  readonly runs: number;
  readonly shard?: Shard | undefined;
  /** Replays one failure instead: the run's seed and fast-check path, as printed. */
  readonly replay?: { readonly seed: number; readonly path: string };
  onRun?(record: CampaignRunRecord, failure: ApiFuzzFailure | undefined): void;
  /** Stop after the first failed run (the tests that show each planted defect is found). */
  readonly untilFailure?: boolean;
  /** The one-line command that replays a failure (the CLI knows its own flags). */
  replayCommand(seed: number, path: string): string;
}

/** Runs the campaign (or the shard, or the replay); one record per run, in order. */
export async function runApiFuzz(options: ApiFuzzOptions): Promise<{ records: CampaignRunRecord[]; failures: ApiFuzzFailure[] }> {
  const records: CampaignRunRecord[] = [];
  const failures: ApiFuzzFailure[] = [];
  const plan = options.replay !== undefined ? [{ run: 0, seed: options.replay.seed, path: options.replay.path }] : runsOfShard(options.runs, options.shard).map((run) => ({ run, seed: runSeed(options.campaignSeed, run), path: undefined }));
  for (const { run, seed, path } of plan) {
    const started = performance.now();
    const { record, failure } = await apiFuzzRun(options, run, seed, path);
    const timed = { ...record, durationMs: performance.now() - started };
    records.push(timed);
    if (failure !== undefined) failures.push(failure);
    options.onRun?.(timed, failure);
    if (failure !== undefined && options.untilFailure === true) break;
  }
  return { records, failures };
}

/** One run of a campaign (or a replay, with the fast-check `path` printed with its failure). */
export async function apiFuzzRun(
  options: Pick<ApiFuzzOptions, "target" | "replayCommand">,
  run: number,
  seed: number,
  path: string | undefined,
): Promise<{ record: CampaignRunRecord; failure: ApiFuzzFailure | undefined }> {
  const trace = createHash("sha256");
  let executions = 0;
  let last: { program: ApiStep[]; outcome: ProgramOutcome } | undefined;
  const execute = async (program: ApiStep[]): Promise<ProgramOutcome> => {
    const namespace = `orb-fuzz-${(seed >>> 0).toString(16)}-${executions++}${options.target.namespaceSuffix}`;
    const servers = options.target.servers(namespace);
    try {
      const outcome = await runApiProgram(program, servers, namespace, seed);
      trace.update(outcome.traceHash);
      return outcome;
    } finally {
      await servers.model.close();
      if (options.target.virtual) await servers.target.close();
    }
  };
  const property = fc.asyncProperty(programArbitrary({ virtualTime: options.target.virtual, maxSteps: MAX_PROGRAM_STEPS }), async (program) => {
    const outcome = await execute(program);
    if (failed(outcome)) last = { program, outcome };
    return !failed(outcome);
  });
  const details = await fc.check(property, { seed, numRuns: 1, ...(path !== undefined && { path }) });
  if (!details.failed || last === undefined) return { record: { run, seed, verdict: "passed", traceHash: trace.digest("hex"), durationMs: 0 }, failure: undefined };
  // fast-check's last failing execution is its shrunk counterexample; dropping steps one at a time
  // often takes it further (fast-check stops at the first program none of whose shrinks fails).
  const smallest = await dropSteps(last, execute, options.target.virtual ? Number.POSITIVE_INFINITY : REAL_DROP_ATTEMPTS);
  const traceHash = trace.digest("hex");
  const replayPath = details.counterexamplePath ?? "";
  const failure: ApiFuzzFailure = { run, seed, replayPath, program: smallest.program, outcome: smallest.outcome, shrinks: details.numShrinks };
  const summary = failureSummary(failure);
  return { record: { run, seed, verdict: "failed", traceHash, summary, replayCommand: options.replayCommand(seed, replayPath), durationMs: 0 }, failure };
}

/** Programs tried when dropping steps against a real server, where each costs a namespace and a second or two. */
const REAL_DROP_ATTEMPTS = 60;

/**
 * Drops steps (and members of steps sent together) one at a time while the program still fails
 * the same way (a divergence, or a violation of one of the same rules). Deterministic in virtual
 * time, so a replay ends at the same program.
 */
async function dropSteps(
  failing: { program: ApiStep[]; outcome: ProgramOutcome },
  execute: (program: ApiStep[]) => Promise<ProgramOutcome>,
  maxAttempts: number,
): Promise<{ program: ApiStep[]; outcome: ProgramOutcome }> {
  let best = failing;
  let attempts = 0;
  const sameFailure = (outcome: ProgramOutcome) =>
    failed(outcome) &&
    (best.outcome.divergence !== undefined ? outcome.divergence !== undefined : best.outcome.error !== undefined ? outcome.error !== undefined : outcome.violations.some((verdict) => best.outcome.violations.some((known) => known.id === verdict.id)));
  for (let dropped = true; dropped && attempts < maxAttempts; ) {
    dropped = false;
    for (const candidate of smallerPrograms(best.program)) {
      if (attempts++ >= maxAttempts) break;
      const outcome = await execute(candidate);
      if (!sameFailure(outcome)) continue;
      best = { program: candidate, outcome };
      dropped = true;
      break;
    }
  }
  return best;
}

/** The program without one of its steps, or without one member of a step sent together (a lone member runs alone). */
function* smallerPrograms(program: readonly ApiStep[]): Generator<ApiStep[]> {
  for (let index = 0; index < program.length; index++) {
    const step = program[index]!;
    yield [...program.slice(0, index), ...program.slice(index + 1)];
    if (step.op !== "together") continue;
    for (let member = 0; member < step.steps.length; member++) {
      const rest = [...step.steps.slice(0, member), ...step.steps.slice(member + 1)];
      const lagsMs = [...step.lagsMs.slice(0, member), ...step.lagsMs.slice(member + 1)];
      const replaced: ApiStep[] = rest.length === 1 ? [rest[0]!] : [{ op: "together", steps: rest, lagsMs }];
      yield [...program.slice(0, index), ...replaced, ...program.slice(index + 1)];
    }
  }
}

/** A failure in a line. */
export function failureSummary(failure: ApiFuzzFailure): string {
  const { outcome } = failure;
  if (outcome.error !== undefined) return `no answer: ${outcome.error}`;
  if (outcome.divergence !== undefined) return `step ${outcome.divergence.step + 1} (${outcome.divergence.stepText}): ${outcome.divergence.difference}`;
  return `history: ${outcome.violations.map((verdict) => verdict.id).join(", ")} violated`;
}
