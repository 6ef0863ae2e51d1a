/**
 * The two readings of an object structured-merge-diff makes to keep field ownership: the set of
 * fields an applied configuration names (`toFieldSet`: leaves, atomic values and list items, not
 * the granular maps that hold them), and what changed between two versions (`compareObjects`:
 * added, modified and removed paths; a map or list item that appears is added with everything in
 * it, which is why an Update entry has `.` where an Apply entry does not).
 */
import { FieldSet, fieldElement, keyElement, valueElement, type PathElement } from "./field-set.ts";
import { fieldNode, SCALAR, type TypeNode } from "./type-structure.ts";
import { ownMember } from "../patch/json-value.ts";

type Json = unknown;

/** How a value is walked: as a leaf, a granular map, or a list of items named by path elements. */
type Shape = { readonly kind: "leaf" } | { readonly kind: "map"; readonly node: TypeNode } | { readonly kind: "items"; readonly node: Extract<TypeNode, { kind: "list" }> };

export function isObject(value: Json): value is Record<string, Json> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The shape of `value` under `node`. */
export function shapeOf(node: TypeNode, value: Json): Shape {
  if (isObject(value) && ((node.kind === "map" && !node.atomic) || node.kind === "deduced")) return { kind: "map", node };
  if (Array.isArray(value) && node.kind === "list" && node.semantics !== "atomic") return { kind: "items", node };
  return { kind: "leaf" };
}

/** The path element of a list item: its keys (a map list) or its value (a set). */
export function itemElement(node: Extract<TypeNode, { kind: "list" }>, item: Json): PathElement {
  if (node.semantics === "set") return valueElement(item);
  const keys: Record<string, Json> = {};
  for (const key of node.keys) {
    const value = isObject(item) ? item[key] : undefined;
    if (value !== undefined) keys[key] = value;
    else if (node.keyDefaults[key] !== undefined) keys[key] = node.keyDefaults[key];
  }
  return keyElement(keys);
}

/** The items of a list by path element (a later duplicate is ignored, as the first one is kept). */
export function itemsByElement(node: Extract<TypeNode, { kind: "list" }>, list: readonly Json[]): Map<PathElement, Json> {
  const items = new Map<PathElement, Json>();
  for (const item of list) {
    const element = itemElement(node, item);
    if (!items.has(element)) items.set(element, item);
  }
  return items;
}

/** The fields an applied configuration sets. */
export function toFieldSet(value: Json, node: TypeNode): FieldSet {
  const set = new FieldSet();
  walkSet(value, node, set, undefined);
  return set;
}

// The walks below make the nodes of their sets as they go down, rather than collect each path and
// insert it from the root: a Pod's create spent a tenth of its allocation on those paths (issue #20).

/** Adds the fields `value` sets under `parent`, `element` being its own path element (none at the root). */
function walkSet(value: Json, node: TypeNode, parent: FieldSet, element: PathElement | undefined): void {
  const shape = shapeOf(node, value);
  if (shape.kind === "leaf") {
    // A null for a map or list names nothing; for a scalar it is a value.
    if (element !== undefined && !(value === null && node.kind !== "scalar")) parent.childOrNew(element).member = true;
    return;
  }
  // A granular map or list is no member itself: its node joins the set only if a field under it does.
  const existing = element === undefined ? parent : parent.child(element);
  const here = existing ?? new FieldSet();
  if (shape.kind === "map") {
    for (const name in value as Record<string, Json>) walkSet((value as Record<string, Json>)[name], fieldNode(node, name), here, fieldElement(name));
  } else {
    for (const [itemElement, item] of itemsByElement(shape.node, value as Json[])) {
      here.childOrNew(itemElement).member = true;
      if (isObject(item)) walkSet(item, shape.node.item, here, itemElement);
    }
  }
  if (existing === undefined && here.childCount > 0) parent.setChild(element!, here);
}

/** What changed from `lhs` to `rhs`. */
export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

export function compareObjects(lhs: Json, rhs: Json, node: TypeNode): Comparison {
  const comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walkCompare(lhs, rhs, node, [], comparison);
  return comparison;
}

