/**
 * An update that empties a terminating object's finalizers deletes it instead of writing, as
 * kube-apiserver 1.26 does (found by `fuzz --target api` against it): the answer is the object as
 * requested (its new data) at the version it replaced, and the object is gone.
 */
import { describe, expect, it } from "vitest";
import { testServer } from "../test-server.ts";

const CM = "/api/v1/namespaces/default/configmaps";

describe("releasing the last finalizer with an update", () => {
  it("answers the requested object at the replaced version and deletes the object", async () => {
    const s = testServer("kubernetes");
    await s.call("POST", CM, { metadata: { name: "held", finalizers: ["example.com/hold"] }, data: { v: "1" } });
    const terminating = await s.call("DELETE", `${CM}/held`);
    expect(terminating.json.metadata.deletionTimestamp).toBeDefined();
    const released = await s.call("PUT", `${CM}/held`, { metadata: { name: "held" }, data: { v: "2" } });
    expect(released.status).toBe(200);
    expect(released.json.data).toEqual({ v: "2" });
    expect(released.json.metadata.resourceVersion).toBe(terminating.json.metadata.resourceVersion);
    expect((await s.call("GET", `${CM}/held`)).status).toBe(404);
  });
});
