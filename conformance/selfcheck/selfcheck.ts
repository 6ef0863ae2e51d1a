/**
 * The suite's own teeth, measured (issue 21, `orb-harness selfcheck`): for each planted defect of
 * the embedded server (sim/apiserver/defects/defects.ts), run the conformance suite against a
 * server with that one defect, then the API fuzzer, then (for the concurrency defects) a short
 * soak, and record what caught it. The mutation score is the defects caught of the defects planted.
 *
 * "Caught" is strict, as conformance/defects.test.ts has it: by the suite, when a failing case
 * names one of the clauses the defect breaks (or a parent or child of one); by the fuzzer, when a
 * run of its campaign fails; by a soak, when the history invariant the defect names is violated.
 * What was not run (--skip-fuzz, a defect beyond the fuzzer's operations) is reported as not run,
 * never as caught.
 *
 * The suite and the fuzzer run against the embedded server in virtual time; a soak runs on a
 * loopback socket in real time (a few seconds each).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { defects as catalog, type Defect, type DefectName } from "../../sim/apiserver/defects/defects.ts";
import { checkHistory } from "../../sim/history/check-history.ts";
import { everyClause } from "../../spec/doc1/clauses.ts";
import { WritePipeline } from "../../sim/apiserver/defects/write-pipeline.ts";
import { realClock } from "../../sim/kernel/real-clock.ts";
import { historyInvariants } from "../../spec/invariants-history.ts";
import type { ConformanceCase } from "../case-definition.ts";
import { allCases } from "../cases/index.ts";
import { openApiFuzzTarget } from "../fuzz-api/api-fuzz-target.ts";
import { failureSummary, runApiFuzz } from "../fuzz-api/run-api-fuzz.ts";
import { HARNESS_VERSION, runConformance } from "../run-conformance.ts";
import { startEmbeddedSoakServer } from "../soak/embedded-soak-server.ts";
import { runSoak } from "../soak/run-soak.ts";
import { DEFAULT_SOAK_SETTINGS } from "../soak/soak-settings.ts";
import type { PublishedSelfcheck } from "../../reports/suite-teeth.ts";

/** Where `selfcheck` writes its results unless told otherwise, and the file's name. */
export const DEFAULT_SELFCHECK_DIR = "reports/out";
export const SELFCHECK_FILE = "selfcheck.json";
export const SELFCHECK_SCHEMA_VERSION = 1;

/** The fuzz campaign each defect gets: as conformance/fuzz-api/api-fuzz-defects.test.ts. */
export const FUZZ_SEED = 7;
export const FUZZ_RUNS = 200;
/** The soak each concurrency defect gets: as conformance/soak/soak-defects.test.ts. */
export const SOAK_SEED = 15;
export const SOAK_DURATION_MS = 6_000;
/** A case that waits its 10 s for an event that never comes, then fails (virtual time on the embedded target). */
const CASE_TIMEOUT_MS = 25_000;
/** The dialect of the embedded server the suite runs against (the conformance command's default). */
export const SELFCHECK_DIALECT = "orb";

/** A failing case of the suite: its id, and the clauses it names. */
export interface FailingCase {
  readonly id: string;
  readonly clauses: readonly string[];
}

/** What the suite did against one defect. */
export interface SuiteFinding {
  /** Cases run. */
  readonly ran: number;
  /** Failing cases naming a broken clause (or a parent or child of one): they catch the defect. */
  readonly catching: readonly FailingCase[];
  /** Other failing or erroring cases (noticed something, but no broken clause named). */
  readonly otherFailing: readonly FailingCase[];
  /** Cases of the suite left out for this defect, and why (none for most defects). */
  readonly leftOut?: { readonly count: number; readonly reason: string };
}

/** What the API fuzzer did against one defect. */
export type FuzzFinding =
  | { readonly status: "found"; readonly run: number; readonly seed: number; readonly runsMade: number; readonly summary: string; readonly invariants: readonly { readonly id: string; readonly clauses: readonly string[] }[] }
  | { readonly status: "not-found"; readonly runsMade: number }
  | { readonly status: "not-run"; readonly reason: string };

