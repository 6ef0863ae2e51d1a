/**
 * The embedded server against what kube-apiserver 1.26.4 answered to invalid metadata, ConfigMap
 * and Secret data, unknown fields and timeoutSeconds values
 * (spec/reference/kube-apiserver-1.26/transcripts-metadata-validation.jsonl): each recorded run is
 * replayed in order on a fresh server, and status, reason, message and causes must match.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTranscriptFile, referenceDir, type Transcript } from "../../../spec/reference-transcripts.ts";
import { testServer } from "../test-server.ts";

const transcripts = readTranscriptFile(join(referenceDir, "transcripts-metadata-validation.jsonl"));

// Bodies too large to keep in the fixture (`<N bytes>`), rebuilt from what the notes describe.
const x = (n: number) => "x".repeat(n);
const cm = (name: string, metadata: Record<string, unknown> = {}, rest: Record<string, unknown> = {}) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, ...metadata },
  ...rest,
});
const LARGE_BODIES: Readonly<Record<string, unknown>> = {
  "annotations-1mib": cm("ann-1mib", { annotations: { big: x(1024 * 1024) } }),
  "annotations-total-exact": cm("ann-exact", { annotations: { a: x(262143) } }),
  "annotations-total-over": cm("ann-over", { annotations: { a: x(262144) } }),
  "annotations-two-over": cm("ann-two", { annotations: { a: x(131072), b: x(131072) } }),
  "annotations-multibyte-exact": cm("ann-mb", { annotations: { ab: "é".repeat(131071) } }),
  "labels-value-64kib": cm("lbl-64k", { labels: { k: "v".repeat(65536) } }),
  "configmap-size-exact": cm("cm-1m", {}, { data: { a: x(1048576) } }),
  "configmap-size-over": cm("cm-1m1", {}, { data: { a: x(1048577) } }),
  "configmap-size-over-binary": cm("cm-1mb", {}, { data: { a: x(524288) }, binaryData: { b: Buffer.alloc(524289, 1).toString("base64") } }),
  "secret-size-over": { apiVersion: "v1", kind: "Secret", metadata: { name: "sec-big" }, data: { a: Buffer.alloc(1048577, 1).toString("base64") } },
  "secret-size-exact": { apiVersion: "v1", kind: "Secret", metadata: { name: "sec-exact" }, data: { a: Buffer.alloc(1048576, 1).toString("base64") } },
  "update-big-annotation": cm("base", { annotations: { a: x(262144) } }, { data: { k: "v" } }),
  "patch-json-big-annotation": [{ op: "add", path: "/metadata/annotations", value: { big: x(1024 * 1024) } }],
  "update-size-over": cm("base", {}, { data: { a: x(1048577) } }),
};

// Answers the embedded server does not imitate, and why.
const NOT_IMITATED: Readonly<Record<string, string>> = {
  // A watch that stays open: nothing to compare before it ends.
  "watch-timeout-zero": "an open watch",
  // A Deployment's status write keeps the old labels before validating; the embedded server
  // validates the labels the request sent (and, like any status write, ignores them).
  "deployment-status-patch-bad-label": "labels of a Deployment status write",
};

// Requests whose recorded message embeds the patched object (uid, timestamps, managedFields of the
// real server): only the start and the end of the message are compared.
const EMBEDS_PATCHED_OBJECT = /^patch-.*-strict$/;

function run(transcript: Transcript): number {
  return Number(/run (\d)/.exec(transcript.note)![1]);
}

function requestBody(transcript: Transcript): { body: string | Buffer | undefined; contentType: string | undefined } {
  const { request } = transcript;
  const contentType = request.headers["content-type"];
  if (transcript.id in LARGE_BODIES) return { body: JSON.stringify(LARGE_BODIES[transcript.id]), contentType };
  if (request.body === undefined) return { body: undefined, contentType };
  // The two bodies with a raw 0xFF byte are kept as Latin-1 text.
  if (transcript.id.endsWith("-ff")) return { body: Buffer.from(request.body as string, "latin1"), contentType };
  if (typeof request.body === "string") return { body: request.body, contentType };
  // A PUT carried the real server's resourceVersion; the embedded server has its own.
  const body = structuredClone(request.body) as { metadata?: Record<string, unknown> };
  if (body.metadata !== undefined) delete body.metadata["resourceVersion"];
  return { body: JSON.stringify(body), contentType };
}

interface StatusBody {
  message: string;
  reason: string;
  code: number;
  details?: { name?: string; group?: string; kind?: string; causes?: Array<{ reason: string; message: string; field?: string }> };
}

function compareStatus(transcript: Transcript, actual: StatusBody, recordedText: string): void {
  const recorded = JSON.parse(recordedText) as StatusBody;
  const id = transcript.id;
  expect({ reason: actual.reason, code: actual.code }, id).toEqual({ reason: recorded.reason, code: recorded.code });
  const { causes: recordedCauses, ...recordedDetails } = recorded.details ?? {};
  const { causes: actualCauses, ...actualDetails } = actual.details ?? {};
  if (EMBEDS_PATCHED_OBJECT.test(id)) {
    expect(actual.message.startsWith(' "" is invalid: patch: Invalid value: "'), id).toBe(true);
    expect(actual.message.slice(actual.message.lastIndexOf(": strict decoding error"))).toBe(recorded.message.slice(recorded.message.lastIndexOf(": strict decoding error")));
    expect(actualCauses?.map((cause) => [cause.reason, cause.field]), id).toEqual(recordedCauses?.map((cause) => [cause.reason, cause.field]));
    return;
  }
  expect(actualDetails, id).toEqual(recordedDetails);
  expect(actual.message, id).toBe(recorded.message);
  expect(actualCauses, id).toEqual(recordedCauses);
}

describe("metadata, data, unknown fields and timeoutSeconds as kube-apiserver 1.26.4 answered them", () => {
  for (const runNumber of [1, 2, 3]) {
    it(`replays run ${runNumber} with the recorded answers`, async () => {
      const { server } = testServer();
      let compared = 0;
      for (const transcript of transcripts.filter((t) => run(t) === runNumber)) {
        if (transcript.id in NOT_IMITATED) continue;
        const { body, contentType } = requestBody(transcript);
        const response = await server.handle(
          new Request(`http://test.local${transcript.request.path}`, {
            method: transcript.request.method,
            headers: contentType === undefined ? {} : { "content-type": contentType },
            ...(body !== undefined && { body }),
          }),
        );
        const text = await response.text();
        const recordedText = transcript.response.body.text ?? "";
        expect(response.status, `${transcript.id}: ${text.slice(0, 300)}`).toBe(transcript.response.status);
        expect(response.headers.get("warning") ?? undefined, transcript.id).toBe(transcript.response.headers["warning"]);
        if (transcript.response.status >= 400 && !transcript.note.includes("cut after")) compareStatus(transcript, JSON.parse(text) as StatusBody, recordedText);
        if (transcript.note.includes("cut after") && transcript.response.status >= 400) {
          // The 64 KiB label value: the message quotes the whole value (not cut by Kubernetes, cut in the fixture).
          expect(text.startsWith(recordedText.slice(0, 200)), transcript.id).toBe(true);
          expect(JSON.parse(text).message.endsWith('": must be no more than 63 characters'), transcript.id).toBe(true);
        }
        compared++;
      }
      expect(compared).toBeGreaterThan(10);
    }, 60_000);
  }
});

describe("refused writes leave nothing behind; edge values pass (both dialects)", () => {
  const CM = "/api/v1/namespaces/default/configmaps";
  const MERGE = { "content-type": "application/merge-patch+json" };

  for (const dialect of ["kubernetes", "orb"] as const) {
    it(`${dialect}: a refused create stores nothing, a dry run included`, async () => {
      const { call } = testServer(dialect);
      for (const [name, metadata, rest, query] of [
        ["bad-label", { labels: { k: "v".repeat(64) } }, {}, ""],
        ["bad-annotation", { annotations: { a: x(262144) } }, {}, ""],
        ["bad-finalizer", { finalizers: ["bad finalizer name"] }, {}, "?dryRun=All"],
        ["bad-data", {}, { data: { k: "v" }, binaryData: { k: "dg==" } }, ""],
      ] as const) {
        const created = await call("POST", `${CM}${query}`, cm(name, metadata, rest));
        expect([created.status, created.json.reason], name).toEqual([422, "Invalid"]);
        expect((await call("GET", `${CM}/${name}`)).status, name).toBe(404);
      }
    });

    it(`${dialect}: a refused update or patch leaves the stored object as it was`, async () => {
      const { call } = testServer(dialect);
      const before = (await call("POST", CM, cm("base", { labels: { a: "b" } }, { data: { k: "v" } }))).json;
      const refused = [
        await call("PUT", `${CM}/base`, cm("base", { labels: { k: "-v" } })),
        await call("PATCH", `${CM}/base`, { metadata: { labels: { "": "v" } } }, MERGE),
        await call("PATCH", `${CM}/base`, [{ op: "add", path: "/metadata/finalizers", value: ["foo"] }], { "content-type": "application/json-patch+json" }),
        await call("PATCH", `${CM}/base`, { binaryData: { k: "dg==" } }, { "content-type": "application/strategic-merge-patch+json" }),
        await call("PATCH", `${CM}/base/status`, { metadata: { labels: { k: "-v" } } }, MERGE),
      ];
      expect(refused.map((answer) => answer.status)).toEqual([422, 422, 422, 422, 404]);
      expect((await call("GET", `${CM}/base`)).json).toEqual(before);
    });

    it(`${dialect}: accepts the largest valid values`, async () => {
      const { call } = testServer(dialect);
      const prefix = ["a".repeat(63), "a".repeat(63), "a".repeat(63), "a".repeat(61)].join(".");
      expect(prefix).toHaveLength(253);
      const created = await call(
        "POST",
        CM,
        cm(
          "edges",
          {
            labels: { [`${prefix}/${"n".repeat(63)}`]: "v".repeat(63), empty: "" },
            annotations: { a: x(262144 - 1 - 3 - "edge".length), edge: "é" },
            finalizers: ["example.com/f", "kubernetes", "orphan", "example.com/f"],
          },
          { data: { [x(253)]: x(1048576 - 253 - 2), ".a": "é" } },
        ),
      );
      expect(created.status, created.text.slice(0, 300)).toBe(201);
      expect((await call("GET", `${CM}/edges`)).status).toBe(200);
    });
  }

  it("a Namespace status write with a bad label is refused like Kubernetes' (three passes)", async () => {
    const { call } = testServer();
    const answer = await call("PATCH", "/api/v1/namespaces/default/status", { metadata: { labels: { k: "-v" } } }, MERGE);
    expect(answer.status).toBe(422);
    expect(answer.json.details.causes.map((cause: { field: string }) => cause.field)).toEqual(["metadata.labels", "metadata.labels", "metadata.labels"]);
  });
});

describe("__proto__ and constructor members are ordinary unknown fields", () => {
  const CM = "/api/v1/namespaces/default/configmaps";

  it("are dropped from creates and patches, never reach a prototype, and are refused under Strict", async () => {
    const { call } = testServer();
    const created = await call("POST", CM, '{"kind":"ConfigMap","metadata":{"name":"p","__proto__":{"labels":{"x":"y"}}},"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"data":{"__proto__":"kept"}}', { "content-type": "application/json" });
    expect(created.status).toBe(201);
    expect(created.headers.get("warning")).toBe('299 - "unknown field \\"__proto__\\"", 299 - "unknown field \\"constructor\\"", 299 - "unknown field \\"metadata.__proto__\\""');
    const patched = await call("PATCH", `${CM}/p`, '{"spec":{"x":1},"__proto__":{"polluted":true},"metadata":{"labels":{"a":"b"}}}', { "content-type": "application/merge-patch+json" });
    expect(patched.status).toBe(200);
    const stored = await call("GET", `${CM}/p`);
    expect(Object.keys(stored.json)).toEqual(["kind", "apiVersion", "metadata", "data"]);
    expect(stored.json.metadata.labels).toEqual({ a: "b" });
    expect(stored.text).toContain('"data":{"__proto__":"kept"}');
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(Object.getPrototypeOf(stored.json)).toBe(Object.prototype);
    const strict = await call("PATCH", `${CM}/p?fieldValidation=Strict`, '{"__proto__":{"polluted":true}}', { "content-type": "application/merge-patch+json" });
    expect([strict.status, strict.json.reason, strict.json.details.causes[0].field]).toEqual([422, "Invalid", "patch"]);
    expect(strict.json.message.endsWith(': strict decoding error: unknown field "__proto__"')).toBe(true);
  });
});
