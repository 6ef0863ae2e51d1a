/**
 * The server's order of changes, learned from the watch streams (resource versions are opaque,
 * doc 1 §4.7, so they are never compared for order). Every stream delivers its changes in the
 * server's order (doc 1 §4.6.1), so each stream is a chain of "comes before" edges; so is a watch
 * from a known version (its first change comes after that version) and a watch resumed from the
 * last version its predecessor delivered (doc 1 §4.6.2). The order is a topological sort of the
 * union of those chains. A Get State watch's synthetic ADDED events are states, not deliveries,
 * and are left out (`synthetic`: how many leading events of each stream are synthetic).
 *
 * Two things are not certain and are reported instead of guessed silently:
 * - a cycle: two streams delivered two changes in opposite orders (a watch violation); it is
 *   broken at one node so that the rest of the history can still be checked;
 * - an ambiguity: changes no chain orders against each other. Ties are broken by when a change
 *   was first delivered, and the cuts whose prefix another valid order could change are marked
 *   uncertain (a cut c is certain when every change before it precedes every change after it in
 *   all orders: computed exactly from each change's earlier non-ancestors, see below). Checkers do
 *   not report violations that rest on uncertain cuts, and confirm "X comes between A and B" by
 *   reachability.
 */
import type { ChangeCatalog } from "./change-catalog.ts";
import type { WatchStream } from "./watch-streams.ts";

/** Beyond this many earlier changes not known to precede a change, its place counts as unknown. */
const NON_ANCESTOR_CAP = 256;

/** Whether a sorted set of positions holds `at`; an undefined set (given up on) holds everything. */
function contains(set: Int32Array | undefined, at: number): boolean {
  if (set === undefined) return true;
  let low = 0;
  let high = set.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (set[mid]! < at) low = mid + 1;
    else high = mid;
  }
  return low < set.length && set[low] === at;
}

/** One "comes before" edge and the events that show it (event -1: the watch request itself). */
export interface OrderEdge {
  readonly from: number;
  readonly to: number;
  readonly fromOperation: number;
  readonly fromEvent: number;
  readonly toOperation: number;
  readonly toEvent: number;
}

/** A cycle of edges: streams that disagree on the order of some changes. */
export interface OrderContradiction {
  readonly edges: readonly OrderEdge[];
}

/** A binary min-heap of node indices keyed by (first delivery time, index). */
class NodeHeap {
  private readonly items: number[] = [];

  constructor(private readonly keyMs: Float64Array) {}

  get size(): number {
    return this.items.length;
  }

  private less(a: number, b: number): boolean {
    const ka = this.keyMs[a]!;
    const kb = this.keyMs[b]!;
    return ka < kb || (ka === kb && a < b);
  }

  push(node: number): void {
    const { items } = this;
    let i = items.push(node) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(node, items[parent]!)) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = node;
  }

  pop(): number {
    const { items } = this;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= items.length) break;
        const right = left + 1;
        const child = right < items.length && this.less(items[right]!, items[left]!) ? right : left;
        if (!this.less(items[child]!, last)) break;
        items[i] = items[child]!;
        i = child;
      }
      items[i] = last;
    }
    return top;
  }
}

/** The reconstructed order and what is certain about it. */
export class ServerOrder {
  /** Change index (position in the order) → node. */
  readonly order: Int32Array;
  /** Node → change index, -1 for changes no stream delivered. */
  readonly positionOf: Int32Array;
  /** The first cycle found, if any. */
  readonly contradiction: OrderContradiction | undefined;
  readonly edgeCount: number;
  private readonly uncertainBefore: Int32Array;
  private readonly outStart: Int32Array;
  private readonly outTo: Int32Array;
  private stamp: Int32Array | undefined;
  private queue: Int32Array | undefined;
  private generation = 0;