/** What a soak did against one defect. */
export type SoakFinding =
  | { readonly status: "found" | "not-found"; readonly rule: string; readonly ruleClauses: readonly string[]; readonly violated: readonly string[]; readonly durationMs: number; readonly seed: number }
  | { readonly status: "not-run"; readonly reason: string };

/** One defect's outcome. */
export interface DefectOutcome {
  readonly name: string;
  readonly description: string;
  readonly caughtBy: Defect["caughtBy"];
  /** The clauses the defect breaks. */
  readonly clauses: readonly string[];
  readonly caught: boolean;
  /** What caught it, in order: "suite", "fuzz", "soak". */
  readonly tools: readonly ("suite" | "fuzz" | "soak")[];
  readonly suite: SuiteFinding;
  readonly fuzz: FuzzFinding;
  readonly soak: SoakFinding;
  readonly durationMs: number;
}

/** The score: defects caught of those planted, and how many each tool caught (a defect may count for several). */
export interface SelfcheckScore {
  readonly caught: number;
  readonly planted: number;
  readonly suite: number;
  readonly fuzz: number;
  readonly soak: number;
  /** Concurrency defects not caught whose soak was not run (--skip-soak): not measured, not caught. */
  readonly notMeasured: number;
}

/** selfcheck.json. */
export interface SelfcheckResults {
  readonly schemaVersion: typeof SELFCHECK_SCHEMA_VERSION;
  readonly harnessVersion: string;
  /** When the run started, ISO 8601. */
  readonly date: string;
  readonly durationMs: number;
  readonly command: string;
  readonly settings: { readonly dialect: string; readonly fuzz: { readonly runs: number; readonly seed: number } | null; readonly soak: { readonly durationMs: number; readonly seed: number } | null };
  readonly score: SelfcheckScore;
  readonly defects: readonly DefectOutcome[];
}

/** How each tool is run against one defect (tests pass fakes). */
export interface SelfcheckRunners {
  suite(defect: Defect): Promise<SuiteFinding>;
  fuzz(defect: Defect): Promise<FuzzFinding>;
  soak(defect: Defect): Promise<SoakFinding>;
}

export interface SelfcheckOptions {
  /** The defects to plant, one at a time (default: the whole catalog). */
  readonly defects?: readonly Defect[];
  readonly fuzz: boolean;
  readonly soak: boolean;
  readonly command: string;
  /** How many defects' suite runs go at once (each on its own embedded server). */
  readonly parallel?: number;
  readonly runners?: SelfcheckRunners;
  /** A progress line (the CLI prints them on stderr). */
  onProgress?(line: string): void;
  /** Each defect's outcome, as soon as it is known, in catalog order. */
  onDefect?(outcome: DefectOutcome): void;
}

const parentOf = new Map<string, string | undefined>(everyClause.map((clause) => [clause.id, clause.parent]));

/** A clause and its ancestors (a table cell, then its row). */
function lineage(id: string): string[] {
  const chain: string[] = [];
  for (let at: string | undefined = id; at !== undefined && !chain.includes(at); at = parentOf.get(at)) chain.push(at);
  return chain;
}

/** Whether two clauses name the same rule: equal, or one an ancestor of the other. */
export function sameRule(a: string, b: string): boolean {
  return lineage(a).includes(b) || lineage(b).includes(a);
}

/** Whether a case's clauses name one of the rules `defect` breaks. */
export function namesBrokenRule(caseClauses: readonly string[], defect: Pick<Defect, "clauses">): boolean {
  return brokenClausesNamed(caseClauses, defect).length > 0;
}

/** Of a failing case's clauses, those naming a rule the defect breaks. */
export function brokenClausesNamed(caseClauses: readonly string[], defect: Pick<Defect, "clauses">): string[] {
  return caseClauses.filter((clause) => defect.clauses.some((broken) => sameRule(clause, broken)));
}

const quiet = { isTTY: false, write: () => undefined };

