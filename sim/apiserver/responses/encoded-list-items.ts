/**
 * A list's JSON body made from each item's JSON, encoded once per stored object version and kept
 * while that version lives (issue #20), as kube-apiserver's watch cache keeps its objects
 * serialized. Stored objects are frozen deep copies, so one object always encodes to the same
 * bytes; a list of 10,000 Pods then writes bytes kept from before, not a walk of 10,000 objects.
 *
 * The body is byte for byte `goJson(list)`: JSON.stringify joins array items with a bare comma,
 * and Go's HTML escaping works one character at a time, so escaping each item alone is the same.
 */
import type { StoredObject } from "../../store/stored-object.ts";
import { listItem } from "../registry/stored-resource.ts";
import { goJson, goJsonFragment } from "./go-text.ts";

const itemBytes = new WeakMap<StoredObject, Buffer>();
const COMMA = Buffer.from(",");

function encodedItem(object: StoredObject): Buffer {
  let bytes = itemBytes.get(object);
  if (bytes === undefined) {
    bytes = Buffer.from(goJsonFragment(listItem(object)), "utf8");
    itemBytes.set(object, bytes);
  }
  return bytes;
}

/**
 * `goJson({ ...list, items: items.map(listItem) })` as its parts, in order (`items` go last, as
 * lists write them): the list's head, each item's bytes and the commas between, the closing.
 */
export function encodedJsonList(list: Readonly<Record<string, unknown>>, items: readonly StoredObject[]): Buffer[] {
  const empty = goJson({ ...list, items: [] });
  const closing = "]}\n";
  if (!empty.endsWith(`"items":[${closing}`)) throw new Error("a list's items must be its last field");
  const parts: Buffer[] = [Buffer.from(empty.slice(0, -closing.length), "utf8")];
  items.forEach((item, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(encodedItem(item));
  });
  parts.push(Buffer.from(closing));
  return parts;
}
