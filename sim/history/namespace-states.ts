/**
 * The states of the namespace along the server's order: S_c, the objects after the first c
 * changes ("cut" c, 0..n). Each state has a hash, the sum of per-change hashes of the objects in
 * it, updated per change, so that a list's items (a set of objects, each naming the change that
 * produced it) are placed at the cuts where the namespace held exactly them in O(items), and one
 * table per label selector answers "which states match these items" and "which changes does this
 * selector see between two cuts".
 *
 * What the history does not show is marked doubtful instead of guessed: a name whose first change
 * is an update (it existed before anything showed it), a change of unknown effect, a deletion or
 * re-creation of an object never seen, a change known but never delivered (missing-changes.ts),
 * and the order's uncertain cuts. The object before a change is unknown where the order of its
 * name's changes is not forced. Checkers skip conclusions that rest on a doubtful state.
 *
 * The namespace is assumed empty before the first change, except for objects that no write of the
 * workload made and no stream ever showed changing (say the kube-root-ca.crt ConfigMap a cluster
 * puts in every namespace): those are in every state.
 */
import type { ChangeCatalog } from "./change-catalog.ts";
import { findMissingChanges, type MissingChangeSources } from "./missing-changes.ts";
import type { SelectorMatcher } from "./label-selectors.ts";
import type { OperationIndex } from "./operation-index.ts";
import type { ServerOrder } from "./server-order.ts";

/** A name without an object. */
export const ABSENT = -1;
/** A name whose object the history does not show. */
export const UNKNOWN = -2;

/** A state hash as one number: 32 bits of one lane and 21 of the other (53 bits). */
export function hashKey(a: number, b: number): number {
  return (a >>> 0) + (b & 0x1fffff) * 4294967296;
}

/** Cuts of one selector: hashes of the filtered states and which changes it sees. */
export class SelectorStates {
  private byKey: Map<number, number[]> | undefined;

  constructor(
    readonly selector: SelectorMatcher,
    private readonly hashA: Int32Array,
    private readonly hashB: Int32Array,
    private readonly visibleBefore: Int32Array,
  ) {}

  /** The hash key of S_cut restricted to the selector. */
  keyAt(cut: number): number {
    return hashKey(this.hashA[cut]!, this.hashB[cut]!);
  }

  /** Cuts whose filtered state has this hash key, ascending. */
  cutsWithKey(key: number): readonly number[] {
    if (this.byKey === undefined) {
      const byKey = new Map<number, number[]>();
      for (let c = 0; c < this.hashA.length; c++) {
        const k = this.keyAt(c);
        const list = byKey.get(k);
        if (list === undefined) byKey.set(k, [c]);
        else list.push(c);
      }
      this.byKey = byKey;
    }
    return this.byKey.get(key) ?? [];
  }

  /** Changes with index in [lo, hi) that the selector certainly sees (the object matched before or after). */
  visibleBetween(lo: number, hi: number): number {
    return hi <= lo ? 0 : this.visibleBefore[hi]! - this.visibleBefore[lo]!;
  }

  /** The first change index in [lo, hi) the selector sees, or -1. */
  firstVisible(lo: number, hi: number): number {
    const base = this.visibleBefore[lo]!;
    if (hi <= lo || this.visibleBefore[hi]! === base) return -1;
    let low = lo;
    let high = hi - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.visibleBefore[mid + 1]! > base) high = mid;
      else low = mid + 1;
    }
    return low;
  }
}

export class NamespaceStates {
  /** Number of changes in the order (cuts are 0..changes). */
  readonly changes: number;
  /** Per change index: the node of its object's name before it, ABSENT or UNKNOWN. */
  readonly before: Int32Array;
  /** Per change index: the node it wrote, ABSENT (deleted) or UNKNOWN. */
  readonly after: Int32Array;
  /** Objects in every state (see the file comment). */
  readonly staticNodes: readonly number[];
  private readonly staticSet: ReadonlySet<number>;
  // Per change index: the node the replay took out of the state (-1 none): what the hashes remove.
  private readonly replaced: Int32Array;
  private readonly doubtfulBefore: Int32Array;
  // The doubtful ranges of cuts and the name each is about.
  private readonly doubts: readonly { readonly from: number; readonly to: number; readonly name: string }[];
  private readonly doubtsOfName = new Map<string, { readonly from: number; readonly to: number }[]>();
  private readonly changesOfName = new Map<string, number[]>();
  private readonly tables = new Map<string, SelectorStates>();

