/**
 * The objects of one case, named under a prefix unique in the run, and the writes to them, each
 * returning the change a watch must report (doc 1 §6).
 *
 * Everything else is left out of the checks: a real cluster adds objects of its own to a new
 * namespace (Kubernetes publishes a `kube-root-ca.crt` ConfigMap in each one, shortly after the
 * namespace appears).
 */
import type { CaseContext } from "../../case-context.ts";
import { check } from "../../check.ts";
import { CaseFailure } from "../../case-outcome.ts";
import type { ApiResponse } from "../../client/conformance-client.ts";
import { recordOf } from "../../client/json-fields.ts";
import { configMaps } from "./config-maps.ts";
import { describeJson } from "./json-guards.ts";
import { itemsOf } from "./list-body.ts";
import { metadataOf } from "./object-body.ts";

/** The objects of one case: names under a prefix unique in the run. */
export interface Scope {
  readonly prefix: string;
  /** The full name of the case's object `suffix`. */
  name(suffix: string): string;
  /** Whether `name` is one of the case's objects. */
  ours(name: unknown): boolean;
}

/** A scope for the case's objects, named `<prefix>-<run>-<n>-<suffix>`. */
export function scope(context: CaseContext, prefix: string): Scope {
  const base = context.name(prefix);
  return {
    prefix: base,
    name: (suffix) => `${base}-${suffix}`,
    ours: (name) => typeof name === "string" && name.startsWith(`${base}-`),
  };
}

/** What one write did, as a watch must report it (doc 1 §6). */
export interface Change {
  readonly type: "ADDED" | "MODIFIED" | "DELETED";
  readonly name: string;
  /** The resourceVersion the write answered with; undefined when the answer carried none (a DELETE's Status). */
  readonly resourceVersion: string | undefined;
  /** The object the write answered with (undefined for a DELETE answered with a Status). */
  readonly object: unknown;
}

function setupFailure(what: string, response: ApiResponse): string {
  return `setup: ${what} answered ${response.status}: ${recordOf(response.json).message ?? response.text.slice(0, 200)}`;
}

/** The resourceVersion a write answered with (undefined without one); fails the setup when it is not a string. */
function answeredVersion(what: string, response: ApiResponse): string | undefined {
  const version = metadataOf(response.json).resourceVersion;
  if (version === undefined || typeof version === "string") return version;
  throw new CaseFailure(`setup: ${what}: metadata.resourceVersion of the answer should be a string, got ${describeJson(version)}`);
}

/** POSTs a ConfigMap `name` with `data` (and extra metadata); returns the ADDED change. */
export async function createObject(context: CaseContext, name: string, data: Record<string, string>, metadata: Record<string, unknown> = {}): Promise<Change> {
  const response = await context.client.post(configMaps(context), { apiVersion: "v1", kind: "ConfigMap", metadata: { ...metadata, name }, data });
  check(response.status === 201 || response.status === 200, setupFailure(`creating ConfigMap ${name}`, response));
  return { type: "ADDED", name, resourceVersion: answeredVersion(`creating ConfigMap ${name}`, response), object: response.json };
}

/** Merge-patches `data` into ConfigMap `name`; returns the MODIFIED change. */
export async function updateObject(context: CaseContext, name: string, data: Record<string, string>): Promise<Change> {
  const response = await context.client.patch(`${configMaps(context)}/${name}`, { data });
  check(response.status === 200, setupFailure(`patching ConfigMap ${name}`, response));
  return { type: "MODIFIED", name, resourceVersion: answeredVersion(`patching ConfigMap ${name}`, response), object: response.json };
}

/** DELETEs ConfigMap `name` (no finalizers: it goes at once); returns the DELETED change. */
export async function deleteObject(context: CaseContext, name: string): Promise<Change> {
  const response = await context.client.delete(`${configMaps(context)}/${name}`);
  check(response.status === 200 || response.status === 202, setupFailure(`deleting ConfigMap ${name}`, response));
  // The object, or (Kubernetes, deviation delete-response) a Success Status, which carries no version.
  const object = recordOf(response.json).kind === "ConfigMap" ? response.json : undefined;
  return { type: "DELETED", name, resourceVersion: undefined, object };
}

/** The case's objects in an unpaged list of the namespace's ConfigMaps (a Most Recent read, doc 1 §4.7). */
export async function listOurs(context: CaseContext, objects: Scope, query = ""): Promise<{ resourceVersion: string; items: readonly unknown[] }> {
  const response = await context.client.get(`${configMaps(context)}${query === "" ? "" : `?${query}`}`);
  check(response.status === 200, setupFailure(`listing ConfigMaps${query === "" ? "" : ` ?${query}`}`, response));
  const resourceVersion = metadataOf(response.json).resourceVersion;
  check(typeof resourceVersion === "string" && resourceVersion !== "", `setup: the list carried no metadata.resourceVersion: ${response.text.slice(0, 200)}`);
  const items = itemsOf(response.json, "setup: the list of ConfigMaps").filter((item) => objects.ours(metadataOf(item).name));
  return { resourceVersion, items };
}
