/** The types a target serves, from its discovery documents. */
import type { CaseContext } from "../../case-context.ts";
import { check } from "../../check.ts";
import { recordOf } from "../../client/json-fields.ts";
import { arrayOrEmpty, expectString } from "./json-guards.ts";
import { brief } from "./status-answers.ts";

/** A listable type a target serves, and the path of its collection. */
interface ServedCollection {
  readonly groupVersion: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly path: (namespace: string) => string;
}

/**
 * The listable resource types of the built-in group/versions the suite knows (core v1, apps/v1,
 * the dialect's coordination group), from their discovery documents.
 */
export async function builtInCollections(context: CaseContext): Promise<ServedCollection[]> {
  const collections: ServedCollection[] = [];
  for (const groupVersion of ["v1", "apps/v1", `${context.dialect.groups.coordination}/v1`]) {
    const base = groupVersion === "v1" ? "/api/v1" : `/apis/${groupVersion}`;
    const response = await context.client.get(base);
    check(response.status === 200, `setup: discovery GET ${base} answered ${response.status}: ${brief(response)}`);
    for (const resource of arrayOrEmpty(recordOf(response.json).resources, `setup: discovery GET ${base}: resources`)) {
      const entry = recordOf(resource);
      const name = entry.name;
      if (typeof name !== "string" || name.includes("/") || !arrayOrEmpty(entry.verbs, `setup: discovery GET ${base}: verbs of ${name}`).includes("list")) continue;
      collections.push({
        groupVersion,
        resource: name,
        kind: expectString(entry.kind, `setup: discovery GET ${base}: kind of ${name}`),
        namespaced: entry.namespaced === true,
        path: (namespace) => `${base}/${entry.namespaced === true ? `namespaces/${namespace}/` : ""}${name}`,
      });
    }
  }
  check(collections.some((collection) => collection.resource === "configmaps"), "setup: discovery of /api/v1 lists no configmaps");
  return collections;
}

export const CRD_GROUP = "apiextensions.k8s.io";

/** Whether the target serves CustomResourceDefinitions (Kubernetes' apiextensions group; the embedded server does not). */
export async function servesCustomResourceDefinitions(context: CaseContext): Promise<boolean> {
  const groups = await context.client.get("/apis");
  check(groups.status === 200, `setup: discovery GET /apis answered ${groups.status}: ${brief(groups)}`);
  return arrayOrEmpty(recordOf(groups.json).groups, "setup: discovery GET /apis: groups").some(
    (group) => recordOf(group).name === CRD_GROUP && arrayOrEmpty(recordOf(group).versions, `setup: discovery GET /apis: versions of ${CRD_GROUP}`).some((version) => recordOf(version).version === "v1"),
  );
}
