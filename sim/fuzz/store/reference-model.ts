/**
 * The reference the store is checked against: a plain list of changes, replayed from the start
 * for every question. Too slow for real use and too simple to be wrong, which is the point.
 */

/** One write as the reference records it. */
export interface ReferenceChange {
  readonly revision: number;
  readonly timeMs: number;
  readonly type: "ADDED" | "MODIFIED" | "DELETED";
  readonly key: string;
  /** The payload written (for DELETED, the payload the object had). */
  readonly value: string;
}

/** A key's state at some revision: its payload and the revision that last wrote it. */
export interface ReferenceEntry {
  readonly value: string;
  readonly revision: number;
}

/** Ordered changes plus the store's two revision bounds. */
export class ReferenceModel {
  readonly changes: ReferenceChange[] = [];
  revision = 1;
  compactedRevision = 1;

  /**
   * Records a write the store acknowledged, at the revision the store gave it: the reference
   * follows what the store did, and the properties judge whether that was right.
   */
  record(change: ReferenceChange): void {
    this.revision = change.revision;
    this.changes.push(change);
  }

  /** The state at `revision`: key → entry, keys in string order. */
  stateAt(revision: number, prefix = ""): Map<string, ReferenceEntry> {
    const state = new Map<string, ReferenceEntry>();
    for (const change of this.changes) {
      if (change.revision > revision) break;
      if (change.type === "DELETED") state.delete(change.key);
      else state.set(change.key, { value: change.value, revision: change.revision });
    }
    const keys = [...state.keys()].filter((key) => key.startsWith(prefix)).sort();
    return new Map(keys.map((key) => [key, state.get(key)!]));
  }

  /** The changes after `revision` under `prefix`, in order. */
  changesAfter(revision: number, prefix = ""): ReferenceChange[] {
    return this.changes.filter((change) => change.revision > revision && change.key.startsWith(prefix));
  }

  /** The revision that was current at `timeMs`. */
  revisionAt(timeMs: number): number {
    let revision = 1;
    for (const change of this.changes) {
      if (change.timeMs > timeMs) break;
      revision = change.revision;
    }
    return revision;
  }

  /** Whether a read at `revision` must succeed. */
  isRetained(revision: number): boolean {
    return revision >= this.compactedRevision && revision <= this.revision;
  }
}
