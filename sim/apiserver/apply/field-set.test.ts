/** FieldsV1 decoding and encoding, set operations, and conflict paths as Kubernetes prints them. */
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
