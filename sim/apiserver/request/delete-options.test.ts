/**
 * DeleteOptions at the HTTP level: accepted values, Kubernetes' 422 for a bad propagationPolicy, 400
 * for values that do not parse, and where they are read from (the body, else the query).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dialectByName } from "../../../spec/dialects.ts";
import { DELETE_OPTIONS_FILE, readTranscriptFile, referenceDir, type Transcript } from "../../../spec/reference-transcripts.ts";
import { testServer, type TestServer } from "../test-server.ts";

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

/**
 * DeleteOptions in the query, the body or both, against what kube-apiserver 1.26.4 answered
 * (spec/reference/kube-apiserver-1.26/transcripts-delete-options.jsonl; deviation
 * delete-query-dry-run-with-body in spec/dialects.ts): each DELETE is sent to a fresh server
 * holding the ConfigMap the recording had, then the ConfigMap is read back.
 */
describe("DeleteOptions from the body or the query (transcripts-delete-options.jsonl)", () => {
  const recorded = readTranscriptFile(join(referenceDir, DELETE_OPTIONS_FILE));
  const deletes = recorded.filter((transcript) => transcript.request.method === "DELETE");
  const getAfter = (id: string): Transcript => {
    const found = recorded.find((transcript) => transcript.id === `${id}-get-after`);
    if (found === undefined) throw new Error(`no ${id}-get-after`);
    return found;
  };
  /** The case letter: ids are delete-options-<letter>-…, the ConfigMap cm-<letter> with label case=<letter>. */
  const letterOf = (id: string) => id.split("-")[2]!;

  /** Sends the recorded DELETE to a fresh server of `dialect`; its answer and the GET after it. */
  async function replay(dialect: "kubernetes" | "orb", transcript: Transcript) {
    const server = testServer(dialect);
    const letter = letterOf(transcript.id);
    expect((await server.call("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "delopt-rec" } })).status).toBe(201);
    const configMap = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: `cm-${letter}`, labels: { case: letter } }, data: { k: "v" } };
    expect((await server.call("POST", "/api/v1/namespaces/delopt-rec/configmaps", configMap)).status).toBe(201);
    const { body } = transcript.request;
    const sent = body === undefined || typeof body === "string" ? body : JSON.stringify(body);
    const answer = await server.call("DELETE", transcript.request.path, sent, { ...transcript.request.headers });
    const after = await server.call("GET", `/api/v1/namespaces/delopt-rec/configmaps/cm-${letter}`);
    return { answer, after };
  }

  it("holds the recorded cases: every DELETE with its GET after", () => {
    expect(deletes).toHaveLength(22);
    for (const transcript of deletes) getAfter(transcript.id);
    // The finding itself: ?dryRun=All beside a body without dryRun deleted the ConfigMap.
    expect(getAfter("delete-options-c-query-dryrun-body-without").response.status).toBe(404);
    expect(getAfter("delete-options-b-query-dryrun").response.status).toBe(200);
  });

  it("answers each as kube-apiserver 1.26.4 did in the kubernetes dialect, and keeps or deletes the ConfigMap as it did", async () => {
    for (const transcript of deletes) {
      const { answer, after } = await replay("kubernetes", transcript);
      const expected = JSON.parse(transcript.response.body.text!);
      expect([answer.status, after.status], transcript.id).toEqual([transcript.response.status, getAfter(transcript.id).response.status]);
      if (expected.kind === "Status" && expected.status === "Failure") {
        expect(answer.json, transcript.id).toEqual(expected);
      } else if (expected.kind === "Status") {
        expect(answer.json, transcript.id).toMatchObject({ kind: "Status", status: "Success", details: { name: expected.details.name, kind: "configmaps" } });
      } else {
        expect([answer.json.kind, answer.json.items.map((item: any) => item.metadata.name)], transcript.id).toEqual([expected.kind, expected.items.map((item: any) => item.metadata.name)]);
      }
    }
  });

  it("in the orb dialect reads the query's dryRun beside a body too (doc 1 §4.2, §4.4.1, §4.4.3), and its other DeleteOptions as Kubernetes does", async () => {
    // Case letter → [status, kept]. Only the query's dryRun differs from the recording: a dry run
    // deletes nothing (c, h: a bare dryRun is All in orb, i, j, k, s), a value other than All is
    // 422 (f, v). gracePeriodSeconds, propagationPolicy and preconditions in the query are ignored
    // beside a body, as Kubernetes ignores them (l, n, q, r): doc 1 does not show them.
    const orbAnswers: Record<string, [number, boolean]> = {
      a: [200, true], b: [200, true], c: [200, true], d: [200, true], e: [422, true], f: [422, true], g: [422, true], h: [200, true],
      i: [200, true], j: [200, true], k: [200, true], l: [200, false], m: [400, true], n: [200, false], o: [422, true], p: [422, true],
      q: [200, false], r: [200, false], s: [200, true], t: [200, true], u: [200, true], v: [422, true],
    };
    expect(Object.keys(orbAnswers).sort()).toEqual(deletes.map((transcript) => letterOf(transcript.id)).sort());
    for (const transcript of deletes) {
      const { answer, after } = await replay("orb", transcript);
      const [status, kept] = orbAnswers[letterOf(transcript.id)]!;
      expect([answer.status, after.status], transcript.id).toEqual([status, kept ? 200 : 404]);
      if (status === 422) expect(answer.json.details, transcript.id).toMatchObject({ group: "meta.orb.io", kind: "DeleteOptions" });
    }
  });

  it("follows the dialect's recorded answer (spec/dialects.ts), for a DELETE and a deletecollection", async () => {
    for (const dialect of ["kubernetes", "orb"] as const) {
      const kept = dialectByName(dialect).answers["delete-query-dry-run-with-body"] === "dry-run";
      for (const id of ["delete-options-c-query-dryrun-body-without", "delete-options-s-collection-query-dryrun-body-without"]) {
        const { answer, after } = await replay(dialect, deletes.find((transcript) => transcript.id === id)!);
        expect([answer.status, after.status], `${dialect} ${id}`).toEqual([200, kept ? 200 : 404]);
      }
    }
  });
});
