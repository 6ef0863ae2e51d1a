import { describe, expect, it } from "vitest";
import { dialectByName } from "../../spec/dialects.ts";
import { ApiServer } from "../apiserver/api-server.ts";
import { Network, NetworkError, type PartitionMode } from "../faults/network.ts";
import { ProcessClock } from "../faults/process-clock.ts";
import { WakeupBatcher } from "../faults/wakeup-batcher.ts";
import { Simulation } from "../kernel/simulation.ts";
import { inMemoryTransport } from "./in-memory-transport.ts";

const LEASES = "http://apiserver.local/apis/coordination.orb.io/v1/namespaces/orb-system/leases";

function setup(partitionMode: PartitionMode = "hang") {
  const sim = new Simulation({ seed: "in-memory-transport" });
  const server = new ApiServer({ clock: sim, rng: sim.rng.fork("server"), tokenKey: sim.rng.fork("token").bytes(32), dialect: dialectByName("orb"), build: { platform: "linux/amd64" } });
  const timers = new WakeupBatcher(sim);
  const network = new Network({ sim, timers, rng: sim.rng.fork("network"), latency: { minMs: 5, meanExtraMs: 0, maxMs: 5 }, partitionMode, rejectAfterMs: 300 });
  const clock = new ProcessClock("client", sim, timers);
  const transport = inMemoryTransport({ clock, network, handler: server.handle, timeoutMs: 2000 });
  const create = (name: string) =>
    new Request(LEASES, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ apiVersion: "coordination.orb.io/v1", kind: "Lease", metadata: { name } }) });
  const exists = async (name: string) => (await server.handle(new Request(`${LEASES}/${name}`))).status === 200;
  return { sim, server, network, clock, transport, create, exists, t0: sim.nowMs() };
}

describe("in-memory transport", () => {
  it("delivers after the request's and the response's latency; the server applies in between", async () => {
    const { sim, transport, create, t0 } = setup();
    let appliedAtMs = 0;
    let answeredAtMs = 0;
    void transport(create("a"), { onApplied: () => (appliedAtMs = sim.nowMs()) }).then((response) => {
      answeredAtMs = sim.nowMs();
      expect(response.status).toBe(201);
    });
    await sim.run({ untilMs: t0 + 100 });
    expect([appliedAtMs - t0, answeredAtMs - t0]).toEqual([5, 10]);
  });

  it("a partitioned request hangs until the client's timeout and never reaches the server", async () => {
    const { sim, network, transport, create, exists, t0 } = setup();
    network.partition(["client"]);
    let failure: unknown;
    let failedAtMs = 0;
    void transport(create("b")).catch((error: unknown) => ((failure = error), (failedAtMs = sim.nowMs())));
    await sim.run({ untilMs: t0 + 5000 });
    expect(failure).toBeInstanceOf(NetworkError);
    expect((failure as NetworkError).reason).toBe("timeout");
    expect(failedAtMs - t0).toBe(2000);
    expect(await exists("b")).toBe(false);
  });

  it("in reject mode a partitioned request fails after the connection timeout", async () => {
    const { sim, network, transport, create, t0 } = setup("reject");
    network.partition(["client"]);
    let failedAtMs = 0;
    void transport(create("c")).catch((error: NetworkError) => {
      expect(error.reason).toBe("unreachable");
      failedAtMs = sim.nowMs();
    });
    await sim.run({ untilMs: t0 + 5000 });
    expect(failedAtMs - t0).toBe(300);
  });

  it("a dropped response: the server applied the write, the client sees a timeout", async () => {
    const { sim, network, transport, create, exists, t0 } = setup();
    network.setDropProbability("client", 1);
    let failure: unknown;
    void transport(create("d")).catch((error: unknown) => (failure = error));
    await sim.run({ untilMs: t0 + 5000 });
    expect(failure).toBeInstanceOf(NetworkError);
    expect(await exists("d")).toBe(true);
  });

  it("a response that arrives while the client is paused is handed over when it resumes", async () => {
    const { sim, clock, transport, create, t0 } = setup();
    let answeredAtMs = 0;
    void transport(create("e")).then(() => (answeredAtMs = sim.nowMs()));
    clock.pause(1000);
    await sim.run({ untilMs: t0 + 5000 });
    expect(answeredAtMs - t0).toBe(1000);
  });

  it("a request slower than the client's timeout fails at the timeout but still lands", async () => {
    const { sim, network, transport, create, exists, t0 } = setup();
    network.setLatency("client", { minMs: 1500, meanExtraMs: 0, maxMs: 1500 });
    let failedAtMs = 0;
    void transport(create("f")).catch(() => (failedAtMs = sim.nowMs()));
    await sim.run({ untilMs: t0 + 5000 });
    expect(failedAtMs - t0).toBe(2000);
    expect(await exists("f")).toBe(true);
  });
});
