/**
 * Custom resource types, registered from CustomResourceDefinition documents (`serve --crd FILE`).
 * They are served like built-in types but JSON only (doc 1 §4.3.2: no binary form for types
 * defined by custom definitions) and with the default Table (doc 1 §2.5: Name and Created At),
 * and the definitions themselves are listed read-only under apiextensions.k8s.io, as Kubernetes
 * lists them (the group is Kubernetes' in both dialects: the documents do not name one).
 */
import { parse as parseYaml } from "yaml";
import type { StoredObject } from "../../store/stored-object.ts";
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

const ALL_VERBS: readonly Verb[] = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];

/** The CustomResourceDefinitions type itself: read-only here, since definitions come from flags. */
export const customResourceDefinitionsType: ResourceType = {
  group: CUSTOM_RESOURCE_DEFINITION_GROUP,
  version: "v1",
  resource: "customresourcedefinitions",
  singular: "customresourcedefinition",
  kind: "CustomResourceDefinition",
  namespaced: false,
  verbs: ["get", "list", "watch"],
  shortNames: ["crd", "crds"],
  nameRule: "subdomain",
  subresources: {},
};

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
  const version = storage[0];
  const { apiVersion: _apiVersion, kind: _kind, ...stored } = object;
  return {
    object: { ...stored, metadata: { ...object["metadata"], name } } as StoredObject,
    type: {
      group,
      version: version.name,
      resource: plural,
      singular: names.singular ?? kind.toLowerCase(),
      kind,
      namespaced: spec.scope === "Namespaced",
      verbs: ALL_VERBS,
      shortNames: Array.isArray(names.shortNames) ? names.shortNames : [],
      nameRule: "subdomain",
      subresources: version.subresources?.status !== undefined ? { status: ["get", "patch", "update"] } : {},
    },
  };
}
