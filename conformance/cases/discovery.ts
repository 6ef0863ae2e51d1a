/**
 * Path shapes (doc 1 §4.1) and versioning (§9): the core group under /api/v1, named groups under
 * /apis/<group>/<version>, cluster-scoped and namespaced collections and resources, subresources,
 * namespaces as a cluster-scoped type; apiVersion and kind on objects; the discovery documents
 * (Kubernetes: doc 1 shows no discovery bodies) listing what is served.
 */
import { defineCases } from "../case-definition.ts";
import type { CaseContext } from "../case-context.ts";
import { check, checkEqual } from "../check.ts";
import { configMaps, itemNames, q } from "./fixtures.ts";
import { brief, checkFailure, configMapPath, create, createConfigMap, createPod, deleteNodes, deploymentBody, getObject, nodeBody } from "./crud.ts";

interface DiscoveredResource {
  readonly name: string;
  readonly namespaced: boolean;
  readonly kind: string;
  readonly verbs: readonly string[];
}

/** GETs a discovery document and checks its kind. */
async function discovery(context: CaseContext, path: string, kind: string): Promise<any> {
  const response = await context.client.get(path);
  check(response.status === 200, `GET ${path}: expected 200, got ${response.status}: ${brief(response)}`);
  checkEqual(response.json?.kind, kind, `kind of GET ${path}`);
  return response.json;
}

/** The APIResourceList of a group/version ("v1" for core), checked to name that group/version. */
async function resourceList(context: CaseContext, groupVersion: string): Promise<DiscoveredResource[]> {
  const path = groupVersion === "v1" ? "/api/v1" : `/apis/${groupVersion}`;
  const list = await discovery(context, path, "APIResourceList");
  checkEqual(list.groupVersion, groupVersion, `groupVersion of GET ${path}`);
  check(Array.isArray(list.resources), `GET ${path} has no resources array`);
  return list.resources as DiscoveredResource[];
}

/** The entry named `name` of a resource list, or a failure naming what was listed. */
function entry(resources: readonly DiscoveredResource[], name: string, where: string): DiscoveredResource {
  const found = resources.find((resource) => resource.name === name);
  check(found !== undefined, `${where} does not list ${name} (it lists ${resources.map((r) => r.name).join(", ")})`);
  return found;
}

/** The group/versions whose served resources the suite checks: core, apps and the dialect's coordination group. */
function knownGroupVersions(context: CaseContext): string[] {
  return ["v1", "apps/v1", `${context.dialect.groups.coordination}/v1`];
}