/**
 * Why the suite leaves out its virtual-time cases for `defect`, or undefined when it runs them all.
 * A defect that gives writes a storage round trip (write-pipeline.ts) makes each write wait for a
 * tick of the server's clock; a virtual-time case's server advances its clock only when the case
 * says, so its first write would wait until the case timed out.
 */
export function virtualTimeCasesLeftOut(defect: Pick<Defect, "name">): string | undefined {
  if (WritePipeline.forDefects(new Set([defect.name as DefectName]), realClock) === undefined) return undefined;
  return "virtual-time cases left out: with this defect a write waits for storage ticks of a clock they advance only when they wait";
}

/** The whole suite against the embedded server with `defect` planted (time-dependent cases in virtual time). */
async function runSuite(defect: Defect, cases: readonly ConformanceCase[] = allCases): Promise<SuiteFinding> {
  const leftOut = virtualTimeCasesLeftOut(defect);
  const chosen = leftOut === undefined ? cases : cases.filter((testCase) => !testCase.tags.includes("virtual-time"));
  const run = await runConformance({
    target: { kind: "embedded", dialect: SELFCHECK_DIALECT, defects: new Set([defect.name as DefectName]) },
    cases: chosen,
    readOnly: false,
    slow: false,
    parallel: 8,
    caseTimeoutMs: CASE_TIMEOUT_MS,
    keepNamespaces: false,
    command: `selfcheck: ${defect.name}`,
    progress: quiet,
  });
  const failing = run.cases.filter((result) => result.status === "fail" || result.status === "error");
  const catching = failing.filter((result) => result.status === "fail" && namesBrokenRule(result.clauses, defect));
  return {
    ran: run.cases.length,
    catching: catching.map((result) => ({ id: result.id, clauses: brokenClausesNamed(result.clauses, defect) })),
    otherFailing: failing.filter((result) => !catching.includes(result)).map((result) => ({ id: result.id, clauses: result.clauses })),
    ...(leftOut !== undefined && { leftOut: { count: cases.length - chosen.length, reason: leftOut } }),
  };
}

/** One campaign of `fuzz --target api` against the embedded server with `defect`, stopping at the first failure. */
async function runFuzz(defect: Defect): Promise<FuzzFinding> {
  if (defect.beyondApiFuzz !== undefined) return { status: "not-run", reason: `beyond the API fuzzer: ${defect.beyondApiFuzz}` };
  const target = await openApiFuzzTarget({ kind: "embedded", defects: new Set([defect.name as DefectName]) });
  try {
    const { records, failures } = await runApiFuzz({ target, campaignSeed: FUZZ_SEED, runs: FUZZ_RUNS, untilFailure: true, replayCommand: () => "" });
    const failure = failures[0];
    if (failure === undefined) return { status: "not-found", runsMade: records.length };
    const invariants = failure.outcome.violations.map((verdict) => ({ id: verdict.id, clauses: invariantClauses(verdict.id) }));
    return { status: "found", run: failure.run, seed: failure.seed, runsMade: records.length, summary: failureSummary(failure), invariants };
  } finally {
    await target.close();
  }
}

function invariantClauses(id: string): readonly string[] {
  return historyInvariants.find((invariant) => invariant.id === id)?.clauses ?? [];
}

/** A short soak against the embedded server with a concurrency defect; found when its history rule is violated. */
async function runShortSoak(defect: Defect): Promise<SoakFinding> {
  const rule = defect.historyRule;
  if (rule === undefined) return { status: "not-run", reason: "no history rule: the suite's defects are sequential" };
  const target = await startEmbeddedSoakServer({ defects: new Set([defect.name as DefectName]) });
  try {
    const run = await runSoak({ settings: { ...DEFAULT_SOAK_SETTINGS, seed: SOAK_SEED, durationMs: SOAK_DURATION_MS }, target });
    const violated = checkHistory(run.history)
      .filter((verdict) => !verdict.held)
      .map((verdict) => verdict.id);
    return { status: violated.includes(rule) ? "found" : "not-found", rule, ruleClauses: invariantClauses(rule), violated, durationMs: SOAK_DURATION_MS, seed: SOAK_SEED };
  } finally {
    await target.close();
  }
}

