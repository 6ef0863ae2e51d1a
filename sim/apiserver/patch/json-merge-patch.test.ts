import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyMergePatch, isMergePatchDocument, type JsonValue } from "./json-merge-patch.ts";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

describe("applyMergePatch: RFC 7386", () => {
  it("gives the §3 example's result", () => {
    const target = {
      title: "Goodbye!",
      author: { givenName: "John", familyName: "Doe" },
      tags: ["example", "sample"],
      content: "This will be unchanged",
    };
    const patch = { title: "Hello!", phoneNumber: "+01-123-456-7890", author: { familyName: null }, tags: ["example"] };
    expect(applyMergePatch(target, patch)).toEqual({
      title: "Hello!",
      author: { givenName: "John" },
      tags: ["example"],
      content: "This will be unchanged",
      phoneNumber: "+01-123-456-7890",
    });
  });

  // Appendix A, row by row: [original, patch, result].
  const appendixA: [JsonValue, JsonValue, JsonValue][] = [
    [{ a: "b" }, { a: "c" }, { a: "c" }],
    [{ a: "b" }, { b: "c" }, { a: "b", b: "c" }],
    [{ a: "b" }, { a: null }, {}],
    [{ a: "b", b: "c" }, { a: null }, { b: "c" }],
    [{ a: ["b"] }, { a: "c" }, { a: "c" }],
    [{ a: "c" }, { a: ["b"] }, { a: ["b"] }],
    [{ a: { b: "c" } }, { a: { b: "d", c: null } }, { a: { b: "d" } }],
    [{ a: [{ b: "c" }] }, { a: [1] }, { a: [1] }],
    [["a", "b"], ["c", "d"], ["c", "d"]],
    [{ a: "b" }, ["c"], ["c"]],
    [{ a: "foo" }, null, null],
    [{ a: "foo" }, "bar", "bar"],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: "b", c: null }, { a: "b" }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  appendixA.forEach(([original, patch, result], row) => {
    it(`Appendix A row ${row + 1}: ${JSON.stringify(original)} + ${JSON.stringify(patch)}`, () => {
      expect(applyMergePatch(deepFreeze(original), deepFreeze(patch))).toEqual(result);
    });
  });

  it("applies the transcript patch-merge body to a ConfigMap", () => {
    const configMap = { metadata: { name: "cm-1", labels: { tier: "odd" } }, data: { key: "cm-1" } };
    expect(applyMergePatch(configMap, { data: { merged: "yes" } })).toEqual({
      metadata: { name: "cm-1", labels: { tier: "odd" } },
      data: { key: "cm-1", merged: "yes" },
    });
  });

  it("removes a label and keeps the rest of metadata", () => {
    const object = { metadata: { name: "x", labels: { a: "1", b: "2" }, finalizers: ["f"] } };
    expect(applyMergePatch(object, { metadata: { labels: { a: null }, finalizers: null } })).toEqual({ metadata: { name: "x", labels: { b: "2" } } });
  });

  it("ignores a null for a member that is not there, and merges into a non-object member by replacing it", () => {
    expect(applyMergePatch({ a: 1 }, { b: null })).toEqual({ a: 1 });
    expect(applyMergePatch({ a: 1 }, { a: { b: 2, c: null } })).toEqual({ a: { b: 2 } });
  });

  it("treats __proto__ as an ordinary member name", () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as JsonValue;
    const result = applyMergePatch({}, patch) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result, "__proto__")).toBe(true);
    expect(result["a"]).toBe(1);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    const removed = applyMergePatch(result, JSON.parse('{"__proto__": null}') as JsonValue) as Record<string, unknown>;
    expect(Object.keys(removed)).toEqual(["a"]);
  });

  it("returns a result that shares nothing with its inputs", () => {
    const target = { a: { b: [1, { c: 2 }] }, keep: { x: 1 } };
    const patch = { n: { m: [3] } };
    const result = applyMergePatch(target, patch) as { a: { b: unknown[] }; keep: { x: number }; n: { m: number[] } };
    result.a.b.push(9);
    result.keep.x = 5;
    result.n.m.push(4);
    expect(target).toEqual({ a: { b: [1, { c: 2 }] }, keep: { x: 1 } });
    expect(patch).toEqual({ n: { m: [3] } });
  });
});

describe("isMergePatchDocument", () => {
  it("accepts objects only", () => {
    expect(isMergePatchDocument({})).toBe(true);
    expect(isMergePatchDocument({ a: null })).toBe(true);
    for (const other of [null, [], [{}], "x", 1, true]) expect(isMergePatchDocument(other)).toBe(false);
  });
});

describe("properties", () => {
  const json = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue>;
  const objectPatch = fc.dictionary(fc.string({ maxLength: 3 }), fc.oneof(fc.constant(null), json), { maxKeys: 4 }) as fc.Arbitrary<JsonValue>;

  it("is idempotent: apply(apply(x, p), p) equals apply(x, p)", () => {
    fc.assert(
      fc.property(json, fc.oneof(objectPatch, json), (target, patch) => {
        const once = applyMergePatch(deepFreeze(target), deepFreeze(patch));
        expect(applyMergePatch(once, patch)).toEqual(once);
      }),
    );
  });

  it("never modifies its inputs", () => {
    fc.assert(
      fc.property(json, objectPatch, (target, patch) => {
        const before = JSON.stringify([target, patch]);
        applyMergePatch(target, patch);
        expect(JSON.stringify([target, patch])).toBe(before);
      }),
    );
  });

  it("makes every non-null member of an object patch appear in the result; null members are absent", () => {
    fc.assert(
      fc.property(json, objectPatch, (target, patch) => {
        const result = applyMergePatch(target, patch) as Record<string, JsonValue>;
        for (const [name, value] of Object.entries(patch as Record<string, JsonValue>)) {
          if (value === null) expect(Object.hasOwn(result, name)).toBe(false);
          else if (typeof value !== "object" || Array.isArray(value)) expect(result[name]).toEqual(value);
          else expect(Object.hasOwn(result, name)).toBe(true);
        }
      }),
    );
  });

  it("leaves an object unchanged under the empty patch, and equals the patch itself for a non-object patch", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 3 }), json), json, (target, patch) => {
        expect(applyMergePatch(target, {})).toEqual(target);
        if (patch === null || typeof patch !== "object" || Array.isArray(patch)) expect(applyMergePatch(target, patch)).toEqual(patch);
      }),
    );
  });
});
