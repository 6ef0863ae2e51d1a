/**
 * Representations at the HTTP surface (issue #4, doc 1 §2.5, §2.6, §4.3): JSON, YAML, Table and
 * Protobuf on get, list, watch and create; 406 and 415; errors in Protobuf. Compared with a real
 * kube-apiserver 1.26 (reference transcripts) where the shapes are comparable.
 */
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { loadReferenceTranscripts, transcriptById, transcriptJson } from "../../../spec/reference-transcripts.ts";
import { negotiateInput, negotiateOutput } from "./media-negotiation.ts";
import { decodeObject, encodeObject, readWatchEvents, type DecodedWatchEvent } from "../protobuf/index.ts";
import { offerForType } from "./representation.ts";
import { dialectByName } from "../../../spec/dialects.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { testServer, type TestServer } from "../test-server.ts";

const transcripts = loadReferenceTranscripts();
const NS = "/api/v1/namespaces/ref-main";
const CM = `${NS}/configmaps`;
const PROTOBUF = "application/vnd.kubernetes.protobuf";
const TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
const KUBECTL_GET = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

interface Raw {
  readonly status: number;
  readonly contentType: string | null;
  readonly bytes: Uint8Array;
  readonly text: string;
}

/** A request through the handler, the response body as bytes. */
async function raw(s: TestServer, method: string, path: string, headers: Record<string, string> = {}, body?: string | Uint8Array): Promise<Raw> {
  const response = await s.server.handle(new Request(`http://test.local${path}`, { method, headers, ...(body !== undefined && { body }) }));
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, contentType: response.headers.get("content-type"), bytes, text: new TextDecoder().decode(bytes) };
}

/** A server with namespace ref-main and two ConfigMaps in it. */
async function seeded(): Promise<TestServer> {
  const s = testServer("kubernetes");
  await s.call("POST", "/api/v1/namespaces", { metadata: { name: "ref-main" } });
  await s.call("POST", CM, { metadata: { name: "cm-0" }, data: { key: "v2" } });
  await s.call("POST", CM, { metadata: { name: "cm-1", labels: { tier: "odd" } }, data: { key: "cm-1", jp: "1" } });
  return s;
}

/** Opens a watch; `chunks` yields the body as it arrives. */
async function openWatch(s: TestServer, path: string, accept: string) {
  const response = await s.server.handle(new Request(`http://test.local${path}`, { headers: { accept } }));
  const reader = response.body!.getReader();
  return { response, reader };
}

/** Reads `count` JSON lines from a watch. */
async function jsonEvents(reader: ReadableStreamDefaultReader<Uint8Array>, count: number): Promise<any[]> {
  const decoder = new TextDecoder();
  let buffered = "";
  const events: any[] = [];
  while (events.length < count) {
    const newline = buffered.indexOf("\n");
    if (newline >= 0) {
      events.push(JSON.parse(buffered.slice(0, newline)));
      buffered = buffered.slice(newline + 1);
      continue;
    }
    const { done, value } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value);
  }
  return events;
}

/** Reads `count` Protobuf watch events (frames may be cut anywhere). */
async function protobufEvents(reader: ReadableStreamDefaultReader<Uint8Array>, count: number): Promise<DecodedWatchEvent[]> {
  const events: DecodedWatchEvent[] = [];
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  }
  for await (const event of readWatchEvents(chunks())) {
    events.push(event);
    if (events.length === count) break;
  }
  return events;
}

