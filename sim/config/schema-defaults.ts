/**
 * Defaulting from a doc 3 schema, as the kubelet's SetDefaults does it (derivation doc3/2/defaults):
 * an absent field takes its `default`; a field whose Go type is not a pointer (`x-zero-is-unset`)
 * is defaulted when it holds the zero value too (0, "", a zero duration); nested structs are always
 * present. Durations are then printed as Go prints them (`1m` becomes `1m0s`), and fields put in
 * doc 3's order, as the kubelet's configuration endpoint shows them.
 */
import type { FieldSchema } from "../../spec/doc3/config-schema.ts";
import { formatGoDuration, GoDurationError, parseGoDuration } from "./go-duration.ts";
import { isMapSchema, isPlainObject } from "./schema-check.ts";

/** Whether a schema node is a struct (fixed fields), which Go always has. */
function isStruct(schema: FieldSchema): boolean {
  return schema.type === "object" && schema.properties !== undefined && !isMapSchema(schema);
}

function isZero(value: unknown, schema: FieldSchema): boolean {
  if (value === 0 || value === "") return true;
  if (schema["x-go-type"] === "Duration" && typeof value === "string") {
    try {
      return parseGoDuration(value) === 0n;
    } catch (error) {
      if (error instanceof GoDurationError) return false;
      throw error;
    }
  }
  return false;
}

/** A deep copy of `value` (a struct) with every default of `schema` applied. */
export function applySchemaDefaults(value: Record<string, unknown>, schema: FieldSchema): Record<string, unknown> {
  const out: Record<string, unknown> = { ...value };
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const current = out[name];
    const unset = current === undefined || (field["x-zero-is-unset"] === true && isZero(current, field));
    if (unset && field.default !== undefined) out[name] = structuredClone(field.default);
    else if (isStruct(field)) out[name] = applySchemaDefaults(isPlainObject(current) ? current : {}, field);
    else if (Array.isArray(current) && field.items !== undefined && isStruct(field.items)) {
      const items = field.items;
      out[name] = current.map((item) => (isPlainObject(item) ? applySchemaDefaults(item, items) : item));
    }
  }
  return out;
}

/** A copy of `value` with every Duration field printed as Go prints it, struct fields in schema order. */
export function printDurations(value: unknown, schema: FieldSchema): unknown {
  if (typeof value === "string" && schema["x-go-type"] === "Duration") {
    try {
      return formatGoDuration(parseGoDuration(value));
    } catch (error) {
      if (error instanceof GoDurationError) return value;
      throw error;
    }
  }
  if (Array.isArray(value) && schema.items !== undefined) return value.map((item) => printDurations(item, schema.items!));
  if (isPlainObject(value) && schema.properties !== undefined && !isMapSchema(schema)) {
    // Fields in the schema's (doc 3's) order, as the kubelet prints its configuration.
    const properties = schema.properties;
    const keys = [...Object.keys(properties).filter((key) => key in value), ...Object.keys(value).filter((key) => !(key in properties))];
    return Object.fromEntries(keys.map((key) => [key, properties[key] === undefined ? value[key] : printDurations(value[key], properties[key])]));
  }
  return value;
}
