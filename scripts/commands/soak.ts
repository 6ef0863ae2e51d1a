/** `orb-harness soak`: a seeded concurrent workload against any server, its recorded history checked (wiring only). */
import { createHash, randomInt } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { campaignTraceHash, parseShard, type Shard } from "../../conformance/campaign/campaign.ts";
import { runCampaign } from "../../conformance/campaign/run-campaign.ts";
import { HARNESS_VERSION } from "../../conformance/run-conformance.ts";
import { ControlPlaneError } from "../../conformance/control-plane/kube-assets.ts";
import { runSoak, type SoakRun } from "../../conformance/soak/run-soak.ts";
import { soakCounts } from "../../conformance/soak/soak-counts.ts";
import { SoakNamespaceError } from "../../conformance/soak/soak-namespace.ts";
import { DEFAULT_SOAK_SETTINGS, HOT_KEYS, STEADY_WATCHERS, type SoakSettings } from "../../conformance/soak/soak-settings.ts";
import { openSoakTarget, type SoakTarget, type SoakTargetChoice } from "../../conformance/soak/soak-target.ts";
import { EMBEDDED_SOAK_WINDOWS } from "../../conformance/soak/embedded-soak-server.ts";
import { TargetError } from "../../conformance/targets/remote-target.ts";
import type { DefectName } from "../../sim/apiserver/defects/defects.ts";
import type { ApiHistory, Operation } from "../../sim/history/api-history.ts";
import { checkHistory } from "../../sim/history/check-history.ts";
import { historyInvariants } from "../../spec/invariants-history.ts";
import { CAMPAIGN_REPORT_FILES, writeCampaignReports } from "../../reports/campaign-reports.ts";
import { campaignCountLine, campaignRateLine, shardScopeText } from "../../reports/campaign-text.ts";
import { DEFAULT_SOAK_REPORT_DIR, SOAK_REPORT_FILES, writeSoakReports } from "../../reports/soak-reports.ts";
import { soakReplayCommand, SOAK_REPLAY_PREFIX } from "../../reports/soak-replay-command.ts";
import { invariantResults, SOAK_RESULTS_SCHEMA_VERSION, type SoakResults } from "../../reports/soak-results.ts";
import { soakFigureLines, soakVerdictLines, soakViolationLines } from "../../reports/soak-text.ts";
import { shellQuote } from "../../reports/rerun-command.ts";
import { UsageError, type CliCommand, type CliOutput } from "../cli-command.ts";
import { holdInterrupt, INTERRUPTED_EXIT } from "../interrupt.ts";
import { listDefects, plantedDefects } from "../defect-flags.ts";
import { durationFlagMs } from "../duration-flag.ts";
import { flagNames, parseFlags, type FlagName, type FlagSpec, type FlagValues } from "../parse-flags.ts";
import { TARGET_FLAGS, targetChoice, withKubeAssetsDefault } from "../target-flags.ts";

const DEFAULT_DURATION = "60s";
const DEFAULT_REQUEST_TIMEOUT = "10s";
const MAX_KEYS = 1000;
/** Exit code of a run stopped by Ctrl-C: 128 + SIGINT, as shells report it. */
/** The flags of `soak`. */
const SOAK_FLAGS = {
  ...TARGET_FLAGS,
  defect: "repeated",
  duration: "string",
  writers: "integer",
  watchers: "integer",
  readers: "integer",
  keys: "integer",
  seed: "integer",
  "request-timeout": "string",
  runs: "integer",
  shard: "string",
  check: "string",
  "report-dir": "string",
} as const satisfies FlagSpec;
type SoakFlags = FlagValues<typeof SOAK_FLAGS>;
/** Flags that shape a workload or choose its target: a re-check of a saved history takes none of them. */
const WORKLOAD_FLAGS: ReadonlyArray<FlagName<typeof SOAK_FLAGS>> = [...flagNames(TARGET_FLAGS), "defect", "duration", "writers", "watchers", "readers", "keys", "seed", "request-timeout", "runs", "shard"];
const seconds = (ms: number) => `${ms / 1000} s`;

