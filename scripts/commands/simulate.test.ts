import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../cli.ts";

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, lines: out, err: err.join("\n") };
}

describe("orb-harness simulate", () => {
  it("runs a scenario: summary, invariants line, time compression, trace hash last; writes results.json and index.html", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "simulate-"));
    const { code, lines } = await run("simulate", "--scenario", "leader-election", "--seed", "9", "--duration", "2m", "--faults", "crash:leader@30s", "--report-dir", dir);
    expect(code).toBe(0);
    expect(lines).toContain("invariants: 2 held, 0 violated");
    expect(lines.some((line) => /^time-compression: \d+(\.\d+)?$/.test(line))).toBe(true);
    expect(lines.at(-1)).toMatch(/^trace-hash: [0-9a-f]{64}$/);
    const results = JSON.parse(readFileSync(path.join(dir, "results.json"), "utf8"));
    expect(results).toMatchObject({ scenario: "leader-election", seed: "9", faults: "crash:leader@30s" });
    expect(readFileSync(path.join(dir, "index.html"), "utf8")).toMatch(/<svg[\s\S]*Leadership intervals/);
    const again = await run("simulate", "--scenario", "leader-election", "--seed", "9", "--duration", "2m", "--faults", "crash:leader@30s", "--report-dir", dir);
    expect(again.lines.at(-1)).toBe(lines.at(-1));
  });

  it("exits 1 when an invariant is violated, with the witness", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "simulate-"));
    const { code, lines } = await run("simulate", "--scenario", "leader-election", "--seed", "1", "--duration", "90s", "--faults", "pause:leader@10s+30s", "--report-dir", dir);
    expect(code).toBe(1);
    expect(lines).toContain("invariants: 1 held, 1 violated");
    expect(lines.join("\n")).toMatch(/FAIL {2}leader-election\/at-most-one-leader[\s\S]*witness: .*paused for 30 s/);
  });

  it("node eviction with drawn fault classes and doc 2 / doc 3 overrides", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "simulate-"));
    const { code, lines } = await run(
      "simulate", "--scenario", "node-eviction", "--seed", "4", "--duration", "10m", "--nodes", "6", "--zones", "2", "--pods", "24",
      "--faults", "partitions", "--node-monitor-grace-period", "30s", "--node-status-update-frequency", "5s", "--report-dir", dir,
    );
    expect([0, 1]).toContain(code);
    expect(lines[0]).toMatch(/^simulate node-eviction: seed 4, 10m of virtual time, faults: (partition|drop|latency):/);
    expect(lines.join("\n")).toMatch(/grace period 30000 ms/);
    expect(readFileSync(path.join(dir, "index.html"), "utf8")).toMatch(/Ready nodes per zone/);
  });

  it("rejects bad usage with exit 2", async () => {
    expect((await run("simulate", "--scenario", "chess")).code).toBe(2);
    expect((await run("simulate", "--scenario", "leader-election", "--faults", "pause:leader@1s")).err).toMatch(/pause needs \+duration/);
    expect((await run("simulate", "--scenario", "leader-election", "--faults", "pause:nobody@1s+1s")).err).toMatch(/unknown fault target "nobody"/);
    expect((await run("simulate", "--scenario", "leader-election", "--leader-elect-renew-deadline", "20s")).err).toMatch(/renew deadline 20s exceeds the lease duration/);
    expect((await run("simulate", "--scenario", "leader-election", "--duration", "soon")).code).toBe(2);
  });
});
