/**
 * The discovery documents (Kubernetes: doc 1 shows no discovery bodies) and versioning (doc 1 §4.1,
 * §9): the core group under /api/v1, named groups under /apis/<group>/<version>, the resource
 * lists of each, every listed type served at the path they imply, and an unknown resource a 404.
 */
import { defineCases } from "../case-definition.ts";
import type { CaseContext } from "../case-context.ts";
import { check, checkEqual } from "../check.ts";
import { fieldAt, recordOf, type JsonRecord } from "../client/json-fields.ts";
import { expectArray, expectRecord, expectString } from "./support/json-guards.ts";
import { brief, checkFailure } from "./support/status-answers.ts";


interface DiscoveredResource {
  readonly name: string;
  readonly namespaced: unknown;
  readonly kind: unknown;
  readonly verbs: unknown;
  /** Where it was listed, for failure messages. */
  readonly where: string;
}

/** GETs a discovery document and checks its kind. */
async function discovery(context: CaseContext, path: string, kind: string): Promise<JsonRecord> {
  const response = await context.client.get(path);
  check(response.status === 200, `GET ${path}: expected 200, got ${response.status}: ${brief(response)}`);
  checkEqual(recordOf(response.json).kind, kind, `kind of GET ${path}`);
  return expectRecord(response.json, `GET ${path}`);
}

/** The APIResourceList of a group/version ("v1" for core), checked to name that group/version. */
async function resourceList(context: CaseContext, groupVersion: string): Promise<DiscoveredResource[]> {
  const path = groupVersion === "v1" ? "/api/v1" : `/apis/${groupVersion}`;
  const list = await discovery(context, path, "APIResourceList");
  checkEqual(list.groupVersion, groupVersion, `groupVersion of GET ${path}`);
  check(Array.isArray(list.resources), `GET ${path} has no resources array`);
  return (list.resources as readonly unknown[]).map((listed, index) => {
    const resource = expectRecord(listed, `GET ${path}: resources[${index}]`);
    const name = expectString(resource.name, `GET ${path}: name of resources[${index}]`);
    return { name, namespaced: resource.namespaced, kind: resource.kind, verbs: resource.verbs, where: `GET ${path}` };
  });
}

/** The verbs of a listed resource, which must be an array. */
function verbsOf(resource: DiscoveredResource): readonly unknown[] {
  return expectArray(resource.verbs, `${resource.where}: verbs of ${resource.name}`);
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

export const discoveryDocumentCases = defineCases("discovery", [
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
      const groups = list.groups as readonly unknown[];
      for (const listed of groups) {
        const group = recordOf(listed);
        const name = group.name;
        check(typeof name === "string" && name !== "", `a group of /apis has no name: ${JSON.stringify(listed)}`);
        const versions = group.versions;
        check(Array.isArray(versions) && versions.length > 0, `group ${name} lists no versions`);
        for (const version of versions as readonly unknown[]) {
          checkEqual(recordOf(version).groupVersion, `${name}/${recordOf(version).version}`, `groupVersion of a version of group ${name}`);
        }
        check(
          (versions as readonly unknown[]).some((version) => recordOf(version).groupVersion === fieldAt(group, "preferredVersion", "groupVersion")),
          `group ${name}: preferredVersion ${JSON.stringify(group.preferredVersion)} is not among its versions`,
        );
      }
      const names = groups.map((group) => recordOf(group).name);
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
        check(verbsOf(entry(resources, "configmaps", "GET /api/v1")).includes(verb), `configmaps in /api/v1 do not list verb ${verb}`);
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
          if (resource.name.includes("/") || !verbsOf(resource).includes("list")) continue;
          const path = `${prefix}/${resource.name}?limit=1`;
          const response = await context.client.get(path);
          check(response.status === 200, `discovery lists ${groupVersion} ${resource.name} with verb list, but GET ${path} answered ${response.status}: ${brief(response)}`);
          checkEqual(recordOf(response.json).kind, `${resource.kind}List`, `kind of GET ${path}`);
          checkEqual(recordOf(response.json).apiVersion, groupVersion, `apiVersion of GET ${path}`);
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
]);
