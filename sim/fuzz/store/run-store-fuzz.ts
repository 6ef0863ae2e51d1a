/**
 * Runs the store properties with fast-check under one seed: the engine behind
 * `orb-harness fuzz --target store` and the property tests. Every command of every run goes into
 * one Trace, so its hash identifies the whole fuzz session (same seed and runs ⇒ same hash).
 *
 * `fuzz --target store` runs campaigns (conformance/campaign/): each run of a campaign is one
 * session of one fast-check run per property with the run's own seed (`storeCampaignRun`), so
 * runs are independent of each other and a shard on another machine makes the same ones; a
 * failure replays from the run's seed and its path alone.
 */
import fc from "fast-check";
import { Trace } from "../../kernel/trace.ts";
import { InvariantViolation } from "./store-world.ts";
import { realStore, storeFastCheckProperty, storeProperties, type StoreFactory } from "./store-properties.ts";

/** How to run the store fuzzer. */
export interface StoreFuzzOptions {
  /** The session seed (a 32-bit integer); each property derives its own from it. */
  readonly seed: number;
  /** Runs per property. */
  readonly runs: number;
  /** Only the property with this id. */
  readonly property?: string;
  /** Replay one failure: the replay path printed with it (needs the same seed and property). */
  readonly replayPath?: string;
  /** The store to test (planted-bug variants in tests); the real store by default. */
  readonly makeStore?: StoreFactory;
  /** Told of each property's outcome as soon as it is known (progress on long runs). */
  readonly onOutcome?: (outcome: PropertyOutcome) => void;
}

/** How one property fared. */
export interface PropertyOutcome {
  readonly id: string;
  readonly rule: string;
  readonly passed: boolean;
  /** Runs executed (up to and including the first failure). */
  readonly runs: number;
  /** The shrunk failing command sequence. */
  readonly counterexample?: string;
  /**
   * What `--replay` takes to rerun exactly the shrunk failure: fast-check's path to it, then "@"
   * and fast-check's record of which of its commands ran.
   */
  readonly replayPath?: string;
  /** What was violated. */
  readonly error?: string;
}

/** A whole fuzz session. */
export interface StoreFuzzResult {
  readonly seed: number;
  readonly outcomes: readonly PropertyOutcome[];
  readonly traceHash: string;
}

/** Ids of the store properties, for usage messages. */
export const storePropertyIds: readonly string[] = storeProperties.map((property) => property.id);

/** The seed property number `index` runs with: distinct per property, fixed by the session seed. */
export function propertySeed(seed: number, index: number): number {
  return (seed ^ Math.imul(index + 1, 0x9e3779b1)) | 0;
}

/** Runs the properties (or the one asked for) and reports each. */
export async function runStoreFuzz(options: StoreFuzzOptions): Promise<StoreFuzzResult> {
  if (options.property !== undefined && !storePropertyIds.includes(options.property)) {
    throw new Error(`unknown store property ${options.property}; one of: ${storePropertyIds.join(", ")}`);
  }
  const trace = new Trace();
  const outcomes: PropertyOutcome[] = [];
  for (const [index, property] of storeProperties.entries()) {
    if (options.property !== undefined && property.id !== options.property) continue;
    const [path, commandsReplayPath] = splitReplayPath(options.replayPath);
    const details = await fc.check(storeFastCheckProperty(property, options.makeStore ?? realStore, trace, commandsReplayPath), {
      seed: propertySeed(options.seed, index),
      numRuns: options.runs,
      ...(path !== undefined && { path, endOnFailure: true }),
    });
    trace.record(0, "store-fuzz", "property", { id: property.id, failed: details.failed, runs: details.numRuns });
    const outcome = outcomeOf(property.id, property.rule, details);
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
  }
  return { seed: options.seed, outcomes, traceHash: trace.hash() };
}

function outcomeOf<T extends unknown[]>(id: string, rule: string, details: fc.RunDetails<T>): PropertyOutcome {
  if (!details.failed) return { id, rule, passed: true, runs: details.numRuns };
  const error = details.errorInstance;
  const [commands] = (details.counterexample ?? []) as unknown[];
  // fast-check ends a command list's text with /*replayPath="…"*/: which of the commands ran.
  const [listing, commandsReplayPath] = splitCommandsText(String(commands));
  return {
    id,
    rule,
    passed: false,
    runs: details.numRuns,
    counterexample: listing,
    ...(details.counterexamplePath !== null && { replayPath: `${details.counterexamplePath}@${commandsReplayPath}` }),
    // A violation names its invariant; anything else is a crash of the store or the harness.
    error: error instanceof InvariantViolation ? error.message : `unexpected error: ${error instanceof Error ? error.stack : String(error)}`,
  };
}

function splitCommandsText(text: string): [string, string] {
  const match = /^(.*?)\s*\/\*replayPath="([^"]*)"\*\/$/s.exec(text);
  return match === null ? [text, ""] : [match[1]!, match[2]!];
}

function splitReplayPath(replayPath: string | undefined): [string | undefined, string | undefined] {
  if (replayPath === undefined) return [undefined, undefined];
  const at = replayPath.indexOf("@");
  if (at === -1) return [replayPath, undefined];
  const commandsReplayPath = replayPath.slice(at + 1);
  return [replayPath.slice(0, at), commandsReplayPath === "" ? undefined : commandsReplayPath];
}

/** One run of a campaign: every property (or the one asked for) once, with the run's seed. */
export function storeCampaignRun(seed: number, options: Pick<StoreFuzzOptions, "property" | "makeStore" | "onOutcome"> = {}): Promise<StoreFuzzResult> {
  return runStoreFuzz({ ...options, seed, runs: 1 });
}

/**
 * A campaign run's verdict from its session: failed when a property failed, with a summary (each
 * failed property and its violation, the others' replay commands) and the first failure's replay.
 */
export function storeRunVerdict(result: StoreFuzzResult): { verdict: "passed" | "failed"; traceHash: string; summary?: string; replayCommand?: string } {
  const failed = result.outcomes.filter((outcome) => !outcome.passed);
  const [first] = failed;
  if (first === undefined) return { verdict: "passed", traceHash: result.traceHash };
  const summary = failed.flatMap((outcome) => [
    `${outcome.id}: ${outcome.error ?? "failed"}`,
    `counterexample: ${outcome.counterexample ?? ""}`,
    ...(outcome === first ? [] : [`replay: ${replayCommand(result.seed, outcome)}`]),
  ]);
  return { verdict: "failed", traceHash: result.traceHash, summary: summary.join("\n"), replayCommand: replayCommand(result.seed, first) };
}

/** The command that replays a failed property exactly. */
export function replayCommand(seed: number, outcome: PropertyOutcome): string {
  return `npx tsx scripts/cli.ts fuzz --target store --seed ${seed} --property ${outcome.id} --replay '${outcome.replayPath ?? ""}'`;
}

/** Human-readable lines for one property's outcome; `run` names the campaign run it failed in. */
export function formatOutcome(seed: number, outcome: PropertyOutcome, run?: number): string[] {
  if (outcome.passed) return [`ok    ${outcome.id}  (${outcome.runs} runs)`];
  return [
    `FAIL  ${outcome.id}  (${run === undefined ? `failed after ${outcome.runs} runs` : `run ${run}`}; seed ${seed})`,
    `      rule: ${outcome.rule}`,
    `      violation: ${outcome.error}`,
    `      counterexample: ${outcome.counterexample}`,
    `      replay: ${replayCommand(seed, outcome)}`,
  ];
}
