/**
 * Ctrl-C at any moment of a conformance run against a server (issue #14): wherever it lands —
 * while the server is reached, as a namespace is created, mid-run, as a namespace is deleted —
 * the run deletes every namespace it created, writes the four reports and exits 130; a second
 * Ctrl-C quits at once, even while the first waits on a server that does not answer. Each moment is
 * chosen on the server's side: the request it arrives with sends the signal, and is held back a
 * little so the signal lands while that request is in flight.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformanceCli } from "../../conformance/safety/cli-run.ts";
import { startObservedServer, type LoggedRequest, type ObservedServer } from "../../conformance/safety/observed-server.ts";

const TOKEN = `orb-ctrl-c-${randomBytes(16).toString("hex")}`;
const RESTRICTED_TOKEN = `orb-ctrl-c-restricted-${randomBytes(16).toString("hex")}`;
const REPORTS = ["results.json", "junit.xml", "summary.md", "report.html"];
const RUN_NAMESPACE = /^orb-conformance-/;

let server: ObservedServer;
let dir: string;
/** What the server does with each request of the current test, before answering it. */
let onRequest: (request: LoggedRequest) => void | Promise<void> = () => undefined;

beforeAll(async () => {
  server = await startObservedServer({ token: TOKEN, restrictedToken: RESTRICTED_TOKEN, onRequest: (request) => onRequest(request) });
  dir = mkdtempSync(join(tmpdir(), "orb-conformance-ctrl-c-"));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isNamespaceCreation = (request: LoggedRequest) => request.method === "POST" && request.path === "/api/v1/namespaces";
const isNamespaceDeletion = (request: LoggedRequest) => request.method === "DELETE" && /^\/api\/v1\/namespaces\/orb-conformance-[^/]+$/.test(request.path);

async function runNamespacesOnServer(): Promise<string[]> {
  const response = await server.transport(new Request(`${server.url}/api/v1/namespaces`));
  return ((await response.json()) as { items: Array<{ metadata: { name: string } }> }).items.map((item) => item.metadata.name).filter((name) => RUN_NAMESPACE.test(name));
}

/** Starts a run against the server; the child is handed to `started` as soon as it exists. */
function conformance(reportDir: string, selection: string[], started: (child: ChildProcess) => void, onStderr: (stderr: string) => void = () => undefined) {
  const args = ["--server", server.url, "--token", TOKEN, "--restricted-token", RESTRICTED_TOKEN, ...selection, "--reporter", "plain", "--report-dir", reportDir];
  return runConformanceCli(args, { onStart: started, onOutput: (_child, _stdout, stderr) => onStderr(stderr) });
}

describe("conformance interrupted by Ctrl-C", () => {
  it.each([
    { moment: "while it reaches the server, before any case starts", at: (request: LoggedRequest) => request.path === "/version", holdMs: 500, selection: ["--focus", "^crud/"], startsNone: true },
    { moment: "as its first namespace is created", at: isNamespaceCreation, holdMs: 300, selection: ["--focus", "^crud/"] },
    { moment: "mid-run, as its 20th namespace is created", at: (request: LoggedRequest, count: number) => isNamespaceCreation(request) && count === 20, holdMs: 0, selection: [] },
    { moment: "as a namespace is deleted", at: isNamespaceDeletion, holdMs: 300, selection: ["--focus", "^crud/"] },
  ])("$moment: deletes what the run created, writes the reports, exits 130", async ({ at, holdMs, selection, startsNone }) => {
    const reportDir = join(dir, randomBytes(4).toString("hex"));
    const logStart = server.log.length;
    let child: ChildProcess | undefined;
    let creations = 0;
    let interruptedAt = 0;
    onRequest = async (request) => {
      if (isNamespaceCreation(request)) creations++;
      if (interruptedAt !== 0 || !at(request, creations)) return;
      interruptedAt = performance.now();
      child!.kill("SIGINT");
      await sleep(holdMs);
    };
    const run = await conformance(reportDir, selection, (started) => (child = started)).finally(() => (onRequest = () => undefined));
    expect(interruptedAt, `the moment never came; stdout: ${run.stdout}`).toBeGreaterThan(0);
    expect(run.code).toBe(130);
    expect(run.stderr).toMatch(/^interrupted: stopping running cases and deleting the run's namespaces/m);
    // Deleting a few namespaces and writing four files is all that is left to do.
    expect(run.exitedAt - interruptedAt).toBeLessThan(10_000);

    const log = server.log.slice(logStart);
    const created = log.filter(isNamespaceCreation).map((request) => request.bodyName);
    const deleted = log.filter(isNamespaceDeletion).map((request) => request.path.split("/").at(-1));
    expect(deleted.sort()).toEqual([...created].sort());
    expect(await runNamespacesOnServer()).toEqual([]);

    for (const name of REPORTS) expect(existsSync(join(reportDir, name)), name).toBe(true);
    const results = JSON.parse(readFileSync(join(reportDir, "results.json"), "utf8")) as { cases: Array<{ status: string; message: string }> };
    expect(results.cases.filter((result) => result.status === "fail" || result.status === "error")).toEqual([]);
    expect(results.cases.some((result) => result.status === "skip" && result.message.startsWith("interrupted"))).toBe(true);
    if (startsNone === true) {
      expect(log.filter((request) => request.method !== "GET")).toEqual([]);
      expect(results.cases.filter((result) => result.message !== "interrupted before it started")).toEqual([]);
    }
  });

  it("a second Ctrl-C quits at once, while the first waits on a server that does not answer", async () => {
    const reportDir = join(dir, "twice");
    let child: ChildProcess | undefined;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let stuck = false;
    // The first namespace deletion never gets its answer: the run, interrupted, waits on it.
    onRequest = async (request) => {
      if (stuck || !isNamespaceDeletion(request)) return;
      stuck = true;
      child!.kill("SIGINT");
      await released;
    };
    try {
      let stderr = "";
      const running = conformance(reportDir, ["--focus", "^crud/", "--parallel", "1"], (started) => (child = started), (text) => (stderr = text));
      await until(() => /Ctrl-C again to quit at once/.test(stderr), 30_000);
      await sleep(1_000);
      // Still there after a second: the first Ctrl-C alone does not quit while cleaning up.
      expect(child!.exitCode).toBeNull();
      const secondAt = performance.now();
      child!.kill("SIGINT");
      const run = await running;
      expect(run.code).toBe(130);
      expect(run.exitedAt - secondAt).toBeLessThan(2_000);
      expect(existsSync(join(reportDir, "results.json"))).toBe(false);
    } finally {
      release();
      onRequest = () => undefined;
    }
  });
});

async function until(condition: () => boolean, withinMs: number): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`not reached within ${withinMs} ms`);
    await sleep(50);
  }
}
