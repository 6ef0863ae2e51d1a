/**
 * The OpenAPI documents (Kubernetes behaviour; doc 1 shows no OpenAPI endpoint: §4.1 lists the
 * path shapes, §9 gap doc1/9/not-shown): `/openapi/v3` (an index), `/openapi/v3/<api path>` (one
 * group/version: its paths and the component schemas of its types) and `/openapi/v2` (all of it in
 * Swagger 2.0). The schemas of built-in types are kube-apiserver 1.26.4's, recorded
 * (openapi-schemas.ts, openapi-data/README.md); custom resources are described from their
 * definitions as kube-apiserver describes them. openapi-endpoint.ts answers the requests.
 *
 * What kubectl reads here:
 * - `kubectl explain` (OpenAPI v3): the schema tagged `x-kubernetes-group-version-kind` with the
 *   kind, and the schemas it refers to, for field names, types and descriptions.
 * - `kubectl create -f` / `apply -f` validate by default (`--validate=strict`): kubectl asks
 *   whether the PATCH operation of the object's kind accepts the `fieldValidation` query
 *   parameter; if so it leaves validation to the server (sending `fieldValidation=Strict`), which
 *   honours it (transcripts create-strict-unknown-field, create-warn-unknown-field).
 * - `kubectl apply` of an existing object: when the PATCH request body lists
 *   `application/strategic-merge-patch+json`, kubectl computes the strategic merge patch from the
 *   kind's schema (its `x-kubernetes-patch-merge-key` and `-strategy`); custom resources take no
 *   strategic merge patch, so theirs does not list it and kubectl sends a JSON merge patch.
 *
 * PATCH lists the patch types the server takes, as kube-apiserver does: `application/apply-patch+yaml`
 * first (server-side apply), but not on the scale subresource, whose apply this server does not serve.
 */
import { createHash } from "node:crypto";
import type { Dialect } from "../../../spec/dialects.ts";
import { supportsStrategicMergePatch } from "../patch/strategic-merge-patch.ts";
import { customResourceDefinitionsType } from "../routing/custom-resources.ts";
import { resourceTypes, type ResourceRegistry, type ResourceType, type Verb } from "../routing/resource-types.ts";
import { subresourceKind, type GroupVersionKind } from "./discovery.ts";
import { recordedOpenApi, schemaClosure, typeSchemas, v2Schema, type JsonSchema, type TypeSchemas } from "./openapi-schemas.ts";
import { openApiV2Protobuf } from "./openapi-v2-protobuf.ts";
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

/** Media types and the schema a body of each has. */
export type OpenApiContent = Readonly<Record<string, { readonly schema: { readonly $ref: string } }>>;

/** One answer of an operation. */
export interface OpenApiResponse {
  readonly description: string;
  readonly content?: OpenApiContent;
}

/** One operation: Kubernetes' action and kind extensions, query parameters, bodies, response codes. */
export interface OpenApiOperation {
  readonly operationId: string;
  readonly parameters?: readonly OpenApiParameter[];
  readonly requestBody?: { readonly content: OpenApiContent };
  readonly responses: Readonly<Record<string, OpenApiResponse>>;
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
  /** Every schema the paths name, the served kinds' own, and all they refer to, by name. */
  readonly components: { readonly schemas: Readonly<Record<string, JsonSchema>> };
}

/** `GET /openapi/v2`: every group/version in one Swagger 2.0 document. */
export interface OpenApiV2Document {
  readonly swagger: "2.0";
  readonly info: { readonly title: string; readonly version: string };
  readonly paths: Readonly<Record<string, unknown>>;
  readonly definitions: Readonly<Record<string, unknown>>;
}

/** Finds a custom resource's schema: its definition's `openAPIV3Schema` for the served version, if any. */
export type CustomSchemaSource = (type: ResourceType) => JsonSchema | undefined;

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

const DELETE_OPTIONS = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions";
const STATUS = "io.k8s.apimachinery.pkg.apis.meta.v1.Status";
const PATCH = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The API path of a group/version as `/openapi/v3` keys it: "api/v1", "apis/apps/v1". */
export function openApiGroupVersionPath(group: string, version: string): string {
  return group === "" ? `api/${version}` : `apis/${group}/${version}`;
}

