/** The versions of one key, oldest first, so that a read at any retained revision is a search. */
import type { StoredObject } from "./stored-object.ts";

/** One version of a key: the object written at `revision`, or null where it was deleted. */
export interface KeyVersion {
  readonly revision: number;
  readonly object: StoredObject | null;
}

/** Every retained version of one key, in revision order. */
export class KeyHistory {
  private versions: KeyVersion[] = [];

  /** Appends a version; revisions only grow. */
  push(version: KeyVersion): void {
    const last = this.versions.at(-1);
    if (last !== undefined && version.revision <= last.revision) {
      throw new Error(`key history: revision ${version.revision} after ${last.revision}`);
    }
    this.versions.push(version);
  }

  /** The latest version, if any. */
  latest(): KeyVersion | undefined {
    return this.versions.at(-1);
  }

  /** The object as it stood at `revision`: null when absent (never written yet, or deleted). */
  at(revision: number): StoredObject | null {
    // Binary search for the last version with revision <= the one asked for.
    let low = 0;
    let high = this.versions.length - 1;
    let found: KeyVersion | undefined;
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
    return found?.object ?? null;
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
    return this.versions.length === 1 && first !== undefined && first.revision <= revision && first.object === null;
  }
}
