/** FieldsV1 decoding and encoding, set operations, and conflict paths as Kubernetes prints them. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FieldSet, keyElement, pathText, valueElement } from "./field-set.ts";

// An entry recorded from kube-apiserver 1.26.4 (recorded/, apply-create-deployment).
const RECORDED = {
  "f:spec": {
    "f:replicas": {},
    "f:selector": {},
    "f:template": {
      "f:metadata": { "f:labels": { "f:app": {} } },
      "f:spec": {
        "f:containers": {
          'k:{"name":"main"}': {
            ".": {},
            "f:args": {},
            "f:image": {},
            "f:name": {},
            "f:ports": { 'k:{"containerPort":80,"protocol":"TCP"}': { ".": {}, "f:containerPort": {}, "f:protocol": {} } },
          },
        },
      },
    },
  },
};

describe("FieldSet", () => {
  it("decodes and re-encodes a recorded FieldsV1 byte for byte", () => {
    expect(JSON.stringify(FieldSet.fromFieldsV1(RECORDED).toFieldsV1())).toBe(JSON.stringify(RECORDED));
  });

  it("knows leaves and items as members, and the maps that hold them as not", () => {
    const set = FieldSet.fromFieldsV1(RECORDED);
    expect(set.has(["f:spec", "f:replicas"])).toBe(true);
    expect(set.has(["f:spec", "f:template", "f:spec", "f:containers", 'k:{"name":"main"}'])).toBe(true);
    expect(set.has(["f:spec", "f:template"])).toBe(false);
    expect(set.has(["f:spec", "f:minReadySeconds"])).toBe(false);
  });

  it("unions, subtracts and intersects paths", () => {
    const a = new FieldSet();
    a.insert(["f:data", "f:x"]);
    a.insert(["f:data", "f:y"]);
    const b = new FieldSet();
    b.insert(["f:data", "f:y"]);
    b.insert(["f:data", "f:z"]);
    expect(a.union(b).paths()).toEqual([["f:data", "f:x"], ["f:data", "f:y"], ["f:data", "f:z"]]);
    expect(a.difference(b).paths()).toEqual([["f:data", "f:x"]]);
    expect(a.intersection(b).paths()).toEqual([["f:data", "f:y"]]);
    const under = new FieldSet();
    under.insert(["f:data"]);
    expect(a.recursiveDifference(under).isEmpty()).toBe(true);
    expect(a.difference(under).paths()).toHaveLength(2);
  });

  it("writes keys sorted by name and prints paths as a conflict names them", () => {
    expect(keyElement({ protocol: "TCP", containerPort: 80 })).toBe('k:{"containerPort":80,"protocol":"TCP"}');
    expect(pathText(["f:data", "f:x"])).toBe(".data.x");
    expect(pathText(["f:spec", "f:template", "f:spec", "f:containers", keyElement({ name: "main" }), "f:image"])).toBe('.spec.template.spec.containers[name="main"].image');
    expect(pathText(["f:metadata", "f:finalizers", valueElement("a")])).toBe('.metadata.finalizers[="a"]');
  });
});

/** The set operations as first written, by listing member paths: the reference the trie walks must match. */
function reference(a: FieldSet, b: FieldSet) {
  const fromPaths = (paths: string[][]) => {
    const out = new FieldSet();
    for (const path of paths) out.insert(path);
    return out;
  };
  const under = (path: string[]) => path.some((_, index) => b.has(path.slice(0, index + 1)));
  return {
    union: fromPaths([...a.paths(), ...b.paths()]),
    difference: fromPaths(a.paths().filter((path) => !b.has(path))),
    intersection: fromPaths(a.paths().filter((path) => b.has(path))),
    recursiveDifference: fromPaths(a.paths().filter((path) => !under(path))),
    copy: fromPaths(a.paths()),
  };
}

describe("FieldSet operations", () => {
  // Paths over a few elements, so that two sets share prefixes, members and members' children.
  const path = fc.array(fc.constantFrom("f:a", "f:b", 'k:{"name":"c"}', "v:1", "i:0"), { maxLength: 4 });
  const set = fc.array(path, { maxLength: 12 }).map((paths) => {
    const out = new FieldSet();
    for (const each of paths) out.insert(each);
    return out;
  });

  it("give what inserting the kept member paths gives, structure included (property)", () => {
    fc.assert(
      fc.property(set, set, (a, b) => {
        const expected = reference(a, b);
        const encode = (value: FieldSet) => JSON.stringify(value.toFieldsV1());
        expect(encode(a.union(b))).toBe(encode(expected.union));
        expect(encode(a.difference(b))).toBe(encode(expected.difference));
        expect(encode(a.intersection(b))).toBe(encode(expected.intersection));
        expect(encode(a.recursiveDifference(b))).toBe(encode(expected.recursiveDifference));
        expect(encode(a.copy())).toBe(encode(expected.copy));
        expect(a.union(b).paths()).toEqual(expected.union.paths());
        expect(a.recursiveDifference(b).paths()).toEqual(expected.recursiveDifference.paths());
      }),
      { numRuns: 3_000 },
    );
  });
});
