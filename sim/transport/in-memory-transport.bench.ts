/**
 * What one node heartbeat costs (`npm run bench:micro`), to choose the actors' client for large
 * clusters: a Lease renewal by 1,000 node agents every 10 s of virtual time, through HTTP-shaped
 * requests to the embedded server (in-memory transport) and through the store-level client, both
 * over the same simulated network (1–50 ms latency).
 */
import { bench, describe } from "vitest";
import { dialectByName } from "../../spec/dialects.ts";
import type { ControlPlaneClient } from "../actors/api-client.ts";
import type { Lease } from "../actors/api-objects.ts";
import { HttpApiClient } from "../actors/http-api-client.ts";
import { StoreApi } from "../actors/store-api.ts";
import { StoreApiClient } from "../actors/store-api-client.ts";
import type { ProcessClock } from "../faults/process-clock.ts";
import { ControlPlaneWorld } from "../scenarios/control-plane-world.ts";
import { inMemoryTransport } from "./in-memory-transport.ts";

const AGENTS = 1_000;
const VIRTUAL_MS = 600_000; // 60 renewals per agent

async function renewals(kind: "http" | "store"): Promise<void> {
  const dialect = dialectByName("orb");
  const world = new ControlPlaneWorld({ seed: `bench-${kind}`, dialect });
  const api = new StoreApi({ server: world.server, rng: world.sim.rng.fork("store-api") });
  const clientFor = (clock: ProcessClock): ControlPlaneClient =>
    kind === "store" ? new StoreApiClient(api, world.network, clock) : new HttpApiClient(inMemoryTransport({ clock, network: world.network, handler: world.server.handle }), dialect);
  for (let index = 0; index < AGENTS; index++) {
    const name = `node-${index}`;
    world.host.add(name, (clock) => {
      const client = clientFor(clock);
      void world.sim.spawn(name, async () => {
        await clock.sleep((index % 100) * 100);
        let lease: Lease = await client.createLease({ metadata: { name, namespace: dialect.namespaces.nodeLease }, spec: { holderIdentity: name, leaseDurationSeconds: 40 } });
        for (;;) {
          await clock.sleep(10_000);
          lease = await client.updateLease({ metadata: lease.metadata, spec: { ...lease.spec, renewTime: new Date(clock.nowMs()).toISOString() } });
        }
      });
    });
  }
  await world.runUntil(VIRTUAL_MS);
}

describe(`${AGENTS} node agents renewing leases for ${VIRTUAL_MS / 60_000} virtual minutes (${(AGENTS * VIRTUAL_MS) / 10_000} renewals)`, () => {
  bench("HTTP-shaped requests to the embedded server", () => renewals("http"), { iterations: 2, warmupIterations: 0 });
  bench("store-level client", () => renewals("store"), { iterations: 3, warmupIterations: 1 });
});