/** The runners selfcheck uses unless given others. */
export const embeddedRunners: SelfcheckRunners = { suite: (defect) => runSuite(defect), fuzz: runFuzz, soak: runShortSoak };

/** Runs `work` over `items` with at most `limit` at once; results in input order. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/** The score of some outcomes. */
export function scoreOf(outcomes: readonly DefectOutcome[]): SelfcheckScore {
  const count = (tool: "suite" | "fuzz" | "soak") => outcomes.filter((outcome) => outcome.tools.includes(tool)).length;
  return {
    caught: outcomes.filter((outcome) => outcome.caught).length,
    planted: outcomes.length,
    suite: count("suite"),
    fuzz: count("fuzz"),
    soak: count("soak"),
    notMeasured: outcomes.filter((outcome) => !outcome.caught && outcome.caughtBy === "soak" && outcome.soak.status === "not-run").length,
  };
}

/**
 * Plants each defect in turn and runs the tools against it: the suite (several defects at once,
 * each on its own server), then one at a time the fuzzer and, for a concurrency defect, a soak.
 */
export async function runSelfcheck(options: SelfcheckOptions): Promise<SelfcheckResults> {
  const runners = options.runners ?? embeddedRunners;
  const chosen = options.defects ?? catalog;
  const started = performance.now();
  const date = new Date().toISOString();
  const progress = options.onProgress ?? (() => undefined);
  let suitesDone = 0;
  progress(`suite: ${chosen.length} run${chosen.length === 1 ? "" : "s"}, one per planted defect, against the embedded server (${SELFCHECK_DIALECT} dialect, virtual time)`);
  const suiteTimes: number[] = [];
  const suites = await pool(chosen, options.parallel ?? 4, async (defect, index) => {
    const suiteStarted = performance.now();
    const finding = await runners.suite(defect);
    suiteTimes[index] = performance.now() - suiteStarted;
    progress(`  suite ${++suitesDone}/${chosen.length} ${defect.name}: ${finding.catching.length} catching of ${finding.ran} cases`);
    return finding;
  });
  const outcomes: DefectOutcome[] = [];
  for (const [index, defect] of chosen.entries()) {
    const defectStarted = performance.now();
    let fuzz: FuzzFinding;
    if (!options.fuzz) fuzz = { status: "not-run", reason: "--skip-fuzz" };
    else {
      progress(`  fuzz ${index + 1}/${chosen.length} ${defect.name}: ${FUZZ_RUNS} runs at most, seed ${FUZZ_SEED}`);
      fuzz = await runners.fuzz(defect);
    }
    let soak: SoakFinding;
    if (defect.caughtBy !== "soak") soak = { status: "not-run", reason: "a sequential defect: the suite's to catch" };
    else if (!options.soak) soak = { status: "not-run", reason: `--skip-soak (run \`orb-harness soak --defect ${defect.name}\`)` };
    else {
      progress(`  soak ${defect.name}: ${SOAK_DURATION_MS / 1000} s, seed ${SOAK_SEED}`);
      soak = await runners.soak(defect);
    }
    const suite = suites[index]!;
    const tools = [...(suite.catching.length > 0 ? (["suite"] as const) : []), ...(fuzz.status === "found" ? (["fuzz"] as const) : []), ...(soak.status === "found" ? (["soak"] as const) : [])];
    const outcome: DefectOutcome = {
      name: defect.name,
      description: defect.description,
      caughtBy: defect.caughtBy,
      clauses: defect.clauses,
      caught: tools.length > 0,
      tools,
      suite,
      fuzz,
      soak,
      durationMs: (suiteTimes[index] ?? 0) + performance.now() - defectStarted,
    };
    outcomes.push(outcome);
    options.onDefect?.(outcome);
  }
  return {
    schemaVersion: SELFCHECK_SCHEMA_VERSION,
    harnessVersion: HARNESS_VERSION,
    date,
    durationMs: Math.round(performance.now() - started),
    command: options.command,
    settings: {
      dialect: SELFCHECK_DIALECT,
      fuzz: options.fuzz ? { runs: FUZZ_RUNS, seed: FUZZ_SEED } : null,
      soak: options.soak ? { durationMs: SOAK_DURATION_MS, seed: SOAK_SEED } : null,
    },
    score: scoreOf(outcomes),
    defects: outcomes,
  };
}

