/** `orb-harness conformance`: run the suite against the embedded server or a real endpoint (wiring only). */
import { allCases } from "../../conformance/cases/index.ts";
import { runConformance, type TargetChoice } from "../../conformance/run-conformance.ts";
import { selectCases, type ConformanceRun } from "../../conformance/runner.ts";
import { totals, type RunResults } from "../../conformance/results.ts";
import { ControlPlaneError } from "../../conformance/control-plane/kube-assets.ts";
import { TargetError } from "../../conformance/targets/remote-target.ts";
import { uncoveredClauses } from "../../reports/coverage.ts";
import { rerunCommand } from "../../reports/rerun-command.ts";
import { writeReports } from "../../reports/write-reports.ts";
import { UsageError, type CliCommand, type CliOutput } from "../cli-command.ts";
import { holdInterrupt, INTERRUPTED_EXIT } from "../interrupt.ts";
import { parseFlags } from "../parse-flags.ts";
import { TARGET_FLAGS, targetChoice, withKubeAssetsDefault } from "../target-flags.ts";

const DEFAULT_TIMEOUT_S = 60;
const DEFAULT_REPORT_DIR = "reports/out";
const SECRET_FLAGS = new Set(["token", "restricted-token"]);
/** Exit code of a run stopped by Ctrl-C: 128 + SIGINT, as shells report it; the run is incomplete, never a pass. */

/** The conformance command. */
export const conformanceCommand: CliCommand = {
  name: "conformance",
  summary: "run the conformance suite of doc 1 against the embedded server or a real endpoint",
  usage: [
    "usage: orb-harness conformance [target] [selection] [--report-dir DIR] [--reporter tty|plain]",
    "",
    "target (default: the embedded server on a loopback port):",
    "  --dialect orb|kubernetes|auto     names and answers to expect (embedded: orb; real servers: auto)",
    "  --server URL [--token T] [--certificate-authority FILE] [--client-certificate FILE --client-key FILE]",
    "  --kubeconfig PATH [--context NAME]",
    "  --insecure-skip-tls-verify        with --server or --kubeconfig: do not verify the server's certificate (as",
    "                                    kubectl's flag; anyone between here and the server can then read the token)",
    "  --kube-assets [DIR] [--kube-profile default|fast-expiry]",
    "                                    start a real control plane from DIR (etcd, kube-apiserver, optionally",
    "                                    kube-controller-manager; default $KUBEBUILDER_ASSETS) on loopback ports, run",
    "                                    against it, stop it and remove its files afterwards (profiles: default,",
    "                                    watch cache on and compaction every 5 min; fast-expiry, watch cache off",
    "                                    and compaction every 10 s)",
    "  --restricted-token T | --restricted-kubeconfig PATH [--restricted-context NAME]",
    "                                    a second identity, for authorization cases; without one, a real server",
    "                                    that lets the main identity impersonate gets a ServiceAccount made per case",
    "  --server-compaction-interval D    how often the server compacts old versions (Go duration, e.g. 5m); without",
    "                                    it the suite measures it when a time-dependent case first needs it",
    "",
    "selection:",
    "  --focus REGEX  --skip REGEX   by case id; each may be repeated (a case matching any --focus runs,",
    "                                unless it matches any --skip)",
    "  --list                        list cases with their clauses and exit",
    "  --list-uncovered              list testable clauses of doc 1 that no case checks, and exit",
    "  --read-only                   only cases that do not write",
    "  --slow                        run time-dependent cases against real servers (real waits, toward the",
    "                                server's own retention: seconds on a server compacting every 10 s)",
    "  --parallel N                  cases at once (default 4)",
    "  --timeout SECONDS             per case, not counting the real waits of --slow cases (default 60)",
    "  --keep-namespaces             leave the run's orb-conformance-* namespaces for inspection",
    "",
    "Writes results.json, junit.xml, summary.md and report.html to --report-dir (default reports/out).",
    "Exit 0 when every case that ran passed, 1 when one failed, 2 for usage or connection errors,",
    "130 when interrupted (Ctrl-C: running cases stop at once, the run's namespaces are deleted, reports written,",
    "a started control plane is stopped; a second Ctrl-C quits at once).",
  ].join("\n"),
  async run(args, output) {
    const options = conformanceOptions(args);
    if (options.kind === "list") return listCases(output, options.focus, options.skip);
    if (options.kind === "list-uncovered") return listUncovered(output);
    return conformance(options, output);
  },
};

