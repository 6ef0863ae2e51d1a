/**
 * Value types of the recorded built-in types (routing/recorded-types.ts), which have no Protobuf
 * message tables: checked against their OpenAPI v3 schemas as recorded from kube-apiserver 1.26.4
 * (discovery/openapi-data/), with the messages value-types.ts gives for the Protobuf-backed kinds
 * (`spec.template: expected an object, got "x"`). Like that check it refuses only what Go's decoder
 * refuses: a value of the wrong JSON type. null is every field's zero value; unknown fields are
 * unknown-fields.ts's business; strings are not parsed further (times, base64, quantities).
 */
import { recordedOpenApi, recordedSchemaName, type JsonSchema } from "../discovery/openapi-schemas.ts";
import { recordedTypesData } from "../routing/recorded-types.ts";
import type { ResourceType } from "../routing/resource-types.ts";

const REFERENCE_PREFIX = "#/components/schemas/";
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
// Schemas whose Go types take any JSON (raw bytes kept as they came).
const ANY_JSON = new Set(["io.k8s.apimachinery.pkg.runtime.RawExtension", "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1"]);

/** The recorded schema name of a recorded type's kind, or undefined. */
export function recordedKindSchema(type: ResourceType): string | undefined {
  if (type.recorded !== true) return undefined;
  // The recording's (Kubernetes') group: the orb dialect serves RBAC as rbac.authorization.orb.io.
  const recorded = recordedTypesData().types[type.resource];
  return recorded === undefined ? undefined : recordedSchemaName({ group: recorded.group, version: type.version, kind: type.kind });
}

/** The top-level fields a recorded type's schema declares besides apiVersion, kind and metadata, or undefined. */
export function recordedTopLevelFields(type: ResourceType): string[] | undefined {
  const name = recordedKindSchema(type);
  if (name === undefined) return undefined;
  const properties = (recordedOpenApi().v3.schemas[name]?.["properties"] ?? {}) as Record<string, unknown>;
  return Object.keys(properties).filter((field) => !["apiVersion", "kind", "metadata"].includes(field));
}

/** Why `object` does not fit the recorded schema of `type`, or undefined (also when the type has none). */
export function schemaValueTypeError(type: ResourceType, object: Record<string, unknown>): string | undefined {
  const name = recordedKindSchema(type);
  if (name === undefined) return undefined;
  return check({ $ref: `${REFERENCE_PREFIX}${name}` }, object, "");
}

function check(schema: JsonSchema, value: unknown, path: string): string | undefined {
  const reference = referenceOf(schema);
  if (reference !== undefined) {
    if (ANY_JSON.has(reference)) return undefined;
    const target = recordedOpenApi().v3.schemas[reference];
    return target === undefined ? undefined : check(target, value, path);
  }
  if (value === null || value === undefined) return undefined;
  const oneOf = schema["oneOf"] as JsonSchema[] | undefined;
  if (oneOf !== undefined) {
    if (oneOf.some((choice) => check(choice, value, path) === undefined)) return undefined;
    return mismatch(path, oneOf.map((choice) => expectedOf(choice)).join(" or "), value);
  }
  if (schema["x-kubernetes-int-or-string"] === true) {
    return typeof value === "string" || (typeof value === "number" && Number.isInteger(value)) ? undefined : mismatch(path, "an integer or a string", value);
  }
  switch (schema["type"]) {
    case "string":
      return typeof value === "string" ? undefined : mismatch(path, "a string", value);
    case "boolean":
      return typeof value === "boolean" ? undefined : mismatch(path, "a boolean", value);
    case "number":
      return typeof value === "number" ? undefined : mismatch(path, "a number", value);
    case "integer": {
      if (typeof value !== "number" || !Number.isInteger(value)) return mismatch(path, "an integer", value);
      if (schema["format"] === "int32" && (value < INT32_MIN || value > INT32_MAX)) return mismatch(path, "a 32-bit integer", value);
      return undefined;
    }
    case "array": {
      if (!Array.isArray(value)) return mismatch(path, "a list", value);
      const items = schema["items"] as JsonSchema | undefined;
      if (items === undefined) return undefined;
      for (const [index, item] of value.entries()) {
        const why = check(items, item, `${path}[${index}]`);
        if (why !== undefined) return why;
      }
      return undefined;
    }
    case "object": {
      if (typeof value !== "object" || Array.isArray(value)) return mismatch(path, "an object", value);
      const properties = (schema["properties"] ?? {}) as Record<string, JsonSchema>;
      const additional = schema["additionalProperties"] as JsonSchema | undefined;
      for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
        const fieldSchema = properties[key] ?? (typeof additional === "object" ? additional : undefined);
        if (fieldSchema === undefined) continue;
        const why = check(fieldSchema, item, path === "" ? key : `${path}.${key}`);
        if (why !== undefined) return why;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The schema name a `$ref` (alone or as the one `allOf` entry, as kube-openapi writes a described reference) points to. */
function referenceOf(schema: JsonSchema): string | undefined {
  const direct = schema["$ref"];
  const allOf = schema["allOf"] as JsonSchema[] | undefined;
  const reference = typeof direct === "string" ? direct : allOf?.length === 1 && typeof allOf[0]!["$ref"] === "string" ? (allOf[0]!["$ref"] as string) : undefined;
  return reference?.startsWith(REFERENCE_PREFIX) ? reference.slice(REFERENCE_PREFIX.length) : undefined;
}

function expectedOf(schema: JsonSchema): string {
  switch (schema["type"]) {
    case "integer":
      return "an integer";
    case "number":
      return "a number";
    case "string":
      return "a string";
    default:
      return String(schema["type"]);
  }
}

function mismatch(path: string, expected: string, value: unknown): string {
  const shown = JSON.stringify(value)?.slice(0, 60) ?? String(value);
  return `${path === "" ? "the object" : path}: expected ${expected}, got ${shown}`;
}
