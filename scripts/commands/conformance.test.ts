/**
 * `orb-harness conformance` end to end (issue #5): exit 2 for bad usage and an unreachable target
 * before any case runs; a run against a separately started server with --server and --token, one
 * line per case, the four reports, and the credentials in none of the outputs; exit 1 when a case
 * fails; exit 130 for a run stopped by Ctrl-C, after the running cases finish.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedTarget } from "../../conformance/targets/embedded-target.ts";
import type { Target } from "../../conformance/targets/target.ts";
import { dialectByName } from "../../spec/dialects.ts";
import { main } from "../cli.ts";

const REPORTS = ["results.json", "junit.xml", "summary.md", "report.html"];

let dir: string;
let server: Target;
let defective: Target;
let skipsPages: Target;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "orb-conformance-command-"));
  [server, defective, skipsPages] = await Promise.all([
    startEmbeddedTarget(dialectByName("orb")),
    startEmbeddedTarget(dialectByName("kubernetes"), { defects: new Set(["dry-run-persists"]) }),
    startEmbeddedTarget(dialectByName("orb"), { defects: new Set(["paging-skips-after-write"]) }),
  ]);
});
afterAll(async () => {
  await Promise.all([server.close(), defective.close(), skipsPages.close()]);
  rmSync(dir, { recursive: true, force: true });
});

async function conformance(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["conformance", ...args], { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

describe("orb-harness conformance", () => {
  it.each([
    [["--timeout", "0"], /--timeout must be at least 1/],
    [["--parallel", "0"], /--parallel must be at least 1/],
    [["--focus", "^no-such-area/"], /--focus \^no-such-area\/ selects no case/],
    [["--focus", "^health/", "--skip", "."], /--focus \^health\/ with --skip \. selects no case/],
    [["--focus", "^no-such-area/", "--focus", "^nor-this/"], /--focus \^no-such-area\/ --focus \^nor-this\/ selects no case/],
    [["--focus", "^health/", "--skip", "^health/", "--skip", "x"], /--focus \^health\/ with --skip \^health\/ --skip x selects no case/],
    [["--focus", "^health/", "--focus", "("], /--focus: Invalid regular expression: \/\(\/: Unterminated group/],
    [["--dialect", "auto"], /--dialect auto needs --server or --kubeconfig/],
    [["--reporter", "fancy"], /--reporter must be tty or plain/],
    [["--kube-profile", "fast-expiry"], /--kube-profile needs --kube-assets DIR/],
    [["--kube-assets", "/nonexistent", "--kube-profile", "slow"], /--kube-profile must be default or fast-expiry, got slow/],
    [["--kube-assets", "/nonexistent", "--server", "https://127.0.0.1:1"], /give --kube-assets, --server or --kubeconfig, not two of them/],
    [["--kube-assets", "/nonexistent", "--dialect", "orb"], /speaks kubernetes, not orb/],
    [["--server", "https://127.0.0.1:1", "--restricted-context", "x"], /--restricted-context selects a context of --restricted-kubeconfig, which is missing/],
    [["--server", "https://127.0.0.1:1", "--server-compaction-interval", "5 minutes"], /--server-compaction-interval: time: unknown unit " minutes" in duration "5 minutes"/],
    [["--server-compaction-interval", "5m"], /--server-compaction-interval needs --server or --kubeconfig/],
  ])("exits 2 for %j, before any case runs", async (args, message) => {
    const reportDir = join(dir, "usage");
    const { code, out, err } = await conformance(...args, "--report-dir", reportDir);
    expect(code).toBe(2);
    expect(err.join("\n")).toMatch(message);
    expect(out).toEqual([]);
    expect(existsSync(reportDir)).toBe(false);
  });

  it("exits 2 with a one-line reason for a --kube-assets directory without binaries, before any case runs", async () => {
    const reportDir = join(dir, "no-assets");
    const { code, out, err } = await conformance("--kube-assets", join(dir, "no-such-assets"), "--report-dir", reportDir);
    expect(code).toBe(2);
    expect(err).toEqual([`orb-harness conformance: kube assets directory ${join(dir, "no-such-assets")} does not exist (it should hold etcd and kube-apiserver, as envtest's KUBEBUILDER_ASSETS)`]);
    expect(out).toEqual([]);
    expect(existsSync(reportDir)).toBe(false);
  });

  it("exits 2 with a one-line reason for an unreachable target, before any case runs", async () => {
    const reportDir = join(dir, "unreachable");
    const { code, out, err } = await conformance("--server", "http://127.0.0.1:1", "--report-dir", reportDir);
    expect(code).toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^orb-harness conformance: cannot reach http:\/\/127\.0\.0\.1:1: [^\n]+$/);
    expect(out).toEqual([]);
    expect(existsSync(reportDir)).toBe(false);
  });

  it("runs against a server started apart with --server and --token; one line per case; no output shows the tokens", async () => {
    const [token, restrictedToken] = server.secrets as [string, string];
    const reportDir = join(dir, "remote");
    const { code, out, err } = await conformance(
      "--server", server.url, "--token", token, "--restricted-token", restrictedToken,
      "--focus", "^(authorization|health)/", "--reporter", "plain", "--report-dir", reportDir,
    );
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const caseLines = out.filter((line) => /^(PASS|FAIL|SKIP|ERROR) /.test(line));
    expect(caseLines).toHaveLength(15);
    expect(out.at(-2)).toMatch(/^15 passed, 0 failed, 0 skipped, 0 errors \(15 cases against http:\/\/127\.0\.0\.1:\d+, dialect orb\)$/);
    const outputs = [out.join("\n"), ...REPORTS.map((name) => readFileSync(join(reportDir, name), "utf8"))];
    for (const [index, text] of outputs.entries()) {
      expect(text, ["stdout", ...REPORTS][index]).not.toContain(token);
      expect(text, ["stdout", ...REPORTS][index]).not.toContain(restrictedToken);
    }
    const results = JSON.parse(outputs[1]!);
    expect(results.target).toMatchObject({ url: server.url, kind: "server", dialect: "orb" });
    expect(results.command).toContain("--token=REDACTED --restricted-token=REDACTED");
  });

  it("exits 1 when a case fails, and the failure names its clauses in junit.xml", async () => {
    const reportDir = join(dir, "defective");
    const { code, out } = await conformance("--server", defective.url, "--token", defective.secrets[0]!, "--dialect", "auto", "--focus", "^dry-run/create", "--report-dir", reportDir);
    expect(code).toBe(1);
    expect(out.some((line) => line.startsWith("FAIL  dry-run/create"))).toBe(true);
    expect(readFileSync(join(reportDir, "junit.xml"), "utf8")).toMatch(/<failure message="[^"]*"[^>]*>[^<]*clauses:\n {2}doc1\/4\.4\//);
  });

  it("recaps each failed case after the counts, with the command that reruns it alone", async () => {
    const reportDir = join(dir, "skips-pages");
    const { code, out } = await conformance("--server", skipsPages.url, "--token", skipsPages.secrets[0]!, "--focus", "^paging/", "--reporter", "plain", "--report-dir", reportDir);
    expect(code).toBe(1);
    const counts = out.findIndex((line) => /^\d+ passed, \d+ failed, /.test(line));
    const failed = out.filter((line) => /^(FAIL|ERROR) /.test(line)).map((line) => line.split(/\s+/)[1]!);
    expect(failed.length).toBeGreaterThan(0);
    const recap = out.slice(counts + 1, counts + 1 + failed.length);
    expect(recap).toEqual(
      failed.map((id) => {
        const status = out.find((line) => line.split(/\s+/)[1] === id)!.startsWith("FAIL") ? "FAILED" : "ERROR ";
        return `${status} ${id}  →  npx tsx scripts/cli.ts conformance --server ${skipsPages.url} --reporter plain --focus '^${id}$'`;
      }),
    );
    expect(out.at(-1)).toMatch(/^reports: /);
    expect(out.join("\n")).not.toContain(skipsPages.secrets[0]!);
  });

  it("prints no recap when every case passed", async () => {
    const { code, out } = await conformance("--focus", "^health/", "--reporter", "plain", "--report-dir", join(dir, "no-recap"));
    expect(code).toBe(0);
    expect(out.filter((line) => /^(FAILED|ERROR ) /.test(line))).toEqual([]);
  });

  it("combines repeated --focus and --skip: a case matching any --focus, and no --skip, is selected", async () => {
    const ids = async (...args: string[]) => (await conformance("--list", ...args)).out.map((line) => line.split(" ")[0]!);
    const health = await ids("--focus", "^health/");
    const paging = await ids("--focus", "^paging/");
    expect(health.length).toBeGreaterThan(1);
    expect(paging.length).toBeGreaterThan(1);
    const both = await ids("--focus", "^health/", "--focus", "^paging/");
    expect(new Set(both)).toEqual(new Set([...health, ...paging]));
    const skipped = await ids("--focus", "^health/", "--focus", "^paging/", "--skip", `^${health[0]}$`, "--skip", `^${paging[0]}$`);
    expect(new Set(skipped)).toEqual(new Set([...health.slice(1), ...paging.slice(1)]));
  });

  it("takes the second identity from --restricted-kubeconfig's context named by --restricted-context; a name it lacks is a one-line error", async () => {
    const [token, restrictedToken] = server.secrets as [string, string];
    const kubeconfig = join(dir, "two-identities.kubeconfig");
    writeFileSync(
      kubeconfig,
      [
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        `- {name: local, cluster: {server: "${server.url}"}}`,
        "users:",
        `- {name: admin, user: {token: "${token}"}}`,
        `- {name: restricted, user: {token: "${restrictedToken}"}}`,
        "contexts:",
        "- {name: admin, context: {cluster: local, user: admin}}",
        "- {name: restricted, context: {cluster: local, user: restricted}}",
        "current-context: admin",
      ].join("\n"),
    );
    const chosen = await conformance(
      "--kubeconfig", kubeconfig, "--restricted-kubeconfig", kubeconfig, "--restricted-context", "restricted",
      "--focus", "^authorization/", "--reporter", "plain", "--report-dir", join(dir, "restricted-context"),
    );
    expect(chosen.err).toEqual([]);
    expect(chosen.code).toBe(0);
    expect(chosen.out.filter((line) => line.startsWith("PASS ")).length).toBeGreaterThan(0);
    expect(chosen.out.filter((line) => line.startsWith("SKIP "))).toEqual([]);
    // Without it, the file's current context (the admin) is the second identity: it is denied nothing.
    const current = await conformance("--kubeconfig", kubeconfig, "--restricted-kubeconfig", kubeconfig, "--focus", "^authorization/", "--reporter", "plain", "--report-dir", join(dir, "restricted-current"));
    expect(current.code).toBe(0);
    expect(current.out.some((line) => /^SKIP .*the restricted identity was denied none/.test(line))).toBe(true);
    const reportDir = join(dir, "restricted-missing");
    const missing = await conformance("--kubeconfig", kubeconfig, "--restricted-kubeconfig", kubeconfig, "--restricted-context", "nowhere", "--report-dir", reportDir);
    expect(missing.code).toBe(2);
    expect(missing.err).toEqual([`orb-harness conformance: --restricted-context nowhere: kubeconfig ${kubeconfig} has no such context (it has admin, restricted)`]);
    expect(missing.out).toEqual([]);
    expect(existsSync(reportDir)).toBe(false);
  });

  it("exits 130 when interrupted: the running case stops, the rest are skipped, the reports are written", async () => {
    const reportDir = join(dir, "interrupted");
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", "conformance", "--focus", "^crud/", "--parallel", "1", "--reporter", "plain", "--report-dir", reportDir], {
      cwd: new URL("../..", import.meta.url).pathname,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      if (/^PASS /m.test(stdout) && child.exitCode === null && !child.killed) child.kill("SIGINT");
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", (exitCode) => resolve(exitCode)));
    expect(stderr).toMatch(/^interrupted: stopping running cases/m);
    expect(code).toBe(130);
    const results = JSON.parse(readFileSync(join(reportDir, "results.json"), "utf8")) as { cases: Array<{ status: string; message: string }> };
    expect(results.cases.filter((result) => result.message === "interrupted before it started").length).toBeGreaterThan(0);
    expect(results.cases.filter((result) => result.status === "fail" || result.status === "error")).toEqual([]);
  }, 60_000);
});
