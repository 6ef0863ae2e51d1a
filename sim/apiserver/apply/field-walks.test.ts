/** The two readings of an object that field ownership is built from: the fields it sets, and what changed. */
import { describe, expect, it } from "vitest";
import { compareObjects, toFieldSet } from "./field-walks.ts";
import { DEDUCED, typeStructure } from "./type-structure.ts";

const CONFIG_MAP = typeStructure("", "v1", "ConfigMap");
const fields = (set: { toFieldsV1(): unknown }) => set.toFieldsV1();

describe("field walks", () => {
  it("name the leaves and items a configuration sets, and nothing for an empty map or list", () => {
    const set = toFieldSet({ data: { a: "1" }, metadata: { labels: {}, finalizers: [] }, binaryData: {} }, CONFIG_MAP);
    expect(fields(set)).toEqual({ "f:data": { "f:a": {} } });
  });

  it("add a new value with everything in it, and remove a dropped one the same way", () => {
    const before = { data: { kept: "1", dropped: "2" } };
    const after = { data: { kept: "1", changed: "3" }, metadata: { labels: { app: "x" } } };
    const comparison = compareObjects(before, after, CONFIG_MAP);
    expect(fields(comparison.added)).toEqual({ "f:data": { "f:changed": {} }, "f:metadata": { ".": {}, "f:labels": { ".": {}, "f:app": {} } } });
    expect(fields(comparison.removed)).toEqual({ "f:data": { "f:dropped": {} } });
    expect(fields(comparison.modified)).toEqual({});
  });

  it("treat a field named like one of Object's as any other (it was read from the prototype, and counted modified)", () => {
    const added = compareObjects({ data: {} }, { data: { constructor: "x" } }, DEDUCED);
    expect(fields(added.added)).toEqual({ "f:data": { "f:constructor": {} } });
    expect(fields(added.modified)).toEqual({});
    const removed = compareObjects({ data: { toString: "x" } }, { data: {} }, DEDUCED);
    expect(fields(removed.removed)).toEqual({ "f:data": { "f:toString": {} } });
    expect(fields(removed.modified)).toEqual({});
  });
});
