import { describe, expect, it } from "vitest";
import { dialectByName } from "../../spec/dialects.ts";
import { ProcessClock } from "../faults/process-clock.ts";
import { WakeupBatcher } from "../faults/wakeup-batcher.ts";
import { Simulation } from "../kernel/simulation.ts";
import { ControlPlaneWorld } from "../scenarios/control-plane-world.ts";
import { agentParameters } from "../scenarios/scenario-parameters.ts";
import { ApiCallError, type ControlPlaneClient } from "./api-client.ts";
import type { Lease, Node } from "./api-objects.ts";
import { HistoryRecorder } from "./history-recorder.ts";
import { NodeAgent } from "./node-agent.ts";
import { StoreApi } from "./store-api.ts";
import { StoreApiClient } from "./store-api-client.ts";

// A client that answers at once; its informer holds a copy the test sets, and the status post
// conflicts as many times as the test says (a copy older than the server's).
function fakeClient(conflicts: number) {
  let stored: Node | undefined;
  let version = 0;
  const calls: string[] = [];
  const stamp = (node: Node): Node => ({ ...node, metadata: { ...node.metadata, resourceVersion: String(++version) } });
  const lease = (value: Lease): Promise<Lease> => Promise.resolve(value);
  const client = {
    createNode: async (node: Node, options) => {
      stored = stamp(node);
      options?.onApplied?.();
      return stored;
    },
    getNode: async () => {
      calls.push("get");
      return stored!;
    },
    informNode: () => ({ get: async () => (calls.push("informer"), stored!), cached: () => undefined, stop: () => {}, onChange: () => {} }),
    updateNodeStatus: async (node: Node, options) => {
      calls.push("post");
      if (conflicts-- > 0) throw new ApiCallError("Conflict", 409, "the object has been modified");
      stored = stamp(node);
      options?.onApplied?.();
      return stored;
    },
    getLease: () => Promise.reject(new ApiCallError("NotFound", 404, "not found")),
    createLease: lease,
    updateLease: lease,
    updateLeaseThen: (value: Lease, _options, settle) => settle(true, value),
  } as Partial<ControlPlaneClient> as ControlPlaneClient;
  return { client, calls };
}

async function firstStatusTick(conflicts: number): Promise<string[]> {
  const sim = new Simulation({ seed: "node-agent", epochMs: 0 });
  const dialect = dialectByName("orb");
  const recorder = new HistoryRecorder(sim);
  const { client, calls } = fakeClient(conflicts);
  const clock = new ProcessClock("node-1", sim, new WakeupBatcher(sim));
  const agent = new NodeAgent({ name: "node-1", zone: "zone-a", client, clock, parameters: agentParameters("orb"), dialect, recorder });
  void sim.spawn("node-1", () => agent.run());
  await sim.run({ untilMs: 5_000 }); // the first status tick only (the next is at 10 s)
  return calls;
}

describe("NodeAgent status updates", () => {
  it("reads its Node from the informer, and from the server only to retry a post that conflicted", async () => {
    expect(await firstStatusTick(0)).toEqual(["informer", "post"]);
    expect(await firstStatusTick(2)).toEqual(["informer", "post", "get", "post", "get", "post"]);
  });

  it("gives up after kubelet's five tries", async () => {
    expect(await firstStatusTick(10)).toEqual(["informer", "post", "get", "post", "get", "post", "get", "post", "get", "post"]);
  });
});

describe("NodeAgent status loop", () => {
  // One agent over the store-level client, 5 ms each way; returns when its status posts took effect (s after start).
  async function statusPostsSeconds(markUnknownAtMs?: number): Promise<number[]> {
    const dialect = dialectByName("orb");
    const world = new ControlPlaneWorld({ seed: "status-loop", dialect, latency: { minMs: 5, meanExtraMs: 0, maxMs: 5 } });
    const api = new StoreApi({ server: world.server, rng: world.sim.rng.fork("api") });
    world.host.add("node-1", (clock) => {
      const agent = new NodeAgent({ name: "node-1", zone: "zone-a", client: new StoreApiClient(api, world.network, clock), clock, parameters: agentParameters("orb"), dialect, recorder: world.recorder });
      void world.sim.spawn("node-1", () => agent.run());
    });
    if (markUnknownAtMs !== undefined) {
      world.sim.setTimer(markUnknownAtMs, () => {
        const node = api.getNode("node-1");
        const conditions = (node.status.conditions ?? []).map((condition) => (condition.type === "Ready" ? { ...condition, status: "Unknown" as const } : condition));
        api.updateNodeStatus({ ...node, status: { ...node.status, conditions } });
      });
    }
    await world.runUntil(400_000);
    const startMs = world.startMs;
    return world.recorder.finish().nodes.get("node-1")!.statusPostsMs.map((ms) => (ms - startMs) / 1000);
  }

  it("posts once registered, then at the first tick a report period (5 min) after its last post while its Node stays Ready", async () => {
    expect(await statusPostsSeconds()).toEqual([0.025, 310.015]);
  });

  it("answers a Ready=Unknown mark at the next tick of its schedule, not at the next report", async () => {
    // The mark at 33 s reaches the informer 5 ms later; the tick at 40.010 s posts Ready (there 5 ms later).
    expect(await statusPostsSeconds(33_000)).toEqual([0.025, 40.015, 340.015]);
  });
});