/** The soak command. */
export const soakCommand: CliCommand = {
  name: "soak",
  summary: "a seeded concurrent workload (writers, watchers, readers) against any server; its recorded history checked against doc 1's rules",
  usage: [
    "usage: orb-harness soak [target] [--duration 60s] [--writers N] [--watchers N] [--readers N] [--keys N] [--seed S]",
    "                        [--request-timeout 10s] [--runs N] [--shard I/N] [--report-dir DIR]",
    "       orb-harness soak --check history.json [--report-dir DIR]",
    "",
    "A seeded concurrent workload in a namespace of its own (created first, deleted at the end, also on Ctrl-C;",
    "nothing outside it is touched). Writers create, update (with and without a resourceVersion precondition),",
    "patch, flip a label that moves objects in and out of a selector, and delete ConfigMaps, a few keys hot and",
    "most cold. Watchers watch from now, from Any (0) or after a list, with bookmarks and with a label selector,",
    `close now and then and resume from the last version they saw, relisting on 410; ${STEADY_WATCHERS} of them watch the whole`,
    "namespace throughout. Readers get and list at Most Recent, Any, Exact and NotOlderThan, and page through",
    "lists while writes land between pages. Every request, answer and watch event is recorded with its client",
    "and monotonic times (an answer that never came: uncertain), then checked against the history invariants",
    "(spec/invariants-history.ts).",
    "",
    "target (default: the embedded server in this process on a loopback port, kubernetes dialect, with short",
    `windows: bookmarks every ${seconds(EMBEDDED_SOAK_WINDOWS.bookmarkIntervalMs)}, history kept ${seconds(EMBEDDED_SOAK_WINDOWS.historyWindowMs)}, compacted every ${seconds(EMBEDDED_SOAK_WINDOWS.compactionIntervalMs)}):`,
    "  --defect NAME                     embedded server only: plant a known bug (repeatable; --defect help lists them)",
    "  --server URL [--token T] [--certificate-authority FILE] [--client-certificate FILE --client-key FILE]",
    "  --kubeconfig PATH [--context NAME]",
    "  --insecure-skip-tls-verify        with --server or --kubeconfig: do not verify the server's certificate",
    "  --kube-assets [DIR] [--kube-profile default|fast-expiry]",
    "                                    start a real control plane from DIR (etcd, kube-apiserver, optionally",
    "                                    kube-controller-manager; default $KUBEBUILDER_ASSETS), soak it, stop it",
    "",
    "workload:",
    `  --duration D          how long the writers and readers work: 60s, 5m, 1500ms (default ${DEFAULT_DURATION})`,
    `  --writers N           default ${DEFAULT_SOAK_SETTINGS.writers}`,
    `  --watchers N          at least ${STEADY_WATCHERS}: ${STEADY_WATCHERS} watch throughout, the others cycle (default ${DEFAULT_SOAK_SETTINGS.watchers})`,
    `  --readers N           default ${DEFAULT_SOAK_SETTINGS.readers}`,
    `  --keys N              ConfigMaps written, the first ${HOT_KEYS} hot (default ${DEFAULT_SOAK_SETTINGS.keys})`,
    "  --seed S              seeds every choice of every client (default: a random one, printed); timing stays real",
    `  --request-timeout D   a request unanswered this long is given up, its outcome uncertain (default ${DEFAULT_REQUEST_TIMEOUT})`,
    "",
    "campaign (with either flag):",
    "  --runs N              N soaks one after another against the same target, run r seeded from --seed and r",
    "                        alone (default 1); each run's reports go into DIR/run-<r>/, and DIR gets the campaign's",
    `                        ${Object.values(CAMPAIGN_REPORT_FILES).join(", ")} (for \`orb-harness report merge\`)`,
    "  --shard I/N           make only shard I of N of the campaign: the runs r with r % N = I - 1 (needs --seed)",
    "",
    "  --check FILE          no workload: check a history.json an earlier run wrote, and report",
    `  --report-dir DIR      where to write ${Object.values(SOAK_REPORT_FILES).join(", ")} (default ${DEFAULT_SOAK_REPORT_DIR})`,
    "",
    "Prints progress every 5 s, then operations/s, counts by kind and one line per invariant; for each violation",
    "the rule, the witness (operations and events with their clients and times), the seed and a replay command.",
    "A campaign prints each run so, then the counts and `N runs in T s (R runs/s)`.",
    "Exit 0 when every invariant held, 1 on a violation, 2 for usage or connection errors, 130 when interrupted",
    "(Ctrl-C: the namespace is deleted, what was recorded is checked and reported; a second Ctrl-C quits at once).",
  ].join("\n"),
  async run(args, output) {
    const options = soakOptions(args);
    if (options.kind === "list-defects") {
      listDefects(output);
      return 0;
    }
    if (options.kind === "check") return recheck(options.file, options.reportDir, output);
    if (options.campaign !== undefined) return soakCampaign(options.settings, options.choice, options.campaign, options.run, output);
    return soak(options.settings, options.choice, options.run, output);
  },
};

