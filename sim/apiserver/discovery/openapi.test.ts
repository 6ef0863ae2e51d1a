import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { dialectByName, dialects } from "../../../spec/dialects.ts";
import { OpenApiDocuments, openApiDocument, openApiV2, openApiV3Discovery, openApiV3GroupVersion, type OpenApiOperation, type OpenApiPathItem, type OpenApiV3Document } from "./openapi.ts";
import { recordedOpenApi, typeSchemas } from "./openapi-schemas.ts";
import { subresourceKind } from "./discovery.ts";
import { parseCustomResourceDefinition } from "../routing/custom-resources.ts";
import { ResourceRegistry, type ResourceType } from "../routing/resource-types.ts";

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

  it("serves /openapi/v2 as one Swagger 2.0 document", () => {
    expect(openApiDocument(k8sRegistry, kubernetes, "/openapi/v2")).toEqual(openApiV2(k8sRegistry, kubernetes));
    expect(openApiV2(k8sRegistry, kubernetes)).toMatchObject({ swagger: "2.0", info: { title: "Kubernetes", version: "v1.26.4+orb-harness" } });
  });

  it("has nothing for unknown groups or versions, or the other dialect's group", () => {
    for (const path of ["/openapi", "/openapi/v2/x", "/openapi/v3/api/v2", "/openapi/v3/apis/no.such.group/v1", "/openapi/v3/apis/apps", "/openapi/v3/apis/coordination.orb.io/v1"]) {
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

  it("lists in each PATCH request body the patch types the server takes, so kubectl apply computes strategic merge patches from the schemas", () => {
    for (const dialect of dialects) {
      const registry = new ResourceRegistry(dialect);
      for (const { group, version } of registry.groupVersions()) {
        for (const [path, method, op] of operations(document(registry, dialect, group, version))) {
          if (method !== "patch") continue;
          const types = Object.keys(op.requestBody?.content ?? {});
          // Every built-in kind takes server-side apply (but on /scale, not served here) and strategic merge patches.
          const apply = path.endsWith("/scale") ? [] : ["application/apply-patch+yaml"];
          expect(types, `${dialect.name} ${path}`).toEqual([...apply, "application/json-patch+json", "application/merge-patch+json", "application/strategic-merge-patch+json"]);
          for (const type of types) expect(op.requestBody?.content[type]?.schema.$ref).toBe("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Patch");
        }
      }
    }
  });

  it("is an OpenAPI 3.0 document with the schemas of its kinds, titled per dialect", () => {
    const doc = document(k8sRegistry, kubernetes, "apps");
    expect(doc.openapi).toBe("3.0.0");
    expect(doc.info).toEqual({ title: "Kubernetes", version: "v1.26.4+orb-harness" });
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["io.k8s.api.apps.v1.Deployment", "io.k8s.api.apps.v1.DeploymentList", "io.k8s.api.autoscaling.v1.Scale"]));
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

// --- Schemas (issue: kubectl explain, client-side validation) ---

const recorded = recordedOpenApi();
const customResources = JSON.parse(readFileSync(new URL("./openapi-data/custom-resources.json", import.meta.url), "utf8")) as {
  definitions: unknown[];
  schemas: Record<string, unknown>;
  otherSchemas: string[];
  patches: Record<string, { requestBody: { content: Record<string, unknown> }; parameters: string[] }>;
};
// The sample definitions the recording made (one keeping any field, one typed with a status subresource), served here from flags.
const sampleDefinitions = customResources.definitions.map((definition) => parseCustomResourceDefinition(JSON.stringify(definition)));
const withCustom = new ResourceRegistry(kubernetes, sampleDefinitions.map((definition) => definition.type));
const definitionSchema = (type: ResourceType) => {
  const definition = sampleDefinitions.find((candidate) => candidate.type === type);
  return (definition?.object as any)?.spec?.versions?.[0]?.schema?.openAPIV3Schema;
};
const REF = "#/components/schemas/";
const tags = (schema: unknown): Array<{ group: string; version: string; kind: string }> => ((schema as any)?.["x-kubernetes-group-version-kind"] ?? []) as any[];
const refsOf = (value: unknown, prefix = REF): string[] => {
  if (Array.isArray(value)) return value.flatMap((item) => refsOf(item, prefix));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, member]) => (key === "$ref" && typeof member === "string" ? [member.slice(prefix.length)] : refsOf(member, prefix)));
};
const servedSetups = [
  { name: "kubernetes", dialect: kubernetes, registry: k8sRegistry, custom: undefined },
  { name: "orb", dialect: orb, registry: new ResourceRegistry(orb), custom: undefined },
  { name: "kubernetes with custom resources", dialect: kubernetes, registry: withCustom, custom: definitionSchema },
] as const;