export const discoveryCases = defineCases("discovery", [
  {
    name: "core-group-versions",
    clauses: ["doc1/4.1/prefix/core", "doc1/9/paths"],
    tags: [],
    async run(context) {
      // Transcript discovery-api: {"kind":"APIVersions","versions":["v1"],...}.
      const versions = await discovery(context, "/api", "APIVersions");
      check(Array.isArray(versions.versions) && versions.versions.includes("v1"), `GET /api does not list v1: ${JSON.stringify(versions.versions)}`);
    },
  },
  {
    name: "named-groups",
    clauses: ["doc1/4.1/prefix/named", "doc1/9/paths"],
    tags: [],
    async run(context) {
      // Transcript discovery-apis: an APIGroupList, each version named <group>/<version>.
      const list = await discovery(context, "/apis", "APIGroupList");
      check(Array.isArray(list.groups), "GET /apis has no groups array");
      for (const group of list.groups as Array<{ name: string; versions: Array<{ groupVersion: string; version: string }>; preferredVersion: { groupVersion: string } }>) {
        check(typeof group.name === "string" && group.name !== "", `a group of /apis has no name: ${JSON.stringify(group)}`);
        check(Array.isArray(group.versions) && group.versions.length > 0, `group ${group.name} lists no versions`);
        for (const version of group.versions) {
          checkEqual(version.groupVersion, `${group.name}/${version.version}`, `groupVersion of a version of group ${group.name}`);
        }
        check(
          group.versions.some((version) => version.groupVersion === group.preferredVersion?.groupVersion),
          `group ${group.name}: preferredVersion ${JSON.stringify(group.preferredVersion)} is not among its versions`,
        );
      }
      const names = (list.groups as Array<{ name: string }>).map((group) => group.name);
      for (const expected of ["apps", context.dialect.groups.coordination]) {
        check(names.includes(expected), `GET /apis does not list group ${expected} (it lists ${names.join(", ")})`);
      }
      check(!names.includes(""), "GET /apis lists the core group, which lives under /api");
    },
  },
  {
    name: "core-resource-list",
    clauses: ["doc1/4.1/prefix/core", "doc1/9/paths"],
    tags: [],
    async run(context) {
      // Transcript discovery-api-v1.
      const resources = await resourceList(context, "v1");
      const expectations: Array<[string, string, boolean]> = [
        ["configmaps", "ConfigMap", true],
        ["pods", "Pod", true],
        ["nodes", "Node", false],
        ["namespaces", "Namespace", false],
        ["pods/status", "Pod", true],
      ];
      for (const [name, kind, namespaced] of expectations) {
        const found = entry(resources, name, "GET /api/v1");
        checkEqual(found.kind, kind, `kind of ${name} in /api/v1`);
        checkEqual(found.namespaced, namespaced, `namespaced of ${name} in /api/v1`);
      }
      for (const verb of ["create", "delete", "get", "list", "patch", "update", "watch"]) {
        check(entry(resources, "configmaps", "GET /api/v1").verbs.includes(verb), `configmaps in /api/v1 do not list verb ${verb}`);
      }
    },
  },
  {
    name: "named-group-resource-lists",
    clauses: ["doc1/4.1/prefix/named", "doc1/9/paths"],
    tags: [],
    async run(context) {
      // Transcripts discovery-apps-v1, discovery-coordination-v1.
      const apps = await resourceList(context, "apps/v1");
      const deployments = entry(apps, "deployments", "GET /apis/apps/v1");
      checkEqual([deployments.kind, deployments.namespaced], ["Deployment", true], "kind and namespaced of deployments in /apis/apps/v1");
      const coordination = `${context.dialect.groups.coordination}/v1`;
      const leases = entry(await resourceList(context, coordination), "leases", `GET /apis/${coordination}`);
      checkEqual([leases.kind, leases.namespaced], ["Lease", true], `kind and namespaced of leases in /apis/${coordination}`);
      // A group/version path the server does not serve is no resource list.
      const unknown = await context.client.get("/apis/apps/v999");
      checkEqual(unknown.status, 404, "status of GET /apis/apps/v999 (a version apps does not serve)");
    },
  },
  {
    name: "discovery-lists-what-is-served",
    clauses: ["doc1/9/paths", "doc1/4.1/prefix/core", "doc1/4.1/prefix/named", "doc1/4.1/collection/cluster-scoped", "doc1/4.1/collection/all-namespaces"],
    tags: [],
    async run(context) {
      // Every listable type the discovery documents name answers a list at the path they imply.
      for (const groupVersion of knownGroupVersions(context)) {
        const prefix = groupVersion === "v1" ? "/api/v1" : `/apis/${groupVersion}`;
        for (const resource of await resourceList(context, groupVersion)) {
          if (resource.name.includes("/") || !resource.verbs.includes("list")) continue;
          const path = `${prefix}/${resource.name}?limit=1`;
          const response = await context.client.get(path);
          check(response.status === 200, `discovery lists ${groupVersion} ${resource.name} with verb list, but GET ${path} answered ${response.status}: ${brief(response)}`);
          checkEqual(response.json?.kind, `${resource.kind}List`, `kind of GET ${path}`);
          checkEqual(response.json?.apiVersion, groupVersion, `apiVersion of GET ${path}`);
        }
      }
    },
  },
  {
    name: "unknown-resource-is-404",
    clauses: ["doc1/9/paths", "doc1/7/not-shown/body-shape"],
    tags: [],
    async run(context) {
      // Transcript unknown-resource: a Status in a served group/version.
      const core = await context.client.get("/api/v1/nosuchthings");
      checkFailure(core, 404, "NotFound", "GET /api/v1/nosuchthings");
      const namespaced = await context.client.get(`/api/v1/namespaces/${context.namespace}/nosuchthings`);
      checkFailure(namespaced, 404, "NotFound", `GET /api/v1/namespaces/${context.namespace}/nosuchthings`);
      // Transcript unknown-group: 404, as plain text.
      const group = await context.client.get("/apis/no.such.group/v1/things");
      checkEqual(group.status, 404, `status of GET /apis/no.such.group/v1/things (${group.text.slice(0, 100)})`);
      const resources = await resourceList(context, "v1");
      check(!resources.some((resource) => resource.name === "nosuchthings"), "/api/v1 lists nosuchthings");
    },
  },
  {
    name: "cluster-scoped-collection-and-resource",
    clauses: ["doc1/4.1/collection/cluster-scoped", "doc1/4.1/resource/cluster-scoped"],
    tags: ["mutating"],
    async run(context) {
      const names = [context.name("node"), context.name("node")];
      try {
        for (const name of names) await create(context, "/api/v1/nodes", nodeBody(name), `creating Node ${name}`);
        const list = await context.client.get("/api/v1/nodes");
        checkEqual(list.status, 200, `status of GET /api/v1/nodes (${brief(list)})`);
        checkEqual(list.json?.kind, "NodeList", "kind of GET /api/v1/nodes");
        const listed = itemNames(list.json);
        for (const name of names) check(listed.includes(name), `GET /api/v1/nodes (all instances) lacks Node ${name}; it lists ${listed.join(", ")}`);
        for (const name of names) {
          const node = await getObject(context, `/api/v1/nodes/${name}`, `Node ${name}`);
          checkEqual([node.kind, node.metadata?.name], ["Node", name], `kind and name of GET /api/v1/nodes/${name}`);
        }
      } finally {
        await deleteNodes(context, names);
      }
    },
  },
  {
    name: "all-namespaces-collection",
    clauses: ["doc1/4.1/collection/all-namespaces"],
    tags: ["mutating"],
    async run(context) {
      const set = context.name("everywhere");
      const names = [`${set}-a`, `${set}-b`];
      for (const name of names) await createConfigMap(context, name, {}, { set });
      // The namespaced type's collection path without a namespace spans every namespace.
      const list = await context.client.get(`/api/v1/configmaps?labelSelector=${q(`set=${set}`)}`);
      checkEqual(list.status, 200, `status of GET /api/v1/configmaps (${brief(list)})`);
      checkEqual(list.json?.kind, "ConfigMapList", "kind of GET /api/v1/configmaps");
      checkEqual(itemNames(list.json).sort(), names, "items of GET /api/v1/configmaps with the case's label");
      for (const item of list.json.items as any[]) {
        checkEqual(item.metadata?.namespace, context.namespace, `metadata.namespace of ${item.metadata?.name} in the all-namespaces list`);
      }
      // The same objects are found through the namespace's own collection.
      const own = await context.client.get(`${configMaps(context)}?labelSelector=${q(`set=${set}`)}`);
      checkEqual(itemNames(own.json).sort(), names, "items of the namespace's own collection with the case's label");
    },
  },
  {
    name: "namespaced-collection-and-resource",
    clauses: ["doc1/4.1/collection/one-namespace", "doc1/4.1/resource/namespaced", "doc1/4.1/prefix/named"],
    tags: ["mutating"],
    async run(context) {
      const names = [context.name("mine"), context.name("mine")];
      for (const name of names) await createConfigMap(context, name, { key: name });
      const list = await context.client.get(configMaps(context));
      checkEqual(list.status, 200, `status of GET ${configMaps(context)}`);
      checkEqual(list.json?.kind, "ConfigMapList", "kind of the namespace's collection");
      const listed = itemNames(list.json);
      for (const name of names) check(listed.includes(name), `the namespace's collection lacks ${name}; it lists ${listed.join(", ")}`);
      for (const item of list.json.items as any[]) {
        checkEqual(item.metadata?.namespace, context.namespace, `metadata.namespace of ${item.metadata?.name} in the one-namespace list`);
      }
      const one = await getObject(context, configMapPath(context, names[0]!), "the namespaced ConfigMap");
      checkEqual([one.kind, one.metadata?.name, one.metadata?.namespace, one.data], ["ConfigMap", names[0], context.namespace, { key: names[0] }], "GET of the namespaced resource");
      // The same shapes under a named group.
      const leases = `/apis/${context.dialect.groups.coordination}/v1/namespaces/${context.namespace}/leases`;
      const lease = context.name("lease");
      await create(context, leases, { apiVersion: `${context.dialect.groups.coordination}/v1`, kind: "Lease", metadata: { name: lease }, spec: { holderIdentity: "conformance" } }, "creating a Lease");
      const leaseList = await context.client.get(leases);
      checkEqual(leaseList.json?.kind, "LeaseList", `kind of GET ${leases}`);
      check(itemNames(leaseList.json).includes(lease), `GET ${leases} lacks Lease ${lease}`);
      const got = await getObject(context, `${leases}/${lease}`, "the Lease");
      checkEqual([got.kind, got.metadata?.name, got.metadata?.namespace], ["Lease", lease, context.namespace], `GET ${leases}/${lease}`);
    },
  },
  {
    name: "namespaces-are-cluster-scoped",
    clauses: ["doc1/4.1/namespaces/collection", "doc1/4.1/namespaces/one"],
    tags: [],
    async run(context) {
      const list = await context.client.get("/api/v1/namespaces");
      checkEqual(list.status, 200, `status of GET /api/v1/namespaces (${brief(list)})`);
      checkEqual(list.json?.kind, "NamespaceList", "kind of GET /api/v1/namespaces");
      const names = itemNames(list.json);
      const expected = context.dialect.namespaces.default;
      check(names.includes(expected), `GET /api/v1/namespaces lacks ${expected}; it lists ${names.join(", ")}`);
      for (const item of list.json.items as any[]) {
        check(item.metadata?.namespace === undefined, `namespace ${item.metadata?.name} carries metadata.namespace ${JSON.stringify(item.metadata?.namespace)} (a namespace is cluster-scoped)`);
      }
      const one = await getObject(context, `/api/v1/namespaces/${expected}`, "one namespace");
      checkEqual([one.kind, one.apiVersion, one.metadata?.name], ["Namespace", "v1", expected], `GET /api/v1/namespaces/${expected}`);
      check(one.metadata?.namespace === undefined, `GET /api/v1/namespaces/${expected} carries metadata.namespace`);
    },
  },
  {
    name: "subresource-get",
    clauses: ["doc1/4.1/subresource/get"],
    tags: ["mutating"],
    async run(context) {
      // Cluster-scoped form: .../<resourcetype>/<name>/<subresource>.
      const nsStatus = await getObject(context, `/api/v1/namespaces/${context.namespace}/status`, "the namespace's status subresource");
      checkEqual([nsStatus.kind, nsStatus.metadata?.name], ["Namespace", context.namespace], "kind and name of GET /api/v1/namespaces/<ns>/status");
      check(typeof nsStatus.status?.phase === "string", `GET /api/v1/namespaces/<ns>/status carries no status.phase: ${JSON.stringify(nsStatus.status)}`);
      // Namespaced form: .../namespaces/<namespace>/<resourcetype>/<name>/<subresource>.
      const name = context.name("pod");
      const pod = await createPod(context, name);
      const podStatus = await getObject(context, `/api/v1/namespaces/${context.namespace}/pods/${name}/status`, "the Pod's status subresource");
      checkEqual([podStatus.kind, podStatus.metadata?.name, podStatus.metadata?.uid], ["Pod", name, pod.metadata?.uid], "kind, name and uid of GET .../pods/<name>/status");
      check(podStatus.status !== undefined, "GET .../pods/<name>/status carries no status");
      // A subresource of an object that does not exist is not found.
      const missing = await context.client.get(`/api/v1/namespaces/${context.namespace}/pods/${name}-missing/status`);
      checkFailure(missing, 404, "NotFound", "GET .../pods/<missing>/status");
    },
  },
  {
    name: "objects-carry-api-version-and-kind",
    clauses: ["doc1/9/objects/api-version-kind", "doc1/9/paths"],
    tags: ["mutating"],
    async run(context) {
      const coordination = `${context.dialect.groups.coordination}/v1`;
      const objects: Array<[string, Record<string, unknown>, string, string]> = [
        [configMaps(context), { metadata: { name: context.name("cm") }, data: {} }, "v1", "ConfigMap"],
        [`/apis/apps/v1/namespaces/${context.namespace}/deployments`, deploymentBody(context.name("deploy"), [{ name: "c", image: "registry.example/app:1" }]), "apps/v1", "Deployment"],
        [`/apis/${coordination}/namespaces/${context.namespace}/leases`, { metadata: { name: context.name("lease") }, spec: {} }, coordination, "Lease"],
      ];
      for (const [collection, body, apiVersion, kind] of objects) {
        // The body may leave apiVersion and kind out: the path names them.
        const { apiVersion: _a, kind: _k, ...rest } = body;
        const created = await create(context, collection, rest, `creating a ${kind} without apiVersion and kind in the body`);
        checkEqual([created.apiVersion, created.kind], [apiVersion, kind], `apiVersion and kind of the created ${kind}`);
        const got = await getObject(context, `${collection}/${created.metadata?.name}`, kind);
        checkEqual([got.apiVersion, got.kind], [apiVersion, kind], `apiVersion and kind of GET ${collection}/<name>`);
      }
      const namespace = await getObject(context, `/api/v1/namespaces/${context.namespace}`, "the namespace");
      checkEqual([namespace.apiVersion, namespace.kind], ["v1", "Namespace"], "apiVersion and kind of a Namespace");
    },
  },
]);
