/**
 * managedFields on writes other than apply (ApiServerOptions.trackManagedFields): kept only when
 * the switch is on; a request's own managedFields kept as Kubernetes keeps them.
 */
import { describe, expect, it } from "vitest";
import { testServer } from "../test-server.ts";

const CM = "/api/v1/namespaces/default/configmaps";
const body = (data: Record<string, string>, extra: Record<string, unknown> = {}) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", ...extra }, data });
const managers = (json: any) => (json.metadata.managedFields ?? []).map((entry: any) => `${entry.manager}/${entry.operation}:${Object.keys(entry.fieldsV1["f:data"] ?? {}).join(",")}`);

describe("managedFields of non-apply writes", () => {
  it("are not written with the switch off (simulations)", async () => {
    const { call } = testServer("kubernetes");
    const created = await call("POST", `${CM}?fieldManager=maker`, body({ x: "1" }));
    expect(created.status).toBe(201);
    expect(created.json.metadata.managedFields).toBeUndefined();
  });

  it("record the fieldManager, else the User-Agent's product, and move fields to who changed them", async () => {
    const { call } = testServer("kubernetes", { trackManagedFields: true });
    const created = await call("POST", `${CM}?fieldManager=maker`, body({ x: "1", y: "1" }));
    expect(managers(created.json)).toEqual(["maker/Update:.,f:x,f:y"]);
    const put = await call("PUT", `${CM}/a`, body({ x: "2", y: "1" }), { "user-agent": "kubectl-edit/v1.26.4 (linux/amd64) kubernetes/f89670c" });
    // Same second: sorted by manager name, as Kubernetes sorts entries.
    expect(managers(put.json)).toEqual(["kubectl-edit/Update:f:x", "maker/Update:.,f:y"]);
  });

  it("keep the stored ones when a write sends none or [], and are removed by [{}]", async () => {
    const { call } = testServer("kubernetes", { trackManagedFields: true });
    await call("POST", `${CM}?fieldManager=maker`, body({ x: "1" }));
    const empty = await call("PUT", `${CM}/a?fieldManager=other`, body({ x: "1" }, { managedFields: [] }));
    expect(managers(empty.json)).toEqual(["maker/Update:.,f:x"]);
    const cleared = await call("PUT", `${CM}/a?fieldManager=other`, body({ x: "3" }, { managedFields: [{}] }));
    expect(cleared.status).toBe(200);
    expect(cleared.json.metadata.managedFields).toBeUndefined();
  });
});