describe("component schemas", () => {
  it.each(servedSetups)("$name: every served type has its kind's schema (and its list's, and its subresources' kinds') in its group/version's document", ({ dialect, registry, custom }) => {
    for (const type of registry.types) {
      const doc = openApiV3GroupVersion(registry, dialect, type.group, type.version, custom)!;
      const kinds = [{ group: type.group, version: type.version, kind: type.kind }];
      if (type.verbs.includes("list")) kinds.push({ group: type.group, version: type.version, kind: `${type.kind}List` });
      for (const subresource of Object.keys(type.subresources)) kinds.push(subresourceKind(type, subresource));
      for (const kind of kinds) {
        const schemas = Object.values(doc.components.schemas).filter((schema) => tags(schema).some((tag) => tag.group === kind.group && tag.version === kind.version && tag.kind === kind.kind));
        expect(schemas.length, `${type.resource}: ${kind.group}/${kind.version} ${kind.kind}`).toBeGreaterThan(0);
        expect((schemas[0] as any).type ?? "object", `${kind.kind}`).toBe("object");
      }
    }
  });

  it.each(servedSetups)("$name: every reference of every document resolves in its own components, and every component is reached", ({ dialect, registry, custom }) => {
    for (const { group, version } of registry.groupVersions()) {
      const doc = openApiV3GroupVersion(registry, dialect, group, version, custom)!;
      const schemas = doc.components.schemas;
      for (const name of refsOf(doc)) expect(schemas, `${group}/${version}: ${name}`).toHaveProperty([name]);
      // Reached from the paths or from a served kind's own schema.
      const reached = new Set<string>();
      const pending = [...refsOf(doc.paths), ...Object.keys(schemas).filter((name) => tags(schemas[name]).some((tag) => tag.group === group && tag.version === version))];
      while (pending.length > 0) {
        const name = pending.pop()!;
        if (reached.has(name)) continue;
        reached.add(name);
        pending.push(...refsOf(schemas[name]));
      }
      expect([...reached].sort(), `${group}/${version}`).toEqual(Object.keys(schemas).sort());
    }
  });

  it("gives built-in types kube-apiserver 1.26.4's schemas as recorded, and only schemas its document of the same group/version has", () => {
    for (const { group, version } of k8sRegistry.groupVersions()) {
      const doc = document(k8sRegistry, kubernetes, group, version);
      const apiPath = group === "" ? `api/${version}` : `apis/${group}/${version}`;
      const theirs = new Set(recorded.v3.groupVersions[apiPath]);
      for (const [name, schema] of Object.entries(doc.components.schemas)) {
        expect(theirs.has(name), `${apiPath}: ${name}`).toBe(true);
        expect(schema).toBe(recorded.v3.schemas[name]);
      }
    }
    const pod = document(k8sRegistry, kubernetes, "").components.schemas["io.k8s.api.core.v1.Pod"] as any;
    expect(tags(pod)).toEqual([{ group: "", kind: "Pod", version: "v1" }]);
    expect(pod.properties.spec.allOf).toEqual([{ $ref: `${REF}io.k8s.api.core.v1.PodSpec` }]);
    // What kubectl explain pods.spec.containers prints comes from here.
    const containers = (document(k8sRegistry, kubernetes, "").components.schemas["io.k8s.api.core.v1.PodSpec"] as any).properties.containers;
    expect(containers).toMatchObject({ type: "array", items: { allOf: [{ $ref: `${REF}io.k8s.api.core.v1.Container` }] }, "x-kubernetes-patch-merge-key": "name" });
    expect(containers.description).toMatch(/^List of containers belonging to the pod/);
  });

  it("describes custom resources as kube-apiserver 1.26.4 does (recorded: custom-resources.json)", () => {
    const doc = openApiV3GroupVersion(withCustom, kubernetes, "example.io", "v1", definitionSchema)!;
    for (const [name, schema] of Object.entries(customResources.schemas)) expect(doc.components.schemas[name], name).toEqual(schema);
    // The rest of the document: the meta schemas, as recorded there.
    expect(Object.keys(doc.components.schemas).filter((name) => !name.startsWith("io.example.")).every((name) => customResources.otherSchemas.includes(name))).toBe(true);
    // No strategic merge patch for custom resources; server-side apply, JSON patch and merge patch, in kube-apiserver's order.
    for (const [path, recordedPatch] of Object.entries(customResources.patches)) {
      const ours = doc.paths[path]?.patch;
      expect(Object.keys(ours?.requestBody?.content ?? {}), path).toEqual(Object.keys(recordedPatch.requestBody.content));
      expect(ours?.parameters?.map((parameter) => parameter.name)).toEqual(expect.arrayContaining(recordedPatch.parameters));
    }
    const widgets = doc.paths["/apis/example.io/v1/namespaces/{namespace}/widgets/{name}"]?.get;
    expect(Object.keys(widgets?.responses["200"]?.content ?? {})).toEqual(["application/json", "application/yaml"]);
  });

  it("describes a custom resource whose definition has no schema, or a type the recording lacks, as an object keeping unknown fields", () => {
    const [widgets] = sampleDefinitions;
    const doc = openApiV3GroupVersion(new ResourceRegistry(kubernetes, [widgets!.type]), kubernetes, "example.io", "v1", () => undefined)!;
    expect(doc.components.schemas["io.example.v1.Widget"]).toMatchObject({
      type: "object",
      "x-kubernetes-preserve-unknown-fields": true,
      "x-kubernetes-group-version-kind": [{ group: "example.io", kind: "Widget", version: "v1" }],
      properties: { metadata: { allOf: [{ $ref: `${REF}io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta` }] } },
    });
    const strange = { ...widgets!.type, group: "apps", resource: "gizmos", kind: "Gizmo" };
    const built = typeSchemas(strange, kubernetes, undefined);
    expect(built.kind).toBe("apps.v1.Gizmo");
    expect(built.made["apps.v1.Gizmo"]).toMatchObject({ type: "object", "x-kubernetes-preserve-unknown-fields": true });
  });

  it("gives the orb dialect's Lease coordination.k8s.io's schema under its own group", () => {
    const orbRegistry = new ResourceRegistry(orb);
    const doc = document(orbRegistry, orb, "coordination.orb.io");
    const lease = doc.components.schemas["io.orb.coordination.v1.Lease"] as any;
    const theirs = recorded.v3.schemas["io.k8s.api.coordination.v1.Lease"] as any;
    expect(tags(lease)).toEqual([{ group: "coordination.orb.io", kind: "Lease", version: "v1" }]);
    expect(lease.properties).toEqual(theirs.properties);
    expect(refsOf((doc.components.schemas["io.orb.coordination.v1.LeaseList"] as any).properties.items)).toEqual(["io.orb.coordination.v1.Lease"]);
    expect(doc.components.schemas).not.toHaveProperty(["io.k8s.api.coordination.v1.Lease"]);
  });
});

