/** DeleteOptions at the HTTP level: accepted values, Kubernetes' 422 for a bad propagationPolicy, 400 for values that do not parse. */
import { describe, expect, it } from "vitest";
import { dialectByName } from "../../spec/dialects.ts";
import { testServer, type TestServer } from "./test-server.ts";

const CM = "/api/v1/namespaces/default/configmaps";

async function withConfigMap(name: string, dialect: "kubernetes" | "orb" = "kubernetes"): Promise<TestServer> {
  const server = testServer(dialect);
  const created = await server.call("POST", CM, { apiVersion: "v1", kind: "ConfigMap", metadata: { name } });
  expect(created.status).toBe(201);
  return server;
}

describe("DeleteOptions", () => {
  it("accepts gracePeriodSeconds and every propagationPolicy, in the body or the query", async () => {
    for (const [policy, where] of [["Foreground", "body"], ["Background", "query"], ["Orphan", "body"]] as const) {
      const { call } = await withConfigMap("cm");
      const response =
        where === "body"
          ? await call("DELETE", `${CM}/cm`, { kind: "DeleteOptions", apiVersion: "v1", gracePeriodSeconds: 0, propagationPolicy: policy })
          : await call("DELETE", `${CM}/cm?gracePeriodSeconds=-1&propagationPolicy=${policy}`);
      expect([response.status, response.json.status], `${policy} in the ${where}`).toEqual([200, "Success"]);
    }
  });

  it("answers an unsupported propagationPolicy with 422 Invalid of kind DeleteOptions, deleting nothing", async () => {
    for (const dialect of ["kubernetes", "orb"] as const) {
      const { call } = await withConfigMap("keep", dialect);
      const { metaGroup } = dialectByName(dialect);
      for (const response of [await call("DELETE", `${CM}/keep`, { propagationPolicy: "Nope" }), await call("DELETE", `${CM}/keep?propagationPolicy=Nope`)]) {
        expect(response.status).toBe(422);
        expect(response.json).toMatchObject({
          reason: "Invalid",
          message: `DeleteOptions.${metaGroup} "" is invalid: propagationPolicy: Unsupported value: "Nope": supported values: "Foreground", "Background", "Orphan", "nil"`,
          details: { group: metaGroup, kind: "DeleteOptions", causes: [{ reason: "FieldValueNotSupported", field: "propagationPolicy" }] },
        });
      }
      const both = await call("DELETE", `${CM}/keep`, { propagationPolicy: "Background", orphanDependents: true });
      expect([both.status, both.json.details.causes[0].message]).toEqual([422, 'Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set']);
      expect((await call("DELETE", `${CM}?propagationPolicy=Nope`)).status).toBe(422); // deletecollection too
      expect((await call("GET", `${CM}/keep`)).status).toBe(200);
    }
  });

  it("answers values that do not parse with 400 BadRequest, deleting nothing", async () => {
    const { call } = await withConfigMap("keep");
    const cases: Array<[string, unknown, RegExp]> = [
      [`${CM}/keep?gracePeriodSeconds=soon`, undefined, /^strconv\.ParseInt: parsing "soon": invalid syntax$/],
      [`${CM}/keep?orphanDependents=maybe`, undefined, /^strconv\.ParseBool: parsing "maybe": invalid syntax$/],
      [`${CM}/keep`, { gracePeriodSeconds: "soon" }, /cannot be handled as a DeleteOptions: gracePeriodSeconds: expected an integer/],
      [`${CM}/keep`, { preconditions: { uid: 5 } }, /preconditions\.uid: expected a string/],
      [`${CM}/keep`, { propagationPolicy: ["Orphan"] }, /propagationPolicy: expected a string/],
      [`${CM}/keep`, { dryRun: "All" }, /dryRun: expected a list/],
    ];
    for (const [path, body, message] of cases) {
      const response = await call("DELETE", path, body);
      expect([response.status, response.json.reason], `${path} ${JSON.stringify(body)}`).toEqual([400, "BadRequest"]);
      expect(response.json.message).toMatch(message);
    }
    expect((await call("GET", `${CM}/keep`)).status).toBe(200);
  });

  it("still reads preconditions and dryRun from the body, nulls as unset", async () => {
    const { call } = await withConfigMap("cm");
    const stale = await call("DELETE", `${CM}/cm`, { preconditions: { resourceVersion: "1" } });
    expect([stale.status, stale.json.reason]).toEqual([409, "Conflict"]);
    const dry = await call("DELETE", `${CM}/cm`, { dryRun: ["All"], preconditions: { uid: null }, gracePeriodSeconds: null });
    expect(dry.status).toBe(200);
    expect((await call("GET", `${CM}/cm`)).status).toBe(200);
  });
});
