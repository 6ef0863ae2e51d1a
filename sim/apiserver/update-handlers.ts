/**
 * update (PUT) and patch (PATCH) of one object or its status (doc 1 §1, §3, §4.4), sharing one
 * commit: identity fields carried over, the status subresource kept apart, generation bumped on
 * spec changes, and an object whose deletion waits on finalizers removed when the last one goes.
 */
import { isDeepStrictEqual } from "node:util";
import { StoreError } from "../store/errors.ts";
import type { StoredObject } from "../store/stored-object.ts";
import { badRequest, conflict, failure, fromStoreError, invalidValue, notFound } from "./api-error.ts";
import { invalidObjectMessage } from "./object-names.ts";
import type { ResourceType } from "./resource-types.ts";
import { createObject, decodeRequestObject, isDryRun } from "./create-handler.ts";
import { admit } from "./admission/admission-chain.ts";
import { validateStatusWriteMetadata } from "./admission/object-validation.ts";
import { applyJsonPatch, JsonPatchError } from "./json-patch.ts";
import { applyMergePatch } from "./json-merge-patch.ts";
import { applyStrategicMergePatch, StrategicMergePatchError, type JsonObject } from "./strategic-merge-patch.ts";
import { carryOverMetadata, checkKind, metadataOf } from "./object-stamping.ts";
import { fieldValidation } from "./query-options.ts";
import { parseResourceVersion } from "./read-revision.ts";
import { negotiateRepresentation, requestSerialization } from "./representation.ts";
import { decodePatch, mediaTypeOf, PATCH_MEDIA_TYPES, readBody, unsupportedMediaType, type PatchKind } from "./request-body.ts";
import type { ResourceRequest, ServerContext } from "./server-context.ts";
import { storageKey, withoutTypeMeta, withTypeMeta } from "./stored-resource.ts";
import { tracksGeneration } from "./type-defaults.ts";
import { decodePatchedObject } from "./unknown-fields.ts";
import { checkPatchedValueTypes } from "./value-types.ts";

/** PUT of an object, or of its status subresource. */
export async function handleUpdate(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const { type } = target;
  const representation = negotiateRepresentation(context, target);
  // The body's media type (415) is checked before the options (422), as Kubernetes does.
  requestSerialization(context, target);
  const dry = isDryRun(context, target, "UpdateOptions");
  const { object, warnings } = await decodeRequestObject(context, target);
  const metadata = metadataOf(object);
  const bodyName = metadata["name"];
  // Kubernetes' checkName (recorded from 1.26.4, 2026-11-25; found by comparing with `fuzz --target
  // http`: a body without a name used to update the URL's object).
  if (bodyName === undefined || bodyName === "") throw badRequest(`the name of the object (${target.name} based on URL) was undeterminable: name must be provided`);
  if (bodyName !== target.name) {
    throw badRequest(`the name of the object (${String(bodyName)}) does not match the name on the URL (${target.name})`);
  }
  const current = context.store.get(storageKey(type, target.namespace, target.name!));
  if (current === undefined) {
    // Doc 1 §1: a PUT is a create when the object does not exist (deviation put-missing).
    if (context.dialect.answers["put-missing"] === "not-found" || target.subresource !== undefined) throw notFound(type, target.name!);
    const created = createObject(context, target, { ...object, metadata: { ...metadata, name: target.name } }, dry);
    return representation.object(201, withTypeMeta(type, created), warnings);
  }
  // A uid in the body is a precondition, as in Kubernetes: it names one incarnation of the name.
  const uid = metadata["uid"];
  if (typeof uid === "string" && uid !== "" && uid !== current.metadata["uid"]) {
    throw failure("Conflict", `Operation cannot be fulfilled on ${type.kind} "${target.name}": Precondition failed: UID in precondition: ${uid}, UID in object meta: ${String(current.metadata["uid"])}`, {
      name: target.name!,
      kind: type.kind,
    });
  }
  const resourceVersion = metadata["resourceVersion"];
  checkConditionalUpdate(type, target, resourceVersion);
  const expectedRevision = typeof resourceVersion === "string" && resourceVersion !== "" ? parseResourceVersion(context, resourceVersion) : undefined;
  // Planted defect "stale-update-accepted" (sim/apiserver/defects.ts): the PUT's resourceVersion is not compared.
  const checkedRevision = context.defects.has("stale-update-accepted") ? undefined : expectedRevision;
  const updated = commitUpdate(context, target, current, withoutTypeMeta(object), checkedRevision, dry);
  return representation.object(200, withTypeMeta(type, updated), warnings);
}

