/** create: POST of an object to its collection (doc 1 §1, §2.1, §2.2, §2.7, §4.4). */
import { StoreError } from "../store/errors.ts";
import type { StoredObject } from "../store/stored-object.ts";
import { alreadyExists, badRequest, fromStoreError, invalid, invalidValue, methodNotAllowed } from "./api-error.ts";
import { nameKindForResource, validateGenerateName } from "./object-names.ts";
import { apiVersionOf, type ResourceType } from "./resource-types.ts";
import { admit } from "./admission/admission-chain.ts";
import { checkNamespaceAcceptsCreate } from "./namespace-state.ts";
import { checkKind, checkNamespace, metadataOf, stampNewObject } from "./object-stamping.ts";
import { dryRun, fieldValidation, type OptionsKind } from "./query-options.ts";
import { negotiateRepresentation, requestSerialization } from "./representation.ts";
import { bodySummary, decodeObject, readBody } from "./request-body.ts";
import { protobufKind } from "./protobuf/index.ts";
import type { ResourceRequest, ServerContext } from "./server-context.ts";
import { storageKey, withTypeMeta } from "./stored-resource.ts";
import { withCreateDefaults } from "./type-defaults.ts";
import { unknownFields, unknownFieldsWarning, withoutUnknownFields } from "./unknown-fields.ts";
import { checkRequestValueTypes } from "./value-types.ts";

/** A decoded request object, checked against the type, and the Warning header its unknown fields earn. */
export async function decodeRequestObject(
  context: ServerContext,
  target: ResourceRequest,
): Promise<{ object: Record<string, unknown>; warnings: Record<string, string> }> {
  const { request, type } = target;
  // The body is read (413 past the limit) before its Content-Type is checked (415).
  const bytes = await readBody(request);
  const object = decodeObject(bytes, requestSerialization(context, target), type.kind);
  // An empty kind is an unset one, the endpoint's (kube-apiserver 1.26.4 creates it; recorded
  // 2026-11-25, found by comparing with `fuzz --target http`).
  if (object["kind"] === "") delete object["kind"];
  checkApiVersion(type, object, bytes);
  checkKind(type, object);
  checkNamespace(type, metadataOf(object), target.namespace);
  const unknown = unknownFields(type, object);
  const validation = fieldValidation(target.query);
  if (unknown.length > 0 && validation === "Strict") {
    const listed = unknown.map((field) => `unknown field ${JSON.stringify(field)}`).join(", ");
    throw badRequest(`${type.kind} in version "${type.version}" cannot be handled as a ${type.kind}: strict decoding error: ${listed}`);
  }
  const warnings = validation === "Warn" ? unknownFieldsWarning(unknown) : {};
  const known = withoutUnknownFields(object, unknown);
  checkRequestValueTypes(type, known);
  return { object: known, warnings };
}

/** Whether the request is a dry run, per the dialect's reading of a bare `dryRun` (doc 1 §4.4). */
export function isDryRun(context: ServerContext, target: ResourceRequest, optionsKind: OptionsKind): boolean {
  return dryRun(target.query, optionsKind, context.dialect.metaGroup, context.dialect.answers["bare-dry-run"] === "accept");
}

/**
 * The body's apiVersion must be the endpoint's (or unset): kube-apiserver 1.26.4 answers 400 from
 * its decoder otherwise (recorded 2026-11-25; found by comparing with `fuzz --target http`, where
 * a ConfigMap with apiVersion v2 was stored). Custom resources are left to their own decoding.
 */
function checkApiVersion(type: ResourceType, object: Record<string, unknown>, bytes: Uint8Array): void {
  const apiVersion = object["apiVersion"];
  if (typeof apiVersion !== "string" || apiVersion === "" || apiVersion === apiVersionOf(type) || protobufKind(apiVersionOf(type), type.kind) === undefined) return;
  if (apiVersion.split("/").length > 2) {
    throw badRequest(`the object provided is unrecognized (must be of type ${type.kind}): unexpected GroupVersion string: ${apiVersion} (${bodySummary(bytes, "text")})`);
  }
  const kind = typeof object["kind"] === "string" ? object["kind"] : type.kind;
  const version = apiVersion.split("/").at(-1);
  throw badRequest(`${kind} in version "${version}" cannot be handled as a ${type.kind}: no kind "${kind}" is registered for version "${apiVersion}" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"`);
}

/**
 * A generateName is validated as a name prefix even when the name made from it is valid (a prefix
 * over 253 characters is cut to 58): 422 on field metadata.generateName (kube-apiserver 1.26.4,
 * recorded 2026-11-25; found by comparing with `fuzz --target http`, where such objects were stored).
 */
function checkGenerateName(type: ResourceType, name: string, generateName: unknown): void {
  if (typeof generateName !== "string" || generateName === "") return;
  const problems = validateGenerateName(nameKindForResource(type.resource), generateName);
  if (problems.length > 0) {
    throw invalid(type.kind, name, problems.map((problem) => invalidValue("metadata.generateName", generateName, problem)), type.group === "" ? undefined : type.group);
  }
}

/** POST to a collection. */
export async function handleCreate(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const { type } = target;
  // A namespaced type has no collection to create in outside a namespace.
  if (type.namespaced && target.namespace === undefined) throw methodNotAllowed();
  const representation = negotiateRepresentation(context, target);
  // The body's media type (415) is checked before the options (422), as Kubernetes does.
  requestSerialization(context, target);
  const dry = isDryRun(context, target, "CreateOptions");
  const { object, warnings } = await decodeRequestObject(context, target);
  const created = createObject(context, target, object, dry);
  return representation.object(201, withTypeMeta(type, created), warnings);
}

/**
 * Stamps, defaults and stores a new object (or, in a dry run, only stamps and defaults it:
 * generated values are filled, nothing is persisted, doc 1 §2.7, §4.4.2–3).
 */
export function createObject(context: ServerContext, target: ResourceRequest, object: Record<string, unknown>, dry: boolean): StoredObject {
  const { type } = target;
  const defaulted = withCreateDefaults(type, stampNewObject(type, object, target.namespace, context.clock, context.rng));
  checkGenerateName(type, defaulted.metadata.name, metadataOf(object)["generateName"]);
  if (type.namespaced) checkNamespaceAcceptsCreate(context, target.namespace!, type.resource, defaulted.metadata.name);
  const stamped = admit(context, type, defaulted, undefined, dry);
  const key = storageKey(type, target.namespace, stamped.metadata.name);
  // Planted defect "dry-run-persists" (sim/apiserver/defects.ts): a dry-run create is stored like any other.
  if (dry && !context.defects.has("dry-run-persists")) {
    if (context.store.get(key) !== undefined) throw alreadyExists(type, key.name);
    return stamped;
  }
  try {
    return context.store.create(key, stamped);
  } catch (error) {
    if (error instanceof StoreError) throw fromStoreError(error, type, key.name, (revision) => context.store.formatRevision(revision));
    throw error;
  }
}