/** What `conformance` does: list the cases, list the uncovered clauses, or run. */
type ConformanceOptions =
  | { readonly kind: "list"; readonly focus: RegExp | undefined; readonly skip: RegExp | undefined }
  | { readonly kind: "list-uncovered" }
  | RunOptions;

/** A run: the target, the cases, how to report. */
interface RunOptions {
  readonly kind: "run";
  readonly target: TargetChoice;
  readonly focus: RegExp | undefined;
  readonly skip: RegExp | undefined;
  readonly readOnly: boolean;
  readonly slow: boolean;
  readonly parallel: number;
  readonly timeoutS: number;
  readonly keepNamespaces: boolean;
  readonly reporter: "tty" | "plain";
  readonly reportDir: string;
  /** The tokens given, kept out of every report. */
  readonly secrets: readonly string[];
  /** How to rerun, as the results record it (credentials redacted). */
  readonly command: string;
}

/** The options `givenArgs` give; throws UsageError for bad flags. */
function conformanceOptions(givenArgs: readonly string[]): ConformanceOptions {
  const args = withKubeAssetsDefault(givenArgs);
  const { values, positionals } = parseFlags(args, {
    dialect: "string",
    ...TARGET_FLAGS,
    "restricted-token": "string",
    "restricted-kubeconfig": "string",
    "restricted-context": "string",
    "server-compaction-interval": "string",
    focus: "repeated",
    skip: "repeated",
    list: "boolean",
    "list-uncovered": "boolean",
    parallel: "integer",
    timeout: "integer",
    "read-only": "boolean",
    slow: "boolean",
    "keep-namespaces": "boolean",
    "report-dir": "string",
    reporter: "string",
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const focus = anyOf(values.get("focus"), "focus");
  const skip = anyOf(values.get("skip"), "skip");
  if (values.get("list") === true) return { kind: "list", focus, skip };
  if (values.get("list-uncovered") === true) return { kind: "list-uncovered" };
  // A run of no case would pass vacuously: a mistyped --focus must not turn CI green.
  if (selectCases(allCases, { ...(focus && { focus }), ...(skip && { skip }) }).length === 0) {
    const flags = (name: "focus" | "skip") => (values.get(name) ?? []).map((pattern) => `--${name} ${pattern}`).join(" ");
    const given = [focus && flags("focus"), skip && flags("skip")].filter(Boolean).join(" with ");
    throw new UsageError(`${given} selects no case; --list shows the case ids`);
  }
  const target = targetChoice(values, values);
  const reporter = values.get("reporter") ?? (process.stdout.isTTY ? "tty" : "plain");
  if (reporter !== "tty" && reporter !== "plain") throw new UsageError(`--reporter must be tty or plain, got ${reporter}`);
  const parallel = values.get("parallel") ?? 4;
  if (parallel < 1) throw new UsageError(`--parallel must be at least 1, got ${parallel}`);
  const timeoutS = values.get("timeout") ?? DEFAULT_TIMEOUT_S;
  if (timeoutS < 1) throw new UsageError(`--timeout must be at least 1 (seconds), got ${timeoutS}`);
  return {
    kind: "run",
    target,
    focus,
    skip,
    readOnly: values.get("read-only") === true,
    slow: values.get("slow") === true,
    parallel,
    timeoutS,
    keepNamespaces: values.get("keep-namespaces") === true,
    reporter,
    reportDir: values.get("report-dir") ?? DEFAULT_REPORT_DIR,
    secrets: [values.get("token"), values.get("restricted-token")].filter((s): s is string => s !== undefined),
    command: reproducingCommand(args),
  };
}

/** Runs the cases against the target, writes the reports; the exit code. */
async function conformance(options: RunOptions, output: CliOutput): Promise<number> {
  const { target, focus, skip, reporter, reportDir } = options;
  let current: ConformanceRun | undefined;
  let interrupted = false;
  const starting = new AbortController();
  const interrupt = holdInterrupt(output, "interrupted: stopping running cases and deleting the run's namespaces (Ctrl-C again to quit at once)", () => {
    interrupted = true;
    // The redrawn progress line is on stdout: clear it, so the message starts a line of its own.
    if (reporter === "tty") process.stdout.write("\r\x1b[2K");
    starting.abort();
    current?.abort();
  });
  // Progress of a control plane's start: a line redrawn on a terminal, whole lines otherwise.
  const startProgress = (line: string) => (reporter === "tty" ? process.stdout.write(`\r\x1b[2K${line}`) : output.out(line));
  try {
    const results = await runConformance({
      target: target.kind === "kube-assets" ? { ...target, onProgress: startProgress, signal: starting.signal } : target,
      cases: allCases,
      ...(focus && { focus }),
      ...(skip && { skip }),
      readOnly: options.readOnly,
      slow: options.slow,
      parallel: options.parallel,
      caseTimeoutMs: options.timeoutS * 1000,
      keepNamespaces: options.keepNamespaces,
      command: options.command,
      // A terminal line is redrawn in place (raw writes); plain progress is whole lines, through `output`.
      progress: reporter === "tty" ? { isTTY: true, write: (text) => process.stdout.write(text), columns: () => process.stdout.columns } : { isTTY: false, write: (text) => output.out(text.replace(/\n$/, "")) },
      onWarning: (message) => output.err(`warning: ${message}`),
      onRunStarted: (run) => {
        current = run;
        // Ctrl-C while the target was being reached: the run starts no case.
        if (interrupted) run.abort();
      },
    });
    await writeReports(results, reportDir, { secrets: options.secrets, env: process.env });
    const counts = totals(results);
    output.out(`${counts.pass} passed, ${counts.fail} failed, ${counts.skip} skipped, ${counts.error} errors (${results.cases.length} cases against ${results.target.url}, dialect ${results.target.dialect})`);
    for (const line of failureRecap(results)) output.out(line);
    output.out(`reports: ${reportDir}/results.json, junit.xml, summary.md, report.html`);
    if (interrupted) {
      output.err(`interrupted: the run is incomplete (cases not started are reported skipped); exit ${INTERRUPTED_EXIT}`);
      return INTERRUPTED_EXIT;
    }
    return counts.fail + counts.error === 0 ? 0 : 1;
  } catch (error) {
    if (!(error instanceof TargetError || error instanceof ControlPlaneError)) throw error;
    output.err(`orb-harness conformance: ${error.message}`);
    return interrupted ? INTERRUPTED_EXIT : 2;
  } finally {
    interrupt.release();
  }
}

function listCases(output: CliOutput, focus: RegExp | undefined, skip: RegExp | undefined): number {
  for (const testCase of allCases) {
    if ((focus && !focus.test(testCase.id)) || skip?.test(testCase.id)) continue;
    output.out(`${testCase.id}  [${testCase.tags.join(",")}]  ${testCase.clauses.join(" ")}`);
  }
  return 0;
}

function listUncovered(output: CliOutput): number {
  const uncovered = uncoveredClauses(allCases);
  for (const clause of uncovered) output.out(`${clause.id}  ${clause.text}`);
  output.out(`${uncovered.length} testable clauses without a case`);
  return 0;
}

// The results record how to rerun, never with credentials in it.
function reproducingCommand(args: readonly string[]): string {
  const shown: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const name = arg.replace(/^--/, "").split("=")[0]!;
    if (SECRET_FLAGS.has(name)) {
      if (!arg.includes("=")) index++;
      shown.push(`--${name}=REDACTED`);
      continue;
    }
    shown.push(/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`);
  }
  return ["npx tsx scripts/cli.ts conformance", ...shown].join(" ");
}

/**
 * One line per case that failed or errored, with the command that reruns it alone (as the reports
 * give it): what to paste after a red run, below the counts.
 */
export function failureRecap(results: Pick<RunResults, "command" | "cases">): string[] {
  return results.cases
    .filter((result) => result.status === "fail" || result.status === "error")
    .map((result) => `${result.status === "fail" ? "FAILED" : "ERROR "} ${result.id}  →  ${rerunCommand(results, result.id)}`);
}

/**
 * The patterns of a repeated --focus or --skip as one: a case id matches when any of them does.
 * Each is checked alone first, so an error names the pattern at fault.
 */
function anyOf(patterns: readonly string[] | undefined, name: string): RegExp | undefined {
  if (patterns === undefined || patterns.length === 0) return undefined;
  for (const pattern of patterns) {
    try {
      new RegExp(pattern);
    } catch (error) {
      throw new UsageError(`--${name}: ${(error as Error).message}`);
    }
  }
  if (patterns.length === 1) return new RegExp(patterns[0]!);
  try {
    return new RegExp(patterns.map((pattern) => `(?:${pattern})`).join("|"));
  } catch (error) {
    // Two patterns naming the same capture group cannot be joined into one.
    throw new UsageError(`--${name} ${patterns.join(" --" + name + " ")}: cannot be combined: ${(error as Error).message}`);
  }
}