/** One rendered document: what is sent, and the hash kube-apiserver puts in its URL and ETag. */
export interface RenderedDocument<T> {
  readonly document: T;
  /** The body sent: the document's JSON. */
  readonly body: string;
  /** Upper-case hex SHA-512 of the body. */
  readonly hash: string;
}

/**
 * The documents of one server (its registry, dialect and custom resource schemas), each built
 * once on first request: the registry does not change while the server runs (custom resources
 * come from flags).
 */
export class OpenApiDocuments {
  private readonly builtIn: ReadonlySet<string>;
  private readonly plans = new Map<ResourceType, TypeSchemas>();
  private readonly groupVersions = new Map<string, RenderedDocument<OpenApiV3Document> | undefined>();
  private index: OpenApiV3Discovery | undefined;
  private v2Document: RenderedDocument<OpenApiV2Document> | undefined;
  private v2Bytes: Uint8Array | undefined;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly dialect: Dialect,
    private readonly customSchemas: CustomSchemaSource = () => undefined,
  ) {
    this.builtIn = new Set([...resourceTypes(dialect), customResourceDefinitionsType].map(typeKey));
  }

  /** `GET /openapi/v3/<api path>`, or undefined when the group/version is not served. */
  groupVersion(group: string, version: string): RenderedDocument<OpenApiV3Document> | undefined {
    const key = openApiGroupVersionPath(group, version);
    if (!this.groupVersions.has(key)) {
      const document = this.buildGroupVersion(group, version);
      this.groupVersions.set(key, document === undefined ? undefined : rendered(document));
    }
    return this.groupVersions.get(key);
  }

  /**
   * `GET /openapi/v3`: one entry per served group/version. Each URL carries `hash`, the upper-case
   * hex SHA-512 of the document's body as kube-apiserver computes it, so clients' caches (kubectl
   * keeps them on disk) see a changed document as a new URL.
   */
  v3Index(): OpenApiV3Discovery {
    if (this.index === undefined) {
      const paths: Record<string, { serverRelativeURL: string }> = {};
      for (const { group, version } of this.registry.groupVersions()) {
        const document = this.groupVersion(group, version);
        if (document === undefined) continue;
        const apiPath = openApiGroupVersionPath(group, version);
        paths[apiPath] = { serverRelativeURL: `/openapi/v3/${apiPath}?hash=${document.hash}` };
      }
      this.index = { paths: sortedByKey(paths) };
    }
    return this.index;
  }

  /** `GET /openapi/v2`: the paths of every group/version and the definitions they need, in Swagger 2.0. */
  v2(): RenderedDocument<OpenApiV2Document> {
    if (this.v2Document === undefined) {
      const paths: Record<string, unknown> = {};
      const definitions: Record<string, unknown> = {};
      for (const { group, version } of this.registry.groupVersions()) {
        const document = this.groupVersion(group, version)?.document;
        if (document === undefined) continue;
        for (const [path, item] of Object.entries(document.paths)) paths[path] = v2PathItem(item, group, version);
        // Recorded schemas keep their recorded v2 form; schemas made here are converted.
        for (const [name, schema] of Object.entries(document.components.schemas)) definitions[name] ??= recordedOpenApi().v2.definitions[name] ?? v2Schema(schema);
      }
      this.v2Document = rendered({ swagger: "2.0", info: this.info(), paths: sortedByKey(paths), definitions: sortedByKey(definitions) });
    }
    return this.v2Document;
  }

  /** `GET /openapi/v2` in Protobuf (openapi-v2-protobuf.ts), sharing the JSON's hash. */
  v2Protobuf(): Uint8Array {
    this.v2Bytes ??= openApiV2Protobuf(this.v2().document as unknown as Readonly<Record<string, unknown>>);
    return this.v2Bytes;
  }

  private info(): { title: string; version: string } {
    return { title: this.dialect.name === "kubernetes" ? "Kubernetes" : "orb", version: GIT_VERSION };
  }

  private plan(type: ResourceType): TypeSchemas {
    let plan = this.plans.get(type);
    if (plan === undefined) {
      const custom = this.builtIn.has(typeKey(type)) ? undefined : { schema: this.customSchemas(type) };
      plan = typeSchemas(type, this.dialect, custom);
      this.plans.set(type, plan);
    }
    return plan;
  }

  private buildGroupVersion(group: string, version: string): OpenApiV3Document | undefined {
    const types = this.registry.types.filter((type) => type.group === group && type.version === version);
    if (types.length === 0) return undefined;
    const paths: Record<string, OpenApiPathItem> = {};
    const seeds: string[] = [];
    const made: Record<string, JsonSchema> = {};
    for (const type of types) {
      const plan = this.plan(type);
      Object.assign(paths, typePaths(type, plan, this.builtIn.has(typeKey(type))));
      Object.assign(made, plan.made);
      seeds.push(plan.kind, ...(plan.list === undefined ? [] : [plan.list]), ...Object.values(plan.subresources));
    }
    for (const item of Object.values(paths)) seeds.push(...referencedNames(item));
    return { openapi: "3.0.0", info: this.info(), paths: sortedByKey(paths), components: { schemas: schemaClosure(seeds, made) } };
  }
}

