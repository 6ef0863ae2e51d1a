/**
 * A small, faithful model of one namespace of ConfigMaps on a Kubernetes-shaped server, for
 * generating valid histories: a change log with one global revision per change (etcd's), object
 * states per name, and the reads a server answers from it: the state at a revision, the revision
 * current at a time, whether a revision is still retained. It is independent of the checkers on
 * purpose (its own selector matching, its own bookkeeping), so that a bug shared by both cannot
 * hide.
 *
 * Two options imitate a real cluster: `foreignRevisions` interleaves revisions of writes in other
 * namespaces between the namespace's own (a list or a bookmark may then carry a version no change
 * of the namespace has), and `opaqueVersions` writes revisions as strings that do not sort (a
 * multiplicative scramble), so that nothing can compare versions as numbers.
 */
import type { ObjectState } from "./api-history.ts";

/** One committed change. */
export interface SimulatedChange {
  /** Index in the log (0-based): the cut after it is index + 1. */
  readonly index: number;
  readonly revision: number;
  readonly version: string;
  readonly timeMs: number;
  readonly name: string;
  readonly before: ObjectState | undefined;
  /** The object after the change; undefined for a deletion. */
  readonly after: ObjectState | undefined;
  /** For a deletion: the last state with the deletion's version (what DELETED events carry). */
  readonly deleted: ObjectState | undefined;
  /** The history operation that made it (its draft's sequence number), -1 for none. */
  readonly writeSeq: number;
}

/** How versions are written. */
export type VersionFormat = (revision: number) => string;

export const decimalVersions: VersionFormat = (revision) => String(revision);

/** A bijection of 32-bit revisions onto strings in no useful order. */
export const opaqueVersions: VersionFormat = (revision) => `v${(Math.imul(revision, 0x9e3779b1) >>> 0).toString(36)}`;

export class SimulatedNamespace {
  readonly changes: SimulatedChange[] = [];
  private readonly current = new Map<string, ObjectState>();
  private readonly historyOfName = new Map<string, { cut: number; object: ObjectState | undefined }[]>();
  private readonly revisionOfVersion = new Map<string, number>();
  private revisionNow: number;
  private uidCounter = 0;

  constructor(
    /** The revision of the (empty) namespace at time 0: the cluster's revision then. */
    readonly baseRevision: number,
    readonly format: VersionFormat,
    /** Revisions of other namespaces before each change: 0 for a namespace alone on its server. */
    private readonly foreignGap: () => number,
  ) {
    this.revisionNow = baseRevision;
  }

  get revision(): number {
    return this.revisionNow;
  }

  /** The object a name holds now. */
  objectOf(name: string): ObjectState | undefined {
    return this.current.get(name);
  }

  newUid(): string {
    return `uid-${++this.uidCounter}`;
  }

  /** Commits a change at `timeMs`; `after` without version (it gets the change's), undefined to delete. */
  commit(timeMs: number, name: string, after: Omit<ObjectState, "resourceVersion"> | undefined, writeSeq: number): SimulatedChange {
    const before = this.current.get(name);
    this.revisionNow += 1 + this.foreignGap();
    const version = this.format(this.revisionNow);
    const written = after === undefined ? undefined : Object.freeze({ ...after, resourceVersion: version });
    const deleted = after === undefined && before !== undefined ? Object.freeze({ ...before, resourceVersion: version }) : undefined;
    const change: SimulatedChange = {
      index: this.changes.length,
      revision: this.revisionNow,
      version,
      timeMs,
      name,
      before,
      after: written,
      deleted,
      writeSeq,
    };
    this.changes.push(change);
    this.revisionOfVersion.set(version, this.revisionNow);
    if (written === undefined) this.current.delete(name);
    else this.current.set(name, written);
    const list = this.historyOfName.get(name);
    const entry = { cut: change.index + 1, object: written };
    if (list === undefined) this.historyOfName.set(name, [entry]);
    else list.push(entry);
    return change;
  }

  /** The revision a change's version stands for. */
  revisionOf(version: string): number | undefined {
    return this.revisionOfVersion.get(version);
  }

  /** Changes committed at or before `timeMs`: the cut a read at that instant sees. */
  cutAtTime(timeMs: number): number {
    let low = 0;
    let high = this.changes.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.changes[mid]!.timeMs <= timeMs) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Changes with revision at or below `revision`. */
  cutOfRevision(revision: number): number {
    let low = 0;
    let high = this.changes.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.changes[mid]!.revision <= revision) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** The revision of the state at a cut (the last change's, or the base). */
  revisionOfCut(cut: number): number {
    return cut === 0 ? this.baseRevision : this.changes[cut - 1]!.revision;
  }

  /**
   * The cluster's revision at `timeMs`: the last change's, plus the foreign revisions committed
   * since, spread evenly up to the next change.
   */
  globalRevisionAt(timeMs: number): number {
    const cut = this.cutAtTime(timeMs);
    const revision = this.revisionOfCut(cut);
    const next = this.changes[cut];
    if (next === undefined) return revision;
    const gap = next.revision - revision - 1;
    if (gap <= 0) return revision;
    const since = cut === 0 ? 0 : this.changes[cut - 1]!.timeMs;
    const share = (timeMs - since) / Math.max(1e-9, next.timeMs - since);
    return revision + Math.min(gap, Math.floor(share * (gap + 1)));
  }

  /**
   * Whether a revision is gone at `timeMs`: the change after it was committed longer than
   * `retentionMs` ago, so what followed it (for a watch) and its state (for an Exact read) are
   * compacted away (doc 1 §8, §7 410).
   */
  expired(revision: number, timeMs: number, retentionMs: number): boolean {
    const next = this.changes[this.cutOfRevision(revision)];
    return next !== undefined && next.timeMs < timeMs - retentionMs;
  }

  /** The objects of the state at a cut, sorted by name, that `matches` selects. */
  stateAt(cut: number, matches: (object: ObjectState) => boolean): ObjectState[] {
    const objects: ObjectState[] = [];
    for (const list of this.historyOfName.values()) {
      const object = objectInHistoryAt(list, cut);
      if (object !== undefined && matches(object)) objects.push(object);
    }
    return objects.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The object of one name at a cut. */
  objectAt(name: string, cut: number): ObjectState | undefined {
    const list = this.historyOfName.get(name);
    return list === undefined ? undefined : objectInHistoryAt(list, cut);
  }
}

/** The object of a name's history at a cut: its last entry at or before it. */
function objectInHistoryAt(list: readonly { cut: number; object: ObjectState | undefined }[], cut: number): ObjectState | undefined {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (list[mid]!.cut <= cut) low = mid + 1;
    else high = mid;
  }
  return low === 0 ? undefined : list[low - 1]!.object;
}
