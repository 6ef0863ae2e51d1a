/** `orb-harness conformance`: run the suite against the embedded server or a real endpoint (wiring only). */
import { allCases } from "../../conformance/cases/index.ts";
import { runConformance, type TargetChoice } from "../../conformance/run-conformance.ts";
import { selectCases, type ConformanceRun } from "../../conformance/runner.ts";
import { totals } from "../../conformance/results.ts";
import { TargetError, type Credentials } from "../../conformance/targets/remote-target.ts";
import { uncoveredClauses } from "../../reports/coverage.ts";
import { writeReports } from "../../reports/write-reports.ts";
import { UsageError, type CliCommand, type CliOutput } from "../cli-command.ts";
import { parseFlags, type ParsedFlags } from "../parse-flags.ts";

const DEFAULT_TIMEOUT_S = 60;
const DEFAULT_REPORT_DIR = "reports/out";
const SECRET_FLAGS = new Set(["token", "restricted-token"]);
/** Exit code of a run stopped by Ctrl-C: 128 + SIGINT, as shells report it; the run is incomplete, never a pass. */
const INTERRUPTED_EXIT = 130;

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
    "               [--insecure-skip-tls-verify]",
    "  --kubeconfig PATH [--context NAME]",
    "  --restricted-token T | --restricted-kubeconfig PATH   a second identity, for authorization cases",
    "",
    "selection:",
    "  --focus REGEX  --skip REGEX   by case id",
    "  --list                        list cases with their clauses and exit",
    "  --list-uncovered              list testable clauses of doc 1 that no case checks, and exit",
    "  --read-only                   only cases that do not write",
    "  --slow                        run time-dependent cases against real servers (real waits, minutes)",
    "  --parallel N                  cases at once (default 4)",
    "  --timeout SECONDS             per case, not counting the real waits of --slow cases (default 60)",
    "  --keep-namespaces             leave the run's orb-conformance-* namespaces for inspection",
    "",
    "Writes results.json, junit.xml, summary.md and report.html to --report-dir (default reports/out).",
    "Exit 0 when every case that ran passed, 1 when one failed, 2 for usage or connection errors,",
    "130 when interrupted (Ctrl-C: running cases finish, the run's namespaces are deleted, reports written).",
  ].join("\n"),
  async run(args, output) {
    const flags = parseFlags(args, {
      dialect: "string",
      server: "string",
      token: "string",
      "certificate-authority": "string",
      "client-certificate": "string",
      "client-key": "string",
      "insecure-skip-tls-verify": "boolean",
      kubeconfig: "string",
      context: "string",
      "restricted-token": "string",
      "restricted-kubeconfig": "string",
      focus: "string",
      skip: "string",
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
    const value = (name: string) => flags.values.get(name) as string | undefined;
    if (flags.positionals.length > 0) throw new UsageError(`unexpected argument ${flags.positionals[0]}`);
    const focus = regex(value("focus"), "focus");
    const skip = regex(value("skip"), "skip");
    if (flags.values.get("list") === true) return listCases(output, focus, skip);
    if (flags.values.get("list-uncovered") === true) return listUncovered(output);
    // A run of no case would pass vacuously: a mistyped --focus must not turn CI green.
    if (selectCases(allCases, { ...(focus && { focus }), ...(skip && { skip }) }).length === 0) {
      const given = [focus && `--focus ${value("focus")}`, skip && `--skip ${value("skip")}`].filter(Boolean).join(" with ");
      throw new UsageError(`${given} selects no case; --list shows the case ids`);
    }
    const target = targetChoice(flags);
    const reporter = value("reporter") ?? (process.stdout.isTTY ? "tty" : "plain");
    if (reporter !== "tty" && reporter !== "plain") throw new UsageError(`--reporter must be tty or plain, got ${reporter}`);
    const parallel = (flags.values.get("parallel") as number | undefined) ?? 4;
    if (parallel < 1) throw new UsageError(`--parallel must be at least 1, got ${parallel}`);
    const timeoutS = (flags.values.get("timeout") as number | undefined) ?? DEFAULT_TIMEOUT_S;
    if (timeoutS < 1) throw new UsageError(`--timeout must be at least 1 (seconds), got ${timeoutS}`);
    let current: ConformanceRun | undefined;
    let interrupted = false;
    const interrupt = () => {
      interrupted = true;
      output.err("interrupted: finishing running cases and deleting the run's namespaces (Ctrl-C again to quit at once)");
      current?.abort();
      process.once("SIGINT", () => process.exit(130));
    };
    process.once("SIGINT", interrupt);
    try {
      const results = await runConformance({
        target,
        cases: allCases,
        ...(focus && { focus }),
        ...(skip && { skip }),
        readOnly: flags.values.get("read-only") === true,
        slow: flags.values.get("slow") === true,
        parallel,
        caseTimeoutMs: timeoutS * 1000,
        keepNamespaces: flags.values.get("keep-namespaces") === true,
        command: reproducingCommand(args),
        // A terminal line is redrawn in place (raw writes); plain progress is whole lines, through `output`.
        progress: reporter === "tty" ? { isTTY: true, write: (text) => process.stdout.write(text) } : { isTTY: false, write: (text) => output.out(text.replace(/\n$/, "")) },
        onWarning: (message) => output.err(`warning: ${message}`),
        onRunStarted: (run) => {
          current = run;
        },
      });
      const reportDir = value("report-dir") ?? DEFAULT_REPORT_DIR;
      const secrets = [value("token"), value("restricted-token")].filter((s): s is string => s !== undefined);
      await writeReports(results, reportDir, { secrets, env: process.env });
      const counts = totals(results);
      output.out(`${counts.pass} passed, ${counts.fail} failed, ${counts.skip} skipped, ${counts.error} errors (${results.cases.length} cases against ${results.target.url}, dialect ${results.target.dialect})`);
      output.out(`reports: ${reportDir}/results.json, junit.xml, summary.md, report.html`);
      if (interrupted) {
        output.err(`interrupted: the run is incomplete (cases not started are reported skipped); exit ${INTERRUPTED_EXIT}`);
        return INTERRUPTED_EXIT;
      }
      return counts.fail + counts.error === 0 ? 0 : 1;
    } catch (error) {
      if (!(error instanceof TargetError)) throw error;
      output.err(`orb-harness conformance: ${error.message}`);
      return 2;
    } finally {
      process.removeListener("SIGINT", interrupt);
    }
  },
};

function targetChoice(flags: ParsedFlags): TargetChoice {
  const value = (name: string) => flags.values.get(name) as string | undefined;
  const dialect = value("dialect");
  if (dialect !== undefined && !["orb", "kubernetes", "auto"].includes(dialect)) throw new UsageError(`--dialect must be orb, kubernetes or auto, got ${dialect}`);
  const server = value("server");
  const kubeconfig = value("kubeconfig");
  if (server !== undefined && kubeconfig !== undefined) throw new UsageError("give --server or --kubeconfig, not both");
  if ((value("client-certificate") === undefined) !== (value("client-key") === undefined)) {
    throw new UsageError("--client-certificate and --client-key go together");
  }
  const restrictedToken = value("restricted-token");
  const restrictedKubeconfig = value("restricted-kubeconfig");
  if (restrictedToken !== undefined && restrictedKubeconfig !== undefined) throw new UsageError("give --restricted-token or --restricted-kubeconfig, not both");
  if (server === undefined && kubeconfig === undefined) {
    if (dialect === "auto") throw new UsageError("--dialect auto needs --server or --kubeconfig; the embedded server speaks orb or kubernetes");
    if (restrictedToken !== undefined || restrictedKubeconfig !== undefined) throw new UsageError("a second identity needs --server or --kubeconfig");
    return { kind: "embedded", dialect: (dialect as "orb" | "kubernetes" | undefined) ?? "orb" };
  }
  const restricted =
    restrictedToken !== undefined ? { restricted: { token: restrictedToken } } : restrictedKubeconfig !== undefined ? { restricted: { kubeconfig: restrictedKubeconfig } } : {};
  const chosenDialect = (dialect as "orb" | "kubernetes" | "auto" | undefined) ?? "auto";
  if (kubeconfig !== undefined) {
    const context = value("context");
    return { kind: "remote", kubeconfig, ...(context !== undefined && { context }), dialect: chosenDialect, ...restricted };
  }
  const credentials: Credentials = {
    ...(value("token") !== undefined && { token: value("token")! }),
    ...(value("certificate-authority") !== undefined && { certificateAuthority: value("certificate-authority")! }),
    ...(value("client-certificate") !== undefined && { clientCertificate: value("client-certificate")!, clientKey: value("client-key")! }),
    ...(flags.values.get("insecure-skip-tls-verify") === true && { insecureSkipTlsVerify: true }),
  };
  return { kind: "remote", server: server!, credentials, dialect: chosenDialect, ...restricted };
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

function regex(value: string | undefined, name: string): RegExp | undefined {
  if (value === undefined) return undefined;
  try {
    return new RegExp(value);
  } catch (error) {
    throw new UsageError(`--${name}: ${(error as Error).message}`);
  }
}
