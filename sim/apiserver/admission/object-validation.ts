/**
 * Validating admission: the object's metadata (labels, annotations, finalizers:
 * metadata-validation.ts), the data rules of ConfigMaps and Secrets (config-data-validation.ts) and
 * the required fields of the served kinds, reported together in one 422 Invalid in Kubernetes'
 * order, metadata first. Names are checked at stamping (object-stamping.ts).
 */
import type { StoredObject } from "../../store/stored-object.ts";
import type { StatusCause } from "../../../spec/doc1/errors.ts";
import { failure, type ApiError } from "../responses/api-error.ts";
import { dataCauses } from "../validation/config-data-validation.ts";
import { structItems } from "../patch/json-value.ts";
import { createMetadataCauses, updateMetadataCauses } from "../validation/metadata-validation.ts";
import { invalidObjectMessage } from "../validation/object-names.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { customResourceCauses } from "../apiextensions/custom-resource-validation.ts";

type Json = Record<string, unknown>;

const required = (field: string): StatusCause => ({ reason: "FieldValueRequired", message: "Required value", field });

/**
 * Throws 422 Invalid listing every problem of `object`, a create when `current` is undefined, else
 * an update of it (Kubernetes reports metadata problems several times on an update).
 */
export function validateObject(type: ResourceType, object: StoredObject, current?: StoredObject): void {
  const metadata =
    current === undefined
      ? createMetadataCauses(type.kind, object.metadata)
      : keepsValidatedMetadata(object.metadata, current.metadata)
        ? []
        : updateMetadataCauses(type.kind, object.metadata, undefined);
  const causes = [...metadata, ...dataCauses(type.kind, object), ...missingFields(type.kind, object), ...customResourceCauses(type, object)];
  if (causes.length > 0) throw invalidObject(type, object.metadata.name, causes);
}

// The metadata fields validation reads.
const VALIDATED_METADATA = ["labels", "annotations", "finalizers", "ownerReferences"] as const;

/**
 * Whether an update carries the very values the store holds for every validated metadata field:
 * stored objects are frozen and were validated when written, so there is nothing new to refuse.
 * A writer that sends back what it read (the simulation's node agents renewing their Leases)
 * then skips the passes that would find nothing.
 */
function keepsValidatedMetadata(next: StoredObject["metadata"], current: StoredObject["metadata"]): boolean {
  return VALIDATED_METADATA.every((field) => next[field] === current[field]);
}

/**
 * Throws 422 Invalid when the metadata of a write to the status subresource breaks the rules: a
 * real server validates it (and, for most kinds, applies it) although only status changes here.
 * A writer that sends back the validated fields as `current` holds them (a node agent posting its
 * status every report period) has nothing to refuse: every write that stored them ran these checks.
 */
export function validateStatusWriteMetadata(type: ResourceType, name: string, requested: StoredObject, current: StoredObject): void {
  const metadata = requested.metadata ?? {};
  if (keepsValidatedMetadata(metadata, current.metadata)) return;
  const causes = updateMetadataCauses(type.kind, metadata, "status");
  if (causes.length > 0) throw invalidObject(type, name, causes);
}

/**
 * The 422 Status: `<Kind>[.group] "<name>" is invalid: …` naming each distinct cause once, as
 * Kubernetes' error aggregate does, while `details.causes` keep every repetition (transcript
 * update-bad-label).
 */
function invalidObject(type: ResourceType, name: string, causes: readonly StatusCause[]): ApiError {
  const group = type.group === "" ? undefined : type.group;
  return failure("Invalid", invalidObjectMessage(group === undefined ? type.kind : `${type.kind}.${group}`, name, causes), {
    ...(name !== "" && { name }),
    ...(group !== undefined && { group }),
    kind: type.kind,
    causes,
  });
}

function missingFields(kind: string, object: StoredObject): StatusCause[] {
  const spec = (object["spec"] ?? {}) as Json;
  switch (kind) {
    case "Pod": {
      const containers = structItems(spec["containers"]);
      if (containers.length === 0) return [required("spec.containers")];
      return containers.flatMap((container, index) =>
        ["name", "image"].filter((field) => !container[field]).map((field) => required(`spec.containers[${index}].${field}`)),
      );
    }
    case "Service": {
      const ports = structItems(spec["ports"]);
      if (spec["clusterIP"] !== "None" && spec["type"] !== "ExternalName" && ports.length === 0) return [required("spec.ports")];
      return ports.filter((port) => typeof port["port"] !== "number").map((_, index) => required(`spec.ports[${index}].port`));
    }
    case "Deployment":
      return [spec["selector"] === undefined && required("spec.selector"), spec["template"] === undefined && required("spec.template")].filter(
        (cause): cause is StatusCause => cause !== false,
      );
    default:
      return [];
  }
}
