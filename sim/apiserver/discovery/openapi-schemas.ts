/**
 * The component schemas of the served types, for the OpenAPI documents (openapi.ts). Built-in
 * types take theirs from a recording of kube-apiserver 1.26.4 (`openapi-data/`, README there);
 * the others are described as kube-apiserver describes a custom resource: the definition's
 * `openAPIV3Schema` (or, without one, an object that keeps unknown fields) with `apiVersion`,
 * `kind` and `metadata` added, named after the reversed group (`io.example.v1.Widget`).
 *
 * A type of the orb dialect that has a Kubernetes counterpart in another group (its Lease in
 * coordination.orb.io is coordination.k8s.io's) gets a copy of the recorded schema under its own
 * name and group/version/kind, referring to the same parts.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { dialectByName, type Dialect } from "../../../spec/dialects.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { subresourceKind, type GroupVersionKind } from "./discovery.ts";

/** A schema as JSON (OpenAPI v3 or v2, kept as recorded). */
export type JsonSchema = { readonly [key: string]: unknown };

/** The recorded data (conformance/record/record-openapi.ts writes it). */
export interface RecordedOpenApi {
  readonly source: { readonly gitVersion: string; readonly recorded: string; readonly recorder: string; readonly missing: readonly string[] };
  readonly v3: { readonly schemas: Readonly<Record<string, JsonSchema>>; readonly groupVersions: Readonly<Record<string, readonly string[]>> };
  readonly v2: { readonly definitions: Readonly<Record<string, JsonSchema>> };
}

/** The data file, beside this module. */
export const RECORDED_OPENAPI_FILE = new URL("./openapi-data/kube-apiserver-1.26.json.gz", import.meta.url);

let recorded: RecordedOpenApi | undefined;

/** The recorded schemas, read (once) on first use, so a server that is never asked for OpenAPI never reads them. */
export function recordedOpenApi(): RecordedOpenApi {
  recorded ??= JSON.parse(gunzipSync(readFileSync(RECORDED_OPENAPI_FILE)).toString("utf8")) as RecordedOpenApi;
  return recorded;
}

let kindIndex: Map<string, string> | undefined;

/** The recorded v3 schema name of a group/version/kind, if the recording has one. */
export function recordedSchemaName(gvk: GroupVersionKind): string | undefined {
  if (kindIndex === undefined) {
    kindIndex = new Map();
    for (const [name, schema] of Object.entries(recordedOpenApi().v3.schemas)) {
      for (const tag of gvkTags(schema)) {
        const key = gvkKey(tag);
        // Meta kinds (DeleteOptions, Status, WatchEvent) carry every group's tags; a kind's own schema is the one tagged with it alone.
        if (!kindIndex.has(key) || gvkTags(schema).length === 1) kindIndex.set(key, name);
      }
    }
  }
  return kindIndex.get(gvkKey(gvk));
}

/** The schemas one served type needs, by name, and which of them are the type's own. */
export interface TypeSchemas {
  /** The component name of the kind's schema. */
  readonly kind: string;
  /** The component name of the list kind's schema (types that can be listed). */
  readonly list: string | undefined;
  /** Per subresource, the component name of the schema its operations carry. */
  readonly subresources: Readonly<Record<string, string>>;
  /** Schemas made here (not in the recording): custom resources, renamed counterparts. */
  readonly made: Readonly<Record<string, JsonSchema>>;
  /** Whether the schema is Kubernetes' own (recorded), rather than made from a definition or a default. */
  readonly recorded: boolean;
}

/** A custom resource type's definition: the `openAPIV3Schema` of the served version, if it has one. */
export interface CustomDefinitionSchema {
  readonly schema: JsonSchema | undefined;
}

const kubernetesDialect = dialectByName("kubernetes");

/** The Kubernetes group of a dialect's group (coordination.orb.io → coordination.k8s.io); others unchanged. */
export function kubernetesGroupOf(group: string, dialect: Dialect): string {
  for (const [role, name] of Object.entries(dialect.groups)) {
    if (name === group) return kubernetesDialect.groups[role as keyof Dialect["groups"]];
  }
  return group;
}

/** Kubernetes' name of a custom resource's schema: the group's labels reversed, then version and kind. */
export function customSchemaName(group: string, version: string, kind: string): string {
  return [...group.split(".").reverse(), version, kind].join(".");
}

