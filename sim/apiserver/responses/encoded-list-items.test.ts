import { describe, expect, it } from "vitest";
import { freezeWithResourceVersion, type StoredObject } from "../../store/stored-object.ts";
import { listItem } from "../registry/stored-resource.ts";
import { encodedJsonList } from "./encoded-list-items.ts";
import { goJson } from "./go-text.ts";

function stored(name: string, extra: Record<string, unknown> = {}): StoredObject {
  return freezeWithResourceVersion({ metadata: { name, namespace: "n", uid: `uid-${name}`, labels: { a: "<b>&" } }, spec: { note: "\u2028 line separator", ...extra } } as unknown as StoredObject, "7");
}

describe("a list body made from each item's cached encoding", () => {
  const list = { kind: "PodList", apiVersion: "v1", metadata: { resourceVersion: "9", continue: "token<&>" } };

  it("is byte for byte the list encoded whole, escapes included", () => {
    const items = [stored("a"), stored("b", { containers: [{ name: "c", args: ["x", "y"] }] }), stored("c")];
    expect(Buffer.concat(encodedJsonList(list, items)).toString("utf8")).toBe(goJson({ ...list, items: items.map(listItem) }));
  });

  it("writes an empty list as the whole encoding does", () => {
    expect(Buffer.concat(encodedJsonList(list, [])).toString("utf8")).toBe(goJson({ ...list, items: [] }));
  });

  it("gives a later version of an object its own bytes", () => {
    const first = stored("a");
    const second = freezeWithResourceVersion({ ...first, spec: { note: "changed" } } as StoredObject, "8");
    expect(Buffer.concat(encodedJsonList(list, [first])).toString("utf8")).toContain('"resourceVersion":"7"');
    expect(Buffer.concat(encodedJsonList(list, [second])).toString("utf8")).toContain('"note":"changed"');
    expect(Buffer.concat(encodedJsonList(list, [first])).toString("utf8")).not.toContain("changed");
  });
});