  constructor(
    private readonly catalog: ChangeCatalog,
    private readonly order: ServerOrder,
    sources: MissingChangeSources,
  ) {
    const { index } = sources;
    const n = order.length;
    const { nodes } = catalog;
    this.changes = n;
    this.before = new Int32Array(n);
    this.after = new Int32Array(n);
    this.replaced = new Int32Array(n);
    const doubtDiff = new Int32Array(n + 2);
    const doubts: { from: number; to: number; name: string }[] = [];
    let doubtName = "";
    const markDoubtful = (lo: number, hi: number): void => {
      if (hi < lo) return;
      doubtDiff[lo]!++;
      doubtDiff[hi + 1]!--;
      doubts.push({ from: lo, to: hi, name: doubtName });
    };

    for (let i = 0; i < n; i++) {
      const name = nodes[order.order[i]!]!.name;
      const list = this.changesOfName.get(name);
      if (list === undefined) this.changesOfName.set(name, [i]);
      else list.push(i);
    }
    this.staticNodes = findStaticNodes(catalog, index, this.changesOfName);
    this.staticSet = new Set(this.staticNodes);

    const current = new Map<string, number>();
    for (const node of this.staticNodes) current.set(nodes[node]!.name, node);
    const knownSince = new Map<string, number>();
    const lastChange = new Map<string, number>();
    const unknownFrom = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const v = order.order[i]!;
      const node = nodes[v]!;
      const { name } = node;
      doubtName = name;
      const held = current.get(name) ?? ABSENT;
      this.replaced[i] = held >= 0 ? held : -1;
      let before = held;
      const open = unknownFrom.get(name);
      if (open !== undefined) {
        markDoubtful(open, i);
        unknownFrom.delete(name);
        before = UNKNOWN;
      }
      const since = knownSince.get(name) ?? 0;
      const afterLast = (lastChange.get(name) ?? -1) + 1;
      switch (node.kind) {
        case "write": {
          if (before === ABSENT && !mayCreate(index, node.object.value)) {
            markDoubtful(since, i); // an update of an object no change showed being created
            before = UNKNOWN;
          } else if (before >= 0 && nodes[before]!.uid !== node.uid) {
            markDoubtful(afterLast, i); // the old object's deletion was never shown
            before = UNKNOWN;
          }
          current.set(name, v);
          this.after[i] = v;
          break;
        }
        case "delete": {
          if (before !== UNKNOWN && !(before >= 0 && nodes[before]!.uid === node.uid)) {
            markDoubtful(before === ABSENT ? since : afterLast, i);
            before = UNKNOWN;
          }
          current.delete(name);
          this.after[i] = ABSENT;
          break;
        }
        case "unknown": {
          current.delete(name);
          unknownFrom.set(name, i + 1);
          this.after[i] = UNKNOWN;
          break;
        }
      }
      this.before[i] = before;
      lastChange.set(name, i);
      knownSince.set(name, i + 1);
    }
    for (const [name, open] of unknownFrom) {
      doubtName = name;
      markDoubtful(open, n);
    }
    this.forgetUnforcedBefores();
    // Changes known but not delivered: the name is doubtful from each uncovered cut where one may
    // lie up to the name's next change, whose "before" is then unknown. The name's changes cut
    // its timeline into segments; one search per segment.
    const missingChanges = findMissingChanges(catalog, order, sources, (node) => this.isStatic(node));
    for (const missing of missingChanges.changes) {
      const list = this.changesOn(missing.name);
      doubtName = missing.name;
      let segmentStart = missing.from;
      for (let k = lowerBound(list, missing.from); segmentStart <= missing.to; k++) {
        const segmentEnd = k < list.length ? list[k]! : n; // the state up to cut list[k] is the same
        const at = missingChanges.firstUncovered(segmentStart, Math.min(segmentEnd, missing.to));
        if (at >= 0) {
          markDoubtful(at, segmentEnd);
          if (k < list.length) this.before[segmentEnd] = UNKNOWN;
        }
        if (k >= list.length) break;
        segmentStart = segmentEnd + 1;
      }
    }
    this.doubts = doubts;
    for (const doubt of doubts) {
      const list = this.doubtsOfName.get(doubt.name);
      if (list === undefined) this.doubtsOfName.set(doubt.name, [doubt]);
      else list.push(doubt);
    }

