/**
 * One safety check of a conformance run (issue #14), the same against the embedded server and a
 * real control plane: make the bystanders, snapshot the server, run `orb-harness conformance` as a
 * child process with the given target flags, wait until the run's namespaces are gone, snapshot
 * again, and hand back everything a test asserts on: the snapshots, the audit of the writes the
 * transcripts show, the output and every file the run wrote.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunResults } from "../results.ts";
import { createBystanders } from "./bystanders.ts";
import { runConformanceCli, type CliRun } from "./cli-run.ts";
import { snapshotCluster, type ClusterSnapshot, type SnapshotConnection } from "./cluster-snapshot.ts";
import { auditWrites, type WriteAudit } from "./write-audit.ts";

/** What to check. */
export interface SafetyCheckOptions {
  /** An admin connection, for the bystanders and the snapshots (never the run's). */
  readonly admin: SnapshotConnection;
  /** The target flags of the run (`--server URL --token T`, `--kubeconfig PATH`, …). */
  readonly targetArgs: readonly string[];
  /** Further flags (selection, `--slow`). */
  readonly runArgs?: readonly string[];
  /** Whether to create the Widget type's definition too (a real server). */
  readonly withDefinition: boolean;
  /** How long the run's namespaces may take to go after the run (a real server finalizes them). */
  readonly namespacesGoneWithinMs: number;
}

/** What a check found. */
export interface SafetyCheck {
  readonly before: ClusterSnapshot;
  readonly after: ClusterSnapshot;
  /** Snapshot keys of the bystanders. */
  readonly bystanders: readonly string[];
  readonly run: CliRun;
  readonly results: RunResults;
  /** The writes the run's transcripts show, judged. */
  readonly transcriptAudit: WriteAudit;
  /** The run's namespaces still listed after the wait (none, if all went). */
  readonly namespacesLeft: readonly string[];
  /** Every file the run wrote (reports, the step summary), by name, and stdout and stderr. */
  readonly outputs: Readonly<Record<string, string>>;
  readonly wallMs: number;
}

const RUN_NAMESPACE = /^orb-conformance-/;

/** Runs the check; the caller asserts on what it returns. */
export async function checkRunSafety(options: SafetyCheckOptions): Promise<SafetyCheck> {
  const started = performance.now();
  const bystanders = await createBystanders(options.admin, options.withDefinition);
  const before = await snapshotCluster(options.admin);
  const dir = mkdtempSync(join(tmpdir(), "orb-safety-"));
  try {
    const reportDir = join(dir, "reports");
    const stepSummary = join(dir, "step-summary.md");
    writeFileSync(stepSummary, "");
    const run = await runConformanceCli([...options.targetArgs, ...(options.runArgs ?? []), "--reporter", "plain", "--report-dir", reportDir], { env: { GITHUB_STEP_SUMMARY: stepSummary } });
    const namespacesLeft = await runNamespacesGone(options.admin, options.namespacesGoneWithinMs);
    const after = await snapshotCluster(options.admin);
    const outputs: Record<string, string> = { stdout: run.stdout, stderr: run.stderr, "$GITHUB_STEP_SUMMARY": readFileSync(stepSummary, "utf8") };
    for (const name of readdirSync(reportDir)) outputs[name] = readFileSync(join(reportDir, name), "utf8");
    const results = JSON.parse(outputs["results.json"] ?? "null") as RunResults;
    const transcripts = results.cases.flatMap((result) => result.transcript.map((exchange) => ({ method: exchange.method, path: exchange.path, bodyName: bodyName(exchange.requestBody) })));
    return { before, after, bystanders, run, results, transcriptAudit: auditWrites(transcripts, before), namespacesLeft, outputs, wallMs: performance.now() - started };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Waits until no `orb-conformance-…` namespace is listed, at most `withinMs`; returns those still listed. */
async function runNamespacesGone(admin: SnapshotConnection, withinMs: number): Promise<string[]> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    const response = await admin.transport(new Request(`${admin.baseUrl}/api/v1/namespaces`, { headers: { ...admin.headers, accept: "application/json" } }));
    const names = ((await response.json()) as { items: Array<{ metadata: { name: string } }> }).items.map((item) => item.metadata.name).filter((name) => RUN_NAMESPACE.test(name));
    if (names.length === 0 || performance.now() > deadline) return names;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function bodyName(body: string): string | undefined {
  try {
    const name = (JSON.parse(body) as { metadata?: { name?: unknown } }).metadata?.name;
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}
