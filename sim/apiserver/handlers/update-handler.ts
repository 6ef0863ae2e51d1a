/** update: PUT of an object or of its status subresource (doc 1 §1, §3, §4.4). */
import { failure, notFound } from "../responses/api-error.ts";
import { fieldManagerOf } from "../request/field-manager.ts";
import { parseResourceVersion } from "../request/read-revision.ts";
import { storageKey, withoutTypeMeta, withTypeMeta } from "../registry/stored-resource.ts";
import { allowsUnconditionalUpdate } from "../registry/type-strategy.ts";
import { negotiateRepresentation } from "../responses/representation.ts";
import type { ResourceRequest, ServerContext } from "../server-context.ts";
import { readUpdateRequest } from "../request/update-request.ts";

/** PUT of an object, or of its status subresource. */
export async function handleUpdate(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const { type } = target;
  const name = target.name!;
  const representation = negotiateRepresentation(context, target);
  const { object, metadata, warnings, dryRun } = await readUpdateRequest(context, target, name);
  const current = context.store.get(storageKey(type, target.namespace, name));
  if (current === undefined) {
    // Doc 1 §1: a PUT is a create when the object does not exist (deviation put-missing).
    if (context.dialect.answers["put-missing"] === "not-found" || target.subresource !== undefined) throw notFound(type, name);
    const created = context.objects.create(target, { ...object, metadata: { ...metadata, name } }, { dryRun, fieldManager: fieldManagerOf(target) });
    return representation.object(201, withTypeMeta(type, created), warnings);
  }
  // A uid in the body is a precondition, as in Kubernetes: it names one incarnation of the name.
  const uid = metadata["uid"];
  if (typeof uid === "string" && uid !== "" && uid !== current.metadata["uid"]) {
    throw failure("Conflict", `Operation cannot be fulfilled on ${type.kind} "${name}": Precondition failed: UID in precondition: ${uid}, UID in object meta: ${String(current.metadata["uid"])}`, {
      name,
      kind: type.kind,
    });
  }
  const resourceVersion = metadata["resourceVersion"];
  checkConditionalUpdate(target, resourceVersion);
  const expectedRevision = typeof resourceVersion === "string" && resourceVersion !== "" ? parseResourceVersion(context, resourceVersion) : undefined;
  const updated = context.objects.update({ ...target, name }, current, withoutTypeMeta(object), { expectedRevision, dryRun, fieldManager: fieldManagerOf(target) });
  return representation.object(200, withTypeMeta(type, updated), warnings);
}

/**
 * A type whose strategy refuses unconditional updates (Leases) takes no PUT without
 * metadata.resourceVersion: 422, named by the resource, as kube-apiserver 1.26.4 answers
 * (recorded 2026-11-25; found by comparing with `fuzz --target http`).
 */
function checkConditionalUpdate(target: ResourceRequest, resourceVersion: unknown): void {
  const { type } = target;
  if (allowsUnconditionalUpdate(type) || target.subresource !== undefined || (typeof resourceVersion === "string" && resourceVersion !== "")) return;
  const cause = { reason: "FieldValueInvalid" as const, message: "Invalid value: 0x0: must be specified for an update", field: "metadata.resourceVersion" };
  throw failure("Invalid", `${type.resource}.${type.group} "${target.name}" is invalid: metadata.resourceVersion: ${cause.message}`, {
    name: target.name!,
    group: type.group,
    kind: type.resource,
    causes: [cause],
  });
}
