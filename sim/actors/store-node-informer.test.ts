import { describe, expect, it } from "vitest";
import { dialectByName } from "../../spec/dialects.ts";
import { ControlPlaneWorld } from "../scenarios/control-plane-world.ts";
import type { Node } from "./api-objects.ts";
import { StoreApi } from "./store-api.ts";
import { StoreApiClient } from "./store-api-client.ts";

// One node "n1" and an informer of it held by process "agent".
async function setup() {
  const dialect = dialectByName("orb");
  const world = new ControlPlaneWorld({ seed: "informer", dialect, latency: { minMs: 5, meanExtraMs: 0, maxMs: 5 } });
  const api = new StoreApi({ server: world.server, rng: world.sim.rng.fork("api") });
  api.createNode({ metadata: { name: "n1" }, spec: {}, status: {} });
  world.host.add("agent", () => {});
  const informer = new StoreApiClient(api, world.network, world.host.clock("agent")).informNode("n1");
  const read = async (): Promise<{ node: Node; tookMs: number }> => {
    const startMs = world.sim.nowMs();
    let resolvedMs = Number.NaN;
    const pending = informer.get().then((node) => ((resolvedMs = world.sim.nowMs()), node));
    await world.sim.runFor(50);
    return { node: await pending, tookMs: resolvedMs - startMs };
  };
  const label = (value: string) => {
    const current = api.getNode("n1");
    api.updateNode({ ...current, metadata: { ...current.metadata, labels: { mark: value } } });
  };
  return { world, api, informer, read, label };
}

describe("StoreNodeInformer", () => {
  it("relists once, then answers from the watch's copy without a request", async () => {
    const { read } = await setup();
    expect((await read()).tookMs).toBe(10); // a GET: 5 ms each way
    expect((await read()).tookMs).toBe(0);
  });

  it("receives later writes of the Node one latency after they are made", async () => {
    const { world, read, label } = await setup();
    await read();
    label("first");
    expect((await read()).node.metadata.labels).toBeUndefined(); // the event is still on its way
    await world.sim.runFor(5);
    const { node, tookMs } = await read();
    expect(node.metadata.labels).toEqual({ mark: "first" });
    expect(tookMs).toBe(0);
  });

  it("drops its copy when an event is lost to a partition and relists after the heal", async () => {
    const { world, read, label } = await setup();
    await read();
    world.network.partition(["agent"]);
    label("while-cut-off");
    world.network.heal(["agent"]);
    const { node, tookMs } = await read();
    expect(tookMs).toBe(10);
    expect(node.metadata.labels).toEqual({ mark: "while-cut-off" });
  });

  it("tells its listener of each change of its copy: a newer one arrived, or it was dropped", async () => {
    const { world, informer, read, label } = await setup();
    const seen: string[] = [];
    informer.onChange(() => seen.push(informer.cached()?.metadata.labels?.["mark"] ?? (informer.cached() === undefined ? "dropped" : "unlabelled")));
    await read();
    label("first");
    await world.sim.runFor(5);
    world.network.partition(["agent"]);
    label("lost");
    world.network.heal(["agent"]);
    await world.sim.runFor(10);
    expect(seen).toEqual(["unlabelled", "first", "dropped"]);
  });

  it("stops watching when stopped", async () => {
    const { world, informer, read, label } = await setup();
    await read();
    informer.stop();
    label("unseen");
    await world.sim.runFor(100);
    expect((await read()).node.metadata.labels).toBeUndefined();
  });
});
