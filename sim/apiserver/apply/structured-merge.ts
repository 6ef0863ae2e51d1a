/**
 * The merge of an applied configuration into the live object, as structured-merge-diff's
 * `TypedValue.Merge` does it: the configuration's leaves and atomic values win; granular maps are
 * merged key by key; lists of items (sets, maps by key) are merged item by item, the live order
 * kept and the configuration's order followed for the items they share, its new items placed where
 * it puts them.
 */
import type { PathElement } from "./field-set.ts";
import { isObject, itemElement, itemsByElement, shapeOf } from "./field-walks.ts";
import { fieldNode, type TypeNode } from "./type-structure.ts";

type Json = unknown;

/** `live` with `config` merged in. */
export function mergeApplied(live: Json, config: Json, node: TypeNode): Json {
  if (config === undefined) return live;
  if (live === undefined) return structuredClone(config);
  const left = shapeOf(node, live);
  const right = shapeOf(node, config);
  if (left.kind !== right.kind || right.kind === "leaf") return structuredClone(config);
  if (right.kind === "map") {
    const out: Record<string, Json> = { ...(live as Record<string, Json>) };
    for (const [name, value] of Object.entries(config as Record<string, Json>)) out[name] = mergeApplied(out[name], value, fieldNode(node, name));
    return out;
  }
  return mergeItems(live as Json[], config as Json[], right.node);
}

/** structured-merge-diff's list merge (merge.go visitListItems), over path elements. */
function mergeItems(live: readonly Json[], config: readonly Json[], node: Extract<TypeNode, { kind: "list" }>): Json[] {
  const lhsElements = uniqueElements(node, live);
  const rhsElements = uniqueElements(node, config);
  const lhs = itemsByElement(node, live);
  const rhs = itemsByElement(node, config);
  const merge = (element: PathElement) => {
    const l = lhs.get(element);
    const r = rhs.get(element);
    return isObject(l) && isObject(r) ? mergeApplied(l, r, node.item) : r !== undefined ? structuredClone(r) : l;
  };
  // The items both have, in the configuration's order.
  const shared = rhsElements.filter((element) => lhs.has(element));
  let nextShared = 0;
  const merged = new Set<PathElement>();
  const out: Json[] = [];
  let l = 0;
  let r = 0;
  while (l < lhsElements.length || r < rhsElements.length) {
    if (l < lhsElements.length && r < rhsElements.length) {
      const element = lhsElements[l]!;
      if (element === rhsElements[r]) {
        merged.add(element);
        out.push(merge(element));
        l += 1;
        r += 1;
        if (shared[nextShared] === element) nextShared += 1;
        continue;
      }
      if (rhs.has(element) && nextShared < shared.length && shared[nextShared] !== element) {
        // A shared item, but not the one the configuration wants next: it comes later.
        l += 1;
        continue;
      }
    }
    if (l < lhsElements.length) {
      const element = lhsElements[l]!;
      if (!rhs.has(element)) {
        out.push(lhs.get(element));
        l += 1;
        continue;
      }
      if (merged.has(element)) {
        l += 1;
        continue;
      }
    }
    if (r < rhsElements.length) {
      const element = rhsElements[r]!;
      merged.add(element);
      out.push(merge(element));
      r += 1;
      if (shared[nextShared] === element) nextShared += 1;
    }
  }
  return out;
}

function uniqueElements(node: Extract<TypeNode, { kind: "list" }>, list: readonly Json[]): PathElement[] {
  const seen = new Set<PathElement>();
  const out: PathElement[] = [];
  for (const item of list) {
    const element = itemElement(node, item);
    if (seen.has(element)) continue;
    seen.add(element);
    out.push(element);
  }
  return out;
}
