/**
 * The versions of one key, oldest first, so that a read at any retained revision is a search.
 * A version is the key's `Change` itself (the change log holds the same record): one object per
 * write, which matters when 5,000 leases renew every 10 s and each version is kept for the history
 * window.
 */
import type { Change } from "./change-log.ts";
import type { StoredObject } from "./stored-object.ts";

/** Every retained version of one key, in revision order. */
export class KeyHistory {
  /** The key, kept once: every change of this key refers to this string. */
  readonly key: string;
  /** Set once the store has forgotten this key (compaction): a key object that kept it must look again. */
  retired = false;
  private versions: Change[] = [];

  constructor(key: string) {
    this.key = key;
  }

  /** Appends a change of this key; revisions only grow. */
  push(change: Change): void {
    const last = this.versions.at(-1);
    if (last !== undefined && change.revision <= last.revision) {
      throw new Error(`key history: revision ${change.revision} after ${last.revision}`);
    }
    if (change.key !== this.key) throw new Error(`key history of ${this.key}: change of ${change.key}`);
    this.versions.push(change);
  }

  /**
   * Inserts a change older than the newest, in revision order. Only the API server's planted
   * defect "versions-assigned-before-commit" commits out of order (mvcc-store.ts, reserveRevision).
   */
  insertLate(change: Change): void {
    let index = this.versions.length;
    while (index > 0 && this.versions[index - 1]!.revision > change.revision) index--;
    this.versions.splice(index, 0, change);
  }

  /**
   * Whether compaction can have anything to drop here: more than one version, or a deletion.
   * Most keys of a large store (pods written once) never do, and compaction skips them.
   */
  get compactable(): boolean {
    return this.versions.length > 1 || this.versions[0]?.type === "DELETED";
  }

  /** The latest change, if any. */
  latest(): Change | undefined {
    return this.versions.at(-1);
  }

  /** The latest object: null when the key was never written or its last change deleted it. */
  latestObject(): StoredObject | null {
    return visibleObject(this.versions.at(-1));
  }

  /** The object as it stood at `revision`: null when absent (never written yet, or deleted). */
  at(revision: number): StoredObject | null {
    // Binary search for the last version with revision <= the one asked for.
    let low = 0;
    let high = this.versions.length - 1;
    let found: Change | undefined;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const version = this.versions[middle]!;
      if (version.revision <= revision) {
        found = version;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return visibleObject(found);
  }

  /**
   * Drops versions no read at or after `revision` can see: all but the last one at or before it.
   * Returns true when nothing visible is left (the key's last retained version is a deletion at or
   * before `revision`), so the caller can forget the key.
   */
  compact(revision: number): boolean {
    let keepFrom = 0;
    for (let index = 0; index < this.versions.length && this.versions[index]!.revision <= revision; index++) {
      keepFrom = index;
    }
    if (keepFrom > 0) this.versions = this.versions.slice(keepFrom);
    const first = this.versions[0];
    return this.versions.length === 1 && first !== undefined && first.revision <= revision && first.type === "DELETED";
  }
}

// A deletion's change carries the last state, but a read there sees nothing.
function visibleObject(change: Change | undefined): StoredObject | null {
  return change === undefined || change.type === "DELETED" ? null : change.object;
}
