/**
 * Discovery documents: `/api`, `/apis`, `/apis/<group>`, `/api/v1` and `/apis/<group>/<version>`.
 * Doc 1 §9 shows only the path shapes (§4.1 prefixes /api/v1 and /apis/<group>/<version>); what
 * the documents contain is Kubernetes behaviour (gap doc1/9/not-shown), copied field for field,
 * in the same order, from the reference transcripts discovery-*. Built from the resource
 * registry, so every served type is listed and nothing else is.
 *
 * Aggregated discovery: kubectl asks for `/apis` (and `/api`) with
 * `Accept: application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json`
 * (newer clients put v=v2 first). We always answer the legacy documents, as kube-apiserver 1.26
 * does with its AggregatedDiscoveryEndpoint feature gate off (transcript discovery-aggregated-apis
 * is byte for byte the plain discovery-apis). Kubernetes behaviour of client-go: when the answer's
 * Content-Type is not an APIGroupDiscoveryList it reads the body as an APIGroupList (or
 * APIVersions) and then fetches each group/version's APIResourceList on its own.
 */
import { AUTHENTICATION_GROUP } from "../auth/impersonate.ts";
import { CUSTOM_RESOURCE_DEFINITION_GROUP } from "../routing/custom-resources.ts";
import type { Dialect } from "../../../spec/dialects.ts";
import { apiVersionOf, type ResourceRegistry, type ResourceType } from "../routing/resource-types.ts";

/** One entry of `serverAddressByClientCIDRs`. */
export interface ServerAddressByClientCIDR {
  readonly clientCIDR: string;
  readonly serverAddress: string;
}

/** The body of `GET /api` (kind APIVersions; Kubernetes sends no apiVersion here). */
export interface APIVersions {
  readonly kind: "APIVersions";
  readonly versions: readonly string[];
  readonly serverAddressByClientCIDRs: readonly ServerAddressByClientCIDR[];
}

/** A group/version as discovery names it. */
export interface GroupVersionForDiscovery {
  readonly groupVersion: string;
  readonly version: string;
}

/** One group of `/apis`: its name, versions (preferred first) and preferred version. */
export interface APIGroupEntry {
  readonly name: string;
  readonly versions: readonly GroupVersionForDiscovery[];
  readonly preferredVersion: GroupVersionForDiscovery;
}

/** The body of `GET /apis`. */
export interface APIGroupList {
  readonly kind: "APIGroupList";
  readonly apiVersion: "v1";
  readonly groups: readonly APIGroupEntry[];
}

/** The body of `GET /apis/<group>`. */
export interface APIGroup {
  readonly kind: "APIGroup";
  readonly apiVersion: "v1";
  readonly name: string;
  readonly versions: readonly GroupVersionForDiscovery[];
  readonly preferredVersion: GroupVersionForDiscovery;
}

/** One resource, or one `<plural>/<subresource>`, of an APIResourceList; optional fields are omitted when absent. */
export interface APIResource {
  readonly name: string;
  readonly singularName: string;
  readonly namespaced: boolean;
  /** Only when the kind lives in another group than the list's (pods/eviction: policy). */
  readonly group?: string;
  readonly version?: string;
  readonly kind: string;
  readonly verbs: readonly string[];
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly storageVersionHash?: string;
}

/** The body of `GET /api/v1` and `GET /apis/<group>/<version>`; the core list carries no apiVersion. */
export interface APIResourceList {
  readonly kind: "APIResourceList";
  readonly apiVersion?: "v1";
  readonly groupVersion: string;
  readonly resources: readonly APIResource[];
}

/** The plain-text answer for a discovery path naming no served group or version (transcript unknown-group). */
export const PAGE_NOT_FOUND = {
  status: 404,
  contentType: "text/plain; charset=utf-8",
  body: "404 page not found\n",
} as const;

/**
 * `GET /api` (Kubernetes behaviour). Kubernetes lists its advertise address for 0.0.0.0/0
 * (transcript discovery-api: "127.0.0.1:16443"); the caller passes the `host:port` clients reach
 * this server at.
 */
export function apiVersions(serverAddress: string): APIVersions {
  return {
    kind: "APIVersions",
    versions: ["v1"],
    serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }],
  };
}

