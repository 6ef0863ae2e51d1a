/**
 * The store's key histories found by a key's components (resource, then namespace, then name),
 * beside the store's map by encoded key.
 *
 * Why: a write to a key written before (a node's Lease, renewed every 10 s) comes with a new
 * ObjectKey each time; finding its history by encoded key meant checking the components,
 * building the key string, hashing it and searching one map of every key in the store (160,000
 * in the 5,000-node run), which was a third of each renewal's time in the store. Here the search
 * is in a map of one collection, by a name string that is usually the very one stored (its hash
 * kept in it), and builds nothing.
 *
 * A key is added only after it was checked and written, so components found here are valid and
 * `history.key` is their encoding: a hit needs neither check nor encoding, and a miss takes the
 * store's ordinary path, errors included.
 */
import type { KeyHistory } from "./key-history.ts";
import type { ObjectKey } from "./object-key.ts";

/** Histories by resource, namespace and name. */
export class KeyLookup {
  readonly #byResource = new Map<string, Map<string, Map<string, KeyHistory>>>();

  /** The history of `key`, when the store holds one. */
  find(key: ObjectKey): KeyHistory | undefined {
    return this.#byResource.get(key.resource)?.get(key.namespace)?.get(key.name);
  }

  /** Files `history` under `key`'s components (`key` checked, and encoded as `history.key`). */
  add(key: ObjectKey, history: KeyHistory): void {
    let namespaces = this.#byResource.get(key.resource);
    if (namespaces === undefined) {
      namespaces = new Map();
      this.#byResource.set(key.resource, namespaces);
    }
    let names = namespaces.get(key.namespace);
    if (names === undefined) {
      names = new Map();
      namespaces.set(key.namespace, names);
    }
    names.set(key.name, history);
  }

  /** Forgets the history of the encoded key `encoded` (`<resource>/<namespace>/<name>`). */
  delete(encoded: string): void {
    // No component holds a "/" (object-key.ts), so the first and last ones split the key.
    const first = encoded.indexOf("/");
    const last = encoded.lastIndexOf("/");
    const resource = encoded.slice(0, first);
    const namespace = encoded.slice(first + 1, last);
    const namespaces = this.#byResource.get(resource);
    const names = namespaces?.get(namespace);
    if (names === undefined) return;
    names.delete(encoded.slice(last + 1));
    if (names.size > 0) return;
    namespaces!.delete(namespace);
    if (namespaces!.size === 0) this.#byResource.delete(resource);
  }
}
