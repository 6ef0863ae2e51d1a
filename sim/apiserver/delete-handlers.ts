/**
 * delete, deletecollection and the eviction subresource (doc 1 §1, §3): an object with finalizers
 * is marked (deletionTimestamp set on the first delete, never moved after) and kept; one without
 * is removed; a namespace turns Terminating and the namespace controller empties it.
 */
import { StoreError } from "../store/errors.ts";
import type { StoredObject } from "../store/stored-object.ts";
import { failure, fromStoreError, notFound } from "./api-error.ts";
import { isDryRun } from "./create-handler.ts";
import { admitDelete } from "./admission/admission-chain.ts";
import { rfc3339 } from "./object-stamping.ts";
import { readList } from "./read-handlers.ts";
import { parseResourceVersion } from "./read-revision.ts";
import { negotiateRepresentation } from "./representation.ts";
import { readBody } from "./request-body.ts";
import { readDeleteOptions, type DeletePreconditions } from "./delete-options.ts";
import { apiVersionOf } from "./resource-types.ts";
import type { ResourceRequest, ServerContext } from "./server-context.ts";
import { listItem, storageKey, withTypeMeta } from "./stored-resource.ts";

/** What deleting one object did: it was marked for finalization, or removed. */
export interface DeleteOutcome {
  readonly object: StoredObject;
  readonly removed: boolean;
}

/** DELETE of one object. */
export async function handleDelete(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const { type } = target;
  const representation = negotiateRepresentation(context, target);
  const options = await readDeleteOptions(context, target);
  const dry = isDryRun(context, target, "DeleteOptions", options.dryRun);
  const current = context.store.get(storageKey(type, target.namespace, target.name!));
  if (current === undefined) throw notFound(type, target.name!);
  checkPreconditions(type.kind, current, options.preconditions ?? {});
  const outcome = deleteObject(context, target, current, dry);
  if (outcome.removed && context.dialect.answers["delete-response"] === "status-when-removed") {
    // Transcript delete-plain.
    return representation.object(200, {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Success",
      details: { name: target.name, kind: type.resource, uid: current.metadata["uid"] },
    });
  }
  return representation.object(200, withTypeMeta(type, outcome.object));
}

/** DELETE of a collection: every object the selectors match, each as a single delete would. */
export async function handleDeleteCollection(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const { type } = target;
  const representation = negotiateRepresentation(context, target, { collection: true });
  const options = await readDeleteOptions(context, target);
  const dry = isDryRun(context, target, "DeleteOptions", options.dryRun);
  const page = await readList(context, target);
  const deleted = page.items.map((object) =>
    deleteObject(context, { ...target, namespace: object.metadata.namespace, name: object.metadata.name }, object, dry).object,
  );
  return representation.list(200, {
    kind: `${type.kind}List`,
    apiVersion: apiVersionOf(type),
    metadata: { resourceVersion: context.store.formatRevision(context.store.revision) },
    items: deleted.map(listItem),
  });
}

/** POST of an Eviction for a pod: the pod is deleted (transcript eviction: 201 Success). */
export async function handleEviction(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const representation = negotiateRepresentation(context, target);
  const dry = isDryRun(context, target, "CreateOptions");
  await readBody(target.request);
  const current = context.store.get(storageKey(target.type, target.namespace, target.name!));
  if (current === undefined) throw notFound(target.type, target.name!);
  deleteObject(context, target, current, dry);
  return representation.object(201, { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 });
}

/**
 * Deletes one object per doc 1 §3: the first delete of an object with finalizers (or of a
 * namespace, which has the controller's) sets deletionTimestamp and keeps it; later deletes
 * change nothing; an object without finalizers is removed.
 */
export function deleteObject(context: ServerContext, target: ResourceRequest, current: StoredObject, dry: boolean): DeleteOutcome {
  const { type } = target;
  admitDelete(context, type, target.name!, dry);
  const key = storageKey(type, target.namespace, target.name!);
  const finalizers = (current.metadata["finalizers"] as unknown[] | undefined) ?? [];
  const isNamespace = type.kind === "Namespace";
  const formatRevision = (revision: number) => context.store.formatRevision(revision);
  const expectedRevision = parseResourceVersion(context, current.metadata.resourceVersion!);
  try {
    // Planted defect "finalizers-ignored-on-delete" (sim/apiserver/defects.ts): objects with finalizers go at once too.
    const ignoreFinalizers = context.defects.has("finalizers-ignored-on-delete");
    if ((finalizers.length === 0 || ignoreFinalizers) && !isNamespace) {
      if (dry) return { object: current, removed: true };
      return { object: context.store.delete(key, { expectedRevision }), removed: true };
    }
    if (current.metadata["deletionTimestamp"] !== undefined) return { object: current, removed: false };
    const marked: StoredObject = {
      ...current,
      metadata: {
        ...current.metadata,
        deletionTimestamp: rfc3339(context.clock),
        ...(isNamespace ? {} : { deletionGracePeriodSeconds: 0 }),
      },
      ...(isNamespace && { status: { ...(current["status"] as object | undefined), phase: "Terminating" } }),
    };
    if (dry) return { object: marked, removed: false };
    return { object: context.store.update(key, marked, { expectedRevision }), removed: false };
  } catch (error) {
    if (error instanceof StoreError) throw fromStoreError(error, type, target.name!, formatRevision);
    throw error;
  }
}

/** Conflict unless the object still has the uid and resourceVersion the client names (transcript delete-precondition-stale). */
function checkPreconditions(kind: string, current: StoredObject, preconditions: DeletePreconditions): void {
  const name = current.metadata.name;
  const { uid, resourceVersion } = preconditions;
  if (uid !== undefined && uid !== current.metadata["uid"]) {
    throw failure("Conflict", `Operation cannot be fulfilled on ${kind} "${name}": Precondition failed: UID in precondition: ${uid}, UID in object meta: ${String(current.metadata["uid"])}`, {
      name,
      kind,
    });
  }
  if (resourceVersion !== undefined && resourceVersion !== current.metadata.resourceVersion) {
    throw failure(
      "Conflict",
      `Operation cannot be fulfilled on ${kind} "${name}": the ResourceVersion in the precondition (${resourceVersion}) does not match the ResourceVersion in record (${current.metadata.resourceVersion}). The object might have been modified`,
      { name, kind },
    );
  }
}
