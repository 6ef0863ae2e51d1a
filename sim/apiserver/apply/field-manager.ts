/**
 * Field ownership across writes, as kube-apiserver's field manager and structured-merge-diff's
 * Updater keep it (recorded in recorded/, README there):
 *
 * - an Update (create, PUT, a non-apply PATCH, a status or scale write) takes every field it adds
 *   or changes from whoever owned it, drops the fields it removes from everyone, and adds what it
 *   took to its own entry (per manager, apiVersion and subresource), whose time moves only when
 *   it took something;
 * - an Apply owns exactly the fields its configuration names; a field another manager owns that
 *   it would change is a conflict (409) unless forced, when ownership moves; one it sets to the
 *   value it already has is shared; what it owned before and no longer names is removed from the
 *   object unless someone else still owns it.
 *
 * The fields Kubernetes never tracks (apiVersion, kind, the server-set metadata) are left out of
 * every set, and for a type with a status subresource, status is left out of writes to the object.
 */
import { FieldSet, fieldElement } from "./field-set.ts";
import { compareObjects, isObject, toFieldSet } from "./field-walks.ts";
import { removeUnowned } from "./field-removal.ts";
import { managerIdentity, type ManagerEntry, type Writer } from "./managed-fields.ts";
import { mergeApplied } from "./structured-merge.ts";
import type { TypeNode } from "./type-structure.ts";
import { applyConflictError, type ApplyConflict } from "./apply-conflicts.ts";

type Json = Record<string, unknown>;

// Kubernetes' stripmeta.go: fields no manager owns.
const UNTRACKED_METADATA = ["name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName", "generation", "managedFields", "resourceVersion"];

/** What a type's writes track. */
export interface TrackedType {
  readonly node: TypeNode;
  /** Paths a write of this subresource does not own (status, for the object itself of a type with a status subresource). */
  readonly ignored: FieldSet;
}

/** The managers after an Update by `writer` that turned `before` into `after`. */
export function updateManagers(type: TrackedType, before: Json | undefined, after: Json, managers: readonly ManagerEntry[], writer: Writer, time: string | undefined): ManagerEntry[] {
  const comparison = compareObjects(tracked(before ?? {}, type.node), tracked(after, type.node), type.node);
  const changed = untracked(comparison.added.union(comparison.modified));
  // The writer takes what it changed from everyone (an Update is always forced) and nobody keeps what it removed.
  let out = managers.map((entry) => ({ ...entry, fields: entry.fields.difference(changed).difference(comparison.removed) }));
  const own = changed.recursiveDifference(type.ignored);
  if (!own.isEmpty()) {
    const identity = managerIdentity(writer);
    const previous = out.find((entry) => managerIdentity(entry) === identity);
    out = out.filter((entry) => entry !== previous);
    out.push({ ...writer, time, fields: previous === undefined ? own : previous.fields.union(own) });
  }
  return out.filter((entry) => !entry.fields.isEmpty());
}

/** The object an apply makes and its managers; throws the 409 of its conflicts unless `force`. */
export function applyConfiguration(
  type: TrackedType,
  live: Json,
  config: Json,
  managers: readonly ManagerEntry[],
  writer: Writer,
  force: boolean,
  time: string,
): { readonly object: Json; readonly managers: ManagerEntry[] } {
  let merged = mergeApplied(live, config, type.node) as Json;
  const identity = managerIdentity(writer);
  const last = managers.find((entry) => managerIdentity(entry) === identity);
  const applied = untracked(toFieldSet(tracked(config, type.node), type.node)).recursiveDifference(type.ignored);
  const others = managers.filter((entry) => entry !== last);
  if (last !== undefined) {
    // What the applier stopped naming goes, unless someone (the applier included) still owns it.
    const owned = others.reduce((all, entry) => all.union(entry.fields), applied);
    merged = removeUnowned(merged, last.fields.difference(applied), owned, type.node) as Json;
  }
  const comparison = compareObjects(tracked(live, type.node), tracked(merged, type.node), type.node);
  const changed = comparison.added.union(comparison.modified);
  const conflicts: ApplyConflict[] = [];
  const kept = others.map((entry) => {
    const taken = entry.fields.intersection(changed);
    for (const path of taken.paths()) conflicts.push({ owner: entry, path });
    return { ...entry, fields: entry.fields.difference(taken).difference(comparison.removed) };
  });
  if (!force && conflicts.length > 0) {
    conflicts.sort((a, b) => (managerIdentity(a.owner) < managerIdentity(b.owner) ? -1 : managerIdentity(a.owner) > managerIdentity(b.owner) ? 1 : 0));
    throw applyConflictError(conflicts);
  }
  const entry: ManagerEntry = { ...writer, time, fields: applied };
  return { object: merged, managers: [...kept, entry].filter((manager) => !manager.fields.isEmpty()) };
}

// Struct fields a Go object always has (Kubernetes compares typed objects, where an unset spec or
// status is `{}`, not absent): so a first status write owns status's fields, not status itself (recorded).
const ALWAYS_PRESENT = ["spec", "status"];

/** `object` without the fields no manager owns, for comparing and collecting fields. */
export function tracked(object: Json, node: TypeNode): Json {
  const { apiVersion: _apiVersion, kind: _kind, ...rest } = object;
  if (node.kind === "map") {
    for (const field of ALWAYS_PRESENT) if (rest[field] === undefined && node.field(field).kind === "map") rest[field] = {};
  }
  const metadata = rest["metadata"];
  if (!isObject(metadata)) return rest;
  const kept: Json = { ...metadata };
  for (const field of UNTRACKED_METADATA) delete kept[field];
  return { ...rest, metadata: kept };
}

/** `set` without `metadata` itself as a member (only fields under it are owned). */
function untracked(set: FieldSet): FieldSet {
  const metadata = set.child(fieldElement("metadata"));
  if (metadata !== undefined) metadata.member = false;
  return set;
}
