import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.ts";

// Rebuilds `value` with every object's keys inserted in reverse order.
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value === "object" && value !== null) {
    // Null prototype, so a generated "__proto__" key stays an ordinary own property.
    const out = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value).reverse()) out[key] = reverseKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

describe("canonicalJson", () => {
  it("sorts object keys recursively and writes no whitespace", () => {
    const value = { b: 1, a: { d: [3, { z: true, y: null }], c: "x" }, "10": 0, "9": 0 };
    expect(canonicalJson(value)).toBe('{"10":0,"9":0,"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}');
  });

  it("sorts by UTF-16 code units, not locale", () => {
    expect(canonicalJson({ b: 0, B: 0, é: 0, a: 0 })).toBe('{"B":0,"a":0,"b":0,"é":0}');
  });

  it("omits undefined properties and keeps null ones", () => {
    expect(canonicalJson({ a: undefined, b: null, c: { d: undefined } })).toBe('{"b":null,"c":{}}');
  });

  it("keeps array order and escapes strings as JSON does", () => {
    expect(canonicalJson([3, 1, 2])).toBe("[3,1,2]");
    expect(canonicalJson({ 'q"\n': "tab\tand\u0001" })).toBe('{"q\\"\\n":"tab\\tand\\u0001"}');
  });

  it("writes an array of strings exactly as JSON.stringify does, and still refuses holes in one", () => {
    const names = ["node-1", "", 'quote " and \\ backslash', "zoné ☃", "\u2028", "node-2/status"];
    expect(canonicalJson(names)).toBe(JSON.stringify(names));
    expect(canonicalJson({ nodes: names })).toBe(`{"nodes":${JSON.stringify(names)}}`);
    // eslint-disable-next-line no-sparse-arrays
    expect(() => canonicalJson(["a", , "c"])).toThrow(TypeError);
  });

  it("honours toJSON, so a Date becomes its ISO string", () => {
    expect(canonicalJson({ at: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) })).toBe('{"at":"2024-01-02T03:04:05.000Z"}');
  });

  it("accepts a shared (non-cyclic) reference twice", () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}');
  });

  it.each([
    ["top-level undefined", undefined],
    ["NaN", { n: Number.NaN }],
    ["Infinity", [Number.POSITIVE_INFINITY]],
    ["a function", { f: () => 1 }],
    ["a bigint", { n: 1n }],
    ["a symbol", { s: Symbol("s") }],
    ["a Map", { m: new Map([["k", 1]]) }],
    ["a Set", new Set([1])],
    ["a typed array", { b: new Uint8Array(2) }],
    ["undefined inside an array", [1, undefined]],
  ])("rejects %s instead of serializing it lossily", (_label, value) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
  });

  it("rejects cycles", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    expect(() => canonicalJson(cyclic)).toThrow(/cycle at \$\.self\.back/);
  });

  it("is independent of key insertion order and round-trips through JSON.parse", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(reverseKeys(value))).toBe(text);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});
