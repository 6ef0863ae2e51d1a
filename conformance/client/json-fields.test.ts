/** The lenient readers of json-fields.ts read what optional chaining read on the `any` bodies they replace. */
import { describe, expect, it } from "vitest";
import { fieldAt, isRecord, recordOf } from "./json-fields.ts";

/** JSON values of every kind, as a server may send them where an object is expected. */
const VALUES: unknown[] = [undefined, null, true, 0, 7, "", "text", [], [1, { a: 2 }], {}, { kind: "Status", metadata: { name: "n", labels: { a: "b" } } }, { metadata: null }, { metadata: "x" }];

describe("json-fields", () => {
  it("isRecord holds for JSON objects only", () => {
    expect(VALUES.filter(isRecord)).toEqual([{}, { kind: "Status", metadata: { name: "n", labels: { a: "b" } } }, { metadata: null }, { metadata: "x" }]);
  });

  it("recordOf(v).f and fieldAt(v, …) read as v?.f and v?.a?.b on every kind of value", () => {
    for (const value of VALUES) {
      const loose = value as { kind?: unknown; metadata?: { name?: unknown; labels?: { a?: unknown } } } | undefined;
      expect(recordOf(value).kind, JSON.stringify(value)).toBe(loose?.kind);
      expect(fieldAt(value, "metadata", "name"), JSON.stringify(value)).toBe(loose?.metadata?.name);
      expect(fieldAt(value, "metadata", "labels", "a"), JSON.stringify(value)).toBe(loose?.metadata?.labels?.a);
    }
    expect(fieldAt([1, { a: 2 }], 1, "a")).toBe(2);
    expect(fieldAt({ rows: [{ cells: ["x"] }] }, "rows", 0, "cells", 0)).toBe("x");
    expect(fieldAt({ rows: {} }, "rows", 0)).toBeUndefined();
  });

  it("the view of a non-object has no fields, not even inherited ones", () => {
    expect(recordOf(undefined).constructor).toBeUndefined();
    expect(Object.keys(recordOf("text"))).toEqual([]);
  });
});
