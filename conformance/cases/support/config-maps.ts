/** ConfigMaps in the case's namespace, the simplest served type: paths, bodies and creates. */
import type { CaseContext } from "../../case-context.ts";
import { check } from "../../check.ts";
import { recordOf } from "../../client/json-fields.ts";
import { create } from "./creates.ts";
import type { ObjectBody } from "./object-body.ts";
import { q } from "./query.ts";

/** The ConfigMap collection of the case's namespace. */
export function configMaps(context: CaseContext): string {
  return `/api/v1/namespaces/${context.namespace}/configmaps`;
}

/** A ConfigMap body. */
export function configMap(name: string, data: Record<string, string> = {}, labels?: Record<string, string>): Record<string, unknown> {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name, ...(labels !== undefined && { labels }) }, data };
}

/** The path of ConfigMap `name` in the case's namespace. */
export function configMapPath(context: CaseContext, name: string): string {
  return `${configMaps(context)}/${name}`;
}

/** Creates ConfigMap `name` in the case's namespace; returns the created object. */
export async function createConfigMap(context: CaseContext, name: string, data: Record<string, string> = {}, labels?: Record<string, string>, finalizers?: string[]): Promise<ObjectBody> {
  const body = configMap(name, data, labels);
  if (finalizers !== undefined) (body["metadata"] as Record<string, unknown>)["finalizers"] = finalizers;
  return create(context, configMaps(context), body, `creating ConfigMap ${name}`);
}

/** Creates ConfigMaps `<prefix>-0` … `<prefix>-<count-1>` and returns their names in key order. */
export async function createConfigMaps(context: CaseContext, prefix: string, count: number, labels?: (index: number) => Record<string, string>): Promise<string[]> {
  const names: string[] = [];
  for (let index = 0; index < count; index++) {
    const name = `${prefix}-${index}`;
    const created = await context.client.post(configMaps(context), configMap(name, { index: String(index) }, labels?.(index)));
    check(created.status === 201 || created.status === 200, `setup: creating ConfigMap ${name} answered ${created.status}: ${recordOf(created.json).message ?? created.text.slice(0, 200)}`);
    names.push(name);
  }
  return names.sort();
}

/** Creates ConfigMaps `<prefix>-a`, `-b`, `-c` labelled `set=<prefix>`; returns their names and the selector query. */
export async function labelledConfigMaps(context: CaseContext, prefix: string, count = 3): Promise<{ names: string[]; selector: string }> {
  const set = context.name(prefix);
  const names: string[] = [];
  for (let index = 0; index < count; index++) {
    const name = `${set}-${String.fromCharCode(97 + index)}`;
    await createConfigMap(context, name, { index: String(index) }, { set });
    names.push(name);
  }
  return { names: names.sort(), selector: `labelSelector=${q(`set=${set}`)}` };
}