    this.doubtfulBefore = new Int32Array(n + 2);
    let running = 0;
    for (let c = 0; c <= n; c++) {
      running += doubtDiff[c]!;
      const doubtful = running > 0 || order.uncertainCuts(c, c) > 0 ? 1 : 0;
      this.doubtfulBefore[c + 1] = this.doubtfulBefore[c]! + doubtful;
    }
  }

  /**
   * The object before a change is known only where the order of its name's changes is forced: the
   * previous change of the name, P, comes after all earlier ones in every order (a certain cut at
   * P, or P forced after a previous change that is), and before this one (a certain cut between
   * them, or a path of deliveries). Otherwise another order could put another change in between.
   * A change unordered against its predecessor may also come before earlier changes of the name:
   * the "before" of each one not forced before it is unknown too.
   */
  private forgetUnforcedBefores(): void {
    const { order } = this;
    const certainBetween = (after: number, upTo: number): boolean => order.uncertainCuts(after + 1, upTo) < upTo - after;
    const forced = (a: number, b: number): boolean =>
      certainBetween(a, b) || order.reaches(order.order[a]!, order.order[b]!, 20_000) === true;
    for (const list of this.changesOfName.values()) {
      let lastIsLatest = true; // the name's latest change so far follows all its earlier ones
      const pairsForced: boolean[] = []; // pairsForced[j]: list[j - 1] precedes list[j] in every order
      for (let j = 1; j < list.length; j++) {
        const [previous, i] = [list[j - 1]!, list[j]!];
        const pairForced: boolean = forced(previous, i);
        pairsForced[j] = pairForced;
        // Unordered, either could come first: neither "before" is known.
        if (!pairForced) {
          this.before[previous] = UNKNOWN;
          // Walking back: k precedes i if a certain cut lies between them (then so do all earlier
          // changes), if the next change precedes i and k precedes it, or by a path. A "before"
          // already unknown needs no search: its k counts as unordered, which only forgets more.
          let nextPrecedes = false;
          for (let m = j - 2; m >= 0; m--) {
            const k = list[m]!;
            if (certainBetween(k, i)) break;
            nextPrecedes =
              (pairsForced[m + 1]! && nextPrecedes) ||
              (this.before[k] !== UNKNOWN && order.reaches(order.order[k]!, order.order[i]!, 20_000) === true);
            if (!nextPrecedes) this.before[k] = UNKNOWN;
          }
        }
        if (!pairForced || !lastIsLatest) this.before[i] = UNKNOWN;
        lastIsLatest = order.uncertainCuts(i, i) === 0 || (pairForced && lastIsLatest);
      }
    }
  }

  /** Whether some cut c with lo <= c <= hi is doubtful. */
  anyDoubtful(lo: number, hi: number): boolean {
    const from = Math.max(0, lo);
    const to = Math.min(this.changes, hi);
    if (to < from) return false;
    return this.doubtfulBefore[to + 1]! - this.doubtfulBefore[from]! > 0;
  }

  /**
   * Whether the object of `name` may differ from what the states say at some cut c with
   * lo <= c <= hi: a doubt about that name, or an uncertain cut of the order (a get is judged by
   * this; a list by anyDoubtful, since an unseen change of any name can change what it lists).
   */
  anyDoubtfulAbout(name: string, lo: number, hi: number): boolean {
    if (this.order.uncertainCuts(lo, hi) > 0) return true;
    return (this.doubtsOfName.get(name) ?? []).some((doubt) => doubt.from <= hi && doubt.to >= lo);
  }

  /**
   * The names whose object at `cut` the history does not show, or "uncertain" when the cut itself
   * is (the order could put other changes before it).
   */
  doubtfulNamesAt(cut: number): Set<string> | "uncertain" {
    if (this.order.uncertainCuts(cut, cut) > 0) return "uncertain";
    const names = new Set<string>();
    for (const doubt of this.doubts) if (doubt.from <= cut && cut <= doubt.to) names.add(doubt.name);
    return names;
  }

  /** Whether a node is one of the objects in every state. */
  isStatic(node: number): boolean {
    return this.staticSet.has(node);
  }

  /** Whether an object a read returned has a place in the states (its change is ordered, or it is static). */
  isPlaced(node: number): boolean {
    return node >= 0 && (this.order.positionOf[node]! >= 0 || this.isStatic(node));
  }

  /** The tables of a selector, built on first use. */
  selectorStates(selector: SelectorMatcher): SelectorStates {
    const cached = this.tables.get(selector.key);
    if (cached !== undefined) return cached;
    const n = this.changes;
    const { nodes } = this.catalog;
    const matches = (node: number): boolean => selector.everything || selector.matches(nodes[node]!.object.labels);
    const hashA = new Int32Array(n + 1);
    const hashB = new Int32Array(n + 1);
    const visibleBefore = new Int32Array(n + 1);
    let a = 0;
    let b = 0;
    for (const node of this.staticNodes) {
      if (!matches(node)) continue;
      a = (a + nodes[node]!.hashA) | 0;
      b = (b + nodes[node]!.hashB) | 0;
    }
    hashA[0] = a;
    hashB[0] = b;
    let visible = 0;
    for (let i = 0; i < n; i++) {
      const out = this.replaced[i]!;
      if (out >= 0 && matches(out)) {
        a = (a - nodes[out]!.hashA) | 0;
        b = (b - nodes[out]!.hashB) | 0;
      }
      const written = this.after[i]!;
      if (written >= 0 && matches(written)) {
        a = (a + nodes[written]!.hashA) | 0;
        b = (b + nodes[written]!.hashB) | 0;
      }
      hashA[i + 1] = a;
      hashB[i + 1] = b;
      const was = this.before[i]!;
      if (selector.everything || (was >= 0 && matches(was)) || (written >= 0 && matches(written))) visible++;
      visibleBefore[i + 1] = visible;
    }
    const made = new SelectorStates(selector, hashA, hashB, visibleBefore);
    this.tables.set(selector.key, made);
    return made;
  }

  /** Change indices on a name, ascending. */
  changesOn(name: string): readonly number[] {
    return this.changesOfName.get(name) ?? [];
  }

  /** The first change on the same name after change index `i`, or `changes` if none. */
  nextChangeOnName(i: number): number {
    const list = this.changesOn(this.catalog.nodes[this.order.order[i]!]!.name);
    const at = lowerBound(list, i + 1);
    return at < list.length ? list[at]! : this.changes;
  }

  /** Cuts [from, to] at which the node is its name's object, or undefined if it has no place. */
  interval(node: number): readonly [number, number] | undefined {
    if (this.isStatic(node)) return [0, this.changes];
    const at = this.order.positionOf[node]!;
    if (at < 0 || this.after[at] !== node) return undefined;
    return [at + 1, this.nextChangeOnName(at)];
  }

  /** Cut ranges [from, to] at which no object has this name. */
  absentIntervals(name: string): [number, number][] {
    if (this.staticNodes.some((node) => this.catalog.nodes[node]!.name === name)) return [];
    const intervals: [number, number][] = [];
    let absentFrom: number | undefined = 0;
    for (const i of this.changesOn(name)) {
      if (absentFrom !== undefined) intervals.push([absentFrom, i]);
      absentFrom = this.after[i] === ABSENT ? i + 1 : undefined;
    }
    if (absentFrom !== undefined) intervals.push([absentFrom, this.changes]);
    return intervals;
  }

  /** The objects of S_cut matching a selector, by name (for witnesses: O(changes)). */
  stateAt(cut: number, selector: SelectorMatcher): Map<string, number> {
    const { nodes } = this.catalog;
    const state = new Map<string, number>();
    for (const node of this.staticNodes) state.set(nodes[node]!.name, node);
    for (let i = 0; i < cut; i++) {
      const node = nodes[this.order.order[i]!]!;
      const written = this.after[i]!;
      if (written >= 0) state.set(node.name, written);
      else state.delete(node.name);
    }
    for (const [name, node] of state) {
      if (!selector.everything && !selector.matches(nodes[node]!.object.labels)) state.delete(name);
    }
    return state;
  }
}