/** Where a soak reports, and what its replay command and reports must show or hide. */
interface SoakRunFlags {
  /** The arguments as given, for replay commands. */
  readonly args: readonly string[];
  readonly reportDir: string;
  /** The --token given, kept out of every report. */
  readonly tokenFlag: string | undefined;
}

/** A campaign's size and shard. */
interface SoakCampaignFlags {
  readonly runs: number;
  readonly shard: Shard | undefined;
}

/** What `soak` does: list the defects, re-check a saved history, or run (one soak, or a campaign of them). */
type SoakOptions =
  | { readonly kind: "list-defects" }
  | { readonly kind: "check"; readonly file: string; readonly reportDir: string }
  | { readonly kind: "run"; readonly settings: SoakSettings; readonly choice: SoakTargetChoice; readonly run: SoakRunFlags; readonly campaign: SoakCampaignFlags | undefined };

/** The options `givenArgs` give; throws UsageError for bad flags. */
function soakOptions(givenArgs: readonly string[]): SoakOptions {
  const { values, positionals } = parseFlags(withKubeAssetsDefault(givenArgs), SOAK_FLAGS);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const requestedDefects = values.get("defect") ?? [];
  if (requestedDefects.includes("help")) return { kind: "list-defects" };
  const reportDir = values.get("report-dir") ?? DEFAULT_SOAK_REPORT_DIR;
  const checkFile = values.get("check");
  if (checkFile !== undefined) {
    const workloadFlag = WORKLOAD_FLAGS.find((name) => values.has(name));
    if (workloadFlag !== undefined) throw new UsageError(`--${workloadFlag} does not go with --check, which checks a saved history and runs no workload`);
    return { kind: "check", file: checkFile, reportDir };
  }
  const settings = soakSettings(values);
  const choice = soakTargetChoice(values, plantedDefects(requestedDefects));
  const run = { args: givenArgs, reportDir, tokenFlag: values.get("token") };
  return { kind: "run", settings, choice, run, campaign: soakCampaignFlags(values) };
}

/** Runs the workload against the target, checks and reports. */
async function soak(settings: SoakSettings, choice: SoakTargetChoice, run: SoakRunFlags, output: CliOutput): Promise<number> {
  const startedAt = new Date().toISOString();
  const interrupt = holdInterrupt(output, "interrupted: stopping the workload and deleting its namespace (Ctrl-C again to quit at once)");
  output.out(
    `soak: seed ${settings.seed}, ${seconds(settings.durationMs)}, ${settings.writers} writers, ${settings.watchers} watchers, ${settings.readers} readers, ${settings.keys} keys`,
  );
  let target: SoakTarget;
  let result: SoakRun;
  try {
    try {
      target = await openSoakTarget(choice.kind === "kube-assets" ? { ...choice, onProgress: (line) => output.out(line), signal: interrupt.signal } : choice);
    } catch (error) {
      if (!(error instanceof TargetError || error instanceof ControlPlaneError)) throw error;
      output.err(`orb-harness soak: ${error.message}`);
      return interrupt.signal.aborted ? INTERRUPTED_EXIT : 2;
    }
    try {
      output.out(`target: ${target.description}${target.serverVersion === "" ? "" : `, ${target.serverVersion}`}`);
      result = await runSoak({
        settings,
        target,
        signal: interrupt.signal,
        onNamespace: (namespace) => output.out(`namespace ${namespace}`),
        onProgress: (line) => output.out(line),
      });
    } catch (error) {
      if (!(error instanceof SoakNamespaceError)) throw error;
      output.err(`orb-harness soak: ${error.message}`);
      return 2;
    } finally {
      await target.close();
    }
  } finally {
    interrupt.release();
  }
  reportNamespace(result.namespace, output);
  const secrets = [...target.secrets, ...(run.tokenFlag === undefined ? [] : [run.tokenFlag])];
  const { code } = await checkAndReport(
    result.history,
    { source: "run", startedAt, replayCommand: soakReplayCommand(run.args, settings.seed), workloadMs: result.workloadMs, serverVersion: target.serverVersion },
    run.reportDir,
    secrets,
    output,
  );
  if (result.interrupted) {
    output.err(`interrupted: the workload ran ${(result.workloadMs / 1000).toFixed(1)} s of ${seconds(settings.durationMs)}; exit ${INTERRUPTED_EXIT}`);
    return INTERRUPTED_EXIT;
  }
  return code;
}

