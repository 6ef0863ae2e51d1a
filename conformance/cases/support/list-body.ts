/**
 * A list answer as the cases read it (doc 1 §2.3): its items, and its metadata (continue,
 * resourceVersion, remainingItemCount: `metadataOf(list)`, object-body.ts).
 */
import { recordOf } from "../../client/json-fields.ts";
import { arrayOrEmpty, expectArray } from "./json-guards.ts";
import { metadataOf } from "./object-body.ts";

/** The items of a list, none when it has none (`list?.items ?? []`); fails when items is something else. */
export function itemsOf(list: unknown, what = "the list"): readonly unknown[] {
  return arrayOrEmpty(recordOf(list).items, `${what}: items`);
}

/** The items of a list, which must carry an array of them. */
export function listItems(list: unknown, what: string): readonly unknown[] {
  return expectArray(recordOf(list).items, `${what}: items`);
}

/** The names of a list's items ("?" for an item without one). */
export function itemNames(list: unknown): string[] {
  return itemsOf(list).map((item) => {
    const name = metadataOf(item).name;
    return typeof name === "string" ? name : name === undefined || name === null ? "?" : JSON.stringify(name);
  });
}