/** The score line: `caught X of Y planted (suite A, fuzz B, soak C)`. */
export function scoreLine(score: SelfcheckScore): string {
  const notMeasured = score.notMeasured > 0 ? `; ${score.notMeasured} not measured` : "";
  return `caught ${score.caught} of ${score.planted} planted (suite ${score.suite}, fuzz ${score.fuzz}, soak ${score.soak})${notMeasured}`;
}

/** One defect in a line: what caught it, with the clauses; or why not. */
export function defectLine(outcome: DefectOutcome, nameWidth = 0): string {
  const parts: string[] = [];
  if (outcome.suite.catching.length > 0) {
    const clauses = [...new Set(outcome.suite.catching.flatMap((found) => found.clauses))];
    parts.push(`suite: ${outcome.suite.catching.map((found) => found.id).join(", ")} [${clauses.join(" ")}]`);
  }
  if (outcome.fuzz.status === "found") {
    const invariants = [...new Set(outcome.fuzz.invariants.map((invariant) => invariant.id))];
    parts.push(`fuzz run ${outcome.fuzz.run}: ${outcome.fuzz.summary}${invariants.length > 0 && !outcome.fuzz.summary.startsWith("history:") ? ` [${invariants.join(" ")}]` : ""}`);
  }
  if (outcome.soak.status === "found") parts.push(`soak (seed ${outcome.soak.seed}, ${outcome.soak.durationMs / 1000} s): ${outcome.soak.rule} violated [${outcome.soak.ruleClauses.join("; ")}]`);
  const name = outcome.name.padEnd(nameWidth);
  if (outcome.caught) return `caught  ${name}  by ${parts.join("; ")}`;
  const why: string[] = [];
  const leftOut = outcome.suite.leftOut === undefined ? "" : ` (${outcome.suite.leftOut.count} ${outcome.suite.leftOut.reason})`;
  why.push(
    outcome.suite.otherFailing.length > 0
      ? `suite: ${outcome.suite.otherFailing.length} failing case(s), none naming ${outcome.clauses.join(" or ")} (${outcome.suite.otherFailing.map((found) => found.id).join(", ")})${leftOut}`
      : `suite: all ${outcome.suite.ran} cases passed${leftOut}`,
  );
  why.push(outcome.fuzz.status === "not-found" ? `fuzz: nothing in ${outcome.fuzz.runsMade} runs` : outcome.fuzz.status === "not-run" ? `fuzz: not run (${outcome.fuzz.reason})` : "");
  if (outcome.caughtBy === "soak") {
    why.push(
      outcome.soak.status === "not-run"
        ? `not run by selfcheck (soak only): run \`orb-harness soak --defect ${outcome.name}\``
        : `soak: ${outcome.soak.rule} held${outcome.soak.violated.length > 0 ? ` (violated: ${outcome.soak.violated.join(", ")})` : ""}`,
    );
  }
  return `MISSED  ${name}  ${why.filter((text) => text !== "").join("; ")}`;
}

/** Writes selfcheck.json to `file`, making its folder. */
export async function writeSelfcheck(file: string, results: SelfcheckResults): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
}

/** The summary `selfcheck --publish` writes for the reports (reports/suite-teeth.ts reads it). */
export function publishedSummary(results: SelfcheckResults): PublishedSelfcheck {
  const { caught, planted, suite, fuzz, soak } = results.score;
  return {
    harnessVersion: results.harnessVersion,
    date: results.date,
    score: { caught, planted, suite, fuzz, soak },
    defects: results.defects.map((outcome) => ({ name: outcome.name, caught: outcome.caught, tools: outcome.tools })),
  };
}