/** `soak --check FILE`: the checkers and the reports over a saved history. */
async function recheck(file: string, reportDir: string, output: CliOutput): Promise<number> {
  const startedAt = new Date().toISOString();
  let history: ApiHistory;
  try {
    history = parseHistory(await readFile(file, "utf8"));
  } catch (error) {
    output.err(`orb-harness soak: cannot read a history from ${file}: ${(error as Error).message}`);
    return 2;
  }
  output.out(`checking ${file}: ${history.operations.length} operations of ${history.clients.length} clients against ${history.target} (seed ${history.seed}, namespace ${history.namespace})`);
  const replayCommand = [SOAK_REPLAY_PREFIX, "--check", shellQuote(file)].join(" ");
  return (await checkAndReport(history, { source: "check", startedAt, replayCommand, workloadMs: history.endMs - history.startMs, serverVersion: "" }, reportDir, [], output)).code;
}

/** Checks the history, prints figures, verdicts and violations, writes the reports; code 0 when all held, else 1. */
async function checkAndReport(
  history: ApiHistory,
  run: { readonly source: SoakResults["source"]; readonly startedAt: string; readonly replayCommand: string; readonly workloadMs: number; readonly serverVersion: string },
  reportDir: string,
  secrets: readonly string[],
  output: CliOutput,
): Promise<{ readonly code: number; readonly results: SoakResults }> {
  const checking = performance.now();
  const verdicts = checkHistory(history);
  const checkMs = performance.now() - checking;
  const invariants = invariantResults(history, verdicts, historyInvariants);
  const counts = soakCounts(history);
  const workloadSeconds = run.workloadMs / 1000;
  const results: SoakResults = {
    schemaVersion: SOAK_RESULTS_SCHEMA_VERSION,
    kind: "soak",
    harnessVersion: HARNESS_VERSION,
    source: run.source,
    target: { description: history.target, serverVersion: run.serverVersion },
    seed: history.seed,
    namespace: history.namespace,
    startedAt: run.startedAt,
    finishedAt: new Date().toISOString(),
    replayCommand: run.replayCommand,
    workloadSeconds,
    operationsPerSecond: workloadSeconds > 0 ? counts.operations / workloadSeconds : 0,
    counts,
    invariants,
    violations: invariants.filter((result) => !result.held).length,
  };
  for (const line of soakFigureLines(results)) output.out(line);
  output.out(`checked ${history.operations.length} operations in ${(checkMs / 1000).toFixed(1)} s:`);
  for (const line of soakVerdictLines(results)) output.out(line);
  for (const line of soakViolationLines(results)) output.out(line);
  const written = await writeSoakReports(reportDir, { results, history, verdicts, writeHistory: run.source === "run" }, { secrets, env: process.env });
  output.out(`reports: ${written.join(", ")}`);
  output.out(results.violations === 0 ? `soak: ${results.invariants.length} invariants held` : `soak: ${results.violations} of ${results.invariants.length} invariants violated (seed ${results.seed})`);
  return { code: results.violations === 0 ? 0 : 1, results };
}

function reportNamespace(namespace: SoakRun["namespace"], output: CliOutput): void {
  if (namespace.state === "gone") output.out(`namespace ${namespace.name} deleted`);
  else if (namespace.state === "terminating") output.err(`warning: namespace ${namespace.name} is still terminating; it will go by itself`);
  else output.err(`warning: could not delete namespace ${namespace.name} (${namespace.why}); remove it with: kubectl delete namespace ${namespace.name}`);
}

function soakSettings(flags: SoakFlags): SoakSettings {
  const integer = (name: "writers" | "watchers" | "readers" | "keys", fallback: number, least: number, most = Number.MAX_SAFE_INTEGER) => {
    const value = flags.get(name) ?? fallback;
    if (value < least) throw new UsageError(`--${name} must be at least ${least}, got ${value}`);
    if (value > most) throw new UsageError(`--${name} must be at most ${most}, got ${value}`);
    return value;
  };
  const seed = flags.get("seed");
  // 32-bit, negative ones too: a campaign's run seeds (conformance/campaign) are, and a run's replay names its own.
  if (seed !== undefined && seed !== (seed | 0)) throw new UsageError(`--seed must be a 32-bit integer, got ${seed}`);
  return {
    seed: seed ?? randomInt(1, 2 ** 31),
    durationMs: durationFlagMs(flags.get("duration") ?? DEFAULT_DURATION, "duration"),
    writers: integer("writers", DEFAULT_SOAK_SETTINGS.writers, 1),
    watchers: integer("watchers", DEFAULT_SOAK_SETTINGS.watchers, STEADY_WATCHERS),
    readers: integer("readers", DEFAULT_SOAK_SETTINGS.readers, 0),
    keys: integer("keys", DEFAULT_SOAK_SETTINGS.keys, 1, MAX_KEYS),
    requestTimeoutMs: durationFlagMs(flags.get("request-timeout") ?? DEFAULT_REQUEST_TIMEOUT, "request-timeout"),
  };
}

