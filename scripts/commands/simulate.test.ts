import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseFaultSpec } from "../../sim/faults/fault-spec.ts";
import { runLeaderElectionScenario } from "../../sim/scenarios/leader-election-scenario.ts";
import { runNodeEvictionScenario } from "../../sim/scenarios/node-eviction-scenario.ts";
import { agentParameters, electionParameters, lifecycleParameters } from "../../sim/scenarios/scenario-parameters.ts";
import { main } from "../cli.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A scratch directory for one test's outputs, removed after the file's tests. */
function scratchDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "simulate-"));
  made.push(dir);
  return dir;
}

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, lines: out, err: err.join("\n") };
}

describe("orb-harness simulate", () => {
  it("runs a scenario: summary, invariants line, time compression, trace hash last; writes results.json and index.html", async () => {
    const dir = scratchDir();
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
    const dir = scratchDir();
    const { code, lines } = await run("simulate", "--scenario", "leader-election", "--seed", "1", "--duration", "90s", "--faults", "pause:leader@10s+30s", "--report-dir", dir);
    expect(code).toBe(1);
    expect(lines).toContain("invariants: 1 held, 1 violated");
    expect(lines.join("\n")).toMatch(/FAIL {2}leader-election\/at-most-one-leader[\s\S]*witness: .*paused for 30 s/);
  });

  it("node eviction with drawn fault classes and doc 2 / doc 3 overrides", async () => {
    const dir = scratchDir();
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
    expect((await run("simulate", "--scenario", "leader-election", "--duration", "soon")).code).toBe(2);
  });

  it("takes leader election parameters from --controller-manager-flags, single doc 2 flags applied after it", async () => {
    const dir = scratchDir();
    const { code, lines } = await run(
      "simulate", "--scenario", "leader-election", "--seed", "3", "--duration", "1m", "--candidates", "2", "--report-dir", dir,
      "--controller-manager-flags", "--leader-elect-lease-duration=20s --leader-elect-renew-deadline 12s --leader-elect-retry-period='3s' --leader-elect-resource-name=cm-lock",
      "--leader-elect-retry-period", "4s",
    );
    expect(code).toBe(0);
    // slack = lease duration − renew deadline − retry period = 20 s − 12 s − 4 s.
    expect(lines.join("\n")).toMatch(/candidates for lock orb-system\/cm-lock;[\s\S]*slack \(lease duration − renew deadline − retry period\): 4000 ms/);
    const { configuration } = JSON.parse(readFileSync(path.join(dir, "results.json"), "utf8"));
    expect(configuration).toMatchObject({ leaseDurationMs: 20_000, renewDeadlineMs: 12_000, retryPeriodMs: 4_000, lock: "orb-system/cm-lock" });
  });

  it("takes node lifecycle parameters from --controller-manager-flags and node agent ones from --node-agent-config", async () => {
    const dir = scratchDir();
    const config = path.join(dir, "node-agent.yaml");
    writeFileSync(config, "apiVersion: nodeagent.config.orb.io/v1beta1\nkind: NodeAgentConfiguration\nnodeStatusUpdateFrequency: 20s\nnodeLeaseDurationSeconds: 60\n");
    const { code, lines } = await run(
      "simulate", "--scenario", "node-eviction", "--seed", "5", "--duration", "1m", "--nodes", "3", "--zones", "1", "--pods", "3", "--report-dir", dir,
      "--controller-manager-flags", "--node-monitor-grace-period=90s --node-eviction-rate=0.5", "--node-agent-config", config,
      "--node-status-update-frequency", "15s",
    );
    expect(code).toBe(0);
    expect(lines.join("\n")).toMatch(/grace period 90000 ms, monitor period 5000 ms, eviction rate 0.5\/s/);
    const { configuration } = JSON.parse(readFileSync(path.join(dir, "results.json"), "utf8"));
    expect(configuration.lifecycle).toMatchObject({ nodeMonitorGracePeriodMs: 90_000, nodeEvictionRate: 0.5 });
    // The flag overrides the file's 20s, and defaults nodeStatusReportFrequency to itself (doc 3 §2.4).
    expect(configuration.agent).toEqual({ nodeStatusUpdateFrequencyMs: 15_000, nodeStatusReportFrequencyMs: 15_000, nodeLeaseDurationSeconds: 60, nodeLeaseRenewIntervalMs: 10_000 });
  });

  it("exits 1 with every finding, as validate does, when the flags or the node agent file break a rule, before running", async () => {
    const flags = await run("simulate", "--scenario", "leader-election", "--controller-manager-flags", "--leader-elect-renew-deadline=20s --node-monitor-grace-priod=1m");
    expect(flags.code).toBe(1);
    expect(flags.lines).toEqual([]);
    expect(flags.err).toMatch(/error doc2\/2.2\/renew-deadline-le-lease-duration: --leader-elect-renew-deadline=20s/);
    expect(flags.err).toMatch(/unknown flag --node-monitor-grace-priod \(did you mean --node-monitor-grace-period\?\)/);
    const single = await run("simulate", "--scenario", "leader-election", "--leader-elect-renew-deadline", "20s");
    expect(single.code).toBe(1);
    expect(single.err).toMatch(/renew deadline 20s exceeds the lease duration/);
    const dir = scratchDir();
    const config = path.join(dir, "bad.yaml");
    writeFileSync(config, "apiVersion: nodeagent.config.orb.io/v1beta1\nkind: NodeAgentConfiguration\nnodeLeaseDurationSeconds: -1\nnodeStatusUpdateFrequncy: 1s\n");
    const file = await run("simulate", "--scenario", "node-eviction", "--node-agent-config", config);
    expect(file.code).toBe(1);
    expect(file.lines).toEqual([]);
    expect(file.err).toMatch(/error doc3\/2.4\/node-lease-duration-positive: nodeLeaseDurationSeconds=-1/);
    expect(file.err).toMatch(/unknown field "nodeStatusUpdateFrequncy"/);
  });

  it("exits 2 for an unreadable node agent file, an unbalanced quote, or a flag the scenario cannot use", async () => {
    const dir = scratchDir();
    const kubelet = path.join(dir, "kubelet.yaml");
    writeFileSync(kubelet, "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n");
    const cases: [string[], RegExp][] = [
      [["--scenario", "node-eviction", "--node-agent-config", path.join(dir, "missing.yaml")], /--node-agent-config: cannot read/],
      [["--scenario", "node-eviction", "--controller-manager-flags", "--leader-elect-resource-name='x"], /unterminated ' quote/],
      [["--scenario", "leader-election", "--node-agent-config", kubelet], /applies to --scenario node-eviction/],
      [["--scenario", "leader-election", "--daemon", "scheduler", "--controller-manager-flags", "--leader-elect=true"], /with --daemon scheduler/],
      [["--scenario", "node-eviction", "--node-agent-config", kubelet], /kubernetes-dialect file \(kubelet.config.k8s.io\/v1beta1\) but --dialect is orb/],
    ];
    for (const [argv, message] of cases) {
      const result = await run("simulate", ...argv);
      expect(result.code, argv.join(" ")).toBe(2);
      expect(result.err, argv.join(" ")).toMatch(message);
    }
  });
});

describe("progress during a run", () => {
  it("is reported every so many virtual seconds without changing the run (same trace hash and events)", async () => {
    const options = { seed: 3, durationMs: 120_000, nodes: 6, zones: 2, pods: 12, dialect: "orb" as const, lifecycle: lifecycleParameters("orb", undefined), agent: agentParameters("orb"), faults: parseFaultSpec("partition:zone-a@20s+40s") };
    const plain = await runNodeEvictionScenario(options);
    const reached: number[] = [];
    const sliced = await runNodeEvictionScenario({ ...options, progressEveryMs: 7_000, onProgress: (progress) => reached.push(progress.virtualMs) });
    expect(sliced.traceHash).toBe(plain.traceHash);
    expect(sliced.kernelEvents).toBe(plain.kernelEvents);
    expect(reached.slice(0, 3)).toEqual([7_000, 14_000, 21_000]);
    expect(reached.at(-1)).toBe(120_000);
    const election = { seed: 4, durationMs: 60_000, candidates: 3, dialect: "orb" as const, election: electionParameters("controller-manager", "orb"), faults: parseFaultSpec("pause:leader@10s+20s") };
    const quiet = await runLeaderElectionScenario(election);
    const told = await runLeaderElectionScenario({ ...election, progressEveryMs: 1_000, onProgress: () => undefined });
    expect(told.traceHash).toBe(quiet.traceHash);
  });

  it("keeps stdout as it was on short runs (no progress line, trace hash last)", async () => {
    const { lines, err } = await run("simulate", "--scenario", "leader-election", "--seed", "1", "--duration", "30s", "--report-dir", scratchDir());
    expect(lines.some((line) => line.startsWith("progress:"))).toBe(false);
    expect(err).not.toContain("progress:");
    expect(lines.at(-1)).toMatch(/^trace-hash: /);
  });
});