/**
 * The schemas of `type` as the `dialect`'s server describes it: `custom` is given for a custom
 * resource (its definition's schema), undefined for a built-in type.
 */
export function typeSchemas(type: ResourceType, dialect: Dialect, custom: CustomDefinitionSchema | undefined): TypeSchemas {
  const listable = type.verbs.includes("list");
  const made: Record<string, JsonSchema> = {};
  const subresources: Record<string, string> = {};
  const kubernetesGroup = kubernetesGroupOf(type.group, dialect);
  const recordedKind = custom === undefined ? recordedSchemaName({ group: kubernetesGroup, version: type.version, kind: type.kind }) : undefined;
  let kind: string;
  let list: string | undefined;
  if (recordedKind !== undefined && kubernetesGroup === type.group) {
    kind = recordedKind;
    list = listable ? recordedSchemaName({ group: type.group, version: type.version, kind: `${type.kind}List` }) : undefined;
  } else if (recordedKind !== undefined) {
    // The dialect's own group: a copy tagged with it, named as a custom resource would be.
    kind = customSchemaName(type.group, type.version, type.kind);
    made[kind] = retagged(recordedOpenApi().v3.schemas[recordedKind]!, type, type.kind, {});
    const recordedList = listable ? recordedSchemaName({ group: kubernetesGroup, version: type.version, kind: `${type.kind}List` }) : undefined;
    if (recordedList !== undefined) {
      list = customSchemaName(type.group, type.version, `${type.kind}List`);
      made[list] = retagged(recordedOpenApi().v3.schemas[recordedList]!, type, `${type.kind}List`, { [recordedKind]: kind });
    }
  } else {
    kind = customSchemaName(type.group, type.version, type.kind);
    made[kind] = customResourceSchema(type, custom?.schema);
    if (listable) {
      list = customSchemaName(type.group, type.version, `${type.kind}List`);
      made[list] = customResourceListSchema(type, kind);
    }
  }
  if (listable && list === undefined) {
    list = customSchemaName(type.group, type.version, `${type.kind}List`);
    made[list] = customResourceListSchema(type, kind);
  }
  for (const subresource of Object.keys(type.subresources)) {
    const gvk = subresourceKind(type, subresource);
    if (gvk.group === type.group && gvk.version === type.version && gvk.kind === type.kind) {
      subresources[subresource] = kind;
      continue;
    }
    const name = recordedSchemaName(gvk) ?? customSchemaName(gvk.group, gvk.version, gvk.kind);
    if (recordedSchemaName(gvk) === undefined) made[name] = customResourceSchema({ ...type, ...gvk }, undefined);
    subresources[subresource] = name;
  }
  return { kind, list, subresources, made, recorded: recordedKind !== undefined };
}

const OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
const LIST_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
const API_VERSION_PROPERTY = {
  description:
    "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
  type: "string",
};
const KIND_PROPERTY = {
  description:
    "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
  type: "string",
};

/**
 * A custom resource's schema as kube-apiserver 1.26 publishes it (recorded: custom-resources.json):
 * the definition's schema, its properties with `apiVersion`, `kind` and `metadata` (ObjectMeta)
 * set, and the group/version/kind tag. Without a schema: an object that keeps unknown fields.
 */
