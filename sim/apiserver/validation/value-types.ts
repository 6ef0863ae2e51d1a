/**
 * The JSON types of a request object's values. Kubernetes decodes every body into its Go type, so
 * a value of the wrong JSON type (a number where a string belongs, a string where a list does) is
 * refused before anything else runs: 400 BadRequest on create and update (`<Kind> in version "v1"
 * cannot be handled as a <Kind>: …`), 422 Invalid on field `patch` when a patch produced it
 * (Kubernetes' patch handler). Without this such an object would be stored, then break defaulting,
 * Table printing and every Protobuf answer that includes it (a 500 for a whole list).
 *
 * The Protobuf message tables (protobuf/) carry the Go types of every built-in kind, so they are
 * the schema here; the built-in types recorded without them (routing/recorded-types.ts) are
 * checked against their recorded OpenAPI schemas (schema-value-types.ts). Fields neither covers,
 * and custom resources (no Protobuf form), are not checked: this refuses only what a real server refuses too, never more.
 */
import { badRequest, invalid, invalidValue } from "../responses/api-error.ts";
import { messageValueError } from "../protobuf/convert.ts";
import { protobufKind } from "../protobuf/kinds.ts";
import { apiVersionOf, type ResourceType } from "../routing/resource-types.ts";
import { schemaValueTypeError } from "./schema-value-types.ts";

/** Why `object` does not fit the Go type of `type` ("spec.containers: expected a list, got \"x\""), or undefined. */
export function valueTypeError(type: ResourceType, object: Record<string, unknown>): string | undefined {
  const entry = protobufKind(apiVersionOf(type), type.kind);
  // The recorded built-in types (ServiceAccount, RBAC, Job, ...) have no message tables: their recorded OpenAPI schemas.
  if (entry === undefined) return schemaValueTypeError(type, object);
  const error = messageValueError(entry.message, object);
  if (error === undefined) return undefined;
  if (error.code === "invalid-value") return error.message;
  throw error;
}

/** Throws 400 BadRequest for a create or update body whose values do not fit the type. */
export function checkRequestValueTypes(type: ResourceType, object: Record<string, unknown>): void {
  const why = valueTypeError(type, object);
  if (why === undefined) return;
  throw badRequest(`${type.kind} in version "${type.version}" cannot be handled as a ${type.kind}: ${why}`);
}

/**
 * Throws 422 Invalid for a patched object whose values do not fit the type, as Kubernetes answers:
 * an empty kind and name (` "" is invalid: patch: Invalid value: "<patched object>": <why>`).
 */
export function checkPatchedValueTypes(type: ResourceType, patched: Record<string, unknown>): void {
  const why = valueTypeError(type, patched);
  if (why === undefined) return;
  throw invalid("", "", [invalidValue("patch", JSON.stringify(patched), why)]);
}
