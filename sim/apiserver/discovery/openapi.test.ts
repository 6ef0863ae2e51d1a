import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { dialectByName, dialects } from "../../../spec/dialects.ts";
import { openApiDocument, openApiV3Discovery, openApiV3GroupVersion, type OpenApiOperation, type OpenApiPathItem, type OpenApiV3Document } from "./openapi.ts";
import { ResourceRegistry } from "../routing/resource-types.ts";

const kubernetes = dialectByName("kubernetes");
const orb = dialectByName("orb");
const k8sRegistry = new ResourceRegistry(kubernetes);

function document(registry: ResourceRegistry, dialect = kubernetes, group: string, version = "v1"): OpenApiV3Document {
  const found = openApiV3GroupVersion(registry, dialect, group, version);
  if (found === undefined) throw new Error(`no document for ${group}/${version}`);
  return found;
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;
const operations = (doc: OpenApiV3Document): Array<[string, string, OpenApiOperation]> =>
  Object.entries(doc.paths).flatMap(([path, item]: [string, OpenApiPathItem]) =>
    METHODS.flatMap((method) => (item[method] === undefined ? [] : [[path, method, item[method]] as [string, string, OpenApiOperation]])),
  );

describe("GET /openapi/v3", () => {
  it("lists one document per served group/version, each URL hashed over the document's JSON", () => {
    for (const dialect of dialects) {
      const registry = new ResourceRegistry(dialect);
      const root = openApiV3Discovery(registry, dialect);
      const expected = registry.groupVersions().map(({ group, version }) => (group === "" ? `api/${version}` : `apis/${group}/${version}`));
      expect(Object.keys(root.paths)).toEqual([...expected].sort());
      for (const { group, version } of registry.groupVersions()) {
        const apiPath = group === "" ? `api/${version}` : `apis/${group}/${version}`;
        const hash = createHash("sha512").update(JSON.stringify(document(registry, dialect, group, version))).digest("hex").toUpperCase();
        // kubectl keeps its own URL prefix for URLs rooted at /openapi/v3 (client-go openapi client).
        expect(root.paths[apiPath]?.serverRelativeURL).toBe(`/openapi/v3/${apiPath}?hash=${hash}`);
      }
    }
  });

  it("is the same on every call (no clock, no randomness)", () => {
    expect(JSON.stringify(openApiV3Discovery(k8sRegistry, kubernetes))).toBe(JSON.stringify(openApiV3Discovery(new ResourceRegistry(kubernetes), kubernetes)));
  });
});

describe("openApiDocument routes /openapi paths", () => {
  it("serves the root and each group/version document", () => {
    expect(openApiDocument(k8sRegistry, kubernetes, "/openapi/v3")).toEqual(openApiV3Discovery(k8sRegistry, kubernetes));
    expect(openApiDocument(k8sRegistry, kubernetes, "/openapi/v3/api/v1")).toEqual(document(k8sRegistry, kubernetes, ""));
    expect(openApiDocument(k8sRegistry, kubernetes, "/openapi/v3/apis/apps/v1")).toEqual(document(k8sRegistry, kubernetes, "apps"));
  });

  it("has nothing for /openapi/v2, unknown groups or versions, or the other dialect's group", () => {
    for (const path of ["/openapi/v2", "/openapi", "/openapi/v3/api/v2", "/openapi/v3/apis/no.such.group/v1", "/openapi/v3/apis/apps", "/openapi/v3/apis/coordination.orb.io/v1"]) {
      expect(openApiDocument(k8sRegistry, kubernetes, path), path).toBeUndefined();
    }
  });
});

describe("what kubectl reads from a group/version document", () => {
  it("gives every served kind a PATCH operation accepting fieldValidation, so kubectl leaves validation to the server", () => {
    for (const dialect of dialects) {
      const registry = new ResourceRegistry(dialect);
      // Types that cannot be patched (permission checks, the read-only definitions listing) have no PATCH.
      for (const type of registry.types.filter((served) => served.verbs.includes("patch"))) {
        const patches = operations(document(registry, dialect, type.group, type.version)).filter(
          ([, method, op]) =>
            method === "patch" &&
            op["x-kubernetes-group-version-kind"].group === type.group &&
            op["x-kubernetes-group-version-kind"].kind === type.kind &&
            op["x-kubernetes-group-version-kind"].version === type.version,
        );
        expect(patches.length, `${dialect.name} ${type.resource}`).toBeGreaterThan(0);
        // kubectl checks whichever tagged PATCH operation it meets first: each must list the parameter.
        for (const [path, , op] of patches) expect(op.parameters?.map((p) => p.name), path).toContain("fieldValidation");
      }
    }
  });

  it("declares no PATCH request body, so kubectl apply computes patches from its own types", () => {
    for (const [path, method, op] of operations(document(k8sRegistry, kubernetes, ""))) {
      expect(op, `${method} ${path}`).not.toHaveProperty("requestBody");
    }
  });

  it("is an OpenAPI 3.0 document with empty components, titled per dialect", () => {
    const doc = document(k8sRegistry, kubernetes, "apps");
    expect(doc.openapi).toBe("3.0.0");
    expect(doc.info).toEqual({ title: "Kubernetes", version: "v1.26.4+orb-harness" });
    expect(doc.components).toEqual({ schemas: {} });
    expect(document(new ResourceRegistry(orb), orb, "coordination.orb.io").info.title).toBe("orb");
  });
});

describe("paths and operations (Kubernetes behaviour)", () => {
  const core = document(k8sRegistry, kubernetes, "");
  const ids = (doc: OpenApiV3Document) => new Map(operations(doc).map(([path, method, op]) => [op.operationId, `${method} ${path}`]));

  it("names operations as Kubernetes does, each once", () => {
    const all = operations(core).map(([, , op]) => op.operationId);
    expect(new Set(all).size).toBe(all.length);
    expect(Object.fromEntries(ids(core))).toMatchObject({
      listCoreV1NamespacedConfigMap: "get /api/v1/namespaces/{namespace}/configmaps",
      createCoreV1NamespacedConfigMap: "post /api/v1/namespaces/{namespace}/configmaps",
      deleteCoreV1CollectionNamespacedConfigMap: "delete /api/v1/namespaces/{namespace}/configmaps",
      readCoreV1NamespacedConfigMap: "get /api/v1/namespaces/{namespace}/configmaps/{name}",
      replaceCoreV1NamespacedConfigMap: "put /api/v1/namespaces/{namespace}/configmaps/{name}",
      patchCoreV1NamespacedConfigMap: "patch /api/v1/namespaces/{namespace}/configmaps/{name}",
      deleteCoreV1NamespacedConfigMap: "delete /api/v1/namespaces/{namespace}/configmaps/{name}",
      listCoreV1ConfigMapForAllNamespaces: "get /api/v1/configmaps",
      listCoreV1Node: "get /api/v1/nodes",
      readCoreV1NamespacedPodStatus: "get /api/v1/namespaces/{namespace}/pods/{name}/status",
      createCoreV1NamespacedPodEviction: "post /api/v1/namespaces/{namespace}/pods/{name}/eviction",
      replaceCoreV1NamespaceFinalize: "put /api/v1/namespaces/{name}/finalize",
    });
    expect(Object.fromEntries(ids(document(k8sRegistry, kubernetes, "apps")))).toMatchObject({
      patchAppsV1NamespacedDeploymentScale: "patch /apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale",
    });
    expect(Object.fromEntries(ids(document(k8sRegistry, kubernetes, "coordination.k8s.io")))).toMatchObject({
      listCoordinationV1NamespacedLease: "get /apis/coordination.k8s.io/v1/namespaces/{namespace}/leases",
    });
  });

  it("offers only the verbs a type serves: no deletecollection of namespaces", () => {
    expect(core.paths["/api/v1/namespaces"]).not.toHaveProperty("delete");
    expect(core.paths["/api/v1/namespaces/{name}/finalize"]).toMatchObject({ put: { "x-kubernetes-action": "put" } });
    expect(core.paths["/api/v1/namespaces/{name}/finalize"]).not.toHaveProperty("get");
  });

  it("tags eviction and scale with their own kinds", () => {
    expect(core.paths["/api/v1/namespaces/{namespace}/pods/{name}/eviction"]?.post?.["x-kubernetes-group-version-kind"]).toEqual({ group: "policy", kind: "Eviction", version: "v1" });
    const scale = document(k8sRegistry, kubernetes, "apps").paths["/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale"];
    expect(scale?.patch?.["x-kubernetes-group-version-kind"]).toEqual({ group: "autoscaling", kind: "Scale", version: "v1" });
  });

  it("lists the query parameters of each action and the path's own parameters", () => {
    const item = core.paths["/api/v1/namespaces/{namespace}/configmaps"];
    expect(item?.parameters.map((p) => p.name)).toEqual(["namespace", "pretty"]);
    expect(item?.get?.parameters?.map((p) => p.name)).toEqual([
      "allowWatchBookmarks",
      "continue",
      "fieldSelector",
      "labelSelector",
      "limit",
      "resourceVersion",
      "resourceVersionMatch",
      "timeoutSeconds",
      "watch",
    ]);
    const object = core.paths["/api/v1/namespaces/{namespace}/configmaps/{name}"];
    expect(object?.patch?.parameters?.map((p) => p.name)).toEqual(["dryRun", "fieldManager", "fieldValidation", "force"]);
    expect(object?.get).not.toHaveProperty("parameters");
  });
});
