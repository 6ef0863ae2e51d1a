/**
 * metadata.managedFields kept by every write that is not an apply (create, update, non-apply
 * patches, status and scale writes), as kube-apiserver's field manager keeps it: the writer's
 * Update entry (the fieldManager the request named, else its User-Agent's product) takes what the
 * write added or changed. Only with ApiServerOptions.trackManagedFields: simulations leave it off,
 * so their trace hashes do not change.
 *
 * The request's managedFields are kept as Kubernetes keeps them: absent or `[]` keeps the stored
 * ones (clients unaware of the field must not wipe it), entries replace them, and a list with no
 * valid entry (`[{}]`) removes them all, the write adding none.
 */
import type { StoredObject } from "../../store/stored-object.ts";
import { updateManagers } from "../apply/field-manager.ts";
import { createdFieldsV1 } from "../apply/created-fields.ts";
import { decodeManagedFields, encodeEntry, encodeManagedFields } from "../apply/managed-fields.ts";
import { trackedType } from "../apply/tracked-types.ts";
import { apiVersionOf } from "../routing/resource-types.ts";
import { rfc3339 } from "./object-stamping.ts";
import type { ObjectAddress, RegistryContext } from "./registry-context.ts";
import { SCALE_SUBRESOURCE } from "./scale-subresource.ts";

/** `after` with the managedFields that the write of `before` into `after` by `manager` leaves. */
export function withUpdateEntry(
  context: RegistryContext,
  address: Pick<ObjectAddress, "type" | "subresource">,
  before: StoredObject | undefined,
  after: StoredObject,
  requested: unknown,
  manager: string,
): StoredObject {
  const { type, subresource } = address;
  const writer = { manager, operation: "Update" as const, apiVersion: apiVersionOf(type), subresource };
  // A write through the scale subresource leaves its entry without a time (kube-apiserver 1.26.4, recorded).
  const time = subresource === SCALE_SUBRESOURCE ? undefined : rfc3339(context.clock);
  const tracking = trackedType(type, context.dialect, subresource);
  const entriesRequested = Array.isArray(requested) && requested.length > 0;
  if (before === undefined && !entriesRequested) {
    // A create with no managers before it: its one entry, whose fields depend on the object's shape alone.
    const fieldsV1 = createdFieldsV1(tracking, after);
    return withManagedFields(after, fieldsV1 === undefined ? [] : [encodeEntry({ ...writer, time }, fieldsV1)]);
  }
  const baseline = decodeManagedFields(entriesRequested ? requested : before?.metadata["managedFields"]);
  if (entriesRequested && baseline.length === 0) return withManagedFields(after, []);
  const managers = updateManagers(tracking, before, after, baseline, writer, time);
  return withManagedFields(after, encodeManagedFields(managers));
}

/** `object` with `managedFields` (none: the field left out, as Kubernetes omits it). */
export function withManagedFields(object: StoredObject, managedFields: readonly Record<string, unknown>[]): StoredObject {
  const { managedFields: _old, ...metadata } = object.metadata;
  return { ...object, metadata: (managedFields.length === 0 ? metadata : { ...metadata, managedFields }) as StoredObject["metadata"] };
}

/**
 * The manager a request without fieldManager is recorded as: its User-Agent up to the first `/`,
 * printable characters only, at most 128 (Kubernetes' prefixFromUserAgent; `kubectl-edit`, `curl`).
 */
export function managerFromUserAgent(userAgent: string | null): string {
  let out = "";
  for (const char of (userAgent ?? "").split("/")[0]!) {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(char)) continue;
    if (out.length >= 128) break;
    out += char;
  }
  return out;
}
