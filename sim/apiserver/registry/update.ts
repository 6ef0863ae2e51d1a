/**
 * Updating an object, its status or its scale (doc 1 §1, §3, §4.4), for PUT, every PATCH, the namespace
 * controller and the simulation's StoreApi alike: identity fields carried over, the type's
 * strategy applied, admission, the precondition, and an object whose deletion waits on
 * finalizers removed when the last one goes.
 */
import { StoreError } from "../../store/errors.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import { admit } from "../admission/admission-chain.ts";
import { validateStatusWriteMetadata } from "../admission/object-validation.ts";
import { validateCustomResource } from "../apiextensions/custom-resource-validation.ts";
import { parseResourceVersion } from "../request/read-revision.ts";
import { conflict, fromStoreError } from "../responses/api-error.ts";
import { withManagedFields, withUpdateEntry } from "./managed-fields-tracking.ts";
import { carryOverMetadata } from "./object-stamping.ts";
import type { ObjectAddress, RegistryContext } from "./registry-context.ts";
import { scaleValidationError, SCALE_SUBRESOURCE } from "./scale-subresource.ts";
import { addressKey } from "./stored-resource.ts";
import { prepareForUpdate, validateUpdate } from "./type-strategy.ts";

/** How an update is made. */
export interface UpdateOptions {
  /** The revision the writer read (its resourceVersion): Conflict unless the object is still there. Undefined: unconditional. */
  readonly expectedRevision?: number | undefined;
  readonly dryRun: boolean;
  /** The manager whose Update entry records the write (registry-context.ts CreateOptions.fieldManager). */
  readonly fieldManager?: string | undefined;
  /** The managedFields an apply computed (registry/apply.ts): stored as they are, whatever the subresource's strategy keeps of the request. */
  readonly managedFields?: readonly Record<string, unknown>[] | undefined;
}

/**
 * Writes `requested` over `current` (or, in a dry run, only computes it); for the scale
 * subresource `requested` is the Scale, whose spec.replicas is written into `current`
 * (scale-subresource.ts). Returns what the store holds afterwards; an object this write releases
 * (its last finalizer gone) is deleted, and comes back as requested, at the version it replaced.
 */
export function updateObject(context: RegistryContext, address: ObjectAddress, current: StoredObject, requested: StoredObject, options: UpdateOptions): StoredObject {
  const { type, name, subresource } = address;
  // A Scale is validated before it reaches its parent (autoscaling's ValidateScale), before the precondition.
  if (subresource === SCALE_SUBRESOURCE) {
    const invalidScale = scaleValidationError(name, requested);
    if (invalidScale !== undefined) throw invalidScale;
  }
  const proposed = prepareForUpdate(type, subresource, current, carryOverMetadata(current, requested));
  validateUpdate(type, name, current, proposed);
  // The status subresource changes no spec, so only writes of the main resource and of its scale
  // (which change spec.replicas) go through admission.
  if (subresource === "status") validateStatusWriteMetadata(type, name, requested, current);
  // A custom resource's status is checked against its schema too (admission, below, sees main writes only).
  if (subresource === "status") validateCustomResource(type, proposed);
  const admitted = subresource === undefined || subresource === SCALE_SUBRESOURCE ? admit(context, type, proposed, current, options.dryRun) : proposed;
  // A Scale carries no managedFields of its parent's; any other request's are its own.
  const requestedFields = subresource === SCALE_SUBRESOURCE ? undefined : requested.metadata["managedFields"];
  const next =
    options.managedFields !== undefined
      ? withManagedFields(admitted, options.managedFields)
      : context.trackManagedFields && options.fieldManager !== undefined
        ? withUpdateEntry(context, address, current, admitted, requestedFields, options.fieldManager)
        : admitted;
  const key = addressKey(address);
  const { expectedRevision } = options;
  if (expectedRevision !== undefined && context.store.formatRevision(expectedRevision) !== current.metadata.resourceVersion) {
    throw conflict(type, name);
  }
  if (options.dryRun) return { ...next, metadata: { ...next.metadata, resourceVersion: current.metadata.resourceVersion } };
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
    if (error instanceof StoreError) throw fromStoreError(error, type, name, (revision) => context.store.formatRevision(revision));
    throw error;
  }
}

/** Doc 1 §3: a finalizing object is removed once its last finalizer is gone (namespaces: their spec finalizers too). */
export function isReleased(object: StoredObject): boolean {
  if (object.metadata["deletionTimestamp"] === undefined) return false;
  const finalizers = (object.metadata["finalizers"] as unknown[] | undefined) ?? [];
  const specFinalizers = ((object["spec"] as { finalizers?: unknown[] } | undefined)?.finalizers ?? []) as unknown[];
  return finalizers.length === 0 && specFinalizers.length === 0;
}
