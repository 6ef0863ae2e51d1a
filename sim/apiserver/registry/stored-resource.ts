/**
 * How objects of a served type map onto the store: keys, collection prefixes, and the type meta
 * (kind, apiVersion) that objects carry on the wire but not in storage, as list items don't
 * (transcript list-page-3: items have no kind or apiVersion).
 */
import { collectionPrefix, EncodedObjectKey, type ObjectKey } from "../../store/object-key.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import { apiVersionOf, type ResourceType } from "../routing/resource-types.ts";
import type { ObjectAddress } from "./registry-context.ts";

/** The store's resource name of a type: the plural, qualified by group for named groups. */
function storageResource(type: ResourceType): string {
  return type.group === "" ? type.resource : `${type.resource}.${type.group}`;
}

/** The store key of an object of `type`. */
export function storageKey(type: ResourceType, namespace: string | undefined, name: string): ObjectKey {
  return { resource: storageResource(type), namespace: type.namespaced ? (namespace ?? "") : "", name };
}

/** The store key of the object at `address`: the one it carries, or `storageKey` of its parts. */
export function addressKey(address: ObjectAddress): ObjectKey {
  return address.storageKey ?? storageKey(address.type, address.namespace, address.name);
}

/** `storageKey`, encoded once: for objects written again and again. */
export function encodedStorageKey(type: ResourceType, namespace: string | undefined, name: string): EncodedObjectKey {
  const { resource, namespace: keyNamespace } = storageKey(type, namespace, name);
  return new EncodedObjectKey(resource, keyNamespace, name);
}

/** The key prefix of a collection: one namespace, or all of them when `namespace` is undefined. */
export function storagePrefix(type: ResourceType, namespace: string | undefined): string {
  return collectionPrefix(storageResource(type), type.namespaced ? namespace : undefined);
}

// ObjectMeta's fields in the order Kubernetes serializes them (its Go struct order).
const METADATA_ORDER = [
  "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation", "creationTimestamp",
  "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "ownerReferences", "finalizers", "managedFields",
];

/** Metadata with its fields in Kubernetes' order (the store appends resourceVersion last). */
function orderedMetadata(metadata: StoredObject["metadata"]): StoredObject["metadata"] {
  const ordered: Record<string, unknown> = {};
  for (const field of METADATA_ORDER) if (metadata[field] !== undefined) ordered[field] = metadata[field];
  for (const [field, value] of Object.entries(metadata)) if (!(field in ordered)) ordered[field] = value;
  return ordered as StoredObject["metadata"];
}

/** The object as sent to clients: kind and apiVersion first, then the stored fields. */
export function withTypeMeta(type: ResourceType, object: StoredObject): Record<string, unknown> {
  return { kind: type.kind, apiVersion: apiVersionOf(type), ...object, metadata: orderedMetadata(object.metadata) };
}

/** A list item as sent to clients: no type meta (transcript list-page-3), metadata in order. */
export function listItem(object: StoredObject): StoredObject {
  return { ...object, metadata: orderedMetadata(object.metadata) };
}

/** The stored form of a request object: without kind and apiVersion. */
export function withoutTypeMeta(object: Record<string, unknown>): StoredObject {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = object;
  return rest as unknown as StoredObject;
}
