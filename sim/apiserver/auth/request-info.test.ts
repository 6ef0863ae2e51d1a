import { describe, expect, it } from "vitest";
import { requestAttributes, sameRequest } from "./request-info.ts";
import type { ResourceAttributes } from "./authorize.ts";

const at = (method: string, target: string) => requestAttributes(method, new URL(`https://test.local${target}`));
const resource = (fields: Omit<ResourceAttributes, "kind" | "apiGroup"> & { apiGroup?: string }): ResourceAttributes => ({ kind: "resource", apiGroup: "", ...fields });

describe("requestAttributes reads a request as kube-apiserver's RequestInfoFactory does", () => {
  it("maps methods to verbs, a nameless get to list or watch, a nameless delete to deletecollection", () => {
    const cm = "/api/v1/namespaces/a/configmaps";
    expect(at("GET", `${cm}/x`)).toEqual(resource({ verb: "get", resource: "configmaps", namespace: "a", name: "x" }));
    expect(at("GET", cm)).toEqual(resource({ verb: "list", resource: "configmaps", namespace: "a" }));
    expect(at("GET", `${cm}?watch=true`)).toEqual(resource({ verb: "watch", resource: "configmaps", namespace: "a" }));
    expect(at("GET", `${cm}?watch=yes`)).toMatchObject({ verb: "watch" }); // Go: anything but false or 0
    expect(at("GET", `${cm}?watch=0`)).toMatchObject({ verb: "list" });
    // A watch parameter on an object's own path is a get (recorded from kube-apiserver 1.26.4).
    expect(at("GET", `${cm}/x?watch=true`)).toMatchObject({ verb: "get", name: "x" });
    expect(at("HEAD", `${cm}/x`)).toMatchObject({ verb: "get" });
    expect(at("POST", cm)).toMatchObject({ verb: "create" });
    expect(at("PUT", `${cm}/x`)).toMatchObject({ verb: "update" });
    expect(at("PATCH", `${cm}/x`)).toMatchObject({ verb: "patch" });
    expect(at("DELETE", `${cm}/x`)).toMatchObject({ verb: "delete" });
    expect(at("DELETE", cm)).toMatchObject({ verb: "deletecollection" });
    expect(at("OPTIONS", `${cm}/x`)).toMatchObject({ verb: "" });
  });

  it("names a list or watch by its fieldSelector metadata.name (transcript security-watch-name-selector)", () => {
    const cm = "/api/v1/namespaces/b/configmaps";
    expect(at("GET", `${cm}?watch=true&fieldSelector=metadata.name%3Dcm-b`)).toEqual(resource({ verb: "watch", resource: "configmaps", namespace: "b", name: "cm-b" }));
    expect(at("GET", `${cm}?fieldSelector=metadata.name%3D%3Dcm-b`)).toMatchObject({ verb: "list", name: "cm-b" });
    for (const selector of ["metadata.name!%3Dcm-b", "metadata.name%3D..", "metadata.namespace%3Db", "bogus", "data.x%3Dy"]) {
      expect(at("GET", `${cm}?fieldSelector=${selector}`)).not.toHaveProperty("name");
    }
  });

  it("reads groups, cluster scope, namespaces as living in themselves, and namespace subresources", () => {
    expect(at("GET", "/apis/apps/v1/namespaces/a/deployments/d/scale")).toEqual(
      resource({ verb: "get", apiGroup: "apps", resource: "deployments", subresource: "scale", namespace: "a", name: "d" }),
    );
    expect(at("GET", "/api/v1/nodes/n")).toEqual(resource({ verb: "get", resource: "nodes", name: "n" }));
    expect(at("GET", "/api/v1/namespaces")).toEqual(resource({ verb: "list", resource: "namespaces" }));
    expect(at("GET", "/api/v1/namespaces/a")).toEqual(resource({ verb: "get", resource: "namespaces", namespace: "a", name: "a" }));
    expect(at("PUT", "/api/v1/namespaces/a/finalize")).toEqual(resource({ verb: "update", resource: "namespaces", subresource: "finalize", namespace: "a", name: "a" }));
    expect(at("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews")).toEqual(resource({ verb: "create", apiGroup: "authorization.k8s.io", resource: "subjectaccessreviews" }));
  });

  it("treats paths outside /api and /apis, and short ones, as non-resource paths (decoded)", () => {
    expect(at("GET", "/readyz")).toEqual({ kind: "nonResource", verb: "get", path: "/readyz" });
    expect(at("GET", "/api/v1")).toEqual({ kind: "nonResource", verb: "get", path: "/api/v1" });
    expect(at("GET", "/apis/apps/v1")).toEqual({ kind: "nonResource", verb: "get", path: "/apis/apps/v1" });
    expect(at("GET", "/API/v1/namespaces/b/configmaps/x")).toEqual({ kind: "nonResource", verb: "get", path: "/API/v1/namespaces/b/configmaps/x" });
    expect(at("POST", "/livez%2Fping")).toEqual({ kind: "nonResource", verb: "post", path: "/livez/ping" });
    expect(at("GET", "/api/v1/watch")).toEqual({ kind: "nonResource", verb: "get", path: "/api/v1/watch" });
  });

  it("reads the deprecated /watch/ paths as watches (transcript security-watch-legacy-path)", () => {
    expect(at("GET", "/api/v1/watch/namespaces/b/configmaps")).toEqual(resource({ verb: "watch", resource: "configmaps", namespace: "b" }));
    expect(at("GET", "/api/v1/watch/namespaces/b/configmaps/x")).toEqual(resource({ verb: "watch", resource: "configmaps", namespace: "b", name: "x" }));
  });

  it("splits the decoded path at every slash, keeping inner empty segments and ignoring extra ones", () => {
    // Encoded slashes are slashes (transcript security-path-encoded-slash-all).
    expect(at("GET", "/api/v1/namespaces%2Fb%2Fconfigmaps%2Fcm-b")).toEqual(resource({ verb: "get", resource: "configmaps", namespace: "b", name: "cm-b" }));
    expect(at("GET", "/api/v1/namespaces/a%2F..%2Fb/configmaps/cm-b")).toEqual(resource({ verb: "get", resource: "..", subresource: "configmaps", namespace: "a", name: "b" }));
    // Slashes at both ends are trimmed; inner doubled ones are empty segments (transcripts security-path-double-slash-*).
    expect(at("GET", "//api/v1/namespaces/b/configmaps/cm-b/")).toEqual(resource({ verb: "get", resource: "configmaps", namespace: "b", name: "cm-b" }));
    expect(at("GET", "/api/v1/namespaces/a//configmaps/cm-a")).toEqual(resource({ verb: "get", resource: "", subresource: "cm-a", namespace: "a", name: "configmaps" }));
    expect(at("GET", "/api/v1/namespaces//b/configmaps/cm-b")).toEqual(resource({ verb: "get", resource: "b", subresource: "cm-b", name: "configmaps" }));
    expect(at("GET", "/api/v1/namespaces/a/configmaps/x/y/z")).toEqual(resource({ verb: "get", resource: "configmaps", subresource: "y", namespace: "a", name: "x" }));
    expect(at("GET", "/api/v1/namespaces/a/%zz")).toEqual({ kind: "nonResource", verb: "get", path: "/api/v1/namespaces/a/%zz" });
  });
});

describe("sameRequest", () => {
  const authorized = resource({ verb: "get", resource: "configmaps", namespace: "a", name: "x" });

  it("holds only when the router serves exactly what was authorized", () => {
    expect(sameRequest(authorized, authorized)).toBe(true);
    expect(sameRequest(authorized, { ...authorized, verb: "watch" })).toBe(false);
    expect(sameRequest(authorized, { ...authorized, namespace: "b" })).toBe(false);
    expect(sameRequest(authorized, { ...authorized, resource: "secrets" })).toBe(false);
    expect(sameRequest(authorized, { ...authorized, subresource: "status" })).toBe(false);
    expect(sameRequest({ kind: "nonResource", verb: "get", path: "/x" }, authorized)).toBe(false);
  });

  it("takes a list or watch named by its fieldSelector as the nameless one the router serves", () => {
    const named = resource({ verb: "watch", resource: "configmaps", namespace: "a", name: "x" });
    expect(sameRequest(named, resource({ verb: "watch", resource: "configmaps", namespace: "a" }))).toBe(true);
    expect(sameRequest(resource({ verb: "delete", resource: "configmaps", namespace: "a", name: "x" }), resource({ verb: "delete", resource: "configmaps", namespace: "a" }))).toBe(false);
  });
});
