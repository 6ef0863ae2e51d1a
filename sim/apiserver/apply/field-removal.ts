/**
 * Removal of the fields an applier stopped applying (structured-merge-diff's `prune`): what it
 * owned before and no longer names goes from the object, unless some manager (the applier
 * included, under another path) still owns it or something under it. A kept list item keeps its
 * key fields, which name it.
 */
import { fieldElement, type FieldSet, type PathElement } from "./field-set.ts";
import { isObject, itemElement, shapeOf } from "./field-walks.ts";
import { fieldNode, type TypeNode } from "./type-structure.ts";

type Json = unknown;

/** `object` without the paths of `removed` that nobody in `owned` holds (at or under them). */
export function removeUnowned(object: Json, removed: FieldSet, owned: FieldSet, node: TypeNode): Json {
  return walk(object, removed, owned, node, []);
}

function walk(value: Json, removed: FieldSet, owned: FieldSet, node: TypeNode, path: PathElement[]): Json {
  if (removed.at(path) === undefined) return value;
  const shape = shapeOf(node, value);
  if (shape.kind === "map") {
    const out: Record<string, Json> = {};
    for (const [name, child] of Object.entries(value as Record<string, Json>)) {
      const childPath = [...path, fieldElement(name)];
      if (goes(removed, owned, childPath)) continue;
      out[name] = walk(child, removed, owned, fieldNode(node, name), childPath);
    }
    return out;
  }
  if (shape.kind === "items") {
    const out: Json[] = [];
    for (const item of value as Json[]) {
      const itemPath = [...path, itemElement(shape.node, item)];
      if (goes(removed, owned, itemPath)) continue;
      if (!isObject(item)) {
        out.push(item);
        continue;
      }
      const kept = { ...(walk(item, removed, owned, shape.node.item, itemPath) as Record<string, Json>) };
      // The keys name the item: they stay while it does.
      for (const key of shape.node.keys) if (item[key] !== undefined) kept[key] = item[key];
      out.push(kept);
    }
    return out;
  }
  return value;
}

function goes(removed: FieldSet, owned: FieldSet, path: readonly PathElement[]): boolean {
  if (!removed.has(path)) return false;
  const held = owned.at(path);
  return held === undefined || held.isEmpty();
}
