/**
 * The default-ServiceAccount controller (ApiServerOptions.defaultServiceAccounts): what
 * kube-controller-manager 1.26 does on a real cluster, checked against its recorded object.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { testServer } from "../test-server.ts";

const recorded = JSON.parse(readFileSync(new URL("./recorded/default-service-account.kube-1.26.json", import.meta.url), "utf8")) as { body: Record<string, any> };

/** An object without what differs between any two servers' copies of it. */
function shape(object: Record<string, any>): Record<string, unknown> {
  const { uid: _uid, resourceVersion: _rv, creationTimestamp: _created, managedFields: _fields, ...metadata } = object["metadata"];
  return { ...object, metadata };
}

const path = (namespace: string) => `/api/v1/namespaces/${namespace}/serviceaccounts/default`;

describe("default ServiceAccount controller", () => {
  it("gives the namespaces present at start-up their default ServiceAccount", async () => {
    const { call } = testServer("kubernetes", { defaultServiceAccounts: true });
    for (const namespace of ["default", "kube-system", "kube-public", "kube-node-lease"]) {
      expect((await call("GET", path(namespace))).status, namespace).toBe(200);
    }
  });

  it("gives a new namespace the ServiceAccount kube-controller-manager 1.26 makes, before the client's next request", async () => {
    const { call } = testServer("kubernetes", { defaultServiceAccounts: true });
    expect((await call("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "sa-probe" } })).status).toBe(201);
    const answer = await call("GET", path("sa-probe"));
    expect(answer.status).toBe(200);
    expect(shape(answer.json)).toEqual(shape(recorded.body));
    // 1.24 and later make no token Secret for it.
    expect((await call("GET", "/api/v1/namespaces/sa-probe/secrets")).json.items).toEqual([]);
  });

  it("makes it again when it is deleted, with a new uid", async () => {
    const { call } = testServer("kubernetes", { defaultServiceAccounts: true });
    const before = await call("GET", path("default"));
    expect((await call("DELETE", path("default"))).status).toBe(200);
    const after = await call("GET", path("default"));
    expect(after.status).toBe(200);
    expect(after.json.metadata.uid).not.toBe(before.json.metadata.uid);
  });

  it("leaves a terminating namespace alone, so its deletion completes", async () => {
    const { call, sim } = testServer("kubernetes", { defaultServiceAccounts: true });
    await call("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "going" } });
    expect((await call("GET", path("going"))).status).toBe(200);
    expect((await call("DELETE", "/api/v1/namespaces/going")).status).toBe(200);
    await sim.runFor(5_000);
    expect((await call("GET", "/api/v1/namespaces/going")).status).toBe(404);
    expect((await call("GET", path("going"))).status).toBe(404);
  });

  it("is off by default (simulations keep their trace hashes)", async () => {
    const { call } = testServer("kubernetes");
    expect((await call("GET", path("default"))).status).toBe(404);
  });

  it("stops with the server", async () => {
    const { call, server } = testServer("kubernetes", { defaultServiceAccounts: true });
    server.close();
    await call("DELETE", path("default"));
    expect((await call("GET", path("default"))).status).toBe(404);
  });
});
