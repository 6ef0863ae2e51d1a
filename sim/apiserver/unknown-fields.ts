/**
 * Unknown fields of a request object, for `fieldValidation` (Strict: 400; Warn: a Warning header;
 * transcripts create-strict-unknown-field, create-warn-unknown-field). The server keeps no full
 * schemas, so it checks what clients most often get wrong: top-level fields and metadata fields.
 */
import type { ResourceType } from "./resource-types.ts";

const OBJECT_META_FIELDS = new Set([
  "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation", "creationTimestamp",
  "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "ownerReferences", "finalizers", "managedFields",
]);

// Top-level fields of each kind besides kind, apiVersion and metadata (Kubernetes' API types).
const TOP_LEVEL_FIELDS: Readonly<Record<string, readonly string[]>> = {
  ConfigMap: ["data", "binaryData", "immutable"],
  Secret: ["data", "stringData", "type", "immutable"],
  Event: [
    "involvedObject", "reason", "message", "source", "firstTimestamp", "lastTimestamp", "count", "type", "eventTime",
    "series", "action", "related", "reportingComponent", "reportingInstance",
  ],
  Lease: ["spec"],
};

/** The unknown fields of `object`, as paths ("bogusField", "metadata.nmae"), in document order. */
export function unknownFields(type: ResourceType, object: Record<string, unknown>): string[] {
  const allowed = new Set(["kind", "apiVersion", "metadata", ...(TOP_LEVEL_FIELDS[type.kind] ?? ["spec", "status"])]);
  const unknown = Object.keys(object).filter((field) => !allowed.has(field));
  const metadata = object["metadata"];
  if (metadata !== null && typeof metadata === "object" && !Array.isArray(metadata)) {
    unknown.push(...Object.keys(metadata).filter((field) => !OBJECT_META_FIELDS.has(field)).map((field) => `metadata.${field}`));
  }
  return unknown;
}