  constructor(parts: {
    order: Int32Array;
    positionOf: Int32Array;
    contradiction: OrderContradiction | undefined;
    uncertain: Uint8Array;
    outStart: Int32Array;
    outTo: Int32Array;
  }) {
    this.order = parts.order;
    this.positionOf = parts.positionOf;
    this.contradiction = parts.contradiction;
    this.outStart = parts.outStart;
    this.outTo = parts.outTo;
    this.edgeCount = parts.outTo.length;
    const cuts = parts.uncertain.length;
    this.uncertainBefore = new Int32Array(cuts + 1);
    for (let c = 0; c < cuts; c++) this.uncertainBefore[c + 1] = this.uncertainBefore[c]! + parts.uncertain[c]!;
  }

  /** Number of changes placed in the order. */
  get length(): number {
    return this.order.length;
  }

  /** Uncertain cuts c with lo <= c <= hi (cuts are 0..length). */
  uncertainCuts(lo: number, hi: number): number {
    const from = Math.max(0, lo);
    const to = Math.min(this.order.length, hi);
    if (to < from) return 0;
    return this.uncertainBefore[to + 1]! - this.uncertainBefore[from]!;
  }

  /**
   * Whether every valid order puts `from` before `to`: a path of edges from one to the other.
   * Undefined when the search gave up after `budget` edges (treated as "not shown").
   */
  reaches(from: number, to: number, budget = 200_000): boolean | undefined {
    if (from === to) return true;
    const target = this.positionOf[to]!;
    const origin = this.positionOf[from]!;
    if (target < 0 || origin < 0 || origin > target) return false;
    const nodes = this.positionOf.length;
    this.stamp ??= new Int32Array(nodes);
    this.queue ??= new Int32Array(nodes);
    const stamp = this.stamp;
    const queue = this.queue;
    const mark = ++this.generation;
    let head = 0;
    let tail = 0;
    queue[tail++] = from;
    stamp[from] = mark;
    let spent = 0;
    while (head < tail) {
      const node = queue[head++]!;
      for (let e = this.outStart[node]!; e < this.outStart[node + 1]!; e++) {
        if (++spent > budget) return undefined;
        const next = this.outTo[e]!;
        if (next === to) return true;
        if (stamp[next] === mark || this.positionOf[next]! > target) continue;
        stamp[next] = mark;
        queue[tail++] = next;
      }
    }
    return false;
  }
}

