/**
 * Validation of a custom resource against its definition's structural schema, with ajv (a
 * maintained JSON Schema validator; OpenAPI v3's keywords are JSON Schema's, `nullable` included),
 * its errors worded as kube-apiserver 1.26.4 words kube-openapi's (recorded in
 * recorded/kube-apiserver-1.26-crds.json, steps cr-create-*): the field path (`spec.tags[0]`), the
 * cause reason, and `<path> in body must be of type integer: "string"`-style texts.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { StatusCause } from "../../../spec/doc1/errors.ts";
import type { StructuralSchema } from "./structural-schema.ts";

// One compiler for every schema: strict mode off, since Kubernetes' x- keywords are not JSON Schema's;
// formats are not checked (kube-apiserver checks only a few, and none of the recorded steps).
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const compiled = new WeakMap<StructuralSchema, ValidateFunction>();

/** The problems of `object` under `schema`, as Status causes; empty when it is valid. */
export function schemaCauses(object: Record<string, unknown>, schema: StructuralSchema): StatusCause[] {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(forAjv(schema) as object);
    compiled.set(schema, validate);
  }
  if (validate(object)) return [];
  return (validate.errors ?? []).map((error) => cause(error, object));
}

/** The schema in ajv's terms: `x-kubernetes-int-or-string` is a type of integer or string. */
function forAjv(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forAjv);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    // Values, not schemas: left as they are.
    out[keyword] = keyword === "default" || keyword === "enum" || keyword === "example" ? value : forAjv(value);
  }
  if (out["x-kubernetes-int-or-string"] === true && out["type"] === undefined) out["type"] = ["integer", "string"];
  return out;
}

function cause(error: ErrorObject, object: unknown): StatusCause {
  const [path, value] = located(error.instancePath, object);
  const params = error.params as Record<string, any>;
  switch (error.keyword) {
    case "required": {
      const field = path === "" ? params["missingProperty"] : `${path}.${params["missingProperty"]}`;
      return { reason: "FieldValueRequired", message: "Required value", field };
    }
    case "type": {
      const actual = jsonType(value);
      const wanted = Array.isArray(params["type"]) ? params["type"].join(",") : String(params["type"]);
      return { reason: "FieldValueTypeInvalid", message: `Invalid value: "${actual}": ${path} in body must be of type ${wanted}: "${actual}"`, field: path };
    }
    case "enum": {
      const allowed = (params["allowedValues"] as unknown[]).map(goValue).join(", ");
      return { reason: "FieldValueNotSupported", message: `Unsupported value: ${goValue(value)}: supported values: ${allowed}`, field: path };
    }
    case "maxLength":
      return { reason: "FieldValueTooLong", message: `Too long: may not be longer than ${params["limit"]}`, field: path };
    case "maxItems":
      return { reason: "FieldValueTooMany", message: `Too many: ${(value as unknown[]).length}: must have at most ${params["limit"]} items`, field: path };
    default:
      return { reason: "FieldValueInvalid", message: `Invalid value: ${goValue(value)}: ${path} in body ${invalidText(error, params)}`, field: path };
  }
}

// kube-openapi's texts for the checks that answer FieldValueInvalid.
function invalidText(error: ErrorObject, params: Record<string, any>): string {
  switch (error.keyword) {
    case "minimum":
      return `should be greater than or equal to ${params["limit"]}`;
    case "maximum":
      return `should be less than or equal to ${params["limit"]}`;
    case "exclusiveMinimum":
      return `should be greater than ${params["limit"]}`;
    case "exclusiveMaximum":
      return `should be less than ${params["limit"]}`;
    case "pattern":
      return `should match '${params["pattern"]}'`;
    case "minLength":
      return `should be at least ${params["limit"]} chars long`;
    case "minItems":
      return `should have at least ${params["limit"]} items`;
    case "multipleOf":
      return `should be a multiple of ${params["multipleOf"]}`;
    case "uniqueItems":
      return "shouldn't contain duplicates";
    default:
      return error.message ?? "is invalid";
  }
}

/** Kubernetes' field path of a JSON pointer (`/spec/tags/0` → `spec.tags[0]`) and the value there. */
function located(pointer: string, object: unknown): [string, unknown] {
  let path = "";
  let value = object;
  for (const raw of pointer.split("/").slice(1)) {
    const segment = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(value)) {
      path += `[${segment}]`;
      value = value[Number(segment)];
    } else {
      path = path === "" ? segment : `${path}.${segment}`;
      value = (value as Record<string, unknown> | undefined)?.[segment];
    }
  }
  return [path, value];
}

// The type names kube-openapi reports for a JSON value.
function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

// A value as Go's %#v prints it in field errors: strings quoted, numbers and booleans bare.
function goValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value) ?? "null";
}
