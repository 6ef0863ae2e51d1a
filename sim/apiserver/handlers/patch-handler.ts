/** patch: PATCH of an object or of its status subresource, in any of the three patch types (doc 1 §1, §4.4), or an apply (apply-handler.ts). */
import type { StoredObject } from "../../store/stored-object.ts";
import { applyPatch } from "../patch/apply-patch.ts";
import { badRequest, failure, invalidValue, notFound } from "../responses/api-error.ts";
import { fieldValidation } from "../request/query-options.ts";
import { parseResourceVersion } from "../request/read-revision.ts";
import { fieldManagerOf } from "../request/field-manager.ts";
import { readPatchRequest } from "../request/patch-request.ts";
import { handleApply } from "./apply-handler.ts";
import { decodePatchedObject } from "../request/unknown-fields.ts";
import { checkKind, metadataOf } from "../registry/object-stamping.ts";
import { storageKey, withoutTypeMeta, withTypeMeta } from "../registry/stored-resource.ts";
import { negotiateRepresentation } from "../responses/representation.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { invalidObjectMessage } from "../validation/object-names.ts";
import { checkPatchedValueTypes } from "../validation/value-types.ts";
import type { ResourceRequest, ServerContext } from "../server-context.ts";

/** PATCH of an object, or of its status subresource: merge, JSON or strategic merge patch. */
export async function handlePatch(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const { type } = target;
  const name = target.name!;
  const representation = negotiateRepresentation(context, target);
  const patchRequest = await readPatchRequest(context, target);
  if (patchRequest.kind === "apply") return handleApply(context, target, representation, patchRequest);
  const { kind: patchKind, patch, dryRun } = patchRequest;
  const current = context.store.get(storageKey(type, target.namespace, name));
  if (current === undefined) throw notFound(type, name);
  const patched = applyPatch(patchKind, type.kind, withTypeMeta(type, current), patch);
  checkKind(type, patched);
  checkPatchedValueTypes(type, patched);
  const { object: decoded, warnings } = decodePatchedObject(type, patched, fieldValidation(target.query));
  const metadata = metadataOf(decoded);
  if (metadata["name"] !== name) throw badRequest(`the name of the object (${String(metadata["name"] ?? "")}) does not match the name on the URL (${name})`);
  checkUidUnchanged(type, name, current, metadata["uid"]);
  // A resourceVersion the patch sets is a precondition (Kubernetes: Conflict when it is stale).
  const resourceVersion = metadata["resourceVersion"];
  const expectedRevision =
    typeof resourceVersion === "string" && resourceVersion !== current.metadata.resourceVersion ? parseResourceVersion(context, resourceVersion) : undefined;
  const updated = context.objects.update({ ...target, name }, current, withoutTypeMeta(decoded), { expectedRevision, dryRun, fieldManager: fieldManagerOf(target) });
  return representation.object(200, withTypeMeta(type, updated), warnings);
}

/**
 * A patch may not change metadata.uid: 422 "field is immutable", the cause twice, as Kubernetes'
 * update validation reports it in two passes (kube-apiserver 1.26.4, recorded 2026-11-25; found
 * by comparing with `fuzz --target http`: the embedded server answered 200 and kept the uid).
 */
function checkUidUnchanged(type: ResourceType, name: string, current: StoredObject, uid: unknown): void {
  if (typeof uid !== "string" || uid === "" || uid === current.metadata["uid"]) return;
  const cause = invalidValue("metadata.uid", uid, "field is immutable");
  const group = type.group === "" ? undefined : type.group;
  throw failure("Invalid", invalidObjectMessage(group === undefined ? type.kind : `${type.kind}.${group}`, name, [cause, cause]), {
    name,
    ...(group !== undefined && { group }),
    kind: type.kind,
    causes: [cause, cause],
  });
}
