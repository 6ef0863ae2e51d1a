/**
 * How structured-merge-diff sees a type: which maps are granular and which atomic, which lists are
 * atomic, sets (`v:` items) or maps keyed by some fields (`k:` items). Read from the recorded
 * OpenAPI v3 schemas (discovery/openapi-data/) as kube-apiserver builds its merge schema from the
 * same documents: `x-kubernetes-list-type` and `x-kubernetes-list-map-keys` first; where a list has
 * no list type, `x-kubernetes-patch-strategy: merge` with `x-kubernetes-patch-merge-key` makes a
 * map keyed by that key, `merge` alone a set, anything else atomic; `x-kubernetes-map-type: atomic`
 * makes a map (LabelSelector) one value. A type without a recorded schema, and a part of one
 * without structure (RawExtension), is "deduced" as structured-merge-diff deduces it: objects are
 * granular maps, lists atomic.
 */
import { recordedOpenApi, recordedSchemaName, type JsonSchema } from "../discovery/openapi-schemas.ts";

/** The structure of one value. */
export type TypeNode =
  | { readonly kind: "scalar" }
  | { readonly kind: "deduced" }
  | { readonly kind: "map"; readonly atomic: boolean; readonly field: (name: string) => TypeNode }
  | {
      readonly kind: "list";
      readonly semantics: "atomic" | "set" | "map";
      readonly keys: readonly string[];
      /** The schema's defaults of key fields, which name an item that leaves them out (a port's protocol "TCP", recorded). */
      readonly keyDefaults: Readonly<Record<string, unknown>>;
      readonly item: TypeNode;
    };

export const SCALAR: TypeNode = { kind: "scalar" };
/** What structured-merge-diff assumes where it knows no schema. */
export const DEDUCED: TypeNode = { kind: "deduced" };
const REFERENCE_PREFIX = "#/components/schemas/";
const byName = new Map<string, TypeNode>();

/** The structure of a kind (its Kubernetes group, version and kind), deduced when no schema was recorded. */
export function typeStructure(group: string, version: string, kind: string): TypeNode {
  const name = recordedSchemaName({ group, version, kind });
  return name === undefined ? DEDUCED : named(name);
}

function named(name: string): TypeNode {
  const known = byName.get(name);
  if (known !== undefined) return known;
  const schema = recordedOpenApi().v3.schemas[name];
  if (schema === undefined) return DEDUCED;
  // A placeholder while it is read, so that a schema reached again before it is built ends (fields
  // are read lazily, so only lists of lists could reach it).
  byName.set(name, DEDUCED);
  const built = fromSchema(schema);
  byName.set(name, built);
  return built;
}

function fromSchema(schema: JsonSchema): TypeNode {
  const reference = referenceOf(schema);
  if (reference !== undefined) return named(reference);
  const type = schema["type"];
  if (type === "array") return listNode(schema);
  const properties = schema["properties"] as Record<string, JsonSchema> | undefined;
  const additional = schema["additionalProperties"];
  if (type === "object" || properties !== undefined) {
    if (properties === undefined && (additional === undefined || typeof additional !== "object")) return DEDUCED;
    const atomic = schema["x-kubernetes-map-type"] === "atomic";
    const fields = new Map<string, TypeNode>();
    const field = (fieldName: string): TypeNode => {
      const known = fields.get(fieldName);
      if (known !== undefined) return known;
      const property = properties?.[fieldName] ?? (typeof additional === "object" && additional !== null ? (additional as JsonSchema) : undefined);
      const node = property === undefined ? DEDUCED : fromSchema(property);
      fields.set(fieldName, node);
      return node;
    };
    return { kind: "map", atomic, field };
  }
  return SCALAR;
}

function listNode(schema: JsonSchema): TypeNode {
  const items = (schema["items"] ?? {}) as JsonSchema;
  const item = Object.keys(items).length === 0 ? DEDUCED : fromSchema(items);
  const listType = schema["x-kubernetes-list-type"];
  const strategy = String(schema["x-kubernetes-patch-strategy"] ?? "");
  const mergeKey = schema["x-kubernetes-patch-merge-key"];
  let semantics: "atomic" | "set" | "map" = "atomic";
  let keys: readonly string[] = [];
  if (listType === "map") {
    semantics = "map";
    keys = (schema["x-kubernetes-list-map-keys"] as string[] | undefined) ?? [];
  } else if (listType === "set") semantics = "set";
  else if (listType === undefined && strategy.split(",").includes("merge")) {
    semantics = typeof mergeKey === "string" ? "map" : "set";
    if (typeof mergeKey === "string") keys = [mergeKey];
  }
  return { kind: "list", semantics, keys, keyDefaults: keyDefaultsOf(items, keys), item };
}

function keyDefaultsOf(items: JsonSchema, keys: readonly string[]): Record<string, unknown> {
  const reference = referenceOf(items);
  const schema = reference === undefined ? items : (recordedOpenApi().v3.schemas[reference] ?? {});
  const properties = (schema["properties"] ?? {}) as Record<string, JsonSchema>;
  const defaults: Record<string, unknown> = {};
  for (const key of keys) if (properties[key]?.["default"] !== undefined) defaults[key] = properties[key]!["default"];
  return defaults;
}

function referenceOf(schema: JsonSchema): string | undefined {
  const direct = schema["$ref"];
  const allOf = schema["allOf"] as JsonSchema[] | undefined;
  const reference = typeof direct === "string" ? direct : allOf?.length === 1 && typeof allOf[0]!["$ref"] === "string" ? (allOf[0]!["$ref"] as string) : undefined;
  return reference?.startsWith(REFERENCE_PREFIX) ? reference.slice(REFERENCE_PREFIX.length) : undefined;
}

/** The node of a map's field, or of a deduced object's. */
export function fieldNode(node: TypeNode, name: string): TypeNode {
  return node.kind === "map" ? node.field(name) : DEDUCED;
}
