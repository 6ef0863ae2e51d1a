/**
 * A minimal OpenAPI v3 description under `/openapi/v3`: paths, operations and their query
 * parameters for every served type, with no schemas. Doc 1 shows no OpenAPI endpoint (§4.1 lists
 * the path shapes; §9 gap doc1/9/not-shown); this exists for kubectl (Kubernetes behaviour).
 *
 * Why it is needed: `kubectl create -f` and `kubectl apply -f` validate by default
 * (`--validate=strict`). kubectl first asks `/openapi/v3` whether the PATCH operation of the
 * object's kind accepts the `fieldValidation` query parameter; if so it leaves validation to the
 * server (sending `fieldValidation=Strict`). If `/openapi/v3` is missing it falls back to
 * `/openapi/v2` (protobuf), and when that is missing too it refuses: "error validating data:
 * failed to download openapi". So the per-group/version documents must list, for each kind, a
 * PATCH operation tagged with `x-kubernetes-group-version-kind` whose parameters include
 * `fieldValidation`; the handler must then honour `fieldValidation` (Kubernetes 1.26 does:
 * transcripts create-strict-unknown-field, create-warn-unknown-field).
 *
 * Why no schemas: without a PATCH request body listing `application/strategic-merge-patch+json`
 * kubectl computes apply patches from its compiled-in types (strategic merge for built-in kinds,
 * JSON merge patch for kinds it does not know, such as the orb dialect's Lease), as it does
 * against a server with no OpenAPI at all. `/openapi/v2` stays 404, and `kubectl explain` has
 * nothing to explain.
 */
import { createHash } from "node:crypto";
import type { Dialect } from "../../../spec/dialects.ts";
import { subresourceKind, type GroupVersionKind } from "./discovery.ts";
import type { ResourceRegistry, ResourceType, Verb } from "../routing/resource-types.ts";
import { GIT_VERSION } from "./server-version.ts";

/** The body of `GET /openapi/v3`: each group/version's document, by its API path ("api/v1", "apis/apps/v1"). */
export interface OpenApiV3Discovery {
  readonly paths: Readonly<Record<string, { readonly serverRelativeURL: string }>>;
}

/** One parameter of an operation or path. */
export interface OpenApiParameter {
  readonly name: string;
  readonly in: "path" | "query";
  readonly required?: true;
  readonly schema: { readonly type: "string" | "integer" | "boolean" };
}

/** One operation: Kubernetes' action and kind extensions, query parameters, response codes. */
export interface OpenApiOperation {
  readonly operationId: string;
  readonly parameters?: readonly OpenApiParameter[];
  readonly responses: Readonly<Record<string, { readonly description: string }>>;
  readonly "x-kubernetes-action": string;
  readonly "x-kubernetes-group-version-kind": { readonly group: string; readonly kind: string; readonly version: string };
}

/** One path item: its operations by HTTP method and the parameters they share. */
export interface OpenApiPathItem {
  readonly get?: OpenApiOperation;
  readonly put?: OpenApiOperation;
  readonly post?: OpenApiOperation;
  readonly delete?: OpenApiOperation;
  readonly patch?: OpenApiOperation;
  readonly parameters: readonly OpenApiParameter[];
}

/** The OpenAPI v3 document of one group/version (`GET /openapi/v3/api/v1`, `/openapi/v3/apis/<g>/<v>`). */
export interface OpenApiV3Document {
  readonly openapi: "3.0.0";
  readonly info: { readonly title: string; readonly version: string };
  readonly paths: Readonly<Record<string, OpenApiPathItem>>;
  /** Always empty: no schemas are described (kubectl explain then says it has none). */
  readonly components: { readonly schemas: Readonly<Record<string, never>> };
}

type Method = "get" | "put" | "post" | "delete" | "patch";
type Action = "get" | "list" | "post" | "put" | "patch" | "delete" | "deletecollection";

const query = (name: string, type: OpenApiParameter["schema"]["type"] = "string"): OpenApiParameter => ({ name, in: "query", schema: { type } });
const pathParam = (name: string): OpenApiParameter => ({ name, in: "path", required: true, schema: { type: "string" } });

