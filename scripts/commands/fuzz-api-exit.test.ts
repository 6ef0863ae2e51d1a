/**
 * `fuzz --target api --server URL` as a user runs it, in a process of its own (issue #14): it exits
 * by itself once the campaign is over, leaving no watch open on the server; Ctrl-C ends the
 * campaign after the run under way, deletes its namespace and exits 130; a second Ctrl-C quits at
 * once.
 */
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../conformance/safety/cli-run.ts";
import { startObservedServer, type ObservedServer } from "../../conformance/safety/observed-server.ts";
import { metricValue } from "../../sim/transport/host-metrics.ts";

const TOKEN = "fuzz-api-exit-token";
const RUN_NAMESPACE = /^orb-fuzz-/;

let server: ObservedServer;
beforeAll(async () => {
  server = await startObservedServer({ token: TOKEN });
});
afterAll(() => server?.close());

const get = (path: string) => server.transport(new Request(`${server.url}${path}`));
async function runNamespaces(): Promise<string[]> {
  const list = (await (await get("/api/v1/namespaces")).json()) as { items: Array<{ metadata: { name: string } }> };
  return list.items.map((item) => item.metadata.name).filter((name) => RUN_NAMESPACE.test(name));
}
const openWatches = async () => metricValue(await (await get("/metrics")).text(), "apiserver_registered_watchers");

// Far more than any run here takes: a process still there then is held by something left open.
const EXIT_LIMIT_MS = 60_000;

/** `fuzz --target api` against the server, killed if it has not exited within EXIT_LIMIT_MS; `onOutput` may interrupt it. */
async function fuzz(runs: number, onOutput?: (child: ChildProcess, stdout: string) => void) {
  let killer: NodeJS.Timeout | undefined;
  try {
    return await runCli(["fuzz", "--target", "api", "--server", server.url, "--token", TOKEN, "--seed", "3", "--runs", String(runs)], {
      onStart: (child) => (killer = setTimeout(() => child.kill("SIGKILL"), EXIT_LIMIT_MS)),
      ...(onOutput !== undefined && { onOutput: (child, stdout) => onOutput(child, stdout) }),
    });
  } finally {
    clearTimeout(killer);
  }
}

describe("fuzz --target api in a process of its own", () => {
  it("exits 0 by itself after the campaign, its namespaces gone and no watch left open", async () => {
    const watchesBefore = await openWatches();
    expect(watchesBefore).toBeDefined();
    const run = await fuzz(8);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^8 runs in [\d.]+ s/m);
    expect(await runNamespaces()).toEqual([]);
    expect(await openWatches()).toBe(watchesBefore);
  }, 120_000);

  it("on Ctrl-C ends after the run under way, deletes its namespace and exits 130; a second Ctrl-C quits at once", async () => {
    let interruptedAt = 0;
    const once = await fuzz(100_000, (child, stdout) => {
      if (interruptedAt !== 0 || !/^ {2}50 runs made$/m.test(stdout)) return;
      interruptedAt = performance.now();
      child.kill("SIGINT");
    });
    expect(once.code, once.stdout + once.stderr).toBe(130);
    expect(once.stderr).toMatch(/^interrupted: finishing the run under way/m);
    expect(once.stdout).toMatch(/^\d+ passed, 0 failed$/m);
    expect(once.exitedAt - interruptedAt).toBeLessThan(20_000);
    expect(await runNamespaces()).toEqual([]);

    let first = 0;
    const twice = await fuzz(100_000, (child, stdout) => {
      if (first !== 0 || !/^ {2}50 runs made$/m.test(stdout)) return;
      first = performance.now();
      child.kill("SIGINT");
      setTimeout(() => child.kill("SIGINT"), 50);
    });
    expect(twice.code).toBe(130);
    expect(twice.exitedAt - first).toBeLessThan(2_000);
  }, 180_000);
});
