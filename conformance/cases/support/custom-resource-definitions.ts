/**
 * A CustomResourceDefinition of the case's own (cluster-scoped, so its group carries a name unique to
 * the run: nothing outside the run is touched), made Established and served before the case goes on,
 * and deleted afterwards.
 */
import type { CaseContext } from "../../case-context.ts";
import { check } from "../../check.ts";
import { fieldAt } from "../../client/json-fields.ts";
import { create } from "./creates.ts";

/** The definition's paths and names. */
export interface CaseDefinition {
  readonly name: string;
  readonly group: string;
  /** `/apis/<group>/v1/namespaces/<case namespace>/widgets`. */
  readonly collection: string;
  /** `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/<name>`. */
  readonly path: string;
}

export const DEFINITIONS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

/** The schema: typed and checked fields, defaults, an open object, status and scale subresources. */
export function widgetDefinition(group: string): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget", shortNames: ["wdg"] },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                spec: {
                  type: "object",
                  required: ["color"],
                  properties: {
                    size: { type: "integer", minimum: 1 },
                    color: { type: "string", enum: ["red", "green", "blue"] },
                    mode: { type: "string", default: "fast" },
                    extra: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
                  },
                },
                status: { type: "object", properties: { phase: { type: "string" } } },
              },
            },
          },
        },
      ],
    },
  };
}

/** Creates the case's definition (in `group`, else a new one) and waits until it is Established and its collection answers. */
export async function createDefinition(context: CaseContext, group = `${context.name("crd")}.${context.namespace}.example.io`): Promise<CaseDefinition> {
  const name = `widgets.${group}`;
  await create(context, DEFINITIONS, widgetDefinition(group), `creating CustomResourceDefinition ${name}`);
  const path = `${DEFINITIONS}/${name}`;
  const definition = { name, group, path, collection: `/apis/${group}/v1/namespaces/${context.namespace}/widgets` };
  const outcome = await context.pollUntil({
    what: `CustomResourceDefinition ${name} to be Established and served`,
    withinMs: 30_000,
    probe: async () => {
      const read = await context.client.get(path);
      const conditions = fieldAt(read.json, "status", "conditions");
      const established = Array.isArray(conditions) && conditions.some((entry) => fieldAt(entry, "type") === "Established" && fieldAt(entry, "status") === "True");
      if (!established) return undefined;
      return (await context.client.get(definition.collection)).status === 200 ? true : undefined;
    },
  });
  check(outcome.value === true, `CustomResourceDefinition ${name} was not Established and served within 30 s`);
  return definition;
}

/** Deletes the case's definition (its objects go with it); a definition already gone is fine. */
export async function deleteDefinition(context: CaseContext, definition: CaseDefinition): Promise<void> {
  const answer = await context.client.delete(definition.path);
  check(answer.status === 200 || answer.status === 202 || answer.status === 404, `DELETE ${definition.path} answered ${answer.status}`);
}

/** A Widget of the case's definition. */
export function widget(definition: CaseDefinition, name: string, spec: unknown, rest: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: `${definition.group}/v1`, kind: "Widget", metadata: { name }, spec, ...rest };
}
