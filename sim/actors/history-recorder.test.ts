import { describe, expect, it } from "vitest";
import { Simulation } from "../kernel/simulation.ts";
import { HistoryRecorder } from "./history-recorder.ts";

describe("HistoryRecorder heartbeats", () => {
  it("gives each node its heartbeats in time order, status posts also on their own list", async () => {
    const sim = new Simulation({ seed: "recorder", epochMs: 0, keepTraceLines: true });
    const recorder = new HistoryRecorder(sim);
    recorder.nodeRegistered("n1", "zone-a");
    recorder.nodeRegistered("n2", "zone-b");
    const leaseOfN1 = recorder.leaseHeartbeatOf("n1");
    sim.setTimer(10, () => {
      leaseOfN1();
      recorder.heartbeat("n2", "status");
    });
    sim.setTimer(20, () => recorder.heartbeat("n1", "status"));
    sim.setTimer(30, () => leaseOfN1());
    await sim.run();
    const { nodes } = recorder.finish();
    expect(nodes.get("n1")).toMatchObject({ heartbeatsMs: [10, 20, 30], statusPostsMs: [20] });
    expect(nodes.get("n2")).toMatchObject({ heartbeatsMs: [10], statusPostsMs: [10] });
    expect(sim.trace.lines().filter((line) => line.includes("heartbeats"))).toEqual([
      '10 node-agents heartbeats ["n1","n2/status"]',
      '20 node-agents heartbeats ["n1/status"]',
      '30 node-agents heartbeats ["n1"]',
    ]);
  });

  it("refuses a heartbeat of a node never registered", () => {
    const recorder = new HistoryRecorder(new Simulation({ seed: "recorder", epochMs: 0 }));
    expect(() => recorder.leaseHeartbeatOf("ghost")()).toThrow(/unregistered node ghost/);
    expect(() => recorder.heartbeat("ghost", "status")).toThrow(/unregistered node ghost/);
  });
});
