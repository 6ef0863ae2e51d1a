/**
 * The shape the store requires of an object: Kubernetes-style metadata with a name. Stored
 * objects are deep-frozen copies, so neither the writer nor any reader can change history by
 * mutating what it holds (a cheap, always-on guard of the MVCC snapshots).
 */

/** The metadata fields the store reads or sets; everything else passes through untouched. */
export interface ObjectMeta {
  name: string;
  namespace?: string;
  resourceVersion?: string;
  [field: string]: unknown;
}

/** Any API object: metadata plus whatever fields its kind has. */
export interface StoredObject {
  metadata: ObjectMeta;
  [field: string]: unknown;
}

/** A frozen deep copy of `object` with `metadata.resourceVersion` set. */
export function freezeWithResourceVersion(object: StoredObject, resourceVersion: string): StoredObject {
  const copy = structuredClone(object);
  copy.metadata.resourceVersion = resourceVersion;
  return deepFreeze(copy);
}

/** `object` (already frozen) restamped with another resourceVersion, sharing everything else. */
export function restampResourceVersion(object: StoredObject, resourceVersion: string): StoredObject {
  return Object.freeze({ ...object, metadata: Object.freeze({ ...object.metadata, resourceVersion }) });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