describe("JSON and YAML", () => {
  it("answers JSON when Accept is absent, */* or a list whose first served entry is JSON (transcript accept-fallback)", async () => {
    const s = await seeded();
    for (const accept of [undefined, "*/*", "text/csv, application/json", "application/*"]) {
      const answer = await raw(s, "GET", `${CM}/cm-1`, accept === undefined ? {} : { accept });
      expect([accept, answer.status, answer.contentType]).toEqual([accept, 200, "application/json"]);
      expect(answer.text.endsWith("}\n")).toBe(true);
      expect(JSON.parse(answer.text)).toMatchObject({ kind: "ConfigMap", apiVersion: "v1", metadata: { name: "cm-1" } });
    }
  });

  it("answers YAML for application/yaml on get and list, with Kubernetes' quoting (transcript accept-yaml)", async () => {
    const s = await seeded();
    const json = (await s.call("GET", `${CM}/cm-1`)).json;
    const one = await raw(s, "GET", `${CM}/cm-1`, { accept: "application/yaml" });
    expect(one.contentType).toBe("application/yaml");
    expect(parseYaml(one.text)).toEqual(json);
    // Keys sorted, "1" and timestamps quoted, as the reference server writes them.
    expect(one.text.startsWith("apiVersion: v1\ndata:\n  jp: \"1\"\n  key: cm-1\nkind: ConfigMap\nmetadata:\n  creationTimestamp: \"")).toBe(true);
    const list = await raw(s, "GET", CM, { accept: "application/yaml" });
    expect(list.contentType).toBe("application/yaml");
    expect(parseYaml(list.text)).toEqual((await s.call("GET", CM)).json);
  });

  it("takes YAML request bodies on create and update", async () => {
    const s = await seeded();
    const created = await raw(s, "POST", CM, { "content-type": "application/yaml" }, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\ndata:\n  a: \"1\"\n");
    expect(created.status).toBe(201);
    expect(JSON.parse(created.text)).toMatchObject({ metadata: { name: "y" }, data: { a: "1" } });
    const updated = await raw(s, "PUT", `${CM}/y`, { "content-type": "application/yaml", accept: "application/yaml" }, "metadata:\n  name: y\ndata:\n  a: \"2\"\n");
    expect([updated.status, updated.contentType]).toEqual([200, "application/yaml"]);
    expect(parseYaml(updated.text)).toMatchObject({ kind: "ConfigMap", data: { a: "2" } });
  });

  it("indents JSON for pretty=1 in the Accept clause", async () => {
    const s = await seeded();
    const answer = await raw(s, "GET", `${CM}/cm-1`, { accept: "application/json;pretty=1" });
    expect(answer.text.startsWith('{\n  "kind": "ConfigMap",')).toBe(true);
  });
});

