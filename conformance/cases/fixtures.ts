/** Objects and paths the cases share: ConfigMaps in the case's namespace, the simplest served type. */
import type { CaseContext } from "../case-context.ts";
import { check } from "../check.ts";

/** The ConfigMap collection of the case's namespace. */
export function configMaps(context: CaseContext): string {
  return `/api/v1/namespaces/${context.namespace}/configmaps`;
}

/** A ConfigMap body. */
export function configMap(name: string, data: Record<string, string> = {}, labels?: Record<string, string>): Record<string, unknown> {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name, ...(labels !== undefined && { labels }) }, data };
}

/** Creates ConfigMaps `<prefix>-0` … `<prefix>-<count-1>` and returns their names in key order. */
export async function createConfigMaps(context: CaseContext, prefix: string, count: number, labels?: (index: number) => Record<string, string>): Promise<string[]> {
  const names: string[] = [];
  for (let index = 0; index < count; index++) {
    const name = `${prefix}-${index}`;
    const created = await context.client.post(configMaps(context), configMap(name, { index: String(index) }, labels?.(index)));
    check(created.status === 201 || created.status === 200, `setup: creating ConfigMap ${name} answered ${created.status}: ${created.json?.message ?? created.text.slice(0, 200)}`);
    names.push(name);
  }
  return names.sort();
}

/** The names of a list's items. */
export function itemNames(list: any): string[] {
  return ((list?.items ?? []) as Array<{ metadata?: { name?: string } }>).map((item) => item.metadata?.name ?? "?");
}

/** A query string value, encoded. */
export function q(value: string): string {
  return encodeURIComponent(value);
}
