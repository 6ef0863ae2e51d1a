/**
 * Every change of the namespace the history shows, one node per resourceVersion. A version is the
 * server's own name for one change (doc 1 §2.2: the version at which the object was last
 * modified), compared only for equality. What each change did comes from where it was seen:
 *
 * - an ADDED or MODIFIED event carries the object the change produced;
 * - a DELETED event of a watch without selector is a deletion, carrying the object's last state
 *   with the deletion's version;
 * - a DELETED event of a selector watch whose object no longer matches is an object leaving the
 *   selector, carrying its new state (what a server that sends the new state sends);
 * - a DELETED event of a selector watch whose object still matches is a deletion, or an object
 *   leaving with its previous content and the change's version (what Kubernetes' watch cache
 *   sends): resolved by the version when another source names that change, else a change of
 *   unknown effect on that object;
 * - answers to writes and objects read name the change that produced them by their unique value.
 *
 * Sightings that contradict each other (one version, two changes; one write, two versions) are
 * kept as conflicts for the write-versions and write-atomic checks.
 */
import type { ObjectState } from "./api-history.ts";
import type { OperationIndex } from "./operation-index.ts";
import { isChangeEvent, type WatchStream } from "./watch-streams.ts";

/** What a change did: wrote an object, deleted one, or changed one in a way no source shows. */
export type ChangeKind = "write" | "delete" | "unknown";

/** Where something was seen: an event of a watch, or an answer (event -1). */
export interface SourceRef {
  readonly operation: number;
  readonly event: number;
}

/** One change, named by its version. */
export interface ChangeNode {
  readonly index: number;
  readonly version: string;
  kind: ChangeKind;
  readonly name: string;
  readonly uid: string;
  /**
   * write: the object after the change; delete: the object's last state as the DELETED event
   * carried it; unknown: the state before it, as a selector's DELETED event carried it.
   */
  object: ObjectState;
  /** Delivered as a change (not only as a state) by some watch stream: it has a place in the order. */
  delivered: boolean;
  /** When a stream first delivered it (Infinity if none): breaks ties when ordering. */
  firstDeliveredMs: number;
  /** The first event that delivered it as a change, for witnesses. */
  deliveredBy: SourceRef | undefined;
  /** The first sighting of any kind. */
  readonly firstSeen: SourceRef;
  /**
   * The earliest time the client had seen it: an event's arrival, or the answer of a read or a
   * write that carried it. The change happened before that.
   */
  seenByMs: number;
  /** Two 32-bit lanes of a per-change hash: a state's hash is the sum over its objects. */
  readonly hashA: number;
  readonly hashB: number;
}

/** A contradiction between sightings. */
export interface VersionConflict {
  /**
   * shared-version: one version names two different changes; two-versions: one value (or one
   * deletion) delivered as two changes; wrong-version: an answer or a read carries a version that
   * is not the one the value's change was delivered with.
   */
  readonly kind: "shared-version" | "two-versions" | "wrong-version";
  /** The node seen first. */
  readonly node: number;
  /** The node of the second sighting, when it has one (two-versions). */
  readonly otherNode: number;
  readonly object: ObjectState;
  readonly at: SourceRef;
}

/** Index returned for an object no change of the history produced. */
export const NO_NODE = -1;

/** A 32-bit mix (splitmix32's finalizer): deterministic, well spread, cheap. */
function mix32(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
  return (z ^ (z >>> 15)) | 0;
}

export class ChangeCatalog {
  readonly nodes: ChangeNode[] = [];
  readonly byVersion = new Map<string, number>();
  /** Write nodes by the value they set (more than one when a write took effect twice). */
  readonly byValue = new Map<string, number[]>();
  readonly deletionsByUid = new Map<string, number[]>();
  readonly conflicts: VersionConflict[] = [];
  /** Per watch operation: the node of each event (NO_NODE for bookmarks, errors, synthetic states without node). */
  readonly eventNodes = new Map<number, Int32Array>();
  /** Per list operation: the node of each item of its answered pages, in order. */
  readonly itemNodes = new Map<number, Int32Array>();
  /** Objects compared against the node that produced them (for the checked count). */
  sightings = 0;

  /** The node that produced an object seen in a read or a synthetic event, or NO_NODE. */
  nodeOfObject(object: ObjectState): number {
    if (object.value !== undefined) {
      const nodes = this.byValue.get(object.value);
      if (nodes === undefined) return NO_NODE;
      if (nodes.length === 1) return nodes[0]!;
      return nodes.find((node) => this.nodes[node]!.version === object.resourceVersion) ?? nodes[0]!;
    }
    const node = this.byVersion.get(object.resourceVersion);
    if (node === undefined) return NO_NODE;
    const found = this.nodes[node]!;
    return found.kind === "write" && found.uid === object.uid ? node : NO_NODE;
  }

