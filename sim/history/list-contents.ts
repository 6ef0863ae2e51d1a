/**
 * What a list's items say about the namespace: the changes that produced them, whether they can
 * be one state (no name twice, all matching the selector), the hash that places them among the
 * states, and, when they are not the expected state, the one object that shows it.
 */
import type { ListOperation, ObjectState } from "./api-history.ts";
import type { ChangeCatalog } from "./change-catalog.ts";
import { everything, type SelectorCache, type SelectorMatcher } from "./label-selectors.ts";
import { hashKey, type NamespaceStates } from "./namespace-states.ts";
import type { ServerOrder } from "./server-order.ts";
import { describeObject } from "./witness-text.ts";

export interface ListContents {
  readonly operation: ListOperation;
  readonly selector: SelectorMatcher;
  /** Every page was answered and the last one ended the list. */
  readonly complete: boolean;
  /** The first page's resourceVersion, if it was answered. */
  readonly version: string | undefined;
  /** The items of the answered pages, in order. */
  readonly items: readonly ObjectState[];
  /** The change that produced each item (-1 if none known). */
  readonly nodes: Int32Array;
  /** Index of the first item whose name an earlier item has. */
  readonly duplicate: number | undefined;
  /** Index of the first item the selector does not match. */
  readonly outsideSelector: number | undefined;
  /** Every item has a place in the states. */
  readonly placeable: boolean;
  /** Hash key of the items as a state (meaningful when placeable). */
  readonly key: number;
  /** The first cut at which every item's change had happened. */
  readonly earliestCut: number;
}

/** Reads every list of the history once. */
export function readListContents(
  lists: readonly ListOperation[],
  catalog: ChangeCatalog,
  order: ServerOrder,
  states: NamespaceStates,
  selectors: SelectorCache,
): Map<number, ListContents> {
  const result = new Map<number, ListContents>();
  // Duplicate names found with a stamp per interned name, not a Set per list (lists hold most items).
  const nameIds = new Map<string, number>();
  let stamps = new Int32Array(64).fill(-1);
  for (const operation of lists) {
    const selector = selectors.get(operation.labelSelector);
    const items: ObjectState[] = [];
    let complete = operation.pages.length > 0;
    let version: string | undefined;
    operation.pages.forEach((page, i) => {
      if (page.answer.type !== "ok") {
        complete = false;
        return;
      }
      if (i === 0) version = page.answer.resourceVersion;
      for (const item of page.answer.items) items.push(item);
      if (i === operation.pages.length - 1 && page.answer.continue !== undefined && page.answer.continue !== "") complete = false;
    });
    const nodes = catalog.itemNodes.get(operation.id) ?? new Int32Array(items.length).fill(-1);
    let duplicate: number | undefined;
    let outsideSelector: number | undefined;
    let placeable = true;
    let a = 0;
    let b = 0;
    let earliestCut = 0;
    items.forEach((item, i) => {
      let id = nameIds.get(item.name);
      if (id === undefined) {
        id = nameIds.size;
        nameIds.set(item.name, id);
        if (id >= stamps.length) {
          const grown = new Int32Array(stamps.length * 2).fill(-1);
          grown.set(stamps);
          stamps = grown;
        }
      }
      if (stamps[id] === operation.id) duplicate ??= i;
      stamps[id] = operation.id;
      if (!selector.everything && !selector.matches(item.labels)) outsideSelector ??= i;
      const node = nodes[i]!;
      if (!states.isPlaced(node)) {
        placeable = false;
        return;
      }
      a = (a + catalog.nodes[node]!.hashA) | 0;
      b = (b + catalog.nodes[node]!.hashB) | 0;
      const at = order.positionOf[node]!;
      if (at + 1 > earliestCut) earliestCut = at + 1;
    });
    result.set(operation.id, {
      operation,
      selector,
      complete,
      version,
      items,
      nodes,
      duplicate,
      outsideSelector,
      placeable,
      key: hashKey(a, b),
      earliestCut,
    });
  }
  return result;
}

/**
 * Why placeable items are not S_cut (restricted to the selector): an item that was not its name's
 * object at that cut, or an object of that state the items miss.
 */
export function explainMismatchAt(contents: ListContents, cut: number, states: NamespaceStates, catalog: ChangeCatalog): string {
  for (let i = 0; i < contents.items.length; i++) {
    const interval = states.interval(contents.nodes[i]!);
    if (interval === undefined || cut < interval[0] || cut > interval[1]) {
      const there = states.stateAt(cut, everything).get(contents.items[i]!.name);
      const instead = there === undefined ? "no object of that name" : describeObject(catalog.nodes[there]!.object);
      return `item ${describeObject(contents.items[i])} is not in that state, which has ${instead}`;
    }
  }
  const itemNames = new Set(contents.items.map((item) => item.name));
  for (const [name, node] of states.stateAt(cut, contents.selector)) {
    if (!itemNames.has(name)) return `it misses ${describeObject(catalog.nodes[node]!.object)}, which that state has`;
  }
  return "its items differ from that state";
}

/** Why placeable items are no state at all: two items never current together, or a missing object. */
export function explainNoState(contents: ListContents, states: NamespaceStates, catalog: ChangeCatalog): string {
  let latestStart = -1;
  let earliestEnd = -1;
  let from = 0;
  let to = states.changes;
  contents.nodes.forEach((node, i) => {
    const interval = states.interval(node);
    if (interval === undefined) return;
    if (interval[0] >= from) {
      from = interval[0];
      latestStart = i;
    }
    if (interval[1] <= to) {
      to = interval[1];
      earliestEnd = i;
    }
  });
  if (from > to && latestStart >= 0 && earliestEnd >= 0) {
    return `item ${describeObject(contents.items[latestStart])} was made only after item ${describeObject(contents.items[earliestEnd])} had been replaced, so no state holds both`;
  }
  return explainMismatchAt(contents, from, states, catalog);
}