// The query parameters kube-apiserver 1.26 accepts per action, sorted by name as it lists them.
const LIST_PARAMETERS = [
  query("allowWatchBookmarks", "boolean"),
  query("continue"),
  query("fieldSelector"),
  query("labelSelector"),
  query("limit", "integer"),
  query("resourceVersion"),
  query("resourceVersionMatch"),
  query("timeoutSeconds", "integer"),
  query("watch", "boolean"),
];
const WRITE_PARAMETERS = [query("dryRun"), query("fieldManager"), query("fieldValidation")];
const PARAMETERS: Readonly<Record<Action, readonly OpenApiParameter[]>> = {
  get: [],
  list: LIST_PARAMETERS,
  post: WRITE_PARAMETERS,
  put: WRITE_PARAMETERS,
  patch: [...WRITE_PARAMETERS, query("force", "boolean")],
  delete: [query("dryRun"), query("gracePeriodSeconds", "integer"), query("orphanDependents", "boolean"), query("propagationPolicy")],
  deletecollection: [
    query("continue"),
    query("dryRun"),
    query("fieldSelector"),
    query("gracePeriodSeconds", "integer"),
    query("labelSelector"),
    query("limit", "integer"),
    query("orphanDependents", "boolean"),
    query("propagationPolicy"),
    query("resourceVersion"),
    query("resourceVersionMatch"),
    query("timeoutSeconds", "integer"),
  ],
};

// Response codes per action (Kubernetes behaviour: create answers 201, a deletion with
// finalizers 200 or 202).
const STATUS_TEXT: Readonly<Record<string, string>> = { "200": "OK", "201": "Created", "202": "Accepted", "401": "Unauthorized" };
const RESPONSES: Readonly<Record<Action, readonly string[]>> = {
  get: ["200", "401"],
  list: ["200", "401"],
  post: ["200", "201", "202", "401"],
  put: ["200", "201", "401"],
  patch: ["200", "201", "401"],
  delete: ["200", "202", "401"],
  deletecollection: ["200", "401"],
};

// The operationId verb per action, as Kubernetes names them (readCoreV1NamespacedConfigMap).
const OPERATION_VERB: Readonly<Record<Action, string>> = {
  get: "read",
  list: "list",
  post: "create",
  put: "replace",
  patch: "patch",
  delete: "delete",
  deletecollection: "delete",
};

// Which method and action serve each verb on an object path, a collection path, a subresource.
const OBJECT_VERBS: ReadonlyArray<[Verb, Method, Action]> = [
  ["get", "get", "get"],
  ["update", "put", "put"],
  ["delete", "delete", "delete"],
  ["patch", "patch", "patch"],
];
const COLLECTION_VERBS: ReadonlyArray<[Verb, Method, Action]> = [
  ["list", "get", "list"],
  ["create", "post", "post"],
  ["deletecollection", "delete", "deletecollection"],
];
const SUBRESOURCE_VERBS: ReadonlyArray<[Verb, Method, Action]> = [...OBJECT_VERBS, ["create", "post", "post"]];

/** The API path of a group/version as `/openapi/v3` keys it: "api/v1", "apis/apps/v1". */
export function openApiGroupVersionPath(group: string, version: string): string {
  return group === "" ? `api/${version}` : `apis/${group}/${version}`;
}

/** `GET /openapi/v3/<api path>` (Kubernetes behaviour, without schemas), or undefined when the group/version is not served. */
export function openApiV3GroupVersion(registry: ResourceRegistry, dialect: Dialect, group: string, version: string): OpenApiV3Document | undefined {
  const types = registry.types.filter((type) => type.group === group && type.version === version);
  if (types.length === 0) return undefined;
  const paths: Record<string, OpenApiPathItem> = {};
  for (const type of types) Object.assign(paths, typePaths(type));
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    openapi: "3.0.0",
    info: { title: dialect.name === "kubernetes" ? "Kubernetes" : "orb", version: GIT_VERSION },
    paths: sorted,
    components: { schemas: {} },
  };
}

/**
 * `GET /openapi/v3` (Kubernetes behaviour): one entry per served group/version. Each URL carries
 * `hash`, the upper-case hex SHA-512 of the document's JSON as kube-apiserver computes it, so
 * clients' caches (kubectl keeps them on disk) see a changed document as a new URL. The hash
 * assumes the handler sends `JSON.stringify` of the document; any other query is still answered.
 */
export function openApiV3Discovery(registry: ResourceRegistry, dialect: Dialect): OpenApiV3Discovery {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const { group, version } of registry.groupVersions()) {
    const document = openApiV3GroupVersion(registry, dialect, group, version);
    if (document === undefined) continue;
    const hash = createHash("sha512").update(JSON.stringify(document)).digest("hex").toUpperCase();
    const apiPath = openApiGroupVersionPath(group, version);
    paths[apiPath] = { serverRelativeURL: `/openapi/v3/${apiPath}?hash=${hash}` };
  }
  return { paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
}