/**
 * The named groups in the order kube-apiserver 1.26 lists them in `/apis` (every group of
 * transcript discovery-apis), the authorization, RBAC and coordination groups resolved to the
 * dialect's names.
 */
function groupPriority(dialect: Dialect): readonly string[] {
  return [
    "apiregistration.k8s.io",
    "apps",
    "events.k8s.io",
    AUTHENTICATION_GROUP,
    dialect.groups.authorization,
    "autoscaling",
    "batch",
    "certificates.k8s.io",
    "networking.k8s.io",
    "policy",
    dialect.groups.rbac,
    "storage.k8s.io",
    "admissionregistration.k8s.io",
    CUSTOM_RESOURCE_DEFINITION_GROUP,
    "scheduling.k8s.io",
    dialect.groups.coordination,
    "node.k8s.io",
    "discovery.k8s.io",
    "flowcontrol.apiserver.k8s.io",
  ];
}

/** `GET /apis` (Kubernetes behaviour): every named group the registry serves, in kube-apiserver's order. */
export function apiGroupList(registry: ResourceRegistry, dialect: Dialect): APIGroupList {
  const served = namedGroups(registry);
  const priority = groupPriority(dialect);
  const rank = (group: string): number => {
    const index = priority.indexOf(group);
    return index === -1 ? priority.length : index;
  };
  // Array.prototype.sort is stable: groups Kubernetes does not rank keep the registry's order.
  const ordered = [...served].sort((a, b) => rank(a) - rank(b));
  return { kind: "APIGroupList", apiVersion: "v1", groups: ordered.map((group) => groupEntry(registry, group)) };
}

/** `GET /apis/<group>` (Kubernetes behaviour), or undefined when the group is not served (answer PAGE_NOT_FOUND). */
export function apiGroup(registry: ResourceRegistry, group: string): APIGroup | undefined {
  if (group === "" || !namedGroups(registry).includes(group)) return undefined;
  const { name, versions, preferredVersion } = groupEntry(registry, group);
  return { kind: "APIGroup", apiVersion: "v1", name, versions, preferredVersion };
}

/**
 * `GET /api/v1` (group "") and `GET /apis/<group>/<version>` (Kubernetes behaviour): each served
 * type and each of its subresources, sorted by name as kube-apiserver sorts them. Undefined when
 * the group/version is not served (answer PAGE_NOT_FOUND).
 */
export function apiResourceList(registry: ResourceRegistry, group: string, version: string): APIResourceList | undefined {
  const types = registry.types.filter((type) => type.group === group && type.version === version);
  const first = types[0];
  if (first === undefined) return undefined;
  const resources = types.flatMap((type) => [resourceEntry(type), ...subresourceEntries(type)]);
  resources.sort((a, b) => byteOrder(a.name, b.name));
  const groupVersion = apiVersionOf(first);
  // Kubernetes encodes the core list without apiVersion (transcript discovery-api-v1) and named
  // groups' lists with it (transcripts discovery-apps-v1, discovery-coordination-v1).
  return group === ""
    ? { kind: "APIResourceList", groupVersion, resources }
    : { kind: "APIResourceList", apiVersion: "v1", groupVersion, resources };
}

// The named groups served, in the registry's order.
function namedGroups(registry: ResourceRegistry): string[] {
  const groups: string[] = [];
  for (const { group } of registry.groupVersions()) if (group !== "" && !groups.includes(group)) groups.push(group);
  return groups;
}

function groupEntry(registry: ResourceRegistry, group: string): APIGroupEntry {
  const versions = registry
    .groupVersions()
    .filter((gv) => gv.group === group)
    .map((gv) => gv.version)
    .sort(compareVersionPriority)
    .map((version): GroupVersionForDiscovery => ({ groupVersion: apiVersionOf({ group, version }), version }));
  const preferredVersion = versions[0];
  if (preferredVersion === undefined) throw new Error(`group ${group} serves no version`);
  return { name: group, versions, preferredVersion };
}

