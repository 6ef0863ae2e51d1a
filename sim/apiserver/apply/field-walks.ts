/**
 * The two readings of an object structured-merge-diff makes to keep field ownership: the set of
 * fields an applied configuration names (`toFieldSet`: leaves, atomic values and list items, not
 * the granular maps that hold them), and what changed between two versions (`compareObjects`:
 * added, modified and removed paths; a map or list item that appears is added with everything in
 * it, which is why an Update entry has `.` where an Apply entry does not).
 */
import { FieldSet, fieldElement, keyElement, valueElement, type PathElement } from "./field-set.ts";
import { fieldNode, type TypeNode } from "./type-structure.ts";

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
  walkSet(value, node, [], set);
  return set;
}

function walkSet(value: Json, node: TypeNode, path: PathElement[], set: FieldSet): void {
  const shape = shapeOf(node, value);
  if (shape.kind === "leaf") {
    // A null for a map or list names nothing; for a scalar it is a value.
    if (path.length > 0 && !(value === null && node.kind !== "scalar")) set.insert(path);
    return;
  }
  if (shape.kind === "map") {
    for (const [name, child] of Object.entries(value as Record<string, Json>)) walkSet(child, fieldNode(node, name), [...path, fieldElement(name)], set);
    return;
  }
  for (const [element, item] of itemsByElement(shape.node, value as Json[])) {
    const itemPath = [...path, element];
    set.insert(itemPath);
    if (isObject(item)) walkSet(item, shape.node.item, itemPath, set);
  }
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
    const present = lhs === undefined ? rhs : lhs;
    if (path.length > 0) set.insert(path);
    // Everything inside an added or removed value is added or removed with it.
    eachChild(present, node, path, (child, childNode, childPath) =>
      walkCompare(lhs === undefined ? undefined : child, lhs === undefined ? child : undefined, childNode, childPath, out),
    );
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
    for (const name of new Set([...Object.keys(l), ...Object.keys(r)])) {
      walkCompare(l[name], r[name], fieldNode(node, name), [...path, fieldElement(name)], out);
    }
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

/** Calls `visit` with each child of a granular map or list (not of a leaf). */
export function eachChild(value: Json, node: TypeNode, path: PathElement[], visit: (child: Json, childNode: TypeNode, childPath: PathElement[]) => void): void {
  const shape = shapeOf(node, value);
  if (shape.kind === "map") {
    for (const [name, child] of Object.entries(value as Record<string, Json>)) visit(child, fieldNode(node, name), [...path, fieldElement(name)]);
  } else if (shape.kind === "items") {
    for (const [element, item] of itemsByElement(shape.node, value as Json[])) {
      if (isObject(item)) visit(item, shape.node.item, [...path, element]);
      else visit(item, { kind: "scalar" }, [...path, element]);
    }
  }
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
