/**
 * The namespace controller runs on the server's clock, outside any request: an error in it has no
 * caller to answer, and in real time it would end the process. It must keep the server up and
 * try again instead.
 */
import { describe, expect, it } from "vitest";
import { testServer } from "../test-server.ts";

describe("namespace controller", () => {
  it("survives a namespace it cannot finalize (a stored spec.finalizers that is not a list), retrying instead of throwing", async () => {
    const { call, sim, server } = testServer();
    // Written to the store directly, as no request can any more (value-types.ts refuses it at the door).
    server.store.create({ resource: "namespaces", namespace: "", name: "odd" }, {
      metadata: { name: "odd", uid: "u-odd", creationTimestamp: "2026-01-01T00:00:00Z" },
      spec: { finalizers: "kubernetes" },
      status: { phase: "Active" },
    } as never);
    const deleting = await call("DELETE", "/api/v1/namespaces/odd");
    expect([deleting.status, deleting.json.status.phase]).toEqual([200, "Terminating"]);
    await sim.runFor(5_000); // several reconcile rounds; a throw here would reject
    const still = await call("GET", "/api/v1/namespaces/odd");
    expect([still.status, still.json.status.phase]).toEqual([200, "Terminating"]);
    expect((await call("GET", "/api/v1/namespaces")).status).toBe(200);
  });
});
