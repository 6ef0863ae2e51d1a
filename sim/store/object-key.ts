/**
 * Storage keys. An object lives at `<resource>/<namespace>/<name>`; cluster-scoped objects have
 * an empty namespace (`nodes//node-a`). Key order is plain string order, as in etcd, and a list of
 * one namespace or of all namespaces is a key-prefix scan.
 */
import type { KeyHistory } from "./key-history.ts";

/** Where an object is stored; `namespace` is "" for cluster-scoped resources. */
export interface ObjectKey {
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
}

/**
 * An ObjectKey encoded once, for a key written again and again (a node's Lease, renewed every
 * 10 s): building and hashing the key string anew on each write cost as much as the write's copy.
 */
export class EncodedObjectKey implements ObjectKey {
  /** `encodeKey` of this key. */
  readonly encoded: string;
  /**
   * The key's history in the store that last looked it up, and that store (MvccStore sets and
   * checks both; a history the store has since forgotten is marked retired): the next write
   * through this key goes straight to it, not through the map of every key (155,000 in the
   * 5,000-node run, its entries cold in the cache by the time a Lease is renewed again).
   */
  historyOwner: object | undefined;
  history: KeyHistory | undefined;

  constructor(
    readonly resource: string,
    readonly namespace: string,
    readonly name: string,
  ) {
    this.encoded = encodeComponents(this);
  }
}

/** The storage key of an object; throws on a component that would break the key's shape. */
export function encodeKey(key: ObjectKey): string {
  return key instanceof EncodedObjectKey ? key.encoded : encodeComponents(key);
}

function encodeComponents(key: ObjectKey): string {
  assertComponent("resource", key.resource, false);
  assertComponent("namespace", key.namespace, true);
  assertComponent("name", key.name, false);
  return `${key.resource}/${key.namespace}/${key.name}`;
}

/** The key prefix of a collection: every namespace when `namespace` is undefined, else one. */
export function collectionPrefix(resource: string, namespace?: string): string {
  assertComponent("resource", resource, false);
  if (namespace === undefined) return `${resource}/`;
  assertComponent("namespace", namespace, true);
  return `${resource}/${namespace}/`;
}

/** The key just after every key that starts with `key` + something: used to resume after `key`. */
export function keyAfter(key: string): string {
  return `${key}\u0000`;
}

function assertComponent(what: string, value: string, mayBeEmpty: boolean): void {
  if (value.includes("/") || value.includes("\u0000") || (!mayBeEmpty && value === "")) {
    throw new Error(`store key: invalid ${what} ${JSON.stringify(value)}`);
  }
}
