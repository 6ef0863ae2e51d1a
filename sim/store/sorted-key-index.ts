/**
 * The set of keys in string order, for prefix scans. New keys are appended to a pending batch
 * and merged in on the next scan, so a burst of creates costs one sort, not one shift per insert.
 */

/** Every key with retained history, in string order. */
export class SortedKeyIndex {
  private sorted: string[] = [];
  private pending: string[] = [];
  private readonly members = new Set<string>();

  /** Adds a key (no-op when present). */
  add(key: string): void {
    if (this.members.has(key)) return;
    this.members.add(key);
    this.pending.push(key);
  }

  /** Removes keys (compaction forgets dead keys). */
  removeAll(keys: ReadonlySet<string>): void {
    if (keys.size === 0) return;
    for (const key of keys) this.members.delete(key);
    this.flush();
    this.sorted = this.sorted.filter((key) => !keys.has(key));
  }

  /** Keys >= `startKey` that start with `prefix`, in order. */
  *scan(prefix: string, startKey: string): Generator<string> {
    this.flush();
    const from = startKey > prefix ? startKey : prefix;
    for (let index = this.lowerBound(from); index < this.sorted.length; index++) {
      const key = this.sorted[index]!;
      if (!key.startsWith(prefix)) return;
      yield key;
    }
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending.sort();
    this.pending = [];
    const merged: string[] = new Array(this.sorted.length + batch.length);
    let a = 0;
    let b = 0;
    let out = 0;
    while (a < this.sorted.length || b < batch.length) {
      const takeBatch = a >= this.sorted.length || (b < batch.length && batch[b]! < this.sorted[a]!);
      merged[out++] = takeBatch ? batch[b++]! : this.sorted[a++]!;
    }
    this.sorted = merged;
  }

  private lowerBound(key: string): number {
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.sorted[middle]! < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