/** First index of a sorted list whose value is >= `value`. */
export function lowerBound(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (list[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** A write of a name no earlier change shows: a creation unless the workload's write was an update. */
function mayCreate(index: OperationIndex, value: string | undefined): boolean {
  const write = value === undefined ? undefined : index.writeByValue.get(value);
  return write === undefined || write.verb === "create";
}

/**
 * Objects present throughout: seen (in a read or a synthetic event) but made by no write of the
 * workload, with no change of theirs in the order and alone at their name and uid.
 */
function findStaticNodes(catalog: ChangeCatalog, index: OperationIndex, changesOfName: ReadonlyMap<string, readonly number[]>): number[] {
  const deliveredUids = new Set<string>();
  for (const node of catalog.nodes) if (node.delivered) deliveredUids.add(node.uid);
  const candidates = catalog.nodes.filter(
    (node) =>
      node.kind === "write" &&
      !node.delivered &&
      (node.object.value === undefined || !index.writeByValue.has(node.object.value)) &&
      !deliveredUids.has(node.uid) &&
      !changesOfName.has(node.name),
  );
  const perName = new Map<string, number>();
  for (const node of candidates) perName.set(node.name, (perName.get(node.name) ?? 0) + 1);
  return candidates.filter((node) => perName.get(node.name) === 1).map((node) => node.index);
}
