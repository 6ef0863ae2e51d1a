/**
 * `orb-harness bench --kube-assets` against the real binaries (real-server tier), at the quick
 * size and for the server benchmark only: bench.json holds each server figure for both servers
 * and their ratio, names the real server's version, and no control plane is left running.
 * The figures themselves are not asserted: speed is measured by `npm run bench`, not by tests.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ASSETS_ENVIRONMENT_VARIABLE } from "../../conformance/control-plane/kube-assets.ts";
import { BENCHMARKS } from "../bench/bench-catalog.ts";
import type { BenchResults } from "../bench/bench-run.ts";
import { main } from "../cli.ts";

const assetsDir = process.env[ASSETS_ENVIRONMENT_VARIABLE]!;
const SERVER_KEYS = BENCHMARKS.find((benchmark) => benchmark.name === "server")!.figures;

/**
 * This process's children running one of the control plane's binaries from `dir` (the real tier
 * runs other files' control planes from the same directory at the same time).
 */
function controlPlaneChildren(dir: string): string[] {
  const lines = execFileSync("ps", ["-eo", "ppid=,args="], { encoding: "utf8" }).split("\n");
  return lines
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .filter((match) => match !== null && Number(match[1]) === process.pid)
    .map((match) => match![2]!)
    .filter((args) => ["etcd", "kube-apiserver", "kube-controller-manager"].some((name) => args.startsWith(join(dir, name))));
}

describe("bench beside a real control plane", () => {
  const dir = mkdtempSync(join(tmpdir(), "orb-bench-real-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes every server figure for both servers with their ratio, and stops the control plane", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(["bench", "--quick", "--only", "server", "--kube-assets", assetsDir, "--out", join(dir, "bench.json")], {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    expect(code, err.join("\n")).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, "bench.json"), "utf8")) as BenchResults;
    expect(results.real?.gitVersion).toMatch(/^v1\.\d+\.\d+/);
    for (const key of SERVER_KEYS) {
      expect(results.figures[key]?.runs, key).toHaveLength(1);
      expect(results.figures[`real.${key}`]?.runs, `real.${key}`).toHaveLength(1);
      const ratio = results.ratios[`ratio.${key}`];
      expect(Number.isFinite(ratio) && ratio! > 0, `ratio.${key}`).toBe(true);
    }
    expect(err.join("\n")).toMatch(/^bench: server 1\/1 real: createsPerSecond /m);
    expect(out.join("\n")).toMatch(/speed-up vs real/);
    expect(controlPlaneChildren(assetsDir)).toEqual([]);
  }, 300_000);
});
