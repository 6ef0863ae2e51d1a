/**
 * A custom resource's structural schema (apiextensions.k8s.io/v1 `openAPIV3Schema`) and the two
 * passes kube-apiserver makes over an object with it when decoding (apiextensions-apiserver's
 * pkg/apiserver/schema/pruning and .../defaulting): unknown fields pruned unless a level keeps them
 * (`x-kubernetes-preserve-unknown-fields`), then absent fields given their `default`. Recorded in
 * recorded/kube-apiserver-1.26-crds.json (cr-create-valid: `unknown` and `unknownTop` gone,
 * `extra.anything` kept, `mode` and `replicas` defaulted; cr-merge-patch: a field patched to null
 * gets its default back).
 */
export interface StructuralSchema {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, StructuralSchema>>;
  readonly items?: StructuralSchema;
  readonly additionalProperties?: StructuralSchema | boolean;
  readonly default?: unknown;
  readonly nullable?: boolean;
  readonly required?: readonly string[];
  readonly "x-kubernetes-preserve-unknown-fields"?: boolean;
  readonly "x-kubernetes-embedded-resource"?: boolean;
  readonly "x-kubernetes-int-or-string"?: boolean;
  readonly [keyword: string]: unknown;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => value !== null && typeof value === "object" && !Array.isArray(value);

// What every object and every embedded resource keeps whatever its schema lists (ObjectMeta is the server's).
const TYPE_AND_OBJECT_META = ["apiVersion", "kind", "metadata"];

/** `object` (a whole custom resource) pruned and defaulted by `schema`; a new value, `object` untouched. */
export function prunedAndDefaulted(object: Json, schema: StructuralSchema): Json {
  const copy = structuredClone(object);
  prune(copy, schema, true);
  applyDefaults(copy, schema);
  return copy;
}

function prune(value: unknown, schema: StructuralSchema | undefined, keepTypeMeta: boolean): void {
  if (schema === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value) prune(item, schema.items, false);
    return;
  }
  if (!isObject(value)) return;
  const keep = keepTypeMeta || schema["x-kubernetes-embedded-resource"] === true;
  const additional = typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined;
  for (const [field, item] of Object.entries(value)) {
    if (keep && TYPE_AND_OBJECT_META.includes(field)) continue;
    const property = schema.properties?.[field] ?? additional;
    if (property !== undefined) prune(item, property, false);
    else if (schema["x-kubernetes-preserve-unknown-fields"] !== true && schema.additionalProperties !== true) delete value[field];
  }
}

function applyDefaults(value: unknown, schema: StructuralSchema | undefined): void {
  if (schema === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value) applyDefaults(item, schema.items);
    return;
  }
  if (!isObject(value)) return;
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    // A default fills an absent field, and a null one unless null is allowed (defaulting's rule).
    const absent = !(field in value) || (value[field] === null && property.nullable !== true);
    if (absent && property.default !== undefined) value[field] = structuredClone(property.default);
    if (field in value) applyDefaults(value[field], property);
  }
  if (typeof schema.additionalProperties === "object") {
    for (const [field, item] of Object.entries(value)) if (!(schema.properties !== undefined && field in schema.properties)) applyDefaults(item, schema.additionalProperties);
  }
}

/** The unknown fields pruning would drop, as paths (`spec.unknown`), for `fieldValidation=Strict`. */
export function prunedFieldPaths(object: Json, schema: StructuralSchema): string[] {
  const found: string[] = [];
  const walk = (value: unknown, level: StructuralSchema | undefined, path: string, keepTypeMeta: boolean): void => {
    if (level === undefined) return;
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, level.items, `${path}[${index}]`, false));
      return;
    }
    if (!isObject(value)) return;
    const keep = keepTypeMeta || level["x-kubernetes-embedded-resource"] === true;
    const additional = typeof level.additionalProperties === "object" ? level.additionalProperties : undefined;
    for (const [field, item] of Object.entries(value)) {
      if (keep && TYPE_AND_OBJECT_META.includes(field)) continue;
      const child = path === "" ? field : `${path}.${field}`;
      const property = level.properties?.[field] ?? additional;
      if (property !== undefined) walk(item, property, child, false);
      else if (level["x-kubernetes-preserve-unknown-fields"] !== true && level.additionalProperties !== true) found.push(child);
    }
  };
  walk(object, schema, "", true);
  return found;
}
