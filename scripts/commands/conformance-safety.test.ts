/**
 * Runner safety against a server that holds objects of its users (issue #14), end to end: the
 * embedded server, auth on, populated with bystanders (conformance/safety/bystanders.ts), then a
 * conformance run as a user starts one (a child process):
 * - the whole suite, time-dependent cases included, with --server, --token and --restricted-token;
 * - a selection with --kubeconfig and --restricted-kubeconfig, token users.
 * After each: every object that existed before is there, byte for byte (resourceVersion and uid
 * included); the run left nothing behind; the server received no write outside the run's own
 * namespaces and Nodes; and no output — stdout, stderr, the four reports with their transcripts,
 * the GitHub step summary — holds a token, raw or base64.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allCases } from "../../conformance/cases/index.ts";
import { totals } from "../../conformance/results.ts";
import { addedObjects, compareSnapshots } from "../../conformance/safety/cluster-snapshot.ts";
import { startObservedServer, type ObservedServer } from "../../conformance/safety/observed-server.ts";
import { checkRunSafety, type SafetyCheck } from "../../conformance/safety/safety-check.ts";
import { findSecrets } from "../../conformance/safety/secret-grep.ts";
import { auditWrites } from "../../conformance/safety/write-audit.ts";

// Distinctive, so a hit can only be a leak.
const TOKEN = `orb-safety-admin-${randomBytes(16).toString("hex")}`;
const RESTRICTED_TOKEN = `orb-safety-restricted-${randomBytes(16).toString("hex")}`;
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const REPORTS = ["results.json", "junit.xml", "summary.md", "report.html"];

/**
 * The time-dependent cases wait toward the server's retention: 14 s of history compacted every
 * second, announced as a 6 s compaction interval (retention.ts: kept at least 6 s, gone within
 * 17 s; the server keeps 14 s and drops within 16). Long enough for a case to watch from a
 * bookmark it got, short enough for the expiry cases to take seconds.
 */
const RETENTION = { historyWindowMs: 14_000, compactionIntervalMs: 1_000 };

interface Run {
  readonly server: ObservedServer;
  readonly check: SafetyCheck;
  readonly expectedCases: number;
}

let dir: string;
const runs = new Map<string, Run>();

async function safetyRun(targetArgs: (url: string) => string[], runArgs: string[], expectedCases: number): Promise<Run> {
  const server = await startObservedServer({ token: TOKEN, restrictedToken: RESTRICTED_TOKEN, retention: RETENTION });
  const check = await checkRunSafety({
    admin: { transport: server.transport, baseUrl: server.url, headers: {} },
    targetArgs: targetArgs(server.url),
    runArgs,
    withDefinition: false,
    namespacesGoneWithinMs: 10_000,
  });
  return { server, check, expectedCases };
}

function kubeconfig(name: string, server: string, token: string): string {
  const path = join(dir, name);
  const lines = ["apiVersion: v1", "kind: Config", `clusters: [{name: c, cluster: {server: "${server}"}}]`, `users: [{name: u, user: {token: "${token}"}}]`, "contexts: [{name: x, context: {cluster: c, user: u}}]", "current-context: x"];
  writeFileSync(path, lines.join("\n"));
  return path;
}

// The selection of the kubeconfig run: the cases whose messages and transcripts say the most
// about identities (authorization), plus writes of every kind and refusals.
const KUBECONFIG_SELECTION = /^(authorization|crud|errors)\//;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "orb-conformance-safety-"));
  // Both at once: the full run mostly waits on the retention.
  const [flags, kubeconfigs] = await Promise.all([
    safetyRun((url) => ["--server", url, "--token", TOKEN, "--restricted-token", RESTRICTED_TOKEN], ["--slow", "--server-compaction-interval", "6s", "--parallel", "8"], allCases.length),
    safetyRun(
      (url) => ["--kubeconfig", kubeconfig("admin", url, TOKEN), "--restricted-kubeconfig", kubeconfig("restricted", url, RESTRICTED_TOKEN)],
      ["--focus", KUBECONFIG_SELECTION.source],
      allCases.filter((testCase) => KUBECONFIG_SELECTION.test(testCase.id)).length,
    ),
  ]);
  runs.set("--server --token, the whole suite with --slow", flags);
  runs.set("--kubeconfig with token users", kubeconfigs);
}, 180_000);

afterAll(async () => {
  await Promise.all([...runs.values()].map((run) => run.server.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe.each(["--server --token, the whole suite with --slow", "--kubeconfig with token users"])("a conformance run (%s) against a server holding bystanders", (name) => {
  const run = () => runs.get(name)!;

  it("runs every selected case, and each passes", () => {
    const { check, expectedCases } = run();
    expect(check.run.stderr).toBe("");
    expect(check.run.code).toBe(0);
    expect(totals(check.results)).toEqual({ total: expectedCases, pass: expectedCases, fail: 0, skip: 0, error: 0 });
  });

  it("leaves every object that existed before untouched: still there, byte for byte", () => {
    const { before, after, bystanders } = run().check;
    // The bystanders are among what is compared, and so is what the server holds of its own.
    expect(bystanders.filter((key) => !before.objects.has(key))).toEqual([]);
    expect(before.objects.size).toBeGreaterThan(bystanders.length);
    expect(compareSnapshots(before, after)).toEqual([]);
  });

  it("leaves nothing of its own: no object the server did not hold before, no namespace terminating", () => {
    const { before, after, namespacesLeft } = run().check;
    expect(namespacesLeft).toEqual([]);
    expect(addedObjects(before, after).map((entry) => entry.key)).toEqual([]);
  });

  it("sends no write outside the namespaces and Nodes it created, as the server saw the requests", () => {
    const { server, check } = run();
    const audit = auditWrites(server.log, check.before);
    expect(audit.outside).toEqual([]);
    // One namespace per mutating case, or there would be nothing to judge.
    expect(audit.runNamespaces.length).toBe(check.results.cases.filter((result) => result.tags.includes("mutating")).length);
    expect(check.transcriptAudit.outside).toEqual([]);
  });

  it("records in its transcripts every write the server received (what the real-server check relies on)", () => {
    const { server, check } = run();
    const recorded = new Map<string, number>();
    for (const exchange of check.results.cases.flatMap((result) => result.transcript)) {
      if (!WRITES.has(exchange.method)) continue;
      const key = `${exchange.method} ${exchange.path.split("?")[0]}`;
      recorded.set(key, (recorded.get(key) ?? 0) + 1);
    }
    const unrecorded = server.log.filter((request) => {
      const key = `${request.method} ${request.path}`;
      if (!WRITES.has(request.method)) return false;
      const left = recorded.get(key) ?? 0;
      recorded.set(key, left - 1);
      return left <= 0;
    });
    expect(unrecorded).toEqual([]);
  });

  it("shows no token, raw or base64, in stdout, stderr, any report or transcript, or the step summary", () => {
    const { outputs } = run().check;
    expect(Object.keys(outputs).sort()).toEqual(["$GITHUB_STEP_SUMMARY", "stderr", "stdout", ...REPORTS].sort());
    expect(outputs["results.json"]).toMatch(/"transcript": \[\s*\{/);
    expect(findSecrets(outputs, { "the admin token": TOKEN, "the restricted token": RESTRICTED_TOKEN })).toEqual([]);
  });
});
