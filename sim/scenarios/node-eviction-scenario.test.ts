import { describe, expect, it } from "vitest";
import { parseFaultSpec } from "../faults/fault-spec.ts";
import { runNodeEvictionScenario, type NodeEvictionScenarioOptions } from "./node-eviction-scenario.ts";
import { agentParameters, defaultNodeMonitorGracePeriodMs, lifecycleParameters } from "./scenario-parameters.ts";

const base: NodeEvictionScenarioOptions = {
  seed: 5,
  durationMs: 900_000,
  nodes: 12,
  zones: 3,
  pods: 120,
  dialect: "orb",
  lifecycle: lifecycleParameters("orb", undefined),
  agent: agentParameters("orb"),
  faults: [],
};
type Result = Awaited<ReturnType<typeof runNodeEvictionScenario>>;
const run = (options: Partial<NodeEvictionScenarioOptions> & { faultSpec?: string } = {}) =>
  runNodeEvictionScenario({ ...base, ...options, faults: parseFaultSpec(options.faultSpec ?? "") });
const verdict = (result: Result, id: string) => result.verdicts.find((entry) => entry.id === id)!;
const seconds = (result: Result, atMs: number) => (atMs - result.history.startMs) / 1000;

describe("node-eviction scenario", () => {
  it("same seed, same trace hash; another seed, another hash", async () => {
    const spec = "partition:zone-a@2m+4m";
    const [first, again, other] = [await run({ faultSpec: spec }), await run({ faultSpec: spec }), await run({ seed: 6, faultSpec: spec })];
    expect(again.traceHash).toBe(first.traceHash);
    expect(other.traceHash).not.toBe(first.traceHash);
  });

  it("a zone cut off: its nodes are marked after the grace period, tainted one per 1/rate, pods without toleration evicted at once, the rest after 300 s, all undone on recovery", async () => {
    const result = await run({ faultSpec: "partition:zone-a@2m+8m" });
    expect(result.verdicts.filter((entry) => !entry.held)).toEqual([]);
    const marks = result.history.conditions.filter((record) => record.status === "Unknown");
    expect(marks).toHaveLength(4);
    for (const mark of marks) expect(seconds(result, mark.atMs)).toBeGreaterThan(120 + 40 - 10);
    const taints = result.history.taints.filter((taint) => taint.change === "added").map((taint) => seconds(result, taint.atMs));
    expect(taints).toHaveLength(4);
    for (let index = 1; index < taints.length; index++) expect(taints[index]! - taints[index - 1]!).toBeGreaterThanOrEqual(10 - 0.01);
    const evicted = result.history.podEvictions.map((eviction) => seconds(result, eviction.atMs));
    expect(evicted.filter((t) => taints.some((taintT) => Math.abs(t - taintT) < 0.1)).length).toBeGreaterThan(0); // 0 s tolerations
    expect(evicted.filter((t) => taints.some((taintT) => Math.abs(t - taintT - 300) < 0.1)).length).toBeGreaterThan(0); // default 300 s
    expect(result.history.taints.filter((taint) => taint.change === "removed")).toHaveLength(4);
    expect(verdict(result, "node-lifecycle/recovery-clears-taints").checked).toBe(12);
  });

  it("every zone down: nothing is evicted, and the controller says why", async () => {
    const result = await run({ faultSpec: "partition:nodes@2m+5m" });
    expect(result.verdicts.filter((entry) => !entry.held)).toEqual([]);
    expect(result.history.fullDisruption.map((record) => record.change)).toContain("enter");
    const enteredMs = result.history.fullDisruption.find((record) => record.change === "enter")!.atMs;
    expect(result.history.podEvictions.filter((eviction) => eviction.atMs > enteredMs)).toEqual([]);
  });

  it("runs the same over HTTP-shaped requests to the embedded server", async () => {
    const result = await run({ client: "http", nodes: 6, pods: 30, durationMs: 600_000, faultSpec: "crash:node-1@1m" });
    expect(result.verdicts.filter((entry) => !entry.held)).toEqual([]);
    expect(result.history.taints.filter((taint) => taint.node === "node-1" && taint.change === "added")).toHaveLength(1);
    expect(result.history.podEvictions.length).toBeGreaterThan(0);
  });

  it("canary: a zone bucket with burst 5 is caught by the exact rate check", async () => {
    const result = await run({ evictionBurst: 5, faultSpec: "partition:zone-a@1m+5m" });
    expect(verdict(result, "node-lifecycle/zone-eviction-rate").held).toBe(false);
  });

  it("the grace period is 40 s per doc 2 and in Kubernetes before 1.32, 50 s from 1.32, and a flag overrides it", () => {
    expect(defaultNodeMonitorGracePeriodMs("orb")).toBe(40_000);
    expect(defaultNodeMonitorGracePeriodMs("kubernetes", "1.31")).toBe(40_000);
    expect(defaultNodeMonitorGracePeriodMs("kubernetes", "v1.32.1")).toBe(50_000);
    expect(lifecycleParameters("kubernetes", "1.33").nodeMonitorGracePeriodMs).toBe(50_000);
    expect(lifecycleParameters("kubernetes", "1.33", ["--node-monitor-grace-period=45s"]).nodeMonitorGracePeriodMs).toBe(45_000);
  });
});
