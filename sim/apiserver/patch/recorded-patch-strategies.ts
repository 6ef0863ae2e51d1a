/**
 * Patch strategies and merge keys of the recorded built-in types (routing/recorded-types.ts), for
 * strategic merge patch: read from the `x-kubernetes-patch-strategy` and
 * `x-kubernetes-patch-merge-key` extensions of their OpenAPI v3 schemas as recorded from
 * kube-apiserver 1.26.4 (discovery/openapi-data/), which kube-openapi generates from the same
 * `patchStrategy`/`patchMergeKey` struct tags the hand-written table of strategic-merge-patch.ts
 * cites. A struct field leads to its type's schema; a list's items to theirs.
 */
import { recordedOpenApi, recordedSchemaName, type JsonSchema } from "../discovery/openapi-schemas.ts";
import { recordedTypesData, SERVED_RECORDED_TYPES } from "../routing/recorded-types.ts";
import type { FieldStrategy, Schema } from "./strategic-merge-patch.ts";

const REFERENCE_PREFIX = "#/components/schemas/";

/**
 * Kinds served by hand whose schemas were recorded too: the CustomResourceDefinition, a Go type in
 * kube-apiserver, patched strategically there (unlike the custom resources it defines).
 */
const OTHER_RECORDED_KINDS: Readonly<Record<string, { readonly group: string; readonly version: string }>> = {
  CustomResourceDefinition: { group: "apiextensions.k8s.io", version: "v1" },
};

/** The kinds of the served recorded types, and the others with recorded schemas. */
export const RECORDED_PATCH_KINDS: readonly string[] = [
  ...Object.entries(recordedTypesData().types)
    .filter(([resource]) => SERVED_RECORDED_TYPES[resource] !== undefined)
    .map(([, type]) => type.discovery.kind),
  ...Object.keys(OTHER_RECORDED_KINDS),
];

const bySchemaName = new Map<string, Schema>();

/** The patch schema of a served recorded kind (or another with a recorded schema), or undefined. */
export function recordedPatchSchema(kind: string): Schema | undefined {
  const type =
    Object.values(recordedTypesData().types).find((entry) => entry.discovery.kind === kind && SERVED_RECORDED_TYPES[entry.discovery.name] !== undefined) ??
    (Object.hasOwn(OTHER_RECORDED_KINDS, kind) ? OTHER_RECORDED_KINDS[kind] : undefined);
  if (type === undefined) return undefined;
  const name = recordedSchemaName({ group: type.group, version: type.version, kind });
  return name === undefined ? undefined : schemaNamed(name);
}

function schemaNamed(name: string): Schema {
  const known = bySchemaName.get(name);
  if (known !== undefined) return known;
  const fields: Record<string, FieldStrategy> = {};
  // Registered before its fields are read, so recursive types end.
  const schema: Schema = { name: name.slice(name.lastIndexOf(".") + 1), fields };
  bySchemaName.set(name, schema);
  const properties = (recordedOpenApi().v3.schemas[name]?.["properties"] ?? {}) as Record<string, JsonSchema>;
  for (const [field, property] of Object.entries(properties)) {
    const strategy = property["x-kubernetes-patch-strategy"] as FieldStrategy["strategy"] | undefined;
    const mergeKey = property["x-kubernetes-patch-merge-key"] as string | undefined;
    const target = referenceOf(property) ?? referenceOf((property["items"] ?? {}) as JsonSchema);
    const of = target === undefined ? undefined : schemaNamed(target);
    const hasTags = (of !== undefined && hasTaggedFields(of, new Set())) || strategy !== undefined;
    if (!hasTags) continue;
    fields[field] = { ...(strategy !== undefined && { strategy }), ...(mergeKey !== undefined && { mergeKey }), ...(of !== undefined && { of }) };
  }
  return schema;
}

function hasTaggedFields(schema: Schema, seen: Set<Schema>): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  return Object.values(schema.fields).some((field) => field.strategy !== undefined || (field.of !== undefined && hasTaggedFields(field.of, seen)));
}

function referenceOf(schema: JsonSchema): string | undefined {
  const direct = schema["$ref"];
  const allOf = schema["allOf"] as JsonSchema[] | undefined;
  const reference = typeof direct === "string" ? direct : allOf?.length === 1 && typeof allOf[0]!["$ref"] === "string" ? (allOf[0]!["$ref"] as string) : undefined;
  return reference?.startsWith(REFERENCE_PREFIX) ? reference.slice(REFERENCE_PREFIX.length) : undefined;
}