describe("the v3 index and the documents agree", () => {
  it.each(servedSetups)("$name: each index URL names a served group/version and the SHA-512 of its document's body; each document's paths are its own", ({ dialect, registry, custom }) => {
    const documents = new OpenApiDocuments(registry, dialect, custom);
    const index = documents.v3Index();
    expect(Object.keys(index.paths).length).toBe(registry.groupVersions().length);
    for (const [apiPath, { serverRelativeURL }] of Object.entries(index.paths)) {
      const [, group, version] = /^apis\/([^/]+)\/([^/]+)$/.exec(apiPath) ?? ["", "", apiPath.slice("api/".length)];
      const rendered = documents.groupVersion(group!, version!)!;
      expect(rendered.body).toBe(JSON.stringify(rendered.document));
      expect(serverRelativeURL).toBe(`/openapi/v3/${apiPath}?hash=${createHash("sha512").update(rendered.body).digest("hex").toUpperCase()}`);
      for (const path of Object.keys(rendered.document.paths)) expect(path.startsWith(`/${apiPath}/`), path).toBe(true);
      for (const [path, method, op] of operations(rendered.document)) {
        const gvk = op["x-kubernetes-group-version-kind"];
        // An operation's kind has a schema in the same document (eviction and scale: another group's kind).
        expect(Object.values(rendered.document.components.schemas).some((schema) => tags(schema).some((tag) => tag.group === gvk.group && tag.kind === gvk.kind && tag.version === gvk.version)), `${method} ${path}`).toBe(true);
      }
    }
  });

  it.each(servedSetups)("$name: /openapi/v2 holds every group/version's paths and a definition for every reference", ({ dialect, registry, custom }) => {
    const v2 = openApiV2(registry, dialect, custom) as any;
    for (const { group, version } of registry.groupVersions()) {
      const doc = openApiV3GroupVersion(registry, dialect, group, version, custom)!;
      for (const path of Object.keys(doc.paths)) expect(v2.paths, path).toHaveProperty([path]);
      for (const name of Object.keys(doc.components.schemas)) expect(v2.definitions, name).toHaveProperty([name]);
    }
    for (const name of refsOf(v2, "#/definitions/")) expect(v2.definitions, name).toHaveProperty([name]);
    expect(JSON.stringify(v2)).not.toContain("#/components/");
    // Recorded definitions as /openapi/v2 gave them.
    if (dialect === kubernetes) expect(v2.definitions["io.k8s.api.core.v1.ConfigMap"]).toBe(recorded.v2.definitions["io.k8s.api.core.v1.ConfigMap"]);
  });
});
