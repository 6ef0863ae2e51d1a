/**
 * Server-side apply from the cases: a ConfigMap's applied configuration sent as YAML with
 * `application/apply-patch+yaml` (what `kubectl apply --server-side` sends), and the entries of
 * metadata.managedFields read through guards.
 */
import type { CaseContext } from "../../case-context.ts";
import type { ApiResponse } from "../../client/conformance-client.ts";
import { recordOf, type JsonRecord } from "../../client/json-fields.ts";
import { configMapPath } from "./config-maps.ts";
import { arrayOrEmpty, expectRecord } from "./json-guards.ts";
import { metadataOf } from "./object-body.ts";

export const APPLY_PATCH = "application/apply-patch+yaml";

/** The YAML of a ConfigMap configuration (labels, then data), values quoted. */
export function configMapYaml(name: string, data: Readonly<Record<string, string>>, labels?: Readonly<Record<string, string>>): string {
  const lines = ["apiVersion: v1", "kind: ConfigMap", "metadata:", `  name: ${name}`];
  if (labels !== undefined) lines.push("  labels:", ...Object.entries(labels).map(([key, value]) => `    ${key}: ${JSON.stringify(value)}`));
  lines.push("data:", ...Object.entries(data).map(([key, value]) => `  ${key}: ${JSON.stringify(value)}`));
  return `${lines.join("\n")}\n`;
}

/** How an apply is sent. */
export interface ApplyOptions {
  /** The fieldManager parameter; undefined sends none. */
  readonly manager: string | undefined;
  readonly force?: boolean;
  readonly dryRun?: boolean;
}

/** Applies ConfigMap `name` with `data` (and `labels`) as `options.manager`. */
export function applyConfigMap(
  context: CaseContext,
  name: string,
  data: Readonly<Record<string, string>>,
  options: ApplyOptions,
  labels?: Readonly<Record<string, string>>,
): Promise<ApiResponse> {
  const query = new URLSearchParams();
  if (options.manager !== undefined) query.set("fieldManager", options.manager);
  if (options.force === true) query.set("force", "true");
  if (options.dryRun === true) query.set("dryRun", "All");
  const suffix = query.size === 0 ? "" : `?${query.toString()}`;
  return context.client.request("PATCH", `${configMapPath(context, name)}${suffix}`, { body: configMapYaml(name, data, labels), contentType: APPLY_PATCH });
}

/** The managedFields entries of an object, each a JSON object. */
export function managedFieldsOf(object: unknown, what: string): JsonRecord[] {
  return arrayOrEmpty(metadataOf(object).managedFields, `${what}: metadata.managedFields`).map((entry, index) => expectRecord(entry, `${what}: managedFields[${index}]`));
}

/** The entry of `manager` with `operation`, if there is one. */
export function entryOf(entries: readonly JsonRecord[], manager: string, operation: "Apply" | "Update"): JsonRecord | undefined {
  return entries.find((entry) => entry.manager === manager && entry.operation === operation);
}

/** The data keys an entry owns (`f:data` children), sorted. */
export function ownedDataKeys(entry: JsonRecord | undefined): string[] {
  const data = recordOf(recordOf(entry?.fieldsV1)["f:data"]);
  return Object.keys(data)
    .filter((key) => key.startsWith("f:"))
    .map((key) => key.slice(2))
    .sort();
}

/** A short account of the entries (manager, operation, owned data keys) for failure messages. */
export function describeEntries(entries: readonly JsonRecord[]): string {
  return entries.map((entry) => `${String(entry.manager)}/${String(entry.operation)}[${ownedDataKeys(entry).join(",")}]`).join(" ") || "(none)";
}
