/**
 * Custom resource types, made from CustomResourceDefinitions (created over the API, or at start-up
 * with `serve --crd FILE`, which is the same create: apiextensions/definition-lifecycle.ts). They
 * are served like built-in types but JSON only (doc 1 §4.3.2: no binary form for types defined by
 * custom definitions) and with the default Table (doc 1 §2.5: Name and Created At). The definitions
 * are objects of apiextensions.k8s.io, as in Kubernetes (the group is Kubernetes' in both dialects:
 * the documents do not name one).
 */
import { createHash } from "node:crypto";
import { parse as parseYaml } from "yaml";
import type { StoredObject } from "../../store/stored-object.ts";
import type { StructuralSchema } from "../apiextensions/structural-schema.ts";
import type { ResourceType, Verb } from "./resource-types.ts";

/** Kubernetes' group of CustomResourceDefinitions. */
export const CUSTOM_RESOURCE_DEFINITION_GROUP = "apiextensions.k8s.io";

/** A definition that cannot be served; the message lists every problem. */
export class CustomResourceDefinitionError extends Error {}

/** A parsed definition: the object to list, and the type it makes served. */
export interface CustomResourceDefinition {
  readonly object: StoredObject;
  readonly type: ResourceType;
}

/** What a definition says of one served version of its custom resource type. */
export interface CustomResourceVersion {
  /** The definition's name, `<plural>.<group>`. */
  readonly definition: string;
  /** The version's `openAPIV3Schema`, if it has one. */
  readonly schema?: StructuralSchema;
  /** The scale subresource's paths (`.spec.replicas`), if the version has one. */
  readonly scale?: { readonly specReplicasPath: string; readonly statusReplicasPath: string; readonly labelSelectorPath?: string };
}

/**
 * The verbs of a custom resource, in the order kube-apiserver 1.26.4 lists them in discovery
 * (recorded: discovery-resources; unlike built-in types, not sorted).
 */
export const CUSTOM_RESOURCE_VERBS: readonly Verb[] = ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"];
const ALL_VERBS = CUSTOM_RESOURCE_VERBS;

/** The CustomResourceDefinitions type itself: written over the API, with a status subresource, as Kubernetes serves it. */
export const customResourceDefinitionsType: ResourceType = {
  group: CUSTOM_RESOURCE_DEFINITION_GROUP,
  version: "v1",
  resource: "customresourcedefinitions",
  singular: "customresourcedefinition",
  kind: "CustomResourceDefinition",
  namespaced: false,
  verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
  shortNames: ["crd", "crds"],
  nameRule: "subdomain",
  subresources: { status: ["get", "patch", "update"] },
  storageVersionHash: "M5uH+AlWATY=",
};

/** The custom resource types a stored definition makes served: one per served version. */
export function definitionTypes(definition: StoredObject): ResourceType[] {
  const spec = (definition["spec"] ?? {}) as Record<string, any>;
  const names = spec.names ?? {};
  const versions: any[] = Array.isArray(spec.versions) ? spec.versions : [];
  const storage = versions.find((version) => version?.storage === true);
  return versions
    .filter((version) => version?.served === true)
    .map((version): ResourceType => {
      const scale = version.subresources?.scale;
      const schema = version.schema?.openAPIV3Schema;
      return {
        group: spec.group,
        version: version.name,
        resource: names.plural,
        singular: names.singular ?? String(names.kind).toLowerCase(),
        kind: names.kind,
        namespaced: spec.scope === "Namespaced",
        verbs: ALL_VERBS,
        shortNames: Array.isArray(names.shortNames) ? names.shortNames : [],
        ...(Array.isArray(names.categories) && { categories: names.categories }),
        nameRule: "subdomain",
        // Status before scale, as discovery lists them (recorded: discovery-resources).
        subresources: {
          ...(version.subresources?.status !== undefined && { status: ["get", "patch", "update"] }),
          ...(scale !== undefined && { scale: ["get", "patch", "update"] }),
        },
        storageVersionHash: storageVersionHash(spec.group, storage?.name ?? version.name, names.kind),
        custom: {
          definition: definition.metadata.name,
          ...(schema !== null && typeof schema === "object" && { schema }),
          ...(scale !== undefined && { scale }),
        },
      };
    });
}

/**
 * Discovery's storageVersionHash: the first 8 bytes of the SHA-256 of `<group>/<version>/<kind>`
 * of the storage version, in base64 (k8s.io/apiserver's discovery.StorageVersionHash).
 */
function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash("sha256").update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString("base64");
}

/** Parses one CustomResourceDefinition (apiextensions.k8s.io/v1, YAML or JSON). */
export function parseCustomResourceDefinition(text: string, source = "the definition"): CustomResourceDefinition {
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new CustomResourceDefinitionError(`${source}: not YAML or JSON: ${(error as Error).message}`);
  }
  const problems: string[] = [];
  const object = (document ?? {}) as Record<string, any>;
  if (object["apiVersion"] !== `${CUSTOM_RESOURCE_DEFINITION_GROUP}/v1`) problems.push(`apiVersion must be ${CUSTOM_RESOURCE_DEFINITION_GROUP}/v1`);
  if (object["kind"] !== "CustomResourceDefinition") problems.push("kind must be CustomResourceDefinition");
  const spec = object["spec"] ?? {};
  const names = spec.names ?? {};
  const group = spec.group;
  const plural = names.plural;
  const kind = names.kind;
  if (typeof group !== "string" || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/.test(group)) problems.push("spec.group must be a DNS subdomain with a dot");
  if (typeof plural !== "string" || !/^[a-z][-a-z0-9]*$/.test(plural)) problems.push("spec.names.plural must be a lowercase name");
  if (typeof kind !== "string" || !/^[A-Z][A-Za-z0-9]*$/.test(kind)) problems.push("spec.names.kind must be a CamelCase name");
  if (spec.scope !== "Namespaced" && spec.scope !== "Cluster") problems.push("spec.scope must be Namespaced or Cluster");
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  const storage = versions.filter((version: any) => version?.served === true && version?.storage === true);
  if (storage.length !== 1) problems.push("spec.versions must have exactly one version with served: true and storage: true");
  // Kubernetes requires the definition's name to be <plural>.<group>.
  const name = object["metadata"]?.name;
  if (problems.length === 0 && name !== `${plural}.${group}`) problems.push(`metadata.name must be ${plural}.${group}`);
  if (problems.length > 0) throw new CustomResourceDefinitionError(`${source}: ${problems.join("; ")}`);
  const { apiVersion: _apiVersion, kind: _kind, ...stored } = object;
  const stamped = { ...stored, metadata: { ...object["metadata"], name } } as StoredObject;
  return { object: stamped, type: definitionTypes(stamped)[0]! };
}