/** Builds the order from the streams (in operation order) of a catalog. */
export function buildServerOrder(catalog: ChangeCatalog, streams: ReadonlyMap<number, WatchStream>, synthetic: ReadonlyMap<number, number>): ServerOrder {
  const nodeCount = catalog.nodes.length;
  const from: number[] = [];
  const to: number[] = [];
  const fromOperation: number[] = [];
  const fromEvent: number[] = [];
  const toOperation: number[] = [];
  const toEvent: number[] = [];
  const addEdge = (a: number, b: number, opA: number, evA: number, opB: number, evB: number): void => {
    from.push(a);
    to.push(b);
    fromOperation.push(opA);
    fromEvent.push(evA);
    toOperation.push(opB);
    toEvent.push(evB);
  };

  // Chains: each stream's changes in delivery order, skipping a change it already delivered (a
  // duplicate is the watch check's to report, not an order fact).
  const seenInStream = new Int32Array(nodeCount).fill(-1);
  const lastOf = new Map<number, { node: number; event: number; version: string | undefined; bookmark: string | undefined }>();
  for (const stream of streams.values()) {
    const { operation } = stream;
    if (!stream.usable) continue;
    const eventNodes = catalog.eventNodes.get(operation.id)!;
    let previous = -1;
    let previousEvent = -1;
    let first = -1;
    let firstEvent = -1;
    let bookmark: string | undefined;
    for (let i = synthetic.get(operation.id) ?? 0; i < operation.events.length; i++) {
      const event = operation.events[i]!;
      if (event.type === "BOOKMARK") {
        bookmark = event.bookmarkVersion;
        continue;
      }
      const node = eventNodes[i]!;
      if (node < 0 || seenInStream[node] === stream.number) continue;
      seenInStream[node] = stream.number;
      bookmark = undefined;
      if (previous >= 0) addEdge(previous, node, operation.id, previousEvent, operation.id, i);
      else {
        first = node;
        firstEvent = i;
      }
      previous = node;
      previousEvent = i;
    }
    lastOf.set(operation.id, {
      node: previous,
      event: previousEvent,
      version: previous >= 0 ? catalog.nodes[previous]!.version : undefined,
      bookmark,
    });
    if (first < 0) continue;
    const version = operation.resourceVersion;
    if (version !== undefined && version !== "0") {
      // Start at Exact: the first change delivered comes after the version asked for.
      const anchor = catalog.byVersion.get(version);
      if (anchor !== undefined && anchor !== first && catalog.nodes[anchor]!.delivered) addEdge(anchor, first, operation.id, -1, operation.id, firstEvent);
    }
    const resumed = operation.resumes;
    if (resumed?.kind === "watch") {
      // A watch resumed from the last version its predecessor delivered continues after it.
      const before = lastOf.get(resumed.operation);
      if (before !== undefined && before.node >= 0 && before.node !== first && (version === before.version || version === before.bookmark)) {
        addEdge(before.node, first, resumed.operation, before.event, operation.id, firstEvent);
      }
    }
  }

  const edgeCount = from.length;
  const outStart = new Int32Array(nodeCount + 1);
  const inStart = new Int32Array(nodeCount + 1);
  for (let e = 0; e < edgeCount; e++) {
    outStart[from[e]! + 1]!++;
    inStart[to[e]! + 1]!++;
  }
  for (let n = 0; n < nodeCount; n++) {
    outStart[n + 1]! += outStart[n]!;
    inStart[n + 1]! += inStart[n]!;
  }
  const outTo = new Int32Array(edgeCount);
  const inEdge = new Int32Array(edgeCount);
  {
    const outFill = outStart.slice(0, nodeCount);
    const inFill = inStart.slice(0, nodeCount);
    for (let e = 0; e < edgeCount; e++) {
      outTo[outFill[from[e]!]!++] = to[e]!;
      inEdge[inFill[to[e]!]!++] = e;
    }
  }

  const keyMs = new Float64Array(nodeCount);
  const indegree = new Int32Array(nodeCount);
  const delivered: number[] = [];
  for (const node of catalog.nodes) {
    keyMs[node.index] = node.firstDeliveredMs;
    if (node.delivered) delivered.push(node.index);
  }
  for (let e = 0; e < edgeCount; e++) indegree[to[e]!]!++;
  const heap = new NodeHeap(keyMs);
  for (const node of delivered) if (indegree[node] === 0) heap.push(node);
  // For breaking cycles: the unplaced node that was delivered first.
  const byKey = [...delivered].sort((a, b) => keyMs[a]! - keyMs[b]! || a - b);
  let byKeyNext = 0;

  const positionOf = new Int32Array(nodeCount).fill(-1);
  const order = new Int32Array(delivered.length);
  let placed = 0;
  let contradiction: OrderContradiction | undefined;
  const edgeAt = (e: number): OrderEdge => ({
    from: from[e]!,
    to: to[e]!,
    fromOperation: fromOperation[e]!,
    fromEvent: fromEvent[e]!,
    toOperation: toOperation[e]!,
    toEvent: toEvent[e]!,
  });
  const findCycle = (start: number): OrderContradiction => {
    // Walk backwards along edges from unplaced predecessors until a node repeats.
    const stepOf = new Map<number, number>();
    const path: number[] = [];
    let current = start;
    for (;;) {
      stepOf.set(current, path.length);
      let edge = -1;
      for (let k = inStart[current]!; k < inStart[current + 1]!; k++) {
        const e = inEdge[k]!;
        if (positionOf[from[e]!]! < 0) {
          edge = e;
          break;
        }
      }
      if (edge < 0) return { edges: path.reverse().map(edgeAt) }; // cannot happen: the node was blocked
      path.push(edge);
      current = from[edge]!;
      const seenAt = stepOf.get(current);
      if (seenAt !== undefined) return { edges: path.slice(seenAt).reverse().map(edgeAt) };
    }
  };

  while (placed < delivered.length) {
    while (heap.size > 0) {
      const node = heap.pop();
      if (positionOf[node]! >= 0) continue;
      positionOf[node] = placed;
      order[placed++] = node;
      for (let e = outStart[node]!; e < outStart[node + 1]!; e++) {
        const next = outTo[e]!;
        if (positionOf[next]! < 0 && --indegree[next]! === 0) heap.push(next);
      }
    }
    if (placed === delivered.length) break;
    while (positionOf[byKey[byKeyNext]!]! >= 0) byKeyNext++;
    const blocked = byKey[byKeyNext]!;
    contradiction ??= findCycle(blocked);
    indegree[blocked] = 0;
    heap.push(blocked);
  }

  // Which cuts are certain. A cut c is uncertain exactly when some change w at or after it has
  // fewer than c ancestors (then an order putting w's ancestors, then w, first has another prefix
  // of size c); w has pos(w) - d(w) ancestors, d(w) being the number of earlier changes that are not
  // its ancestors. The set of those, N(w), is the intersection over w's predecessors p of N(p) plus
  // the changes strictly between p and w: empty or small when the streams connect. A set that grows
  // past NON_ANCESTOR_CAP is given up on: every cut before w is then taken as uncertain.
  const uncertainDiff = new Int32Array(order.length + 2);
  const nonAncestors: (Int32Array | undefined)[] = new Array(nodeCount);
  const none = new Int32Array(0);
  for (let c = 0; c < order.length; c++) {
    const node = order[c]!;
    let best = -1; // the latest predecessor: its candidate set is the smallest
    for (let k = inStart[node]!; k < inStart[node + 1]!; k++) {
      const before = from[inEdge[k]!]!;
      const at = positionOf[before]!;
      if (at < 0 || at >= c) continue; // an edge against the order: a reported contradiction
      if (best < 0 || at > positionOf[best]!) best = before;
    }
    let set: Int32Array | undefined;
    if (best < 0) set = c <= NON_ANCESTOR_CAP ? Int32Array.from({ length: c }, (_, i) => i) : undefined;
    else if (positionOf[best] === c - 1 && nonAncestors[best]?.length === 0) set = none; // the usual case: right after a change that follows all before it
    else {
      const bestAt = positionOf[best]!;
      const inherited = nonAncestors[best];
      const predecessors: number[] = [];
      for (let k = inStart[node]!; k < inStart[node + 1]!; k++) {
        const before = from[inEdge[k]!]!;
        const at = positionOf[before]!;
        if (at >= 0 && at < c && !predecessors.includes(before)) predecessors.push(before);
      }
      if (inherited !== undefined && inherited.length + (c - bestAt - 1) <= NON_ANCESTOR_CAP) {
        // Candidates: N(best), then the positions between best and this change (all later than N(best)'s).
        const candidates: number[] = [...inherited];
        for (let at = bestAt + 1; at < c; at++) candidates.push(at);
        const kept = candidates.filter((at) =>
          predecessors.every((p) => p === best || (at > positionOf[p]! && at < c) || contains(nonAncestors[p], at)),
        );
        set = kept.length === 0 ? none : Int32Array.from(kept);
      }
    }
    nonAncestors[node] = set;
    const missing = set === undefined ? c : set.length;
    if (missing > 0) {
      uncertainDiff[c - missing + 1]!++;
      uncertainDiff[c + 1]!--;
    }
  }
  const uncertain = new Uint8Array(order.length + 1);
  let running = 0;
  for (let c = 0; c <= order.length; c++) {
    running += uncertainDiff[c]!;
    uncertain[c] = running > 0 ? 1 : 0;
  }
  return new ServerOrder({ order, positionOf, contradiction, uncertain, outStart, outTo });
}