function walkCompare(lhs: Json, rhs: Json, node: TypeNode, path: PathElement[], out: Comparison): void {
  if (lhs === undefined && rhs === undefined) return;
  if (lhs === undefined || rhs === undefined) {
    const set = lhs === undefined ? out.added : out.removed;
    // Everything inside an added or removed value is added or removed with it.
    addWhole(lhs === undefined ? rhs : lhs, node, path.length > 0 ? set.insert(path) : set);
    return;
  }
  const left = shapeOf(node, lhs);
  const right = shapeOf(node, rhs);
  if (left.kind !== right.kind || left.kind === "leaf") {
    if (!deepEqual(lhs, rhs) && path.length > 0) out.modified.insert(path);
    return;
  }
  if (left.kind === "map") {
    const l = lhs as Record<string, Json>;
    const r = rhs as Record<string, Json>;
    for (const name in l) walkCompare(l[name], ownMember(r, name), fieldNode(node, name), [...path, fieldElement(name)], out);
    for (const name in r) if (!Object.hasOwn(l, name)) walkCompare(undefined, r[name], fieldNode(node, name), [...path, fieldElement(name)], out);
    return;
  }
  const listNode = (left as Extract<Shape, { kind: "items" }>).node;
  const l = itemsByElement(listNode, lhs as Json[]);
  const r = itemsByElement(listNode, rhs as Json[]);
  for (const element of new Set([...l.keys(), ...r.keys()])) {
    const itemPath = [...path, element];
    const before = l.get(element);
    const after = r.get(element);
    if (before === undefined || after === undefined) walkCompare(before, after, listNode.item, itemPath, out);
    else if (isObject(before) && isObject(after)) walkCompare(before, after, listNode.item, itemPath, out);
  }
}

/** Adds every path under `value`, each a member, to `at`: the node of the value's own path. */
function addWhole(value: Json, node: TypeNode, at: FieldSet): void {
  const shape = shapeOf(node, value);
  if (shape.kind === "map") {
    const map = value as Record<string, Json>;
    for (const name in map) {
      if (map[name] === undefined) continue;
      const child = at.childOrNew(fieldElement(name));
      child.member = true;
      addWhole(map[name], fieldNode(node, name), child);
    }
  } else if (shape.kind === "items") {
    for (const [element, item] of itemsByElement(shape.node, value as Json[])) {
      if (item === undefined) continue;
      const child = at.childOrNew(element);
      child.member = true;
      addWhole(item, isObject(item) ? shape.node.item : SCALAR, child);
    }
  }
}

/**
 * A text that names what `addWhole` reads of `value` under `node`: the fields each granular map
 * sets, the path elements of each list's items, and which leaves are empty objects (the one leaf
 * a comparison tells apart, a Go struct's `{}`). Values that give the same text give the same
 * sets, both added whole and compared with an object of empty structs (created-fields.ts keys
 * its cache with it). Each name is written after its length, which keeps the text unambiguous
 * whatever characters names hold.
 */
export function wholeShapeKey(value: Json, node: TypeNode): string {
  const shape = shapeOf(node, value);
  if (shape.kind === "map") {
    const map = value as Record<string, Json>;
    let key = "{";
    for (const name in map) {
      if (map[name] === undefined) continue;
      key += `${name.length}:${name}${wholeShapeKey(map[name], fieldNode(node, name))},`;
    }
    return `${key}}`;
  }
  if (shape.kind === "items") {
    let key = "[";
    for (const [element, item] of itemsByElement(shape.node, value as Json[])) {
      if (item === undefined) continue;
      key += `${element.length}:${element}${wholeShapeKey(item, isObject(item) ? shape.node.item : SCALAR)},`;
    }
    return `${key}]`;
  }
  return isObject(value) && Object.keys(value).length === 0 ? "e" : "";
}

export function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, index) => deepEqual(item, b[index]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && deepEqual(a[key], b[key]));
  }
  return false;
}
