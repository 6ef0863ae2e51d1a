/**
 * The store's history as a list of changes, one per revision, in revision order: what watches
 * replay and what compaction trims (doc 1 §8: history retained for a window of time).
 */
import { assert } from "../kernel/assert.ts";
import type { StoredObject } from "./stored-object.ts";

/** The kinds of change a write makes (doc 1 §6; DELETED is Kubernetes' name, "not shown" in doc 1). */
export type ChangeType = "ADDED" | "MODIFIED" | "DELETED";

/** One committed write. For DELETED, `object` is the last state stamped with the deletion's revision. */
export interface Change {
  readonly type: ChangeType;
  readonly key: string;
  readonly revision: number;
  /** Clock time of the write, for time-based compaction. */
  readonly timeMs: number;
  readonly object: StoredObject;
  /** The state before this write (undefined for ADDED): lets watches with a filter see transitions. */
  readonly previous?: StoredObject;
  /** The change of the same key before this one, while retained: the key's history is a list of changes (key-history.ts). */
  older?: Change | undefined;
}

/** Retained changes, oldest first; revisions strictly increase. */
export class ChangeLog {
  private changes: Change[] = [];

  /** Appends the change of the next revision. */
  append(change: Change): void {
    const last = this.changes.at(-1);
    // Consumed: the log is in commit order because revisions only grow (produced in MvccStore.commit).
    assert(last === undefined || change.revision > last.revision, "store/revision-grows", () => `change log: revision ${change.revision} appended after ${last!.revision}`);
    this.changes.push(change);
  }

  /**
   * Inserts a change older than the newest, in revision order. Only the API server's planted
   * defect "versions-assigned-before-commit" commits out of order (mvcc-store.ts, reserveRevision).
   */
  insertLate(change: Change): void {
    this.changes.splice(this.firstIndexAfter(change.revision), 0, change);
  }

  /** Retained changes with revision > `revision`, in order. */
  *after(revision: number): Generator<Change> {
    for (let index = this.firstIndexAfter(revision); index < this.changes.length; index++) {
      yield this.changes[index]!;
    }
  }

  /** The oldest retained change, if any. */
  first(): Change | undefined {
    return this.changes[0];
  }

  /** The revision of the newest change written at or before `timeMs`, if one is retained. */
  lastRevisionAtOrBefore(timeMs: number): number | undefined {
    // An indexed loop: this runs once per compaction, unoptimized, where for-of made an iterator
    // result per change (a few hundred thousand in a large run's window).
    const { changes } = this;
    let found: number | undefined;
    for (let index = 0; index < changes.length && changes[index]!.timeMs <= timeMs; index++) found = changes[index]!.revision;
    return found;
  }

  /** Forgets changes with revision <= `revision`. */
  dropThrough(revision: number): void {
    this.changes = this.changes.slice(this.firstIndexAfter(revision));
  }

  private firstIndexAfter(revision: number): number {
    let low = 0;
    let high = this.changes.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.changes[middle]!.revision <= revision) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
