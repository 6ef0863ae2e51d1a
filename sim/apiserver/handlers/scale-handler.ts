/**
 * The scale subresource: GET, PUT and PATCH of `/<parent path>/<name>/scale`, answered as an
 * autoscaling/v1 Scale (registry/scale-subresource.ts builds it from the parent; the registry
 * writes a Scale's spec.replicas into the parent, like any other update). Recorded from
 * kube-apiserver 1.26.4 (transcripts-scale-and-reviews.jsonl):
 *
 * - GET of a parent that does not exist: 404 `deployments/scale.apps "<name>" not found` (details
 *   kind `deployments/scale`); PUT and PATCH: 404 `deployments.apps "<name>" not found`;
 * - a stale resourceVersion (in a PUT's body, or set by a patch): 409 on `deployments.apps`, as for
 *   the parent itself (transcripts scale-put-stale, scale-patch-stale);
 * - a uid that is not the parent's: 409, worded as the storage precondition for PUT and as the
 *   scale's own check for PATCH (transcripts scale-put-uid-mismatch, scale-patch-uid);
 * - GET with `?watch=true` is a get: the subresource has no watch (transcript scale-list).
 */
import type { StoredObject } from "../../store/stored-object.ts";
import { fieldManagerOf } from "../request/field-manager.ts";
import { applyPatch } from "../patch/apply-patch.ts";
import { badRequest, failure, notFound, type ApiError } from "../responses/api-error.ts";
import { fieldValidation } from "../request/query-options.ts";
import { getReadRevision, parseResourceVersion } from "../request/read-revision.ts";
import { readPatchRequest } from "../request/patch-request.ts";
import { decodePatchedObject } from "../request/unknown-fields.ts";
import { checkKind, metadataOf } from "../registry/object-stamping.ts";
import { scaleOf, scaleType, SCALE_KIND, SCALE_SUBRESOURCE } from "../registry/scale-subresource.ts";
import { storageKey, withoutTypeMeta } from "../registry/stored-resource.ts";
import { negotiateRepresentation } from "../responses/representation.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { checkPatchedValueTypes } from "../validation/value-types.ts";
import type { ResourceRequest, ServerContext } from "../server-context.ts";
import { readUpdateRequest } from "../request/update-request.ts";

/** GET of a Scale. */
export async function handleScaleGet(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const { type } = target;
  const name = target.name!;
  const representation = negotiateRepresentation(context, { ...target, type: scaleType(type) });
  const revision = await getReadRevision(context, target.query);
  const parent = context.store.get(storageKey(type, target.namespace, name), revision);
  if (parent === undefined) throw notFound({ resource: `${type.resource}/${SCALE_SUBRESOURCE}`, group: type.group }, name);
  return representation.object(200, scaleOf(parent, type));
}

/** PUT of a Scale: the parent's spec.replicas replaced, through the registry. */
export async function handleScaleUpdate(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const { type } = target;
  const name = target.name!;
  const scaleTarget = { ...target, type: scaleType(type) };
  const representation = negotiateRepresentation(context, scaleTarget);
  const { object, metadata, warnings, dryRun } = await readUpdateRequest(context, scaleTarget, name);
  const current = context.store.get(storageKey(type, target.namespace, name));
  if (current === undefined) throw notFound(type, name);
  // A uid in the body is the update's precondition, checked by storage before the Scale is read.
  const uid = metadata["uid"];
  if (typeof uid === "string" && uid !== "" && uid !== current.metadata["uid"]) throw storageUidConflict(type, target.namespace, current, uid);
  const resourceVersion = metadata["resourceVersion"];
  const expectedRevision = typeof resourceVersion === "string" && resourceVersion !== "" ? parseResourceVersion(context, resourceVersion) : undefined;
  const updated = context.objects.update({ ...target, name, subresource: SCALE_SUBRESOURCE }, current, withoutTypeMeta(object), { expectedRevision, dryRun, fieldManager: fieldManagerOf(target) });
  return representation.object(200, scaleOf(updated, type), warnings);
}

/** PATCH of a Scale (merge, JSON or strategic merge patch), applied to the Scale read from the parent. */
export async function handleScalePatch(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const { type } = target;
  const name = target.name!;
  const scale = scaleType(type);
  const representation = negotiateRepresentation(context, { ...target, type: scale });
  const patchRequest = await readPatchRequest(context, target);
  // Server-side apply of a Scale is not served yet (Kubernetes serves it): the route's 415.
  if (patchRequest.kind === "apply") throw failure("UnsupportedMediaType", "415: Unsupported Media Type", {});
  const { kind: patchKind, patch, dryRun } = patchRequest;
  const current = context.store.get(storageKey(type, target.namespace, name));
  if (current === undefined) throw notFound(type, name);
  const patched = applyPatch(patchKind, SCALE_KIND, scaleOf(current, type), patch);
  checkKind(scale, patched);
  checkPatchedValueTypes(scale, patched);
  const { object: decoded, warnings } = decodePatchedObject(scale, patched, fieldValidation(target.query));
  const metadata = metadataOf(decoded);
  if (metadata["name"] !== name) throw badRequest(`the name of the object (${String(metadata["name"] ?? "")}) does not match the name on the URL (${name})`);
  const uid = metadata["uid"];
  if (typeof uid === "string" && uid !== "" && uid !== current.metadata["uid"]) {
    throw failure(
      "Conflict",
      `Operation cannot be fulfilled on ${type.resource}/${SCALE_SUBRESOURCE}.${type.group} "${name}": Precondition failed: UID in precondition: ${uid}, UID in object meta: ${String(current.metadata["uid"])}`,
      { name, group: type.group, kind: `${type.resource}/${SCALE_SUBRESOURCE}` },
    );
  }
  // A resourceVersion the patch sets is a precondition (Conflict when it is stale, transcript scale-patch-stale).
  const resourceVersion = metadata["resourceVersion"];
  const expectedRevision =
    typeof resourceVersion === "string" && resourceVersion !== current.metadata.resourceVersion ? parseResourceVersion(context, resourceVersion) : undefined;
  const updated = context.objects.update({ ...target, name, subresource: SCALE_SUBRESOURCE }, current, withoutTypeMeta(decoded), { expectedRevision, dryRun, fieldManager: fieldManagerOf(target) });
  return representation.object(200, scaleOf(updated, type), warnings);
}

/**
 * The 409 of a PUT whose uid is not the parent's: storage's precondition failure, as
 * kube-apiserver 1.26.4 words it (transcript scale-put-uid-mismatch), the etcd key included.
 */
function storageUidConflict(type: ResourceType, namespace: string | undefined, current: StoredObject, uid: string): ApiError {
  const name = current.metadata.name;
  const key = type.namespaced ? `/registry/${type.resource}/${namespace ?? ""}/${name}` : `/registry/${type.resource}/${name}`;
  const qualified = type.group === "" ? type.resource : `${type.resource}.${type.group}`;
  return failure(
    "Conflict",
    `Operation cannot be fulfilled on ${qualified} "${name}": StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${uid}, UID in object meta: ${String(current.metadata["uid"])}`,
    { name, ...(type.group !== "" && { group: type.group }), kind: type.resource },
  );
}
