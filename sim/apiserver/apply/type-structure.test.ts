/** The list and map semantics read from the recorded OpenAPI schemas, as structured-merge-diff reads them. */
import { describe, expect, it } from "vitest";
import { fieldNode, typeStructure, type TypeNode } from "./type-structure.ts";

function at(node: TypeNode, ...path: string[]): TypeNode {
  let current = node;
  for (const name of path) current = name === "[]" && current.kind === "list" ? current.item : fieldNode(current, name);
  return current;
}

describe("type structure of the built-in types", () => {
  const deployment = typeStructure("apps", "v1", "Deployment");
  const podSpec = at(deployment, "spec", "template", "spec");

  it("keys containers by name (patch merge key, no list type) and ports by containerPort and protocol (list-map-keys)", () => {
    expect(at(podSpec, "containers")).toMatchObject({ kind: "list", semantics: "map", keys: ["name"] });
    expect(at(podSpec, "containers", "[]", "ports")).toMatchObject({ kind: "list", semantics: "map", keys: ["containerPort", "protocol"], keyDefaults: { protocol: "TCP" } });
  });

  it("makes args atomic, finalizers a set, the label selector an atomic map and labels a granular one", () => {
    expect(at(podSpec, "containers", "[]", "args")).toMatchObject({ kind: "list", semantics: "atomic" });
    expect(at(deployment, "metadata", "finalizers")).toMatchObject({ kind: "list", semantics: "set" });
    expect(at(deployment, "spec", "selector")).toMatchObject({ kind: "map", atomic: true });
    expect(at(deployment, "metadata", "labels")).toMatchObject({ kind: "map", atomic: false });
  });

  it("deduces a kind it has no schema for", () => {
    expect(typeStructure("example.com", "v1", "Widget").kind).toBe("deduced");
  });
});