/**
 * The document at an `/openapi/...` URL path (no query): `/openapi/v3` or one group/version's
 * document; undefined otherwise, including `/openapi/v2`, which is not served (answer the
 * plain-text 404 of discovery.ts PAGE_NOT_FOUND).
 */
export function openApiDocument(registry: ResourceRegistry, dialect: Dialect, path: string): OpenApiV3Discovery | OpenApiV3Document | undefined {
  const segments = path.split("/").filter((segment) => segment !== "");
  if (segments[0] !== "openapi" || segments[1] !== "v3") return undefined;
  const rest = segments.slice(2);
  if (rest.length === 0) return openApiV3Discovery(registry, dialect);
  if (rest[0] === "api" && rest.length === 2) return openApiV3GroupVersion(registry, dialect, "", rest[1]!);
  if (rest[0] === "apis" && rest.length === 3) return openApiV3GroupVersion(registry, dialect, rest[1]!, rest[2]!);
  return undefined;
}

// The path items of one type: collection, object and subresource paths, and for a namespaced
// type the list across all namespaces (doc 1 §4.1 path shapes).
function typePaths(type: ResourceType): Record<string, OpenApiPathItem> {
  const prefix = `/${openApiGroupVersionPath(type.group, type.version)}`;
  const gvk: GroupVersionKind = type;
  const paths: Record<string, OpenApiPathItem> = {};
  const scope = type.namespaced ? `${prefix}/namespaces/{namespace}/${type.resource}` : `${prefix}/${type.resource}`;
  const scopeParameters = type.namespaced ? [pathParam("namespace")] : [];
  const namePrefix = type.namespaced ? "Namespaced" : "";

  paths[scope] = pathItem(type, gvk, COLLECTION_VERBS, type.verbs, scopeParameters, (action) =>
    action === "deletecollection" ? `Collection${namePrefix}${type.kind}` : `${namePrefix}${type.kind}`,
  );
  if (type.namespaced && type.verbs.includes("list")) {
    paths[`${prefix}/${type.resource}`] = pathItem(type, gvk, COLLECTION_VERBS, ["list"], [], () => `${type.kind}ForAllNamespaces`);
  }
  const objectParameters = [pathParam("name"), ...scopeParameters];
  paths[`${scope}/{name}`] = pathItem(type, gvk, OBJECT_VERBS, type.verbs, objectParameters, () => `${namePrefix}${type.kind}`);
  for (const [subresource, verbs] of Object.entries(type.subresources)) {
    const suffix = subresource.charAt(0).toUpperCase() + subresource.slice(1);
    paths[`${scope}/{name}/${subresource}`] = pathItem(
      type,
      subresourceKind(type, subresource),
      SUBRESOURCE_VERBS,
      verbs,
      objectParameters,
      () => `${namePrefix}${type.kind}${suffix}`,
    );
  }
  return paths;
}

function pathItem(
  type: ResourceType,
  gvk: GroupVersionKind,
  table: ReadonlyArray<[Verb, Method, Action]>,
  verbs: readonly Verb[],
  parameters: readonly OpenApiParameter[],
  operationNoun: (action: Action) => string,
): OpenApiPathItem {
  const item: { -readonly [M in Method]?: OpenApiOperation } = {};
  for (const [verb, method, action] of table) {
    if (!verbs.includes(verb) || item[method] !== undefined) continue;
    const actionParameters = PARAMETERS[action];
    item[method] = {
      operationId: `${OPERATION_VERB[action]}${operationGroup(type)}${operationNoun(action)}`,
      ...(actionParameters.length > 0 ? { parameters: actionParameters } : {}),
      responses: Object.fromEntries(RESPONSES[action].map((code) => [code, { description: STATUS_TEXT[code] ?? code }])),
      "x-kubernetes-action": action,
      // Keys in Kubernetes' order (alphabetical, as Go writes maps).
      "x-kubernetes-group-version-kind": { group: gvk.group, kind: gvk.kind, version: gvk.version },
    };
  }
  // Kubernetes lists `pretty` with the path's own parameters, sorted by name.
  const shared = [...parameters, query("pretty")].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { ...item, parameters: shared };
}

// The group/version part of an operationId: CoreV1, AppsV1, CoordinationV1 (the group's labels
// before its domain, capitalized: rbac.authorization.k8s.io → RbacAuthorizationV1).
function operationGroup(type: ResourceType): string {
  const labels = type.group === "" ? ["core"] : type.group.split(".");
  const named = labels.length > 2 ? labels.slice(0, -2) : labels;
  const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
  return `${named.map(capitalize).join("")}${capitalize(type.version)}`;
}