export function customResourceSchema(type: GroupVersionKind, schema: JsonSchema | undefined): JsonSchema {
  const own = schema ?? { type: "object", "x-kubernetes-preserve-unknown-fields": true };
  const properties = {
    ...((own["properties"] as Record<string, unknown> | undefined) ?? {}),
    apiVersion: API_VERSION_PROPERTY,
    kind: KIND_PROPERTY,
    metadata: {
      description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
      allOf: [{ $ref: `#/components/schemas/${OBJECT_META}` }],
    },
  };
  return {
    ...own,
    properties: Object.fromEntries(Object.entries(properties).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    "x-kubernetes-group-version-kind": [{ group: type.group, kind: type.kind, version: type.version }],
  };
}

/** A custom resource's list schema as kube-apiserver 1.26 publishes it (recorded: custom-resources.json). */
export function customResourceListSchema(type: ResourceType, itemSchema: string): JsonSchema {
  return {
    description: `${type.kind}List is a list of ${type.kind}`,
    required: ["items"],
    properties: {
      apiVersion: API_VERSION_PROPERTY,
      items: {
        description: `List of ${type.resource}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
        type: "array",
        items: { $ref: `#/components/schemas/${itemSchema}` },
      },
      kind: KIND_PROPERTY,
      metadata: {
        description: "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
        allOf: [{ $ref: `#/components/schemas/${LIST_META}` }],
      },
    },
    "x-kubernetes-group-version-kind": [{ group: type.group, kind: `${type.kind}List`, version: type.version }],
  };
}

/** A schema of the whole served document set: the recorded pool, with `made` over it. */
export function schemaOf(name: string, made: Readonly<Record<string, JsonSchema>>): JsonSchema | undefined {
  return made[name] ?? recordedOpenApi().v3.schemas[name];
}

/** The names a schema refers to with `prefix` (`#/components/schemas/`), at any depth. */
export function schemaReferences(schema: unknown, prefix = "#/components/schemas/"): string[] {
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) visit(item);
    else if (value !== null && typeof value === "object") {
      for (const [key, member] of Object.entries(value)) {
        if (key === "$ref" && typeof member === "string" && member.startsWith(prefix)) found.push(member.slice(prefix.length));
        else visit(member);
      }
    }
  };
  visit(schema);
  return found;
}

/** `seeds` and every schema they reach, sorted by name, from `made` and the recording; throws on a name neither has. */
export function schemaClosure(seeds: Iterable<string>, made: Readonly<Record<string, JsonSchema>>): Record<string, JsonSchema> {
  const kept = new Map<string, JsonSchema>();
  const pending = [...seeds];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (kept.has(name)) continue;
    const schema = schemaOf(name, made);
    if (schema === undefined) throw new Error(`OpenAPI schema ${name} is referenced but neither recorded nor made`);
    kept.set(name, schema);
    pending.push(...schemaReferences(schema));
  }
  return Object.fromEntries([...kept].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The v2 form of a v3 schema, as kube-apiserver's `/openapi/v2` gives it: references under
 * `#/definitions/`, a reference with siblings (`allOf: [{$ref}]` in v3) written as a bare `$ref`
 * beside them, and what Swagger 2.0 cannot say left out (`oneOf`, `anyOf`, `not`, `nullable`), as
 * kube-apiserver publishes a custom resource's schema in v2.
 */
export function v2Schema(schema: unknown): unknown {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (V3_ONLY.has(key)) continue;
    if (key === "$ref" && typeof value === "string") out[key] = value.replace("#/components/schemas/", "#/definitions/");
    else if (key === "allOf" && Array.isArray(value) && value.length === 1 && typeof (value[0] as Record<string, unknown>)?.["$ref"] === "string") {
      out["$ref"] = ((value[0] as Record<string, string>)["$ref"] as string).replace("#/components/schemas/", "#/definitions/");
    } else if (key === "properties" && value !== null && typeof value === "object") {
      // A map of names to schemas: the names are data, whatever they are called.
      out[key] = Object.fromEntries(Object.entries(value).map(([name, member]) => [name, v2Schema(member)]));
    } else if (key === "items" || key === "additionalProperties") out[key] = Array.isArray(value) ? value.map(v2Schema) : v2Schema(value);
    else if (key === "allOf" && Array.isArray(value)) out[key] = value.map(v2Schema);
    // Values (default, enum, example, extensions) are kept as they are.
    else out[key] = value;
  }
  return out;
}

const V3_ONLY = new Set(["oneOf", "anyOf", "not", "nullable"]);

function gvkTags(schema: JsonSchema): GroupVersionKind[] {
  const tags = schema["x-kubernetes-group-version-kind"];
  return Array.isArray(tags) ? (tags as GroupVersionKind[]) : [];
}

function gvkKey(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}/${gvk.kind}`;
}

// A recorded schema tagged with another group's kind, its references to `renamed` schemas redirected.
function retagged(schema: JsonSchema, type: ResourceType, kind: string, renamed: Readonly<Record<string, string>>): JsonSchema {
  const redirect = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(redirect);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => {
        if (key !== "$ref" || typeof member !== "string") return [key, redirect(member)];
        const name = member.slice("#/components/schemas/".length);
        return [key, renamed[name] !== undefined ? `#/components/schemas/${renamed[name]}` : member];
      }),
    );
  };
  return { ...(redirect(schema) as JsonSchema), "x-kubernetes-group-version-kind": [{ group: type.group, kind, version: type.version }] };
}