/** A campaign's size and shard, when --runs or --shard asks for one; undefined for a single soak. */
function soakCampaignFlags(flags: SoakFlags): SoakCampaignFlags | undefined {
  if (!flags.has("runs") && !flags.has("shard")) return undefined;
  const runs = flags.get("runs") ?? 1;
  if (runs < 1) throw new UsageError(`--runs must be at least 1, got ${runs}`);
  const shardText = flags.get("shard");
  if (shardText === undefined) return { runs, shard: undefined };
  // A random seed per machine would make shards of different campaigns.
  if (!flags.has("seed")) throw new UsageError("--shard needs --seed: every shard of a campaign must be given the same campaign seed");
  try {
    return { runs, shard: parseShard(shardText) };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * `soak --runs N [--shard I/N]`: the campaign's runs one after another against one target (a
 * control plane is started once), each checked and reported into DIR/run-<r>/ as a single soak
 * is, then the campaign's reports into DIR. A run's trace hash is the sha256 of its recorded
 * history: real timing shapes a soak, so unlike a fuzz run's it differs between two runs of one
 * seed. Ctrl-C stops the run under way (checked and reported, not recorded in the campaign) and
 * the campaign with it.
 */
async function soakCampaign(
  settings: SoakSettings,
  choice: SoakTargetChoice,
  campaign: SoakCampaignFlags,
  run: SoakRunFlags,
  output: CliOutput,
): Promise<number> {
  const interrupt = holdInterrupt(output, "interrupted: stopping the workload and deleting its namespace (Ctrl-C again to quit at once)");
  output.out(
    `soak campaign: seed ${settings.seed}, ${campaign.runs} runs${shardScopeText(campaign.runs, campaign.shard)}; each ${seconds(settings.durationMs)}, ${settings.writers} writers, ${settings.watchers} watchers, ${settings.readers} readers, ${settings.keys} keys`,
  );
  const replayArgs = withoutCampaignFlags(run.args);
  let target: SoakTarget;
  let results;
  try {
    try {
      target = await openSoakTarget(choice.kind === "kube-assets" ? { ...choice, onProgress: (line) => output.out(line), signal: interrupt.signal } : choice);
    } catch (error) {
      if (!(error instanceof TargetError || error instanceof ControlPlaneError)) throw error;
      output.err(`orb-harness soak: ${error.message}`);
      return interrupt.signal.aborted ? INTERRUPTED_EXIT : 2;
    }
    const opened = target;
    const secrets = [...opened.secrets, ...(run.tokenFlag === undefined ? [] : [run.tokenFlag])];
    try {
      output.out(`target: ${opened.description}${opened.serverVersion === "" ? "" : `, ${opened.serverVersion}`}`);
      const plan = {
        command: "soak",
        // What shards on other machines also name: never a port of this process's embedded server.
        target: choice.kind === "embedded" ? "embedded" : choice.kind === "kube-assets" ? `kube-assets ${choice.profile}` : opened.url,
        options: workloadOptionsText(settings, choice),
        campaignSeed: settings.seed,
        runs: campaign.runs,
        shard: campaign.shard,
      };
      results = await runCampaign(
        plan,
        async (index, seed) => {
          output.out(`run ${index} of ${campaign.runs}: seed ${seed}`);
          const startedAt = new Date().toISOString();
          const soaked = await runSoak({ settings: { ...settings, seed }, target: opened, signal: interrupt.signal, onNamespace: (namespace) => output.out(`namespace ${namespace}`), onProgress: (line) => output.out(line) });
          reportNamespace(soaked.namespace, output);
          const checked = await checkAndReport(
            soaked.history,
            { source: "run", startedAt, replayCommand: soakReplayCommand(replayArgs, seed), workloadMs: soaked.workloadMs, serverVersion: opened.serverVersion },
            join(run.reportDir, `run-${index}`),
            secrets,
            output,
          );
          if (soaked.interrupted) return undefined;
          const violated = checked.results.invariants.filter((invariant) => !invariant.held);
          return {
            verdict: violated.length === 0 ? "passed" : "failed",
            traceHash: createHash("sha256").update(JSON.stringify(soaked.history)).digest("hex"),
            ...(violated.length > 0 && { summary: violated.map((invariant) => `${invariant.id}: ${invariant.witness?.explanation ?? invariant.rule}`).join("\n"), replayCommand: checked.results.replayCommand }),
          };
        },
        { signal: interrupt.signal },
      );
    } catch (error) {
      if (!(error instanceof SoakNamespaceError)) throw error;
      output.err(`orb-harness soak: ${error.message}`);
      return 2;
    } finally {
      await opened.close();
    }
  } finally {
    interrupt.release();
  }
  output.out(`campaign: ${campaignCountLine(results)}`);
  output.out(`reports: ${(await writeCampaignReports(run.reportDir, results, { env: process.env })).join(", ")}`);
  output.out(campaignRateLine(results));
  output.out(`trace-hash: ${campaignTraceHash(results.records)}`);
  if (interrupt.signal.aborted) {
    output.err(`interrupted: ${results.records.length} runs of ${campaign.runs} made; exit ${INTERRUPTED_EXIT}`);
    return INTERRUPTED_EXIT;
  }
  return results.records.some((record) => record.verdict === "failed") ? 1 : 0;
}

/** The workload settings every run of a campaign shares (what `report merge` compares), in one canonical string. */
function workloadOptionsText(settings: SoakSettings, choice: SoakTargetChoice): string {
  const defects = choice.kind === "embedded" ? [...(choice.defects ?? [])].sort().map((defect) => ` --defect ${defect}`).join("") : "";
  return `--duration ${settings.durationMs}ms --writers ${settings.writers} --watchers ${settings.watchers} --readers ${settings.readers} --keys ${settings.keys} --request-timeout ${settings.requestTimeoutMs}ms${defects}`;
}

/** The arguments without --runs and --shard: a run's replay command is one soak with the run's seed. */
function withoutCampaignFlags(args: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const name = /^--(runs|shard)(=|$)/.exec(args[index]!);
    if (name === null) kept.push(args[index]!);
    else if (name[2] === "") index++;
  }
  return kept;
}

