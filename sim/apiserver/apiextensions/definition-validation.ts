/**
 * What kube-apiserver 1.26.4 refuses in a CustomResourceDefinition (apiextensions' validation),
 * with its words (recorded in recorded/kube-apiserver-1.26-crds.json): the name must be
 * `<plural>.<group>` (crd-name-mismatch), every schema level must say its type unless it is
 * int-or-string or keeps unknown fields (a structural schema; crd-non-structural), exactly one
 * version is the storage version (crd-no-storage-version, worded here without Go's dump of the
 * versions), plus the name and scope rules clients most often break.
 */
import type { StatusCause } from "../../../spec/doc1/errors.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import { invalid } from "../responses/api-error.ts";
import { CUSTOM_RESOURCE_DEFINITION_GROUP } from "../routing/custom-resources.ts";

type Json = Record<string, any>;

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Throws 422 Invalid listing every problem of `definition` (an update when `current` is given). */
export function validateDefinition(definition: StoredObject, current?: StoredObject): void {
  const causes = definitionCauses(definition, current);
  if (causes.length > 0) throw invalid("CustomResourceDefinition", definition.metadata.name, causes, CUSTOM_RESOURCE_DEFINITION_GROUP);
}

function definitionCauses(definition: StoredObject, current: StoredObject | undefined): StatusCause[] {
  const causes: StatusCause[] = [];
  const name = definition.metadata.name;
  const spec: Json = (definition["spec"] ?? {}) as Json;
  const names: Json = spec["names"] ?? {};
  const invalidValue = (field: string, value: unknown, why: string) => causes.push({ reason: "FieldValueInvalid", message: `Invalid value: ${JSON.stringify(value ?? "")}: ${why}`, field });
  const required = (field: string, why?: string) => causes.push({ reason: "FieldValueRequired", message: why === undefined ? "Required value" : `Required value: ${why}`, field });
  if (name !== `${names["plural"]}.${spec["group"]}`) invalidValue("metadata.name", name, 'must be spec.names.plural+"."+spec.group');
  if (typeof spec["group"] !== "string" || spec["group"] === "") required("spec.group");
  else if (!spec["group"].includes(".")) invalidValue("spec.group", spec["group"], "should be a domain with at least one dot");
  if (spec["scope"] !== "Namespaced" && spec["scope"] !== "Cluster") {
    causes.push({ reason: "FieldValueNotSupported", message: `Unsupported value: ${JSON.stringify(spec["scope"] ?? "")}: supported values: "Cluster", "Namespaced"`, field: "spec.scope" });
  }
  for (const field of ["plural", "singular", "kind", "listKind"] as const) {
    const value = names[field];
    if (value === undefined || value === "") {
      if (field === "plural" || field === "kind") required(`spec.names.${field}`);
      continue;
    }
    if ((field === "plural" || field === "singular") && !DNS_LABEL.test(value)) invalidValue(`spec.names.${field}`, value, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  }
  const versions: Json[] = Array.isArray(spec["versions"]) ? spec["versions"] : [];
  if (versions.length === 0) required("spec.versions", "must have exactly one version marked as storage version");
  else if (versions.filter((version) => version?.storage === true).length !== 1) invalidValue("spec.versions", "…", "must have exactly one version marked as storage version");
  // One schema for all versions is reported as kube-apiserver's internal version has it, under spec.validation.
  const schemas = versions.map((version) => version?.schema?.openAPIV3Schema);
  const shared = schemas.every((schema) => JSON.stringify(schema) === JSON.stringify(schemas[0]));
  versions.forEach((version, index) => {
    const schema = version?.schema?.openAPIV3Schema;
    if (schema === undefined) return;
    if (shared && index > 0) return;
    const base = shared ? "spec.validation.openAPIV3Schema" : `spec.versions[${index}].schema.openAPIV3Schema`;
    if (schema?.type !== "object") {
      if (schema?.type === undefined) required(`${base}.type`, "must not be empty at the root");
      else causes.push({ reason: "FieldValueInvalid", message: `Invalid value: ${JSON.stringify(schema.type)}: must be object at the root`, field: `${base}.type` });
    }
    structuralCauses(schema, base, causes);
  });
  if (current !== undefined && (current["spec"] as Json | undefined)?.["scope"] !== spec["scope"]) invalidValue("spec.scope", spec["scope"], "field is immutable");
  return causes;
}

/** Every level below the root must name its type (a structural schema), unless int-or-string or open. */
function structuralCauses(schema: Json, path: string, causes: StatusCause[]): void {
  const child = (sub: unknown, subPath: string) => {
    if (sub === null || typeof sub !== "object") return;
    const level = sub as Json;
    const untyped = level["type"] === undefined || level["type"] === "";
    if (untyped && level["x-kubernetes-int-or-string"] !== true && level["x-kubernetes-preserve-unknown-fields"] !== true) {
      causes.push({ reason: "FieldValueRequired", message: "Required value: must not be empty for specified object fields", field: `${subPath}.type` });
    }
    structuralCauses(level, subPath, causes);
  };
  for (const [property, sub] of Object.entries((schema["properties"] ?? {}) as Json)) child(sub, `${path}.properties[${property}]`);
  if (schema["items"] !== undefined) child(schema["items"], `${path}.items`);
  if (typeof schema["additionalProperties"] === "object") child(schema["additionalProperties"], `${path}.additionalProperties`);
}