// Kubernetes' version priority (its "kube-aware" order, e.g. autoscaling v2 before v1, storage
// v1 before v1beta1 in transcript discovery-apis): GA before beta before alpha, then the higher
// major, then the higher beta/alpha number; other names last, alphabetically.
function compareVersionPriority(a: string, b: string): number {
  const key = (version: string): [number, number, number] | undefined => {
    const match = /^v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?$/.exec(version);
    if (match === null) return undefined;
    const stability = match[2] === undefined ? 2 : match[2] === "beta" ? 1 : 0;
    return [stability, Number(match[1]), Number(match[3] ?? 0)];
  };
  const ka = key(a);
  const kb = key(b);
  if (ka === undefined || kb === undefined) {
    if (ka !== undefined) return -1;
    if (kb !== undefined) return 1;
    return byteOrder(a, b);
  }
  return kb[0] - ka[0] || kb[1] - ka[1] || kb[2] - ka[2];
}

/**
 * Types Kubernetes puts in the `all` category (what `kubectl get all` lists), by group and plural
 * (transcripts discovery-api-v1 and discovery-apps-v1), for the hand-written types; the recorded
 * ones carry their recorded categories (ResourceType.categories).
 */
const ALL_CATEGORY = new Set(["/pods", "/services", "/replicationcontrollers", "apps/deployments", "apps/replicasets", "apps/statefulsets", "apps/daemonsets"]);

/**
 * Subresources whose kind lives in another group (transcript discovery-api-v1: pods/eviction is
 * policy/v1 Eviction; discovery-apps-v1: deployments/scale is autoscaling/v1 Scale). Other
 * subresources (status, finalize) carry the object's own kind.
 */
const FOREIGN_SUBRESOURCE_KINDS: Readonly<Record<string, GroupVersionKind>> = {
  eviction: { group: "policy", version: "v1", kind: "Eviction" },
  scale: { group: "autoscaling", version: "v1", kind: "Scale" },
};

/** A kind with its group and version. */
export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** The kind a subresource of `type` reads and writes (Kubernetes behaviour): Eviction, Scale, or the object's own kind. */
export function subresourceKind(type: ResourceType, subresource: string): GroupVersionKind {
  return FOREIGN_SUBRESOURCE_KINDS[subresource] ?? { group: type.group, version: type.version, kind: type.kind };
}

function resourceEntry(type: ResourceType): APIResource {
  const categories = type.categories !== undefined ? [...type.categories] : ALL_CATEGORY.has(`${type.group}/${type.resource}`) ? ["all"] : [];
  return {
    name: type.resource,
    // kube-apiserver 1.26 leaves singularName empty for built-in types (every transcript entry is
    // ""); clients derive the singular from the kind. Custom resources carry their definition's
    // (recorded in apiextensions/recorded: discovery-resources).
    singularName: type.custom !== undefined ? type.singular : "",
    namespaced: type.namespaced,
    kind: type.kind,
    // Custom resources list theirs in kube-apiserver's own order (custom-resources.ts), built-in types sorted.
    verbs: type.custom !== undefined ? [...type.verbs] : sortedVerbs(type.verbs),
    ...(type.shortNames.length > 0 ? { shortNames: [...type.shortNames] } : {}),
    ...(categories.length > 0 ? { categories } : {}),
    ...(type.storageVersionHash !== undefined ? { storageVersionHash: type.storageVersionHash } : {}),
  };
}

function subresourceEntries(type: ResourceType): APIResource[] {
  return Object.entries(type.subresources).map(([subresource, verbs]): APIResource => {
    const { group, version, kind } = subresourceKind(type, subresource);
    // group and version appear only when they differ from the list's own group/version.
    const foreign = group !== type.group || version !== type.version;
    return {
      name: `${type.resource}/${subresource}`,
      singularName: "",
      namespaced: type.namespaced,
      ...(foreign ? { group, version } : {}),
      kind,
      verbs: sortedVerbs(verbs),
    };
  });
}

// Kubernetes lists verbs sorted (transcripts discovery-*).
function sortedVerbs(verbs: readonly string[]): string[] {
  return [...verbs].sort(byteOrder);
}

// Go's string order (bytes), which is what kube-apiserver sorts by: "pods" < "pods/eviction" < "podtemplates".
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
