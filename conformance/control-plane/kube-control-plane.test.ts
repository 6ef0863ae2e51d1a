/**
 * startKubeControlPlane's failures and cleanup, with stand-in binaries (shell and Node scripts in a
 * temporary assets directory), so they run in `npm test` without the real ones: a missing or
 * non-executable binary, a server that exits at once (its log's tail in the one error), and a
 * harness killed outright (the watchdog stops what it started and removes its directory).
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ControlPlaneError } from "./kube-assets.ts";
import { startKubeControlPlane } from "./kube-control-plane.ts";
import { isProcessAlive } from "./process-alive.ts";

let assets: string;
// A temporary directory of this file's own: the control plane makes its scratch directory in
// tmpdir(), and the tests count those; other processes (a real-tier run, another suite) make
// theirs in the shared one meanwhile.
const sharedTmpdir = process.env["TMPDIR"];
let privateTmp: string;

beforeEach(() => {
  privateTmp = mkdtempSync(join(tmpdir(), "orb-control-plane-test-"));
  process.env["TMPDIR"] = privateTmp;
  assets = mkdtempSync(join(tmpdir(), "orb-fake-assets-"));
});
afterEach(() => {
  if (sharedTmpdir === undefined) delete process.env["TMPDIR"];
  else process.env["TMPDIR"] = sharedTmpdir;
  rmSync(privateTmp, { recursive: true, force: true });
});

function script(name: string, text: string): string {
  const path = join(assets, name);
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}

/** An etcd stand-in: answers /health with 200 on its --listen-client-urls port until killed. */
function healthyEtcd(): void {
  script(
    "etcd",
    `#!/usr/bin/env node
const url = process.argv.find((arg) => arg.startsWith("--listen-client-urls="));
const port = Number(new URL(url.split("=")[1]).port);
require("node:http").createServer((request, response) => response.end("{}")).listen(port, "127.0.0.1");
`,
  );
}

function scratchDirs(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith("orb-kube-"));
}


describe("startKubeControlPlane refuses with one clear error", () => {
  it("for a directory that does not exist, a missing binary, a binary that is not executable", async () => {
    await expect(startKubeControlPlane({ assetsDir: join(assets, "nowhere") })).rejects.toThrow(/^kube assets directory .*nowhere does not exist/);
    script("etcd", "#!/bin/sh\n");
    await expect(startKubeControlPlane({ assetsDir: assets })).rejects.toThrow(new ControlPlaneError(`kube-apiserver is missing in ${assets} (expected an executable ${join(assets, "kube-apiserver")})`));
    writeFileSync(join(assets, "kube-apiserver"), "compressed?");
    await expect(startKubeControlPlane({ assetsDir: assets })).rejects.toThrow(/^kube-apiserver is not executable \(chmod \+x it; compressed \.xz files must be unpacked first\)/);
  });

  it("when a server exits at once: its name, what was awaited and the tail of its log; nothing left behind", async () => {
    healthyEtcd();
    script("kube-apiserver", "#!/bin/sh\necho 'starting'\necho 'Error: unknown flag: --etcd-servers-bogus' >&2\nexit 1\n");
    const progress: string[] = [];
    const error = await startKubeControlPlane({ assetsDir: assets, onProgress: (line) => progress.push(line) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ControlPlaneError);
    const [first, ...tail] = (error as Error).message.split("\n");
    expect(first).toMatch(/^kube-apiserver exited while waiting for kube-apiserver to answer \/readyz; the end of .*kube-apiserver\.log:$/);
    expect(tail).toEqual(["  starting", "  Error: unknown flag: --etcd-servers-bogus"]);
    expect(progress.slice(0, 2)).toEqual(["starting etcd", "starting kube-apiserver (profile default)"]);
    // The test's own tmpdir held none before.
    expect(scratchDirs()).toEqual([]);
  });

  it("when interrupted while waiting: stops what it started", async () => {
    healthyEtcd();
    script("kube-apiserver", "#!/bin/sh\nexec sleep 30\n");
    const controller = new AbortController();
    const started = startKubeControlPlane({ assetsDir: assets, signal: controller.signal, onProgress: (line) => line.startsWith("starting kube-apiserver") && controller.abort() });
    expect(scratchDirs()).toHaveLength(1);
    await expect(started).rejects.toThrow(/^interrupted while waiting for kube-apiserver to answer \/readyz$/);
    expect(scratchDirs()).toEqual([]);
  });
});

describe("a harness killed outright", () => {
  it("leaves no process and no scratch directory: the watchdog stops them", async () => {
    healthyEtcd();
    script("kube-apiserver", "#!/bin/sh\nexec sleep 60\n");
    const module = new URL("./kube-control-plane.ts", import.meta.url).pathname;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", `import { startKubeControlPlane } from ${JSON.stringify(module)}; startKubeControlPlane({ assetsDir: ${JSON.stringify(assets)} });`], {
      stdio: "ignore",
    });
    // Wait for both stand-ins to be running, then kill the harness with SIGKILL (no exit handler runs).
    let dir: string | undefined;
    for (let tries = 0; tries < 100 && (dir === undefined || !existsSync(join(dir, "kube-apiserver.pid"))); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      // The test's own tmpdir, which the child inherits: its one scratch directory is the harness's.
      dir = scratchDirs()[0];
      if (dir !== undefined) dir = join(tmpdir(), dir);
    }
    expect(dir, "the harness's scratch directory").toBeDefined();
    const pids = ["etcd", "kube-apiserver"].map((name) => Number(readFileSync(join(dir!, `${name}.pid`), "utf8")));
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(true);
    child.kill("SIGKILL");
    try {
      for (let tries = 0; tries < 50 && (existsSync(dir!) || pids.some(isProcessAlive)); tries++) await new Promise((resolve) => setTimeout(resolve, 100));
      for (const pid of pids) expect(isProcessAlive(pid), `stand-in ${pid}`).toBe(false);
      expect(existsSync(dir!)).toBe(false);
    } finally {
      // Should the watchdog fail, the test still stops the stand-ins it caused.
      for (const pid of pids.filter(isProcessAlive)) process.kill(pid, "SIGKILL");
      rmSync(dir!, { recursive: true, force: true });
    }
  });
});
