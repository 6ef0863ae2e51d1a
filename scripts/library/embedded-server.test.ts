/**
 * The library's embedded server with RBAC on, through its in-process handler: what an operator's
 * test suite does to check its Roles (the packed-package test, npm-package.test.ts, covers the
 * rest of the entry points from outside).
 */
import { describe, expect, it } from "vitest";
import { createEmbeddedServer } from "./embedded-server.ts";

const tokens = { "admin-token": { name: "admin", groups: ["system:masters"] }, "alice-token": { name: "alice" } };

function as(server: ReturnType<typeof createEmbeddedServer>, token: string) {
  return async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await server.handler(new Request(`http://embedded${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) }));
    return { status: response.status, json: (await response.json()) as { message?: string; items?: unknown[] } };
  };
}

describe("createEmbeddedServer with auth.authorizationMode RBAC", () => {
  it("authorizes from the Roles and bindings written to it, as kube-apiserver's RBAC does", async () => {
    const server = createEmbeddedServer({ clock: "virtual", auth: { tokens, authorizationMode: "RBAC" } });
    const admin = as(server, "admin-token");
    const alice = as(server, "alice-token");
    const refused = await alice("GET", "/api/v1/namespaces/default/pods");
    expect([refused.status, refused.json.message]).toEqual([403, 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"']);
    const rbac = "/apis/rbac.authorization.k8s.io/v1/namespaces/default";
    expect((await admin("POST", `${rbac}/roles`, { metadata: { name: "pod-reader" }, rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["list"] }] })).status).toBe(201);
    const binding = { metadata: { name: "alice-reads" }, subjects: [{ kind: "User", name: "alice", apiGroup: "rbac.authorization.k8s.io" }], roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "pod-reader" } };
    expect((await admin("POST", `${rbac}/rolebindings`, binding)).status).toBe(201);
    expect((await alice("GET", "/api/v1/namespaces/default/pods")).status).toBe(200);
    expect((await alice("GET", "/api/v1/namespaces/default/secrets")).status).toBe(403);
    // The bootstrap policy is there from the start.
    expect((await admin("GET", "/apis/rbac.authorization.k8s.io/v1/clusterroles/cluster-admin")).status).toBe(200);
    await server.close();
  });

  it("refuses what cannot work, saying why", () => {
    expect(() => createEmbeddedServer({ auth: { authorizationMode: "RBAC" } })).toThrow('auth.authorizationMode "RBAC" needs tokens (tokens or tokenFile)');
    expect(() => createEmbeddedServer({ dialect: "orb", auth: { tokens, authorizationMode: "RBAC" } })).toThrow(/needs dialect "kubernetes"/);
    expect(() => createEmbeddedServer({ auth: { tokens, policy: "[]", authorizationMode: "AlwaysAllow" } })).toThrow("takes no policy");
  });
});
