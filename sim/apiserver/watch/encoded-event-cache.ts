/**
 * Encoded watch events, shared by every watcher of the same object in the same representation: a
 * write that a thousand watchers see is encoded once, not a thousand times (issue #14: encoding
 * each event once per watcher held writes to 19 a second with 1,000 watchers open). Bounded to the
 * most recent objects; a watcher far behind the others encodes for itself again.
 */
const DEFAULT_CAPACITY = 4096;

/** Encodings by stored object (the store shares one frozen object among all watchers) and key. */
export class EncodedEventCache {
  private readonly entries = new Map<object, Map<string, Uint8Array>>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** The bytes `encode` makes for this object and key, made at most once while the entry is kept. */
  encoded(object: object, key: string, encode: () => Uint8Array): Uint8Array {
    let byKey = this.entries.get(object);
    const cached = byKey?.get(key);
    if (cached !== undefined) return cached;
    const bytes = encode();
    if (byKey === undefined) {
      byKey = new Map();
      this.entries.set(object, byKey);
      // Maps iterate in insertion order: the first key is the oldest object.
      if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    }
    byKey.set(key, bytes);
    return bytes;
  }
}
