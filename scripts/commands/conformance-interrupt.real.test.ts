/**
 * Ctrl-C in the middle of a run against a control plane the harness started (real-server tier,
 * issue #13): the wait ends at once, the run's namespaces are deleted, the reports are written,
 * the exit code is 130, and no process or scratch directory of the control plane is left.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ASSETS_ENVIRONMENT_VARIABLE } from "../../conformance/control-plane/kube-assets.ts";
import { isProcessAlive } from "../../conformance/control-plane/process-alive.ts";

// The run's own temporary directory (TMPDIR), so its control plane's scratch directory is the only
// one there, whatever other tests start meanwhile.
const runTmp = mkdtempSync(join(tmpdir(), "orb-interrupt-"));
const reportDir = join(runTmp, "report");
afterAll(() => rmSync(runTmp, { recursive: true, force: true }));


describe("conformance --kube-assets interrupted by Ctrl-C", () => {
  it("stops the waiting case at once, deletes its namespace, writes the reports, exits 130 and leaves nothing running", async () => {
    // The default profile keeps versions 5 to 10 minutes: the case waits long enough to be interrupted mid-wait.
    const args = ["--import", "tsx", "scripts/cli.ts", "conformance", "--kube-assets", process.env[ASSETS_ENVIRONMENT_VARIABLE]!, "--kube-profile", "default"];
    const child = spawn(process.execPath, [...args, "--slow", "--focus", "^resource-version/exact-compacted-version-410$", "--reporter", "plain", "--report-dir", reportDir], {
      cwd: new URL("../..", import.meta.url).pathname,
      env: { ...process.env, TMPDIR: runTmp },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let interruptedAt = 0;
    let scratch: string | undefined;
    const pids: number[] = [];
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      if (interruptedAt === 0 && /^WAIT +resource-version\/exact-compacted-version-410 /m.test(stdout)) {
        interruptedAt = performance.now();
        try {
          scratch = readdirSync(runTmp).find((name) => name.startsWith("orb-kube-"));
          for (const name of ["etcd", "kube-apiserver", "kube-controller-manager"]) pids.push(Number(readFileSync(join(runTmp, scratch!, `${name}.pid`), "utf8")));
        } finally {
          child.kill("SIGINT");
        }
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", (exitCode) => resolve(exitCode)));
    const exitedAfterMs = performance.now() - interruptedAt;
    expect(interruptedAt, `the case never reported its wait; stdout: ${stdout}; stderr: ${stderr}`).toBeGreaterThan(0);
    expect(code).toBe(130);
    // Namespace deletion and the control plane's stop (SIGTERM, at most 5 s each) are all that remain to do.
    expect(exitedAfterMs).toBeLessThan(20_000);
    expect(stderr).toMatch(/^interrupted: stopping running cases/m);
    type Exchange = { method: string; path: string; status: number };
    const results = JSON.parse(readFileSync(join(reportDir, "results.json"), "utf8")) as { cases: Array<{ id: string; status: string; message: string; transcript: Exchange[] }> };
    expect(results.cases).toEqual([expect.objectContaining({ id: "resource-version/exact-compacted-version-410", status: "skip", message: "interrupted (Ctrl-C) while it ran" })]);
    // The case's transcript ends with the deletion of the namespace it created.
    const transcript = results.cases[0]!.transcript;
    const created = transcript.find((exchange) => exchange.method === "POST" && exchange.path === "/api/v1/namespaces");
    const deleted = transcript.at(-1)!;
    expect([created?.status, deleted.method, deleted.status]).toEqual([201, "DELETE", 200]);
    expect(deleted.path).toMatch(/^\/api\/v1\/namespaces\/orb-conformance-[0-9a-f]+-0$/);
    expect(stderr).not.toMatch(/could not delete namespace/);
    expect(scratch, "the control plane's scratch directory, seen during the run").toBeDefined();
    expect(existsSync(join(runTmp, scratch!))).toBe(false);
    expect(pids).toHaveLength(3);
    for (const pid of pids) expect(isProcessAlive(pid), `process ${pid}`).toBe(false);
  });
});