/** The target the flags choose (as the conformance command reads them), with the defects the embedded server plants. */
function soakTargetChoice(flags: SoakFlags, planted: ReadonlySet<DefectName>): SoakTargetChoice {
  const choice = targetChoice(flags);
  if (choice.kind === "embedded") return { kind: "embedded", defects: planted };
  if (planted.size > 0) throw new UsageError("--defect plants a bug in the embedded server; it does not go with --server, --kubeconfig or --kube-assets");
  return choice;
}

/** A history file, shape-checked enough to be checked (sim/history/api-history.ts). */
function parseHistory(text: string): ApiHistory {
  const value = JSON.parse(text) as Partial<ApiHistory> | null;
  const problems = [
    typeof value?.namespace !== "string" && "namespace",
    typeof value?.seed !== "number" && "seed",
    typeof value?.target !== "string" && "target",
    !Array.isArray(value?.clients) && "clients",
    !Array.isArray(value?.operations) && "operations",
    typeof value?.startMs !== "number" && "startMs",
    typeof value?.endMs !== "number" && "endMs",
  ].filter((problem): problem is string => problem !== false);
  if (problems.length > 0) throw new Error(`not a soak history (missing or wrong: ${problems.join(", ")})`);
  // Each operation as the checkers read it: a file edited by hand must be refused here, not crash them.
  const kinds = new Set(["write", "get", "list", "watch"]);
  for (const [index, operation] of (value!.operations as readonly Partial<Operation>[]).entries()) {
    const shapeOk =
      typeof operation === "object" &&
      operation !== null &&
      kinds.has(operation.kind as string) &&
      typeof operation.id === "number" &&
      typeof operation.client === "string" &&
      typeof operation.startMs === "number" &&
      (operation.kind === "list"
        ? Array.isArray(operation.pages)
        : operation.kind === "watch"
          ? Array.isArray(operation.events) && typeof operation.opened === "object"
          : typeof (operation as { answer?: unknown }).answer === "object");
    if (!shapeOk) throw new Error(`not a soak history: operation ${index} is not a write, get, list or watch as sim/history/api-history.ts defines them`);
  }
  return value as ApiHistory;
}