/** `GET /openapi/v3/<api path>`, or undefined when the group/version is not served. */
export function openApiV3GroupVersion(registry: ResourceRegistry, dialect: Dialect, group: string, version: string, customSchemas?: CustomSchemaSource): OpenApiV3Document | undefined {
  return new OpenApiDocuments(registry, dialect, customSchemas).groupVersion(group, version)?.document;
}

/** `GET /openapi/v3` (see OpenApiDocuments.v3Index). */
export function openApiV3Discovery(registry: ResourceRegistry, dialect: Dialect, customSchemas?: CustomSchemaSource): OpenApiV3Discovery {
  return new OpenApiDocuments(registry, dialect, customSchemas).v3Index();
}

/** `GET /openapi/v2` (see OpenApiDocuments.v2). */
export function openApiV2(registry: ResourceRegistry, dialect: Dialect, customSchemas?: CustomSchemaSource): OpenApiV2Document {
  return new OpenApiDocuments(registry, dialect, customSchemas).v2().document;
}

/** What an `/openapi/...` URL path (no query) names. */
export type OpenApiTarget = { readonly kind: "v2" } | { readonly kind: "v3-index" } | { readonly kind: "v3"; readonly group: string; readonly version: string } | { readonly kind: "v3-unknown" } | { readonly kind: "unknown" };

/**
 * What an `/openapi/...` path names: `/openapi/v2`, `/openapi/v3`, one group/version's document
 * (served or not: kube-apiserver's v3 handler answers every path under it), or nothing.
 */
export function openApiTarget(path: string): OpenApiTarget {
  const segments = path.split("/").filter((segment) => segment !== "");
  if (segments[0] !== "openapi") return { kind: "unknown" };
  if (segments[1] === "v2" && segments.length === 2) return { kind: "v2" };
  if (segments[1] !== "v3") return { kind: "unknown" };
  const rest = segments.slice(2);
  if (rest.length === 0) return { kind: "v3-index" };
  if (rest[0] === "api" && rest.length === 2) return { kind: "v3", group: "", version: rest[1]! };
  if (rest[0] === "apis" && rest.length === 3) return { kind: "v3", group: rest[1]!, version: rest[2]! };
  return { kind: "v3-unknown" };
}

/**
 * The document at an `/openapi/...` URL path (no query): `/openapi/v2`, `/openapi/v3` or one
 * group/version's document; undefined for anything else.
 */
export function openApiDocument(
  registry: ResourceRegistry,
  dialect: Dialect,
  path: string,
  customSchemas?: CustomSchemaSource,
): OpenApiV3Discovery | OpenApiV3Document | OpenApiV2Document | undefined {
  const documents = new OpenApiDocuments(registry, dialect, customSchemas);
  const target = openApiTarget(path);
  switch (target.kind) {
    case "v2":
      return documents.v2().document;
    case "v3-index":
      return documents.v3Index();
    case "v3":
      return documents.groupVersion(target.group, target.version)?.document;
    default:
      return undefined;
  }
}