  newNode(version: string, kind: ChangeKind, object: ObjectState, at: SourceRef): number {
    const index = this.nodes.length;
    this.nodes.push({
      index,
      version,
      kind,
      name: object.name,
      uid: object.uid,
      object,
      delivered: false,
      firstDeliveredMs: Infinity,
      deliveredBy: undefined,
      firstSeen: at,
      seenByMs: Infinity,
      hashA: mix32(index * 2 + 1),
      hashB: mix32(index * 2 + 2),
    });
    this.byVersion.set(version, index);
    if (kind === "write" && object.value !== undefined) this.addValue(object.value, index);
    if (kind === "delete") {
      const list = this.deletionsByUid.get(object.uid);
      if (list === undefined) this.deletionsByUid.set(object.uid, [index]);
      else list.push(index);
    }
    return index;
  }

  addValue(value: string, node: number): void {
    const list = this.byValue.get(value);
    if (list === undefined) this.byValue.set(value, [node]);
    else list.push(node);
  }

  markDelivered(node: number, atMs: number, at: SourceRef): void {
    const found = this.nodes[node]!;
    found.delivered = true;
    if (found.deliveredBy === undefined) found.deliveredBy = at;
    if (atMs < found.firstDeliveredMs) found.firstDeliveredMs = atMs;
  }
}

/**
 * How a sighting may add to the catalog: events may create nodes (a change the server delivered),
 * answers and reads may create nodes only for changes no event showed (they have no place in the
 * order), and never a second node for a value.
 */
type SightingSource = "event" | "answer" | "read";

function sameWrite(node: ChangeNode, object: ObjectState): boolean {
  return node.kind === "write" && node.uid === object.uid && node.name === object.name && node.object.value === object.value;
}

/**
 * Registers an object as produced by the change named by its version; returns its node (for a
 * read, the node nodeOfObject would answer) or NO_NODE.
 */
function registerWrite(catalog: ChangeCatalog, object: ObjectState, at: SourceRef, source: SightingSource, seenMs: number): number {
  const node = registerWriteNode(catalog, object, at, source);
  if (node >= 0 && seenMs < catalog.nodes[node]!.seenByMs) catalog.nodes[node]!.seenByMs = seenMs;
  return node;
}

function registerWriteNode(catalog: ChangeCatalog, object: ObjectState, at: SourceRef, source: SightingSource): number {
  catalog.sightings++;
  const version = object.resourceVersion;
  const byVersion = catalog.byVersion.get(version);
  if (byVersion !== undefined) {
    const node = catalog.nodes[byVersion]!;
    if (node.object === object || sameWrite(node, object)) return byVersion;
    if (node.kind === "unknown" && node.uid === object.uid && node.name === object.name) {
      // A change known only as "this object left a selector" now shows what it wrote.
      node.kind = "write";
      node.object = object;
      if (object.value !== undefined) catalog.addValue(object.value, byVersion);
      return byVersion;
    }
    catalog.conflicts.push({ kind: "shared-version", node: byVersion, otherNode: NO_NODE, object, at });
    // An event's version places it in the order; a read's object is named by its value.
    if (source === "event") return byVersion;
    const byValue = object.value === undefined ? undefined : catalog.byValue.get(object.value);
    return byValue === undefined ? NO_NODE : byValue[0]!;
  }
  const sameValue = object.value === undefined ? undefined : catalog.byValue.get(object.value);
  if (sameValue !== undefined) {
    if (source !== "event") {
      catalog.conflicts.push({ kind: "wrong-version", node: sameValue[0]!, otherNode: NO_NODE, object, at });
      return sameValue[0]!;
    }
    const created = catalog.newNode(version, "write", object, at);
    catalog.conflicts.push({ kind: "two-versions", node: sameValue[0]!, otherNode: created, object, at });
    return created;
  }
  return catalog.newNode(version, "write", object, at);
}

function registerDeletion(catalog: ChangeCatalog, object: ObjectState, at: SourceRef, seenMs: number): number {
  const node = registerDeletionNode(catalog, object, at);
  if (seenMs < catalog.nodes[node]!.seenByMs) catalog.nodes[node]!.seenByMs = seenMs;
  return node;
}

function registerDeletionNode(catalog: ChangeCatalog, object: ObjectState, at: SourceRef): number {
  catalog.sightings++;
  const version = object.resourceVersion;
  const byVersion = catalog.byVersion.get(version);
  if (byVersion !== undefined) {
    const node = catalog.nodes[byVersion]!;
    if ((node.kind === "delete" || node.kind === "unknown") && node.uid === object.uid) {
      node.kind = "delete";
      node.object = object;
      return byVersion;
    }
    catalog.conflicts.push({ kind: "shared-version", node: byVersion, otherNode: NO_NODE, object, at });
    return byVersion;
  }
  const earlier = catalog.deletionsByUid.get(object.uid);
  const created = catalog.newNode(version, "delete", object, at);
  if (earlier !== undefined) catalog.conflicts.push({ kind: "two-versions", node: earlier[0]!, otherNode: created, object, at });
  return created;
}

