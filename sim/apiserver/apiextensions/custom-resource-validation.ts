/**
 * A custom resource checked against its served version's schema (schema-validation.ts), as
 * kube-apiserver's custom resource strategy validates every write, status writes included
 * (recorded: cr-create-*, cr-patch-invalid).
 */
import type { StatusCause } from "../../../spec/doc1/errors.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import { invalid } from "../responses/api-error.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { schemaCauses } from "./schema-validation.ts";

/** The schema's complaints about `object`; none for a built-in type or a version without schema. */
export function customResourceCauses(type: ResourceType, object: StoredObject): StatusCause[] {
  const schema = type.custom?.schema;
  if (schema === undefined) return [];
  // ObjectMeta is the server's to check (names, labels); the schema speaks of the rest.
  const { metadata: _metadata, ...rest } = object;
  return schemaCauses(rest, schema);
}

/** Throws 422 Invalid when `object` breaks its schema. */
export function validateCustomResource(type: ResourceType, object: StoredObject): void {
  const causes = customResourceCauses(type, object);
  if (causes.length > 0) throw invalid(type.kind, object.metadata.name, causes, type.group);
}
