/**
 * Every object a server holds, as it lists them (issue #14: a run must leave what it did not create
 * untouched). The types come from discovery, each listed across all namespaces with paging, and
 * each object is kept as the exact JSON text of its list item, resourceVersion and uid included:
 * two snapshots of an untouched object are equal as text.
 */
import type { Transport } from "../client/conformance-client.ts";

/** One object of a snapshot. */
export interface SnapshotEntry {
  /** `<group>/<resource> <namespace>/<name>`, the namespace empty for cluster-scoped objects. */
  readonly key: string;
  readonly group: string;
  readonly resource: string;
  readonly namespace: string | undefined;
  readonly name: string;
  /** The list item as JSON text. */
  readonly text: string;
}

/** A server's objects by key, and how many types were listed. */
export interface ClusterSnapshot {
  readonly objects: ReadonlyMap<string, SnapshotEntry>;
  readonly types: number;
}

/** How a kept object differs in a later snapshot. */
export interface SnapshotDifference {
  readonly key: string;
  readonly change: "missing" | "changed";
}

/** Where a server is and how to ask it (an admin, who may list everything). */
export interface SnapshotConnection {
  readonly transport: Transport;
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
}

interface Collection {
  readonly group: string;
  readonly groupVersion: string;
  readonly resource: string;
}

const PAGE = 500;

/** Lists every object of every type discovery shows as listable. */
export async function snapshotCluster(connection: SnapshotConnection): Promise<ClusterSnapshot> {
  const objects = new Map<string, SnapshotEntry>();
  const collections = await listableCollections(connection);
  for (const collection of collections) {
    const root = collection.group === "" ? `/api/${collection.groupVersion}` : `/apis/${collection.groupVersion}`;
    let next: string | undefined = "";
    while (next !== undefined) {
      const page = await getJson(connection, `${root}/${collection.resource}?limit=${PAGE}${next === "" ? "" : `&continue=${encodeURIComponent(next)}`}`);
      for (const item of (page.items ?? []) as Array<{ metadata: { name: string; namespace?: string } }>) {
        const { name, namespace } = item.metadata;
        const key = `${collection.group}/${collection.resource} ${namespace ?? ""}/${name}`;
        objects.set(key, { key, group: collection.group, resource: collection.resource, namespace, name, text: JSON.stringify(item) });
      }
      next = page.metadata?.continue || undefined;
    }
  }
  return { objects, types: collections.length };
}

/** The objects of `keys` (default: all of `before`) that `after` lacks or holds changed. */
export function compareSnapshots(before: ClusterSnapshot, after: ClusterSnapshot, keys: Iterable<string> = before.objects.keys()): SnapshotDifference[] {
  const differences: SnapshotDifference[] = [];
  for (const key of keys) {
    const kept = before.objects.get(key);
    if (kept === undefined) throw new Error(`${key} is not in the first snapshot`);
    const now = after.objects.get(key);
    if (now === undefined) differences.push({ key, change: "missing" });
    else if (now.text !== kept.text) differences.push({ key, change: "changed" });
  }
  return differences;
}

/** The objects in `after` that `before` lacks. */
export function addedObjects(before: ClusterSnapshot, after: ClusterSnapshot): SnapshotEntry[] {
  return [...after.objects.values()].filter((entry) => !before.objects.has(entry.key));
}

// The preferred version of each group only: the same objects are served under every version.
async function listableCollections(connection: SnapshotConnection): Promise<Collection[]> {
  const groupVersions: Array<[string, string]> = [["", "v1"]];
  const groups = (await getJson(connection, "/apis")).groups as Array<{ name: string; preferredVersion: { groupVersion: string } }>;
  for (const group of groups) groupVersions.push([group.name, group.preferredVersion.groupVersion]);
  const collections: Collection[] = [];
  for (const [group, groupVersion] of groupVersions) {
    const list = await getJson(connection, group === "" ? "/api/v1" : `/apis/${groupVersion}`);
    for (const resource of list.resources as Array<{ name: string; verbs: string[] }>) {
      // Subresources (pods/status) are views of their object, not objects of their own.
      if (!resource.name.includes("/") && resource.verbs.includes("list")) collections.push({ group, groupVersion, resource: resource.name });
    }
  }
  return collections;
}

async function getJson(connection: SnapshotConnection, path: string): Promise<any> {
  const response = await connection.transport(new Request(`${connection.baseUrl}${path}`, { headers: { ...connection.headers, accept: "application/json" } }));
  const text = await response.text();
  if (response.status !== 200) throw new Error(`snapshot: GET ${path} answered HTTP ${response.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text);
}
