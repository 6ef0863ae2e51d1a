/**
 * Deleting an object (doc 1 §3), for DELETE, each item of a collection delete, an eviction and
 * the namespace controller: the preconditions, then the first delete of an object with
 * finalizers (or of a namespace, which has the controller's) sets deletionTimestamp and keeps it;
 * later deletes change nothing; an object without finalizers is removed.
 */
import { StoreError } from "../../store/errors.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import { admitDelete } from "../admission/admission-chain.ts";
import type { DeletePreconditions } from "../request/delete-options.ts";
import { parseResourceVersion } from "../request/read-revision.ts";
import { failure, fromStoreError } from "../responses/api-error.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { rfc3339 } from "./object-stamping.ts";
import type { ObjectAddress, RegistryContext } from "./registry-context.ts";
import { addressKey } from "./stored-resource.ts";

/** What deleting one object did: it was marked for finalization, or removed. */
export interface DeleteOutcome {
  readonly object: StoredObject;
  readonly removed: boolean;
}

/** Deletes `current` (the object at `address` as the caller read it); in a dry run only computes the outcome. */
export function deleteObject(context: RegistryContext, address: ObjectAddress, current: StoredObject, options: { readonly dryRun: boolean }): DeleteOutcome {
  const { type, name } = address;
  const dry = options.dryRun;
  admitDelete(context, type, name, dry);
  const key = addressKey(address);
  const finalizers = (current.metadata["finalizers"] as unknown[] | undefined) ?? [];
  const isNamespace = type.kind === "Namespace";
  const expectedRevision = parseResourceVersion(context, current.metadata.resourceVersion!);
  try {
    if (finalizers.length === 0 && !isNamespace) {
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
    if (error instanceof StoreError) throw fromStoreError(error, type, name, (revision) => context.store.formatRevision(revision));
    throw error;
  }
}

/**
 * Conflict unless the object still has the uid and resourceVersion the client names: the
 * registry's BeforeDelete check, as kube-apiserver 1.26.4 words it for a DELETE, each item of a
 * collection delete and an eviction alike, naming `<Kind>[.<group>]` (transcript
 * delete-precondition-stale; the uid message and the group recorded 2026-11-25, found by comparing
 * with `fuzz --target http`).
 */
export function checkDeletePreconditions(type: ResourceType, current: StoredObject, preconditions: DeletePreconditions): void {
  const name = current.metadata.name;
  const { uid, resourceVersion } = preconditions;
  const group = type.group === "" ? undefined : type.group;
  const conflict = (why: string) => failure("Conflict", `Operation cannot be fulfilled on ${group === undefined ? type.kind : `${type.kind}.${group}`} "${name}": ${why}`, { name, ...(group !== undefined && { group }), kind: type.kind });
  if (uid !== undefined && uid !== current.metadata["uid"]) {
    throw conflict(`the UID in the precondition (${uid}) does not match the UID in record (${String(current.metadata["uid"])}). The object might have been deleted and then recreated`);
  }
  if (resourceVersion !== undefined && resourceVersion !== current.metadata.resourceVersion) {
    throw conflict(`the ResourceVersion in the precondition (${resourceVersion}) does not match the ResourceVersion in record (${current.metadata.resourceVersion}). The object might have been modified`);
  }
}
