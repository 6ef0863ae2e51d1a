import { describe, expect, it } from "vitest";
import { CustomResourceDefinitionError, parseCustomResourceDefinition } from "./custom-resources.ts";
import { WIDGETS } from "./sample-custom-resource.ts";
import { testServer } from "../test-server.ts";

const PATH = "/apis/example.io/v1/namespaces/default/widgets";

describe("custom resource definitions", () => {
  it("parse into a served type, and refuse broken definitions naming every problem", () => {
    const { type } = parseCustomResourceDefinition(WIDGETS);
    expect(type).toMatchObject({ group: "example.io", version: "v1", resource: "widgets", kind: "Widget", namespaced: true, shortNames: ["wd"] });
    const broken = WIDGETS.replace("name: widgets.example.io", "name: wrong").replace("scope: Namespaced", "scope: Everywhere");
    expect(() => parseCustomResourceDefinition(broken, "w.yaml")).toThrow(CustomResourceDefinitionError);
    expect(() => parseCustomResourceDefinition(broken, "w.yaml")).toThrow(/w\.yaml: spec\.scope must be Namespaced or Cluster/);
  });

  it("serve instances in JSON, with the default Table, never as Protobuf (doc 1 §2.5, §4.3.2)", async () => {
    const { call } = testServer("kubernetes", { customResourceDefinitions: [parseCustomResourceDefinition(WIDGETS)] });
    const created = await call("POST", PATH, { apiVersion: "example.io/v1", kind: "Widget", metadata: { name: "w1" }, spec: { size: 3 } });
    expect([created.status, created.json.spec]).toEqual([201, { size: 3 }]);
    const table = await call("GET", PATH, undefined, { accept: "application/json;as=Table;g=meta.k8s.io;v=v1" });
    expect(table.json.columnDefinitions.map((c: any) => [c.name, c.type])).toEqual([["Name", "string"], ["Created At", "date"]]);
    expect(table.json.rows[0].cells).toEqual(["w1", created.json.metadata.creationTimestamp]);
    expect((await call("GET", `${PATH}/w1`, undefined, { accept: "application/vnd.kubernetes.protobuf" })).status).toBe(406);
    const fallback = await call("GET", `${PATH}/w1`, undefined, { accept: "application/vnd.kubernetes.protobuf, application/json" });
    expect([fallback.status, fallback.headers.get("content-type")]).toEqual([200, "application/json"]);
    const strategic = await call("PATCH", `${PATH}/w1`, { spec: { size: 4 } }, { "content-type": "application/strategic-merge-patch+json" });
    expect(strategic.status).toBe(415);
  });

  it("are listed under apiextensions.k8s.io as if created, their group discovered until the definition is deleted", async () => {
    const { call } = testServer("orb", { customResourceDefinitions: [parseCustomResourceDefinition(WIDGETS)] });
    const list = await call("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions");
    expect(list.json.items.map((item: any) => item.metadata.name)).toEqual(["widgets.example.io"]);
    expect((await call("GET", "/apis")).json.groups.map((g: any) => g.name)).toContain("example.io");
    // `serve --crd` is a shortcut for a create: the definition is deleted as one made over the API.
    expect((await call("DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.io")).status).toBe(200);
    expect((await call("GET", "/apis")).json.groups.map((g: any) => g.name)).not.toContain("example.io");
  });
});