/** PATCH of an object, or of its status subresource: merge, JSON or strategic merge patch. */
export async function handlePatch(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const { type } = target;
  const representation = negotiateRepresentation(context, target);
  const mediaType = mediaTypeOf(target.request.headers.get("content-type"));
  const patchKind = PATCH_MEDIA_TYPES[mediaType as keyof typeof PATCH_MEDIA_TYPES];
  if (patchKind === undefined) throw unsupportedMediaType([...Object.keys(PATCH_MEDIA_TYPES), "application/apply-patch+yaml"]);
  const dry = isDryRun(context, target, "PatchOptions");
  const patch = decodePatch(await readBody(target.request), patchKind);
  const current = context.store.get(storageKey(type, target.namespace, target.name!));
  if (current === undefined) throw notFound(type, target.name!);
  const patched = applyPatch(patchKind, type.kind, withTypeMeta(type, current), patch);
  checkKind(type, patched);
  checkPatchedValueTypes(type, patched);
  const { object: decoded, warnings } = decodePatchedObject(type, patched, fieldValidation(target.query));
  const metadata = metadataOf(decoded);
  if (metadata["name"] !== target.name) throw badRequest(`the name of the object (${String(metadata["name"] ?? "")}) does not match the name on the URL (${target.name})`);
  checkUidUnchanged(type, target, current, metadata["uid"]);
  // A resourceVersion the patch sets is a precondition (Kubernetes: Conflict when it is stale).
  const resourceVersion = metadata["resourceVersion"];
  const expectedRevision =
    typeof resourceVersion === "string" && resourceVersion !== current.metadata.resourceVersion
      ? parseResourceVersion(context, resourceVersion)
      : undefined;
  const updated = commitUpdate(context, target, current, withoutTypeMeta(decoded), expectedRevision, dry);
  return representation.object(200, withTypeMeta(type, updated), warnings);
}

/**
 * Leases take no unconditional update (their strategy's AllowUnconditionalUpdate is false): a PUT
 * without metadata.resourceVersion is 422, named by the resource, as kube-apiserver 1.26.4 answers
 * (recorded 2026-11-25; found by comparing with `fuzz --target http`).
 */
function checkConditionalUpdate(type: ResourceType, target: ResourceRequest, resourceVersion: unknown): void {
  if (type.kind !== "Lease" || target.subresource !== undefined || (typeof resourceVersion === "string" && resourceVersion !== "")) return;
  const cause = { reason: "FieldValueInvalid" as const, message: "Invalid value: 0x0: must be specified for an update", field: "metadata.resourceVersion" };
  throw failure("Invalid", `${type.resource}.${type.group} "${target.name}" is invalid: metadata.resourceVersion: ${cause.message}`, {
    name: target.name!,
    group: type.group,
    kind: type.resource,
    causes: [cause],
  });
}

/**
 * A Secret's type may not change: 422 on field type (kube-apiserver 1.26.4, recorded 2026-11-25;
 * found by comparing with `fuzz --target http`, where a patch changed it).
 */
function checkSecretType(type: ResourceType, target: ResourceRequest, current: StoredObject, next: StoredObject): void {
  if (type.kind !== "Secret") return;
  const typeOf = (object: StoredObject) => (typeof object["type"] === "string" && object["type"] !== "" ? (object["type"] as string) : "Opaque");
  if (typeOf(next) === typeOf(current)) return;
  const cause = invalidValue("type", typeOf(next), "field is immutable");
  throw failure("Invalid", invalidObjectMessage(type.kind, target.name!, [cause]), { name: target.name!, kind: type.kind, causes: [cause] });
}

/**
 * A patch may not change metadata.uid: 422 "field is immutable", the cause twice, as Kubernetes'
 * update validation reports it in two passes (kube-apiserver 1.26.4, recorded 2026-11-25; found
 * by comparing with `fuzz --target http`: the embedded server answered 200 and kept the uid).
 */
function checkUidUnchanged(type: ResourceType, target: ResourceRequest, current: StoredObject, uid: unknown): void {
  if (typeof uid !== "string" || uid === "" || uid === current.metadata["uid"]) return;
  const cause = invalidValue("metadata.uid", uid, "field is immutable");
  const group = type.group === "" ? undefined : type.group;
  throw failure("Invalid", invalidObjectMessage(group === undefined ? type.kind : `${type.kind}.${group}`, target.name!, [cause, cause]), {
    name: target.name!,
    ...(group !== undefined && { group }),
    kind: type.kind,
    causes: [cause, cause],
  });
}

