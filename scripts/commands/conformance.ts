/** `orb-harness conformance`: run the suite against the embedded server or a real endpoint (wiring only). */
import { allCases } from "../../conformance/cases/index.ts";
import { runConformance, type TargetChoice } from "../../conformance/run-conformance.ts";
import { selectCases, type ConformanceRun } from "../../conformance/runner.ts";
import { totals } from "../../conformance/results.ts";
import { ControlPlaneError, ASSETS_ENVIRONMENT_VARIABLE } from "../../conformance/control-plane/kube-assets.ts";
import { kubeProfileByName, KUBE_PROFILES } from "../../conformance/control-plane/kube-profiles.ts";
import { TargetError, type Credentials } from "../../conformance/targets/remote-target.ts";
import { GoDurationError, goDurationToMs, parseGoDuration } from "../../sim/config/go-duration.ts";
import { uncoveredClauses } from "../../reports/coverage.ts";
import { writeReports } from "../../reports/write-reports.ts";
import { UsageError, type CliCommand, type CliOutput } from "../cli-command.ts";
import { parseFlags, type ParsedFlags } from "../parse-flags.ts";

const DEFAULT_TIMEOUT_S = 60;
const DEFAULT_REPORT_DIR = "reports/out";
const SECRET_FLAGS = new Set(["token", "restricted-token"]);
/** The flags on how to reach and trust a server, and the targets that read each. */
const CONNECTION_FLAG_TARGETS: Readonly<Record<string, string>> = {
  token: "--server (a kubeconfig holds its own credentials)",
  "certificate-authority": "--server (a kubeconfig holds its own)",
  "client-certificate": "--server (a kubeconfig holds its own credentials)",
  "client-key": "--server (a kubeconfig holds its own credentials)",
  "insecure-skip-tls-verify": "--server or --kubeconfig",
  context: "--kubeconfig",
};
const CONNECTION_FLAGS = ["token", "certificate-authority", "client-certificate", "client-key", "insecure-skip-tls-verify"];
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
    "  --focus REGEX  --skip REGEX   by case id",
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
  async run(givenArgs, output) {
    const args = withKubeAssetsDefault(givenArgs);
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
      "restricted-context": "string",
      "kube-assets": "string",
      "kube-profile": "string",
      "server-compaction-interval": "string",
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
    const starting = new AbortController();
    const interrupt = () => {
      interrupted = true;
      // The redrawn progress line is on stdout: clear it, so the message starts a line of its own.
      if (reporter === "tty") process.stdout.write("\r\x1b[2K");
      output.err("interrupted: stopping running cases and deleting the run's namespaces (Ctrl-C again to quit at once)");
      starting.abort();
      current?.abort();
      process.once("SIGINT", () => process.exit(INTERRUPTED_EXIT));
    };
    process.once("SIGINT", interrupt);
    // Progress of a control plane's start: a line redrawn on a terminal, whole lines otherwise.
    const startProgress = (line: string) => (reporter === "tty" ? process.stdout.write(`\r\x1b[2K${line}`) : output.out(line));
    try {
      const results = await runConformance({
        target: target.kind === "kube-assets" ? { ...target, onProgress: startProgress, signal: starting.signal } : target,
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
        progress: reporter === "tty" ? { isTTY: true, write: (text) => process.stdout.write(text), columns: () => process.stdout.columns } : { isTTY: false, write: (text) => output.out(text.replace(/\n$/, "")) },
        onWarning: (message) => output.err(`warning: ${message}`),
        onRunStarted: (run) => {
          current = run;
          // Ctrl-C while the target was being reached: the run starts no case.
          if (interrupted) run.abort();
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
      if (!(error instanceof TargetError || error instanceof ControlPlaneError)) throw error;
      output.err(`orb-harness conformance: ${error.message}`);
      return interrupted ? INTERRUPTED_EXIT : 2;
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
  // A connection flag the chosen target does not read would be ignored while the user believes it
  // applies (an --insecure-skip-tls-verify or a --token that does nothing): refused instead.
  const applies = server !== undefined ? CONNECTION_FLAGS : kubeconfig !== undefined ? ["insecure-skip-tls-verify", "context"] : [];
  for (const [flag, where] of Object.entries(CONNECTION_FLAG_TARGETS)) {
    if (flags.values.has(flag) && !applies.includes(flag)) throw new UsageError(`--${flag} goes with ${where}`);
  }
  const restrictedToken = value("restricted-token");
  const restrictedKubeconfig = value("restricted-kubeconfig");
  const restrictedContext = value("restricted-context");
  if (restrictedToken !== undefined && restrictedKubeconfig !== undefined) throw new UsageError("give --restricted-token or --restricted-kubeconfig, not both");
  if (restrictedContext !== undefined && restrictedKubeconfig === undefined) throw new UsageError("--restricted-context selects a context of --restricted-kubeconfig, which is missing");
  const compactionIntervalMs = durationMs(value("server-compaction-interval"), "server-compaction-interval");
  const kubeAssets = value("kube-assets");
  const kubeProfile = value("kube-profile");
  if (kubeProfile !== undefined && kubeProfileByName(kubeProfile) === undefined) {
    throw new UsageError(`--kube-profile must be ${Object.keys(KUBE_PROFILES).join(" or ")}, got ${kubeProfile}`);
  }
  if (kubeAssets !== undefined) {
    if (server !== undefined || kubeconfig !== undefined) throw new UsageError("give --kube-assets, --server or --kubeconfig, not two of them");
    if (dialect !== undefined && dialect !== "kubernetes" && dialect !== "auto") throw new UsageError(`a control plane started with --kube-assets speaks kubernetes, not ${dialect}`);
    if (restrictedKubeconfig !== undefined) throw new UsageError("with --kube-assets, a second identity is --restricted-token (or, by default, an impersonated ServiceAccount)");
    if (compactionIntervalMs !== undefined) throw new UsageError("--server-compaction-interval is for --server or --kubeconfig: with --kube-assets the profile sets it");
    return {
      kind: "kube-assets",
      assetsDir: kubeAssets,
      profile: (kubeProfile as "default" | "fast-expiry" | undefined) ?? "default",
      ...(restrictedToken !== undefined && { restrictedToken }),
    };
  }
  if (kubeProfile !== undefined) throw new UsageError(`--kube-profile needs --kube-assets DIR (or $${ASSETS_ENVIRONMENT_VARIABLE})`);
  if (server === undefined && kubeconfig === undefined) {
    if (compactionIntervalMs !== undefined) throw new UsageError("--server-compaction-interval needs --server or --kubeconfig: the embedded server's is known");
    if (dialect === "auto") throw new UsageError("--dialect auto needs --server or --kubeconfig; the embedded server speaks orb or kubernetes");
    if (restrictedToken !== undefined || restrictedKubeconfig !== undefined) throw new UsageError("a second identity needs --server or --kubeconfig");
    return { kind: "embedded", dialect: (dialect as "orb" | "kubernetes" | undefined) ?? "orb" };
  }
  const restricted =
    restrictedToken !== undefined
      ? { restricted: { token: restrictedToken } }
      : restrictedKubeconfig !== undefined
        ? { restricted: { kubeconfig: restrictedKubeconfig, ...(restrictedContext !== undefined && { context: restrictedContext }) } }
        : {};
  const chosenDialect = (dialect as "orb" | "kubernetes" | "auto" | undefined) ?? "auto";
  const retention = compactionIntervalMs === undefined ? {} : { compactionIntervalMs };
  const insecure = flags.values.get("insecure-skip-tls-verify") === true ? { insecureSkipTlsVerify: true } : {};
  if (kubeconfig !== undefined) {
    const context = value("context");
    return { kind: "remote", kubeconfig, ...(context !== undefined && { context }), ...insecure, dialect: chosenDialect, ...restricted, ...retention };
  }
  const credentials: Credentials = {
    ...(value("token") !== undefined && { token: value("token")! }),
    ...(value("certificate-authority") !== undefined && { certificateAuthority: value("certificate-authority")! }),
    ...(value("client-certificate") !== undefined && { clientCertificate: value("client-certificate")!, clientKey: value("client-key")! }),
    ...insecure,
  };
  return { kind: "remote", server: server!, credentials, dialect: chosenDialect, ...restricted, ...retention };
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

/**
 * `--kube-assets` given no directory (last, or followed by another flag) takes envtest's
 * $KUBEBUILDER_ASSETS, as envtest users expect.
 */
function withKubeAssetsDefault(args: readonly string[]): readonly string[] {
  return args.map((arg, index) => {
    if (arg !== "--kube-assets") return arg;
    const next = args[index + 1];
    if (next !== undefined && !next.startsWith("--")) return arg;
    const fromEnvironment = process.env[ASSETS_ENVIRONMENT_VARIABLE];
    if (fromEnvironment === undefined || fromEnvironment === "") {
      throw new UsageError(`--kube-assets needs a directory (etcd, kube-apiserver), or $${ASSETS_ENVIRONMENT_VARIABLE} set to one`);
    }
    return `--kube-assets=${fromEnvironment}`;
  });
}

function durationMs(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  let ms: number;
  try {
    ms = goDurationToMs(parseGoDuration(text));
  } catch (error) {
    if (error instanceof GoDurationError) throw new UsageError(`--${name}: ${error.message}`);
    throw error;
  }
  if (ms <= 0) throw new UsageError(`--${name} must be positive, got ${text}`);
  return ms;
}