describe("Table", () => {
  it("answers a Table for a list, with the reference server's columns (transcripts table-configmaps, table-namespaces-none)", async () => {
    const s = await seeded();
    const list = await raw(s, "GET", CM, { accept: TABLE });
    expect(list.contentType).toBe("application/json");
    const table = JSON.parse(list.text);
    expect(table).toMatchObject({ kind: "Table", apiVersion: "meta.k8s.io/v1" });
    expect(table.metadata.resourceVersion).toBe((await s.call("GET", CM)).json.metadata.resourceVersion);
    expect(table.rows.map((row: any) => row.cells.slice(0, 2))).toEqual([
      ["cm-0", 1],
      ["cm-1", 2],
    ]);
    expect(table.rows[0].object).toMatchObject({ kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: { name: "cm-0" } });

    const namespaces = JSON.parse((await raw(s, "GET", "/api/v1/namespaces?includeObject=None", { accept: TABLE })).text);
    expect(namespaces.rows.map((row: any) => row.cells.slice(0, 2))).toContainEqual(["ref-main", "Active"]);
    expect(namespaces.rows.every((row: any) => row.object === null)).toBe(true);

    for (const [id, ours] of [["table-configmaps", table], ["table-namespaces-none", namespaces]] as const) {
      expect(ours.columnDefinitions, id).toEqual((transcriptJson(transcriptById(transcripts, id)) as any).columnDefinitions);
    }
  });

  it("answers a Table for one object, and for kubectl's Accept list (transcripts table-configmap-one, table-kubectl-accept)", async () => {
    const s = await seeded();
    const one = JSON.parse((await raw(s, "GET", `${CM}/cm-1`, { accept: TABLE })).text);
    expect(one.rows).toHaveLength(1);
    expect(one.rows[0].cells.slice(0, 2)).toEqual(["cm-1", 2]);
    expect(one.metadata).toEqual({ resourceVersion: (await s.call("GET", `${CM}/cm-1`)).json.metadata.resourceVersion });
    const kubectl = JSON.parse((await raw(s, "GET", CM, { accept: KUBECTL_GET })).text);
    expect(kubectl.kind).toBe("Table");
    const object = JSON.parse((await raw(s, "GET", `${CM}/cm-1?includeObject=Object`, { accept: TABLE })).text);
    expect(object.rows[0].object).toMatchObject({ kind: "ConfigMap", apiVersion: "v1", data: { key: "cm-1" } });
    const v1beta1 = JSON.parse((await raw(s, "GET", CM, { accept: "application/json;as=Table;v=v1beta1;g=meta.k8s.io" })).text);
    expect(v1beta1.apiVersion).toBe("meta.k8s.io/v1beta1");
    expect(one.columnDefinitions).toEqual((transcriptJson(transcriptById(transcripts, "table-configmap-one")) as any).columnDefinitions);
  });

  it("answers a Table in YAML, and the create answer as a Table", async () => {
    const s = await seeded();
    const yaml = await raw(s, "GET", CM, { accept: "application/yaml;as=Table;v=v1;g=meta.k8s.io" });
    expect(yaml.contentType).toBe("application/yaml");
    expect(parseYaml(yaml.text)).toMatchObject({ kind: "Table", rows: [{ cells: ["cm-0", 1, "0s"] }, { cells: ["cm-1", 2, "0s"] }] });
    const created = await raw(s, "POST", CM, { accept: TABLE, "content-type": "application/json" }, JSON.stringify({ metadata: { name: "t" } }));
    expect(created.status).toBe(201);
    expect(JSON.parse(created.text)).toMatchObject({ kind: "Table", rows: [{ cells: ["t", 0, "0s"] }] });
  });

  it("answers 400 for an unrecognized includeObject", async () => {
    const s = await seeded();
    const answer = await s.call("GET", `${CM}?includeObject=Bogus`, undefined, { accept: TABLE });
    expect([answer.status, answer.json.reason, answer.json.message]).toEqual([400, "BadRequest", 'unrecognized includeObject value: "Bogus"']);
  });

  it("is 406 on a virtual type asked for only as a Table, and nothing happens (transcript table-sar-only)", async () => {
    const s = await seeded();
    const answer = await raw(
      s,
      "POST",
      "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
      { accept: TABLE, "content-type": "application/json" },
      JSON.stringify({ apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectAccessReview", spec: { resourceAttributes: { verb: "get", resource: "pods" } } }),
    );
    expect([answer.status, answer.contentType]).toEqual([406, "application/json"]);
    expect(JSON.parse(answer.text)).toMatchObject({
      reason: "NotAcceptable",
      message: "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",
    });
    expect(answer.text).toBe(transcriptById(transcripts, "table-sar-only").response.body.text);
    // With JSON among the choices, the review is answered.
    const allowed = await s.call("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SelfSubjectAccessReview",
      spec: { resourceAttributes: { verb: "get", resource: "pods" } },
    }, { accept: `${TABLE}, application/json` });
    expect([allowed.status, allowed.json.kind, allowed.json.status.allowed]).toEqual([201, "SelfSubjectAccessReview", true]);
  });

  it("answers a 404 as a JSON Status when the Accept header takes only a Table", async () => {
    const s = await seeded();
    const answer = await raw(s, "GET", `${CM}/nope`, { accept: TABLE });
    expect([answer.status, answer.contentType, JSON.parse(answer.text).reason]).toEqual([404, "application/json", "NotFound"]);
  });
});

describe("406 and 415", () => {
  it("is 406 for application/xml, listing the route's representations, and changes nothing (transcript accept-xml)", async () => {
    const s = await seeded();
    const list = await raw(s, "GET", CM, { accept: "application/xml" });
    expect([list.status, list.contentType]).toEqual([406, "application/json"]);
    expect(list.text).toBe(transcriptById(transcripts, "accept-xml").response.body.text);
    const create = await raw(s, "POST", CM, { accept: "application/xml", "content-type": "application/json" }, JSON.stringify({ metadata: { name: "x" } }));
    expect(create.status).toBe(406);
    expect(JSON.parse(create.text).message).toBe("406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.kubernetes.protobuf");
    expect((await s.call("GET", `${CM}/x`)).status).toBe(404);
  });

  it("is 406 for a watch that asks only for YAML", async () => {
    const s = await seeded();
    const answer = await raw(s, "GET", `${CM}?watch=1`, { accept: "application/yaml" });
    expect(answer.status).toBe(406);
    expect(JSON.parse(answer.text)).toMatchObject({
      reason: "NotAcceptable",
      message: "only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch",
    });
  });

  it("is 415 for a text/plain body, listing the accepted types (transcript content-type-text)", async () => {
    const s = await seeded();
    const answer = await raw(s, "POST", CM, { "content-type": "text/plain" }, "hello");
    expect([answer.status, answer.contentType]).toEqual([415, "application/json"]);
    expect(answer.text).toBe(transcriptById(transcripts, "content-type-text").response.body.text);
    const put = await raw(s, "PUT", `${CM}/cm-1`, { "content-type": "text/plain" }, "hello");
    expect(put.status).toBe(415);
  });
});

describe("Protobuf", () => {
  it("answers a get in the envelope, with the dialect's media type; it decodes to the JSON answer", async () => {
    const s = await seeded();
    const answer = await raw(s, "GET", `${CM}/cm-1`, { accept: PROTOBUF });
    expect([answer.status, answer.contentType]).toEqual([200, PROTOBUF]);
    expect([...answer.bytes.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
    const decoded = decodeObject(answer.bytes);
    expect([decoded.apiVersion, decoded.kind]).toEqual(["v1", "ConfigMap"]);
    expect(decoded.object).toEqual((await s.call("GET", `${CM}/cm-1`)).json);
  });

  it("answers a list as <Kind>List whose items are the JSON list's (transcript protobuf-list-configmaps)", async () => {
    const s = await seeded();
    const answer = await raw(s, "GET", `${CM}?limit=1`, { accept: PROTOBUF });
    expect([answer.status, answer.contentType]).toEqual([200, PROTOBUF]);
    const decoded = decodeObject(answer.bytes);
    expect([decoded.apiVersion, decoded.kind]).toEqual(["v1", "ConfigMapList"]);
    const json = (await s.call("GET", `${CM}?limit=1`)).json;
    expect(decoded.object["items"]).toEqual(json.items);
    expect((decoded.object["metadata"] as any).remainingItemCount).toBe(1);
    expect(typeof (decoded.object["metadata"] as any).continue).toBe("string");
    const reference = decodeObject(new Uint8Array(Buffer.from(transcriptById(transcripts, "protobuf-list-configmaps").response.body.base64!, "base64")));
    expect([reference.apiVersion, reference.kind]).toEqual([decoded.apiVersion, decoded.kind]);
    expect(Object.keys(reference.object)).toEqual(Object.keys(decoded.object));
  });

  it("creates a ConfigMap from a Protobuf body; the JSON get equals it", async () => {
    const s = await seeded();
    const body = encodeObject("v1", "ConfigMap", { kind: "ConfigMap", apiVersion: "v1", metadata: { name: "pb", labels: { a: "b" } }, data: { k: "v" } });
    const created = await raw(s, "POST", CM, { "content-type": PROTOBUF }, body);
    expect([created.status, created.contentType]).toEqual([201, "application/json"]);
    const get = await s.call("GET", `${CM}/pb`);
    expect(get.json).toEqual(JSON.parse(created.text));
    expect(get.json).toMatchObject({ kind: "ConfigMap", metadata: { name: "pb", namespace: "ref-main", labels: { a: "b" } }, data: { k: "v" } });
    expect(typeof get.json.metadata.uid).toBe("string");

    // As kubectl sends it: Protobuf in, Protobuf out.
    const both = await raw(s, "POST", CM, { "content-type": PROTOBUF, accept: `${PROTOBUF}, application/json` }, encodeObject("v1", "ConfigMap", { metadata: { name: "pb2" } }));
    expect([both.status, both.contentType]).toEqual([201, PROTOBUF]);
    expect(decodeObject(both.bytes).object).toEqual((await s.call("GET", `${CM}/pb2`)).json);
  });

  it("updates from a Protobuf body", async () => {
    const s = await seeded();
    const current = (await s.call("GET", `${CM}/cm-1`)).json;
    const body = encodeObject("v1", "ConfigMap", { ...current, data: { changed: "yes" } });
    const updated = await raw(s, "PUT", `${CM}/cm-1`, { "content-type": PROTOBUF, accept: PROTOBUF }, body);
    expect(updated.status).toBe(200);
    expect(decodeObject(updated.bytes).object).toMatchObject({ data: { changed: "yes" } });
    expect((await s.call("GET", `${CM}/cm-1`)).json.data).toEqual({ changed: "yes" });
  });

  it("answers 400 for a Protobuf body with a wrong prefix or that does not decode", async () => {
    const s = await seeded();
    const wrongPrefix = await s.call("POST", CM, '{"metadata":{"name":"x"}}', { "content-type": PROTOBUF });
    expect([wrongPrefix.status, wrongPrefix.json.reason]).toEqual([400, "BadRequest"]);
    expect(wrongPrefix.json.message).toContain("provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]");
    const truncated = encodeObject("v1", "ConfigMap", { metadata: { name: "t" }, data: { k: "v" } }).subarray(0, 20);
    const bad = await raw(s, "POST", CM, { "content-type": PROTOBUF }, truncated);
    expect([bad.status, JSON.parse(bad.text).reason]).toEqual([400, "BadRequest"]);
    // A Secret in a ConfigMap's collection: decoded, then refused as JSON would be.
    const secret = await raw(s, "POST", CM, { "content-type": PROTOBUF }, encodeObject("v1", "Secret", { metadata: { name: "s" } }));
    expect(secret.status).toBe(400);
  });

  it("answers a 404 as a Protobuf Status, the reference server's bytes (transcript protobuf-get-missing)", async () => {
    const s = await seeded();
    const answer = await raw(s, "GET", `${CM}/nope`, { accept: PROTOBUF });
    expect([answer.status, answer.contentType]).toEqual([404, PROTOBUF]);
    expect(decodeObject(answer.bytes).object).toMatchObject({ kind: "Status", reason: "NotFound", code: 404 });
    expect(Buffer.from(answer.bytes).toString("base64")).toBe(transcriptById(transcripts, "protobuf-get-missing").response.body.base64);
    // An error before any handler (an unknown resource in a served group) too.
    const unknown = await raw(s, "GET", "/api/v1/bogus", { accept: PROTOBUF });
    expect([unknown.status, unknown.contentType]).toEqual([404, PROTOBUF]);
  });

  it("answers the Status of a delete and of an eviction in Protobuf", async () => {
    const s = await seeded();
    const deleted = await raw(s, "DELETE", `${CM}/cm-0`, { accept: PROTOBUF });
    expect([deleted.status, deleted.contentType]).toEqual([200, PROTOBUF]);
    expect(decodeObject(deleted.bytes).object).toMatchObject({ kind: "Status", status: "Success", details: { name: "cm-0", kind: "configmaps" } });
    const collection = await raw(s, "DELETE", CM, { accept: PROTOBUF });
    expect(decodeObject(collection.bytes).kind).toBe("ConfigMapList");
  });

  it("reads a Protobuf DeleteOptions body", async () => {
    const s = await seeded();
    const uid = (await s.call("GET", `${CM}/cm-1`)).json.metadata.uid;
    const stale = encodeObject("v1", "DeleteOptions", { kind: "DeleteOptions", apiVersion: "v1", preconditions: { uid: "not-it" } });
    const refused = await raw(s, "DELETE", `${CM}/cm-1`, { "content-type": PROTOBUF }, stale);
    expect(refused.status).toBe(409);
    const matching = encodeObject("v1", "DeleteOptions", { kind: "DeleteOptions", apiVersion: "v1", preconditions: { uid } });
    expect((await raw(s, "DELETE", `${CM}/cm-1`, { "content-type": PROTOBUF }, matching)).status).toBe(200);
  });
});

describe("watch", () => {
  it("streams JSON lines by default", async () => {
    const s = await seeded();
    const { response, reader } = await openWatch(s, `${CM}?watch=1`, "application/json");
    expect(response.headers.get("content-type")).toBe("application/json");
    const events = await jsonEvents(reader, 2);
    expect(events.map((event) => `${event.type} ${event.object.kind} ${event.object.metadata.name}`)).toEqual(["ADDED ConfigMap cm-0", "ADDED ConfigMap cm-1"]);
    await reader.cancel();
  });

  it("streams Tables for as=Table: column definitions in the first event only (transcript watch-as-table)", async () => {
    const s = await seeded();
    const { response, reader } = await openWatch(s, `${CM}?watch=1`, TABLE);
    expect(response.headers.get("content-type")).toBe("application/json");
    const [first, second] = await jsonEvents(reader, 2);
    await s.call("PUT", `${CM}/cm-0`, { metadata: { name: "cm-0" }, data: { a: "1", b: "2" } });
    const [modified] = await jsonEvents(reader, 1);
    expect(first).toMatchObject({ type: "ADDED", object: { kind: "Table", apiVersion: "meta.k8s.io/v1", rows: [{ cells: ["cm-0", 1, "0s"] }] } });
    expect(first.object.columnDefinitions.map((column: any) => column.name)).toEqual(["Name", "Data", "Age"]);
    expect(second.object.columnDefinitions).toBeNull();
    expect(modified).toMatchObject({ type: "MODIFIED", object: { kind: "Table", columnDefinitions: null, rows: [{ cells: ["cm-0", 2, "0s"] }] } });
    expect(modified.object.metadata.resourceVersion).toBe(modified.object.rows[0].object.metadata.resourceVersion);
    await reader.cancel();
    const reference = JSON.parse(transcriptById(transcripts, "watch-as-table").response.body.text!.split("\n")[0]!);
    expect(first.object.columnDefinitions).toEqual(reference.object.columnDefinitions);
    expect(Object.keys(first.object)).toEqual(Object.keys(reference.object));
  });

  it("streams length-prefixed Protobuf frames with ;stream=watch, bookmarks included (transcript watch-protobuf)", async () => {
    const s = testServer("kubernetes", { bookmarkIntervalMs: 1_000 });
    await s.call("POST", "/api/v1/namespaces", { metadata: { name: "ref-main" } });
    const created = await s.call("POST", CM, { metadata: { name: "w-1" }, data: { key: "w-1" } });
    const { response, reader } = await openWatch(s, `${CM}?watch=1&allowWatchBookmarks=true&resourceVersion=${created.json.metadata.resourceVersion}`, `${PROTOBUF};stream=watch`);
    expect(response.headers.get("content-type")).toBe(`${PROTOBUF};stream=watch`);
    expect(response.headers.get("content-type")).toBe(transcriptById(transcripts, "watch-protobuf").response.headers["content-type"]);
    await s.call("PUT", `${CM}/w-1`, { metadata: { name: "w-1" }, data: { key: "changed" } });
    const [modified] = await protobufEvents(reader, 1);
    expect(modified).toMatchObject({ type: "MODIFIED", apiVersion: "v1", kind: "ConfigMap", object: { data: { key: "changed" } } });
    expect(modified!.object).toEqual((await s.call("GET", `${CM}/w-1`)).json);
    await s.sim.runFor(1_000);
    const [bookmark] = await protobufEvents(reader, 1);
    const resourceVersion = (modified!.object["metadata"] as { resourceVersion: string }).resourceVersion;
    expect(bookmark).toMatchObject({ type: "BOOKMARK", apiVersion: "v1", kind: "ConfigMap", object: { metadata: { resourceVersion } } });
    await reader.cancel();
  });

  it("sends the ERROR event of a compacted start version as a Protobuf frame", async () => {
    const s = await seeded();
    const created = await s.call("POST", CM, { metadata: { name: "old" } });
    await s.call("DELETE", `${CM}/old`);
    s.server.store.compact(s.server.store.revision);
    const { response, reader } = await openWatch(s, `${CM}?watch=1&resourceVersion=${created.json.metadata.resourceVersion}`, PROTOBUF);
    expect([response.status, response.headers.get("content-type")]).toEqual([200, `${PROTOBUF};stream=watch`]);
    const events = await protobufEvents(reader, 2);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "ERROR", apiVersion: "v1", kind: "Status", object: { reason: "Expired", code: 410 } });
  });

  it("ends a Table watch with an unrecognized includeObject before its first row", async () => {
    const s = await seeded();
    const { response, reader } = await openWatch(s, `${CM}?watch=1&includeObject=Bogus`, TABLE);
    expect(response.status).toBe(200);
    expect(await jsonEvents(reader, 1)).toEqual([]);
  });
});

describe("per dialect and per type", () => {
  it("uses the orb dialect's Protobuf media type and meta group", async () => {
    const s = testServer("orb");
    await s.call("POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "o" } });
    const pb = await raw(s, "GET", "/api/v1/namespaces/default/configmaps/o", { accept: "application/vnd.orb.protobuf" });
    expect([pb.status, pb.contentType]).toEqual([200, "application/vnd.orb.protobuf"]);
    expect(decodeObject(pb.bytes).object).toMatchObject({ kind: "ConfigMap", metadata: { name: "o" } });
    const k8sType = await raw(s, "GET", "/api/v1/namespaces/default/configmaps/o", { accept: PROTOBUF });
    expect(k8sType.status).toBe(406);
    const table = await raw(s, "GET", "/api/v1/namespaces/default/configmaps", { accept: "application/json;as=Table;v=v1;g=meta.orb.io" });
    expect(JSON.parse(table.text)).toMatchObject({ kind: "Table", apiVersion: "meta.orb.io/v1" });
    const created = await raw(s, "POST", "/api/v1/namespaces/default/configmaps", { "content-type": "application/vnd.orb.protobuf" }, encodeObject("v1", "ConfigMap", { metadata: { name: "p" } }));
    expect(created.status).toBe(201);
  });

  it("offers no Protobuf for a type without a Protobuf form (custom resources): Protobuf alone is 406, and not a body type", () => {
    const dialect = dialectByName("kubernetes");
    const widget = { group: "example.com", version: "v1", kind: "Widget", resource: "widgets", virtual: false } as ResourceType;
    const offer = offerForType(widget, dialect);
    expect(offer.protobuf).toBe(false);
    expect(() => negotiateOutput(PROTOBUF, offer)).toThrow(/^406: Not Acceptable\n\nAvailable representations: application\/json, application\/yaml$/);
    expect(() => negotiateInput(PROTOBUF, offer)).toThrow(/accepted media types include: application\/json, application\/yaml$/);
    expect(negotiateOutput(`${PROTOBUF}, application/json`, offer).kind).toBe("json");
    const configMaps = { group: "", version: "v1", kind: "ConfigMap", resource: "configmaps" } as ResourceType;
    expect(offerForType(configMaps, dialect).protobuf).toBe(true);
  });
});