// The path items of one type: collection, object and subresource paths, and for a namespaced
// type the list across all namespaces (doc 1 §4.1 path shapes).
function typePaths(type: ResourceType, schemas: TypeSchemas, builtIn: boolean): Record<string, OpenApiPathItem> {
  const prefix = `/${openApiGroupVersionPath(type.group, type.version)}`;
  const gvk: GroupVersionKind = type;
  const paths: Record<string, OpenApiPathItem> = {};
  const scope = type.namespaced ? `${prefix}/namespaces/{namespace}/${type.resource}` : `${prefix}/${type.resource}`;
  const scopeParameters = type.namespaced ? [pathParam("namespace")] : [];
  const namePrefix = type.namespaced ? "Namespaced" : "";
  const own: Bodies = { builtIn, kind: type.kind, schema: schemas.kind, list: schemas.list };

  paths[scope] = pathItem(type, gvk, own, COLLECTION_VERBS, type.verbs, scopeParameters, (action) =>
    action === "deletecollection" ? `Collection${namePrefix}${type.kind}` : `${namePrefix}${type.kind}`,
  );
  if (type.namespaced && type.verbs.includes("list")) {
    paths[`${prefix}/${type.resource}`] = pathItem(type, gvk, own, COLLECTION_VERBS, ["list"], [], () => `${type.kind}ForAllNamespaces`);
  }
  const objectParameters = [pathParam("name"), ...scopeParameters];
  paths[`${scope}/{name}`] = pathItem(type, gvk, own, OBJECT_VERBS, type.verbs, objectParameters, () => `${namePrefix}${type.kind}`);
  for (const [subresource, verbs] of Object.entries(type.subresources)) {
    const suffix = subresource.charAt(0).toUpperCase() + subresource.slice(1);
    const kind = subresourceKind(type, subresource);
    paths[`${scope}/{name}/${subresource}`] = pathItem(
      type,
      kind,
      { builtIn, kind: kind.kind, schema: schemas.subresources[subresource] ?? schemas.kind, list: undefined },
      SUBRESOURCE_VERBS,
      verbs,
      objectParameters,
      () => `${namePrefix}${type.kind}${suffix}`,
    );
  }
  return paths;
}

// What the bodies of a path's operations are: the schema of its kind and list, and whether the
// type is built in (Protobuf answers, strategic merge patches) or a custom resource (JSON and YAML).
interface Bodies {
  readonly builtIn: boolean;
  readonly kind: string;
  readonly schema: string;
  readonly list: string | undefined;
}

function pathItem(
  type: ResourceType,
  gvk: GroupVersionKind,
  bodies: Bodies,
  table: ReadonlyArray<[Verb, Method, Action]>,
  verbs: readonly Verb[],
  parameters: readonly OpenApiParameter[],
  operationNoun: (action: Action) => string,
): OpenApiPathItem {
  const item: { -readonly [M in Method]?: OpenApiOperation } = {};
  for (const [verb, method, action] of table) {
    if (!verbs.includes(verb) || item[method] !== undefined) continue;
    const actionParameters = PARAMETERS[action];
    const requestBody = requestBodyOf(action, bodies);
    item[method] = {
      operationId: `${OPERATION_VERB[action]}${operationGroup(type)}${operationNoun(action)}`,
      ...(actionParameters.length > 0 ? { parameters: actionParameters } : {}),
      ...(requestBody !== undefined ? { requestBody } : {}),
      responses: Object.fromEntries(RESPONSES[action].map((code) => [code, responseOf(action, code, bodies)])),
      "x-kubernetes-action": action,
      // Keys in Kubernetes' order (alphabetical, as Go writes maps).
      "x-kubernetes-group-version-kind": { group: gvk.group, kind: gvk.kind, version: gvk.version },
    };
  }
  // Kubernetes lists `pretty` with the path's own parameters, sorted by name.
  const shared = [...parameters, query("pretty")].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { ...item, parameters: shared };
}

// The request body of an action (Kubernetes 1.26: "*/*" for objects and DeleteOptions, the patch
// media types for a PATCH).
function requestBodyOf(action: Action, bodies: Bodies): { content: OpenApiContent } | undefined {
  switch (action) {
    case "post":
    case "put":
      return { content: { "*/*": { schema: ref(bodies.schema) } } };
    case "delete":
    case "deletecollection":
      return { content: { "*/*": { schema: ref(DELETE_OPTIONS) } } };
    case "patch": {
      // Server-side apply everywhere but on the scale subresource, which this server does not apply to.
      const types = [...(bodies.kind === "Scale" ? [] : ["application/apply-patch+yaml"]), "application/json-patch+json", "application/merge-patch+json"];
      if (bodies.builtIn && supportsStrategicMergePatch(bodies.kind)) types.push("application/strategic-merge-patch+json");
      return { content: Object.fromEntries(types.map((type) => [type, { schema: ref(PATCH) }])) };
    }
    default:
      return undefined;
  }
}