/**
 * Marks the changes the streams delivered (events from each stream's synthetic count on: before
 * it, ADDED events are states), with the first delivery's time and event. Called again when the
 * synthetic counts are refined (history-analysis.ts).
 */
export function markDeliveries(catalog: ChangeCatalog, streams: ReadonlyMap<number, WatchStream>, synthetic: ReadonlyMap<number, number>): void {
  for (const node of catalog.nodes) {
    node.delivered = false;
    node.firstDeliveredMs = Infinity;
    node.deliveredBy = undefined;
  }
  for (const stream of streams.values()) {
    if (!stream.usable) continue;
    const { operation } = stream;
    const nodes = catalog.eventNodes.get(operation.id)!;
    for (let i = synthetic.get(operation.id) ?? 0; i < operation.events.length; i++) {
      const node = nodes[i]!;
      if (node >= 0) catalog.markDelivered(node, operation.events[i]!.atMs, { operation: operation.id, event: i });
    }
  }
}

/** Reads every sighting of the history into a catalog, in a fixed order (so conflicts are reported deterministically). */
export function buildChangeCatalog(index: OperationIndex, streams: ReadonlyMap<number, WatchStream>): ChangeCatalog {
  const catalog = new ChangeCatalog();
  const ambiguous: { operation: number; event: number }[] = [];

  // Events that say by themselves what their change was.
  for (const stream of streams.values()) {
    const { operation, selector } = stream;
    const nodes = new Int32Array(operation.events.length).fill(NO_NODE);
    catalog.eventNodes.set(operation.id, nodes);
    if (!stream.usable) continue;
    operation.events.forEach((event, i) => {
      const object = event.object;
      if (!isChangeEvent(event.type) || object === undefined) return;
      const at = { operation: operation.id, event: i };
      // Leading ADDED events of a Get State watch may be synthetic: states, not deliveries.
      const maybeState = i < stream.leadingAdded;
      let node: number;
      if (event.type !== "DELETED") node = registerWrite(catalog, object, at, maybeState ? "read" : "event", event.atMs);
      else if (selector.everything) node = registerDeletion(catalog, object, at, event.atMs);
      else if (!selector.matches(object.labels)) node = registerWrite(catalog, object, at, "event", event.atMs);
      else {
        ambiguous.push(at);
        return;
      }
      nodes[i] = node;
    });
  }

  // Selector DELETED events whose object still matches: a deletion, or a departure carrying the
  // previous content. Another source names the change by its version; else its effect is unknown.
  for (const at of ambiguous) {
    const operation = index.byId.get(at.operation);
    if (operation?.kind !== "watch") continue;
    const event = operation.events[at.event]!;
    const object = event.object!;
    catalog.sightings++;
    let node = catalog.byVersion.get(object.resourceVersion);
    if (node === undefined) node = catalog.newNode(object.resourceVersion, "unknown", object, at);
    else if (catalog.nodes[node]!.uid !== object.uid) {
      catalog.conflicts.push({ kind: "shared-version", node, otherNode: NO_NODE, object, at });
    }
    if (event.atMs < catalog.nodes[node]!.seenByMs) catalog.nodes[node]!.seenByMs = event.atMs;
    catalog.eventNodes.get(at.operation)![at.event] = node;
  }

  // Answers of writes: the object each acknowledged create, update or patch produced. A delete's
  // answer is not used: Kubernetes returns the object at its last write's version, which may be
  // that of a change that made it leave a selector, so it names no deletion.
  for (const write of index.writes) {
    if (write.verb === "delete" || write.answer.type !== "ok") continue;
    registerWrite(catalog, write.answer.object, { operation: write.id, event: -1 }, "answer", write.endMs ?? Infinity);
  }

  // Objects read: each names the change that produced it.
  for (const get of index.gets) {
    if (get.answer.type === "ok") registerWrite(catalog, get.answer.object, { operation: get.id, event: -1 }, "read", get.endMs ?? Infinity);
  }
  for (const list of index.lists) {
    const nodes: number[] = [];
    for (const page of list.pages) {
      if (page.answer.type !== "ok") continue;
      for (const item of page.answer.items) nodes.push(registerWrite(catalog, item, { operation: list.id, event: -1 }, "read", page.endMs ?? Infinity));
    }
    catalog.itemNodes.set(list.id, Int32Array.from(nodes));
  }

  return catalog;
}
