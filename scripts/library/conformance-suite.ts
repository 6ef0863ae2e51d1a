/**
 * The conformance suite of doc 1 as a function: what `orb-harness conformance` runs, with the same
 * runner (conformance/run-conformance.ts), cases and reports, returning the results instead of
 * printing them. Wiring only. The runner is loaded when the suite runs: it brings
 * @kubernetes/client-node (for kubeconfig targets), a third of a second to import that a user of
 * the embedded server alone need not wait for.
 */
import type { CaseStatus, RunResults } from "../../conformance/results.ts";
import type { TargetChoice } from "../../conformance/run-conformance.ts";
import type { ConformanceRun } from "../../conformance/runner.ts";
import { shellQuote } from "../../reports/rerun-command.ts";

/** A conformance run's settings; every one is optional. */
export interface ConformanceSuiteOptions {
  /**
   * What to run against. Default: `{ kind: "embedded", dialect: "kubernetes" }`, an embedded server
   * of its own on a loopback port. `{ kind: "remote", server: url, credentials: { token }, dialect: "auto" }`
   * reaches any server (one of `startEmbeddedServer` too); `{ kind: "remote", kubeconfig: path, dialect: "auto" }`
   * one from a kubeconfig; `{ kind: "kube-assets", assetsDir, profile: "default" }` a real control plane it starts.
   */
  readonly target?: TargetChoice;
  /** Only the cases whose id matches (ids as `orb-harness conformance --list` shows them). */
  readonly focus?: RegExp | string;
  /** Leave out the cases whose id matches. */
  readonly skip?: RegExp | string;
  /** Only the cases that do not write. */
  readonly readOnly?: boolean;
  /** Run the time-dependent cases against a real server too (real waits; `--slow`). */
  readonly slow?: boolean;
  /** Cases at once (default 4). */
  readonly parallel?: number;
  /** How long one case may take, not counting a slow case's deliberate waits (default 60 s). */
  readonly caseTimeoutMs?: number;
  /** Leave the run's orb-conformance-* namespaces on the server. */
  readonly keepNamespaces?: boolean;
  /** Write results.json, junit.xml, summary.md and report.html into this directory. */
  readonly reportDir?: string;
  /** Told a line per finished case, per wait for the server, and per control-plane start step. */
  readonly onProgress?: (line: string) => void;
  /** Told what the user must know but is no case's result (a namespace the run could not delete). */
  readonly onWarning?: (message: string) => void;
  /** Aborting stops the run: running cases end at once, their namespaces are deleted, the rest are skipped. */
  readonly signal?: AbortSignal;
}

/** A finished run. */
export interface ConformanceSuiteResult {
  /** The canonical results (what results.json holds). */
  readonly results: RunResults;
  /** Cases by status, and in all. */
  readonly totals: Readonly<Record<CaseStatus | "total", number>>;
  /** No case failed or errored. */
  readonly passed: boolean;
  /** The report files written (none without `reportDir`). */
  readonly reportFiles: readonly string[];
}

/**
 * Runs the conformance suite and resolves with its results (a failing case does not reject).
 * Rejects when the target cannot be reached (a one-line message: unreachable, unauthorized, a control plane that would not start) or the selection is empty.
 */
export async function runConformanceSuite(options: ConformanceSuiteOptions = {}): Promise<ConformanceSuiteResult> {
  const [{ allCases }, { totals }, { runConformance }, { selectCases }, { writeReports }] = await Promise.all([
    import("../../conformance/cases/index.ts"),
    import("../../conformance/results.ts"),
    import("../../conformance/run-conformance.ts"),
    import("../../conformance/runner.ts"),
    import("../../reports/write-reports.ts"),
  ]);
  const target: TargetChoice = options.target ?? { kind: "embedded", dialect: "kubernetes" };
  const focus = typeof options.focus === "string" ? new RegExp(options.focus) : options.focus;
  const skip = typeof options.skip === "string" ? new RegExp(options.skip) : options.skip;
  // A run of no case would pass vacuously, as the CLI refuses too.
  if (selectCases(allCases, { ...(focus && { focus }), ...(skip && { skip }) }).length === 0) throw new Error("runConformanceSuite: focus/skip select no case");
  const progress = options.onProgress ?? (() => undefined);
  const signal = options.signal;
  signal?.throwIfAborted();
  let run: ConformanceRun | undefined;
  const abort = () => run?.abort();
  signal?.addEventListener("abort", abort, { once: true });
  try {
    const results = await runConformance({
      target: target.kind === "kube-assets" ? { onProgress: progress, ...(signal !== undefined && { signal }), ...target } : target,
      cases: allCases,
      ...(focus && { focus }),
      ...(skip && { skip }),
      readOnly: options.readOnly ?? false,
      slow: options.slow ?? false,
      parallel: options.parallel ?? 4,
      caseTimeoutMs: options.caseTimeoutMs ?? 60_000,
      keepNamespaces: options.keepNamespaces ?? false,
      command: equivalentCommand(target, options),
      progress: { isTTY: false, write: (text) => progress(text.replace(/\n$/, "")) },
      ...(options.onWarning !== undefined && { onWarning: options.onWarning }),
      onRunStarted: (started) => {
        run = started;
        if (signal?.aborted === true) started.abort();
      },
    });
    const counts = totals(results);
    const secrets = target.kind === "remote" && "server" in target && target.credentials.token !== undefined ? [target.credentials.token] : [];
    const written = options.reportDir === undefined ? { files: [] } : await writeReports(results, options.reportDir, { secrets });
    return { results, totals: counts, passed: counts.fail + counts.error === 0, reportFiles: written.files };
  } finally {
    signal?.removeEventListener("abort", abort);
  }
}

/** The `orb-harness conformance` command line of the same run, without credentials (results.command; reports build rerun lines from it). */
function equivalentCommand(target: TargetChoice, options: ConformanceSuiteOptions): string {
  const words = ["orb-harness", "conformance"];
  if (target.kind === "embedded") words.push("--dialect", target.dialect);
  else if (target.kind === "kube-assets") words.push("--kube-assets", target.assetsDir, "--kube-profile", target.profile);
  else {
    if ("server" in target) {
      words.push("--server", target.server);
      if (target.credentials.certificateAuthority !== undefined) words.push("--certificate-authority", target.credentials.certificateAuthority);
      if (target.credentials.insecureSkipTlsVerify === true) words.push("--insecure-skip-tls-verify");
    } else {
      words.push("--kubeconfig", target.kubeconfig);
      if (target.context !== undefined) words.push("--context", target.context);
    }
    words.push("--dialect", target.dialect);
  }
  const pattern = (value: RegExp | string) => (typeof value === "string" ? value : value.source);
  if (options.focus !== undefined) words.push("--focus", pattern(options.focus));
  if (options.skip !== undefined) words.push("--skip", pattern(options.skip));
  if (options.readOnly === true) words.push("--read-only");
  if (options.slow === true) words.push("--slow");
  return words.map(shellQuote).join(" ");
}