function applyPatch(kind: PatchKind, typeKind: string, document: Record<string, unknown>, patch: unknown): Record<string, unknown> {
  let result: unknown;
  if (kind === "strategic") {
    // A kind without merge keys (a custom resource) fails inside with Kubernetes' 415.
    if (patch === null || typeof patch !== "object" || Array.isArray(patch)) throw badRequest("Invalid JSON Patch");
    try {
      result = applyStrategicMergePatch(typeKind, document as JsonObject, patch as JsonObject);
    } catch (error) {
      if (!(error instanceof StrategicMergePatchError)) throw error;
      throw failure(error.reason, error.statusMessage, error.code === 422 ? {} : undefined);
    }
  } else if (kind === "merge") {
    // Kubernetes' answer to a merge patch that is not an object.
    if (patch === null || typeof patch !== "object" || Array.isArray(patch)) throw badRequest("Invalid JSON Patch");
    result = applyMergePatch(document, patch);
  } else {
    try {
      result = applyJsonPatch(document, patch);
    } catch (error) {
      if (!(error instanceof JsonPatchError)) throw error;
      // Malformed: 400; too many operations: 413; cannot apply: 422 with Kubernetes' bare message (transcript patch-json-bad-test).
      throw failure(error.reason, error.statusMessage, error.code === 422 ? {} : undefined);
    }
  }
  if (result === null || typeof result !== "object" || Array.isArray(result)) throw badRequest("the patched object is not a JSON object");
  return result as Record<string, unknown>;
}

/**
 * Writes `requested` over `current` (or, in a dry run, only computes it). Returns what the store
 * holds afterwards; an object this write releases (its last finalizer gone) is deleted, and comes
 * back as requested, at the version it replaced.
 */
export function commitUpdate(
  context: ServerContext,
  target: ResourceRequest,
  current: StoredObject,
  requested: StoredObject,
  expectedRevision: number | undefined,
  dry: boolean,
): StoredObject {
  const { type } = target;
  const proposed = nextState(target, current, requested);
  checkSecretType(type, target, current, proposed);
  // The status subresource changes no spec, so only writes of the main resource go through admission.
  if (target.subresource === "status") validateStatusWriteMetadata(type, target.name!, requested);
  const next = target.subresource === undefined ? admit(context, type, proposed, current, dry) : proposed;
  const key = storageKey(type, target.namespace, target.name!);
  const formatRevision = (revision: number) => context.store.formatRevision(revision);
  if (expectedRevision !== undefined && formatRevision(expectedRevision) !== current.metadata.resourceVersion) {
    throw conflict(type, target.name!);
  }
  if (dry) return { ...next, metadata: { ...next.metadata, resourceVersion: current.metadata.resourceVersion } };
  try {
    if (isReleased(next)) {
      // As Kubernetes' registry does (an update that empties the finalizers deletes instead of
      // writing): the stored object is deleted, and the answer is the requested object at the
      // version it replaced. `fuzz --target api` found a 1.26 server answering so where we
      // answered the stored object.
      context.store.delete(key, { expectedRevision: parseResourceVersion(context, current.metadata.resourceVersion!) });
      return { ...next, metadata: { ...next.metadata, resourceVersion: current.metadata.resourceVersion } };
    }
    return context.store.update(key, next, expectedRevision === undefined ? {} : { expectedRevision });
  } catch (error) {
    if (error instanceof StoreError) throw fromStoreError(error, type, target.name!, formatRevision);
    throw error;
  }
}

function nextState(target: ResourceRequest, current: StoredObject, requested: StoredObject): StoredObject {
  const { type } = target;
  if (target.subresource === "status") {
    // The status subresource changes status only.
    return { ...current, status: requested["status"] };
  }
  let next = carryOverMetadata(current, requested);
  // With a status subresource, the main resource leaves status alone (Kubernetes).
  if (type.subresources["status"] !== undefined) {
    const { status: _ignored, ...rest } = next;
    next = current["status"] === undefined ? (rest as StoredObject) : { ...rest, status: current["status"] } as StoredObject;
  }
  if (tracksGeneration(type)) {
    const generation = Number(current.metadata["generation"] ?? 1);
    const changed = !isDeepStrictEqual(current["spec"], next["spec"]);
    next = { ...next, metadata: { ...next.metadata, generation: changed ? generation + 1 : generation } };
  }
  return next;
}

/** Doc 1 §3: a finalizing object is removed once its last finalizer is gone (namespaces: their spec finalizers too). */
export function isReleased(object: StoredObject): boolean {
  if (object.metadata["deletionTimestamp"] === undefined) return false;
  const finalizers = (object.metadata["finalizers"] as unknown[] | undefined) ?? [];
  const specFinalizers = ((object["spec"] as { finalizers?: unknown[] } | undefined)?.finalizers ?? []) as unknown[];
  return finalizers.length === 0 && specFinalizers.length === 0;
}
