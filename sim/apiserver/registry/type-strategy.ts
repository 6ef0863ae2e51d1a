/**
 * Per-type rules of writes, as Kubernetes' registry strategies hold them (PrepareForCreate,
 * PrepareForUpdate, ValidateUpdate, AllowUnconditionalUpdate): one table, read by the registry
 * for every write, whoever makes it.
 */
import { isDeepStrictEqual } from "node:util";
import type { StoredObject } from "../../store/stored-object.ts";
import { failure, invalidValue } from "../responses/api-error.ts";
import { invalidObjectMessage } from "../validation/object-names.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { SCALE_SUBRESOURCE, withScaleReplicas } from "./scale-subresource.ts";
import { withRecordedTypeDecodeDefaults } from "./recorded-type-defaults.ts";
import { tracksGeneration, withCreateDefaults } from "./type-defaults.ts";
import { prunedAndDefaulted } from "../apiextensions/structural-schema.ts";
import { customResourceDefinitionsType } from "../routing/custom-resources.ts";

/**
 * Defaults of a new object (namespaces: finalizer, label and phase; deployments: generation 1;
 * custom resources: pruned and defaulted by their schema, no status where status is a subresource).
 */
export function prepareForCreate(type: ResourceType, object: StoredObject): StoredObject {
  if (type.custom !== undefined) {
    const decoded = withCustomResourceDecoding(type, object);
    const { status: _ignored, ...rest } = decoded;
    return withCreateDefaults(type, (type.subresources["status"] !== undefined ? rest : decoded) as StoredObject);
  }
  return withCreateDefaults(type, object);
}

/**
 * The object an update stores, from what the writer sent: the status subresource changes status
 * only; the scale subresource (`requested` is then the Scale) changes spec.replicas only, and is
 * otherwise an update of the main resource, as Kubernetes' ScaleREST updates through the parent's
 * store and strategy; the main resource of a type with a status subresource leaves status alone
 * (Kubernetes); generation counts changes to spec where the type tracks it.
 */
export function prepareForUpdate(type: ResourceType, subresource: string | undefined, current: StoredObject, requested: StoredObject): StoredObject {
  if (subresource === "status") return withCustomResourceDecoding(type, withRequestedStatus(current, requested));
  const sent = withCustomResourceDecoding(type, subresource === SCALE_SUBRESOURCE ? withScaleReplicas(type, current, requested) : requested);
  // The recorded built-in types are defaulted on every write, as decoding defaults them in kube-apiserver.
  const written = type.recorded === true ? withRecordedTypeDecodeDefaults(type, sent) : sent;
  let next = type.subresources["status"] !== undefined ? withStoredStatus(current, written) : written;
  if (tracksGeneration(type)) {
    const generation = Number(current.metadata["generation"] ?? 1);
    const changed = !isDeepStrictEqual(current["spec"], next["spec"]);
    next = { ...next, metadata: { ...next.metadata, generation: changed ? generation + 1 : generation } };
  }
  return next;
}

/** The status subresource's write: the stored object with the requested status. */
export function withRequestedStatus(current: StoredObject, requested: StoredObject): StoredObject {
  return { ...current, status: requested["status"] };
}

/** The main resource's write of a type with a status subresource: the requested object with the stored status (none if none is stored). */
export function withStoredStatus(current: StoredObject, requested: StoredObject): StoredObject {
  const { status: _ignored, ...rest } = requested;
  return current["status"] === undefined ? (rest as StoredObject) : ({ ...rest, status: current["status"] } as StoredObject);
}

/**
 * Update validation beyond the object's own: a Secret's type may not change (422 on field type,
 * kube-apiserver 1.26.4, recorded 2026-11-25; found by comparing with `fuzz --target http`).
 */
export function validateUpdate(type: ResourceType, name: string, current: StoredObject, next: StoredObject): void {
  if (type.kind !== "Secret") return;
  const typeOf = (object: StoredObject) => (typeof object["type"] === "string" && object["type"] !== "" ? (object["type"] as string) : "Opaque");
  if (typeOf(next) === typeOf(current)) return;
  const cause = invalidValue("type", typeOf(next), "field is immutable");
  throw failure("Invalid", invalidObjectMessage(type.kind, name, [cause]), { name, kind: type.kind, causes: [cause] });
}

/**
 * Whether an update may come without metadata.resourceVersion: not for Leases (their strategy's
 * AllowUnconditionalUpdate is false; kube-apiserver 1.26.4 answers 422, recorded 2026-11-25).
 */
export function allowsUnconditionalUpdate(type: ResourceType): boolean {
  // Nor for custom resources and their definitions (recorded: cr-status-put-invalid, crd-update-invalid).
  return type.kind !== "Lease" && type.custom === undefined && type !== customResourceDefinitionsType;
}

/** A custom resource as decoding leaves it: pruned and defaulted by its version's schema (apiextensions/structural-schema.ts). */
function withCustomResourceDecoding(type: ResourceType, object: StoredObject): StoredObject {
  const schema = type.custom?.schema;
  return schema === undefined ? object : (prunedAndDefaulted(object, schema) as StoredObject);
}
