import { describe, expect, it } from "vitest";
import { recordedOpenApi } from "../../sim/apiserver/discovery/openapi-schemas.ts";
import { extractServedSchemas, schemaClosure, servedKinds } from "./record-openapi.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const gvk = (kind: string) => ({ "x-kubernetes-group-version-kind": [{ group: "", kind, version: "v1" }] });

describe("record-openapi keeps what the embedded server serves", () => {
  it("keeps a served kind, its list and what they refer to; names kinds the server lacks; refuses one name with two shapes", () => {
    const core = {
      components: {
        schemas: {
          Thing: { type: "object", properties: { part: ref("Part") }, ...gvk("Thing") },
          ThingList: { type: "object", properties: { items: { type: "array", items: ref("Thing") } }, ...gvk("ThingList") },
          Part: { type: "string" },
          Unrelated: { type: "object", ...gvk("Unrelated") },
        },
      },
    };
    const served = [{ apiPath: "api/v1", kinds: [{ group: "", version: "v1", kind: "Thing" }, { group: "", version: "v1", kind: "ThingList" }, { group: "", version: "v1", kind: "Gone" }] }];
    const v2 = { definitions: { Thing: {}, ThingList: {}, Part: {}, Unrelated: {} } };
    const data = extractServedSchemas({ "api/v1": core }, v2, served, "v1.26.4", "2026-11-28");
    expect(data.v3.groupVersions).toEqual({ "api/v1": ["Part", "Thing", "ThingList"] });
    expect(Object.keys(data.v2.definitions)).toEqual(["Part", "Thing", "ThingList"]);
    expect(data.source.missing).toEqual(["/v1 Gone"]);
    const other = { components: { schemas: { ...core.components.schemas, Part: { type: "integer" } } } };
    expect(() => extractServedSchemas({ "api/v1": core, "apis/x/v1": other }, v2, [...served, { apiPath: "apis/x/v1", kinds: served[0]!.kinds }], "v1.26.4", "2026-11-28")).toThrow(/Part differs/);
    expect(() => schemaClosure({ A: ref("B") }, ["A"], "#/components/schemas/")).toThrow(/B is referenced but not defined/);
  });

  it("was recorded for every kind the embedded server serves now: each has its schema, or the recording says the server lacked it", () => {
    const data = recordedOpenApi();
    for (const { apiPath, kinds } of servedKinds()) {
      const names = new Set(data.v3.groupVersions[apiPath] ?? []);
      for (const kind of kinds) {
        const found = [...names].some((name) => ((data.v3.schemas[name]?.["x-kubernetes-group-version-kind"] ?? []) as Array<Record<string, string>>).some((tag) => tag["group"] === kind.group && tag["version"] === kind.version && tag["kind"] === kind.kind));
        const lacked = data.source.missing.includes(`${kind.group}/${kind.version} ${kind.kind}`);
        expect(found || lacked, `${apiPath} ${kind.kind}: served but not recorded; re-record (sim/apiserver/discovery/openapi-data/README.md)`).toBe(true);
      }
    }
  });
});