// One response: 401 has no body; deletions answer a Status, lists the list kind, the rest the kind.
function responseOf(action: Action, code: string, bodies: Bodies): OpenApiResponse {
  const description = STATUS_TEXT[code] ?? code;
  if (code === "401") return { description };
  const schema = action === "delete" || action === "deletecollection" ? STATUS : action === "list" ? (bodies.list ?? bodies.schema) : bodies.schema;
  const mediaTypes = bodies.builtIn ? ["application/json", "application/vnd.kubernetes.protobuf", "application/yaml"] : ["application/json", "application/yaml"];
  const streamed = action === "list" ? (bodies.builtIn ? ["application/json;stream=watch", "application/vnd.kubernetes.protobuf;stream=watch"] : ["application/json;stream=watch"]) : [];
  const content = Object.fromEntries([...mediaTypes, ...streamed].sort().map((type) => [type, { schema: ref(schema) }]));
  return { description, content };
}

// The group/version part of an operationId: CoreV1, AppsV1, CoordinationV1 (the group's labels
// before its domain, capitalized: rbac.authorization.k8s.io → RbacAuthorizationV1).
function operationGroup(type: ResourceType): string {
  const labels = type.group === "" ? ["core"] : type.group.split(".");
  const named = labels.length > 2 ? labels.slice(0, -2) : labels;
  const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
  return `${named.map(capitalize).join("")}${capitalize(type.version)}`;
}

// A v3 path item in Swagger 2.0's form, as kube-apiserver's /openapi/v2 writes one.
function v2PathItem(item: OpenApiPathItem, group: string, version: string): unknown {
  const tag = `${group === "" ? "core" : group.split(".")[0]}_${version}`;
  const out: Record<string, unknown> = {};
  for (const method of ["get", "put", "post", "delete", "patch"] as const) {
    const operation = item[method];
    if (operation === undefined) continue;
    const bodyTypes = Object.keys(operation.requestBody?.content ?? {});
    const bodySchema = Object.values(operation.requestBody?.content ?? {})[0]?.schema;
    const produces = [...new Set(Object.values(operation.responses).flatMap((response) => Object.keys(response.content ?? {})))];
    out[method] = {
      ...(bodyTypes.length > 0 ? { consumes: bodyTypes } : {}),
      ...(produces.length > 0 ? { produces } : {}),
      schemes: ["https"],
      tags: [tag],
      operationId: operation.operationId,
      parameters: [
        ...(bodySchema !== undefined ? [{ name: "body", in: "body", required: true, schema: v2Schema(bodySchema) }] : []),
        ...(operation.parameters ?? []).map(v2Parameter),
      ],
      responses: Object.fromEntries(
        Object.entries(operation.responses).map(([code, response]) => {
          const schema = Object.values(response.content ?? {})[0]?.schema;
          return [code, { description: response.description, ...(schema !== undefined ? { schema: v2Schema(schema) } : {}) }];
        }),
      ),
      "x-kubernetes-action": operation["x-kubernetes-action"],
      "x-kubernetes-group-version-kind": operation["x-kubernetes-group-version-kind"],
    };
  }
  return { ...out, parameters: item.parameters.map(v2Parameter) };
}

function v2Parameter(parameter: OpenApiParameter): unknown {
  return { name: parameter.name, in: parameter.in, type: parameter.schema.type, uniqueItems: true, ...(parameter.required === true ? { required: true } : {}) };
}

// Every schema name a path item's operations refer to.
function referencedNames(item: OpenApiPathItem): string[] {
  const names: string[] = [];
  const visit = (content: OpenApiContent | undefined) => {
    for (const { schema } of Object.values(content ?? {})) names.push(schema.$ref.slice("#/components/schemas/".length));
  };
  for (const method of ["get", "put", "post", "delete", "patch"] as const) {
    const operation = item[method];
    if (operation === undefined) continue;
    visit(operation.requestBody?.content);
    for (const response of Object.values(operation.responses)) visit(response.content);
  }
  return names;
}

function rendered<T>(document: T): RenderedDocument<T> {
  const body = JSON.stringify(document);
  return { document, body, hash: createHash("sha512").update(body).digest("hex").toUpperCase() };
}

function typeKey(type: Pick<ResourceType, "group" | "version" | "resource">): string {
  return `${type.group}/${type.version}/${type.resource}`;
}

function sortedByKey<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
