/**
 * Unknown fields of a request object, for `fieldValidation` (Strict: 400; Warn: a Warning header;
 * transcripts create-strict-unknown-field, create-warn-unknown-field). Kubernetes decodes a body
 * into its Go type, so under Warn and Ignore an unknown field is dropped, not stored (transcript
 * create-warn-unknown-field: the answer has no `bogusField`). The server keeps no full schemas, so
 * it checks what clients most often get wrong: top-level fields of the built-in kinds, and metadata
 * fields of every kind. A custom resource's top level is its definition's business (its schema may
 * preserve unknown fields), so it is left alone.
 */
import { failure } from "../responses/api-error.ts";
import { invalidValueMessage } from "../validation/object-names.ts";
import type { FieldValidation } from "./query-options.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { recordedTopLevelFields } from "../validation/schema-value-types.ts";
import { prunedFieldPaths } from "../apiextensions/structural-schema.ts";

const OBJECT_META_FIELDS = new Set([
  "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation", "creationTimestamp",
  "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "ownerReferences", "finalizers", "managedFields",
]);

const SPEC_AND_STATUS = ["spec", "status"];

// Top-level fields of each built-in kind besides kind, apiVersion and metadata (Kubernetes' API types).
const TOP_LEVEL_FIELDS: Readonly<Record<string, readonly string[]>> = {
  ConfigMap: ["data", "binaryData", "immutable"],
  Secret: ["data", "stringData", "type", "immutable"],
  Event: [
    "involvedObject", "reason", "message", "source", "firstTimestamp", "lastTimestamp", "count", "type", "eventTime",
    "series", "action", "related", "reportingComponent", "reportingInstance",
  ],
  Lease: ["spec"],
  Namespace: SPEC_AND_STATUS,
  Node: SPEC_AND_STATUS,
  Pod: SPEC_AND_STATUS,
  Service: SPEC_AND_STATUS,
  Deployment: SPEC_AND_STATUS,
  SubjectAccessReview: SPEC_AND_STATUS,
  SelfSubjectAccessReview: SPEC_AND_STATUS,
  SelfSubjectRulesReview: SPEC_AND_STATUS,
  SelfSubjectReview: ["status"],
  Scale: SPEC_AND_STATUS,
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The unknown fields of `object`, as paths ("bogusField", "metadata.nmae"), in document order. */
export function unknownFields(type: ResourceType, object: Record<string, unknown>): string[] {
  // The recorded built-in types (routing/recorded-types.ts): the top-level properties of their recorded schemas.
  const known = type.recorded === true ? recordedTopLevelFields(type) : TOP_LEVEL_FIELDS[type.kind];
  const unknown: string[] = [];
  if (known !== undefined) {
    const allowed = new Set(["kind", "apiVersion", "metadata", ...known]);
    unknown.push(...Object.keys(object).filter((field) => !allowed.has(field)));
  }
  // A custom resource's: what its schema would prune (apiextensions/structural-schema.ts; recorded cr-create-strict-unknown).
  const schema = type.custom?.schema;
  if (schema !== undefined) unknown.push(...prunedFieldPaths(object, schema).filter((path) => !path.startsWith("metadata.")));
  const metadata = object["metadata"];
  if (isPlainObject(metadata)) {
    unknown.push(...Object.keys(metadata).filter((field) => !OBJECT_META_FIELDS.has(field)).map((field) => `metadata.${field}`));
  }
  return unknown;
}

/** `object` without the fields `unknownFields` reported, as Go's decoding leaves them out. */
export function withoutUnknownFields(object: Record<string, unknown>, unknown: readonly string[]): Record<string, unknown> {
  if (unknown.length === 0) return object;
  const dropped = new Set(unknown);
  const kept = Object.fromEntries(Object.entries(object).filter(([field]) => !dropped.has(field)));
  const metadata = object["metadata"];
  if (isPlainObject(metadata)) {
    kept["metadata"] = Object.fromEntries(Object.entries(metadata).filter(([field]) => !dropped.has(`metadata.${field}`)));
  }
  return kept;
}

/** The Warning header Kubernetes sends for unknown fields under fieldValidation=Warn (transcript create-warn-unknown-field). */
export function unknownFieldsWarning(unknown: readonly string[]): Record<string, string> {
  if (unknown.length === 0) return {};
  return { warning: unknown.map((field) => `299 - ${JSON.stringify(`unknown field ${JSON.stringify(field)}`)}`).join(", ") };
}

/**
 * A patched object as Kubernetes decodes it into its Go type: unknown fields (`spec` on a
 * ConfigMap, a `__proto__` member, which JSON.parse and the patch code keep as an ordinary own
 * member) dropped with a Warning under Warn, silently under Ignore, and under Strict a 422 on
 * field `patch`, unlike the 400 of a create (transcripts patch-merge-spec-proto,
 * patch-merge-spec-proto-strict, patch-merge-spec-ignore in transcripts-metadata-validation.jsonl).
 * The patched document is re-encoded from a Go map before decoding, so the fields come sorted.
 */
export function decodePatchedObject(
  type: ResourceType,
  patched: Record<string, unknown>,
  validation: FieldValidation,
): { object: Record<string, unknown>; warnings: Record<string, string> } {
  const unknown = unknownFields(type, patched).sort();
  if (unknown.length === 0) return { object: patched, warnings: {} };
  if (validation === "Strict") {
    const why = `strict decoding error: ${unknown.map((field) => `unknown field ${JSON.stringify(field)}`).join(", ")}`;
    const message = invalidValueMessage(JSON.stringify(patched), why);
    throw failure("Invalid", ` "" is invalid: patch: ${message}`, { causes: [{ reason: "FieldValueInvalid", message, field: "patch" }] });
  }
  return { object: withoutUnknownFields(patched, unknown), warnings: validation === "Warn" ? unknownFieldsWarning(unknown) : {} };
}
