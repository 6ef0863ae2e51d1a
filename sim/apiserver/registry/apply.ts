/**
 * Server-side apply (doc 1 §1's apply verb; Kubernetes 1.26 as recorded in apply/recorded/): the
 * applied configuration merged into the live object by the type's structure, ownership computed
 * (apply/field-manager.ts: 409 on a conflict unless forced, fields the manager stopped applying
 * removed), then an ordinary create (the object did not exist) or update through this registry, so
 * strategy, admission, dry run and the store's precondition apply as to any write. An apply that
 * changes nothing writes nothing, as Kubernetes' no-op detection does.
 */
import type { StoredObject } from "../../store/stored-object.ts";
import { applyConfiguration } from "../apply/field-manager.ts";
import { deepEqual } from "../apply/field-walks.ts";
import { decodeManagedFields, encodeManagedFields, managerIdentity, type Writer } from "../apply/managed-fields.ts";
import { trackedType } from "../apply/tracked-types.ts";
import { parseResourceVersion } from "../request/read-revision.ts";
import { apiVersionOf } from "../routing/resource-types.ts";
import { withManagedFields } from "./managed-fields-tracking.ts";
import { rfc3339 } from "./object-stamping.ts";
import type { ObjectRegistry } from "./object-registry.ts";
import type { ObjectAddress, RegistryContext } from "./registry-context.ts";
import { withoutTypeMeta, withTypeMeta } from "./stored-resource.ts";

/** How an apply is made. */
export interface ApplyOptions {
  readonly fieldManager: string;
  readonly force: boolean;
  readonly dryRun: boolean;
}

/** What an apply did: the object as stored (or as it would be, in a dry run), and whether it made it. */
export interface ApplyOutcome {
  readonly object: StoredObject;
  readonly created: boolean;
}

/** Applies `configuration` (apiVersion and kind already checked) to `current`, or creates the object from it. */
export function applyObject(
  context: RegistryContext,
  writes: ObjectRegistry,
  address: ObjectAddress,
  current: StoredObject | undefined,
  configuration: Record<string, unknown>,
  options: ApplyOptions,
): ApplyOutcome {
  const { type, subresource } = address;
  const apiVersion = apiVersionOf(type);
  const writer: Writer = { manager: options.fieldManager, operation: "Apply", apiVersion, subresource };
  const live = current === undefined ? { apiVersion, kind: type.kind, metadata: { name: address.name } } : withTypeMeta(type, current);
  const managers = decodeManagedFields(current?.metadata["managedFields"]);
  const time = rfc3339(context.clock);
  const applied = applyConfiguration(trackedType(type, context.dialect, subresource), live, configuration, managers, writer, options.force, time);
  const managedFields = encodeManagedFields(applied.managers);
  const object = withManagedFields(withoutTypeMeta(applied.object) as StoredObject, managedFields);
  if (current === undefined) return { object: writes.create(address, object, { dryRun: options.dryRun }), created: true };
  if (unchanged(current, object, writer)) return { object: current, created: false };
  // A resourceVersion the configuration names is a precondition, as in any patch.
  const resourceVersion = (configuration["metadata"] as Record<string, unknown> | undefined)?.["resourceVersion"];
  const expectedRevision =
    typeof resourceVersion === "string" && resourceVersion !== current.metadata.resourceVersion ? parseResourceVersion(context, resourceVersion) : undefined;
  return { object: writes.update(address, current, object, { expectedRevision, dryRun: options.dryRun, managedFields }), created: false };
}

/** Whether `next` is `current` but for the applier's time (Kubernetes writes nothing then). */
function unchanged(current: StoredObject, next: StoredObject, writer: Writer): boolean {
  const identity = managerIdentity(writer);
  const withoutApplierTime = (object: StoredObject) => {
    const entries = (object.metadata["managedFields"] as Record<string, unknown>[] | undefined) ?? [];
    return {
      ...object,
      metadata: {
        ...object.metadata,
        resourceVersion: undefined,
        managedFields: entries.map((entry) => (managerIdentity(decodeManagedFields([entry])[0] ?? writer) === identity ? { ...entry, time: undefined } : entry)),
      },
    };
  };
  return deepEqual(JSON.parse(JSON.stringify(withoutApplierTime(current))), JSON.parse(JSON.stringify(withoutApplierTime(next))));
}
