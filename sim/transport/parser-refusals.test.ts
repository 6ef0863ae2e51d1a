/**
 * What the embedded server answers before and around the API, compared with kube-apiserver 1.26.4
 * (transcripts-http-parsing.jsonl): heads over 1 MiB, unknown and lowercase methods, request lines
 * that are not HTTP. Sent as raw bytes, since fetch and node's client refuse or rewrite such requests.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HTTP_PARSING_FILE, readTranscriptFile, referenceDir, type Transcript } from "../../spec/reference-transcripts.ts";
import { parseStaticTokenFile } from "../apiserver/auth/token-file.ts";
import { parsePolicyFile } from "../apiserver/auth/policy-file.ts";
import { fetchSafeMethod, parseRawRequestHead } from "./parser-refusals.ts";
import { startLoopbackServer, type LoopbackServer } from "./loopback-server.ts";

const ADMIN_TOKEN = "parser-refusals-admin";
const recorded = new Map(readTranscriptFile(`${referenceDir}${HTTP_PARSING_FILE}`).map((transcript) => [transcript.id, transcript]));

interface RawAnswer {
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: string;
}

/** Sends bytes on a fresh connection and reads until the server closes it (each request says Connection: close). */
function sendRaw(port: number, bytes: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.setTimeout(5_000, () => socket.destroy(new Error("no answer within 5 s")));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(parseAnswer(Buffer.concat(chunks).toString("latin1"))));
  });
}

function parseAnswer(text: string): RawAnswer {
  const headEnd = text.indexOf("\r\n\r\n");
  const [statusLine, ...lines] = text.slice(0, headEnd).split("\r\n");
  const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
  let body = text.slice(headEnd + 4);
  if (headers.get("transfer-encoding") === "chunked") body = dechunk(body);
  return { status: Number(statusLine!.split(" ")[1]), headers, body: Buffer.from(body, "latin1").toString("utf8") };
}

function dechunk(body: string): string {
  let out = "";
  for (let rest = body; ; ) {
    const size = parseInt(rest, 16);
    if (!(size > 0)) return out;
    const start = rest.indexOf("\r\n") + 2;
    out += rest.slice(start, start + size);
    rest = rest.slice(start + size + 2);
  }
}

/** The request a transcript recorded, as raw bytes; long paths and headers were stored as `<N …>`. */
function rawRequest(transcript: Transcript, expand: { path?: string; headers?: string } = {}): string {
  const { method, path, identity } = transcript.request;
  const auth = identity === "anonymous" ? "" : `Authorization: Bearer ${ADMIN_TOKEN}\r\n`;
  return `${method} ${expand.path ?? path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}${expand.headers ?? ""}Connection: close\r\n\r\n`;
}

function transcript(id: string): Transcript {
  const found = recorded.get(id);
  if (found === undefined) throw new Error(`no transcript ${id} in ${HTTP_PARSING_FILE}`);
  return found;
}

/** Status answers compare by code, reason and message; plain-text ones byte for byte. */
function expectSameAnswer(ours: RawAnswer, real: Transcript): void {
  expect(ours.status).toBe(real.response.status);
  expect(ours.headers.get("content-type")).toBe(real.response.headers["content-type"]);
  const realText = real.response.body.text!;
  if (real.response.headers["content-type"] !== "application/json") {
    expect(ours.body).toBe(realText);
    return;
  }
  const { code, reason, message } = JSON.parse(realText);
  expect(JSON.parse(ours.body)).toMatchObject({ kind: "Status", code, reason, message });
}

describe("requests node's HTTP parser refuses, answered as kube-apiserver 1.26.4 answers them", () => {
  let server: LoopbackServer;
  let port: number;

  beforeAll(async () => {
    server = await startLoopbackServer({
      auth: {
        tokens: parseStaticTokenFile(`${ADMIN_TOKEN},admin,1,system:masters\n`).tokens,
        policy: parsePolicyFile("- group: system:masters\n  apiGroups: ['*']\n  resources: ['*']\n  verbs: ['*']\n- group: system:masters\n  nonResourceURLs: ['*']\n  verbs: ['*']\n"),
      },
    });
    port = server.port;
  });
  afterAll(() => server?.close());

  for (const id of ["method-unknown-resource", "method-lowercase-resource", "method-lowercase-delete-object", "method-unknown-healthz", "method-unknown-anonymous", "method-unknown-unknown-group"]) {
    it(`${id}: ${transcript(id).note.replace(/ \(recorded.*$/, "")}`, async () => {
      expectSameAnswer(await sendRaw(port, rawRequest(transcript(id))), transcript(id));
    });
  }

  it("a lowercase delete deletes nothing: the namespace is still there", async () => {
    await sendRaw(port, rawRequest(transcript("method-lowercase-delete-object")));
    const answer = await sendRaw(port, `GET /api/v1/namespaces/default HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).status).toEqual({ phase: "Active" });
  });

  it("a head over 1 MiB gets Go's plain-text 431 and the connection closes", async () => {
    const answer = await sendRaw(port, rawRequest(transcript("header-too-large"), { headers: `X-Big: ${"a".repeat(1_100_000)}\r\n` }));
    expectSameAnswer(answer, transcript("header-too-large"));
    expect(answer.headers.get("connection")).toBe("close");
  });

  it("a 16 KiB name is read (node's default limit is 16 KiB) and answered 404 NotFound", async () => {
    const real = transcript("path-16kib");
    const path = `/api/v1/namespaces/default/configmaps/${"a".repeat(16_384)}`;
    const answer = await sendRaw(port, rawRequest(real, { path }));
    expect(answer.status).toBe(404);
    // The recording kept the first 24,000 characters of the 33 KB Status: ours must start the same.
    expect(answer.body.slice(0, 24_000)).toBe(real.response.body.text);
  });

  it("a 20 KB label selector is read and answered 400 BadRequest", async () => {
    const answer = await sendRaw(port, rawRequest(transcript("selector-20kb"), { path: `/api/v1/namespaces/default/configmaps?labelSelector=a%3D${"b".repeat(20_000)}` }));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ kind: "Status", code: 400, reason: "BadRequest" });
  });

  it("a request line that is not HTTP gets Go's plain-text 400", async () => {
    expectSameAnswer(await sendRaw(port, "GARBAGE\r\n\r\n"), transcript("request-malformed"));
  });

  it("a method that is not a token (G@T) is malformed: 400, not handed to the API", async () => {
    const answer = await sendRaw(port, "G@T /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n\r\n");
    expect([answer.status, answer.body]).toEqual([400, "400 Bad Request"]);
  });

  it("CONNECT (which node hands to another event) gets a 405 MethodNotAllowed Status, as Kubernetes answers", async () => {
    const answer = await sendRaw(port, "CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n");
    expect(answer.status).toBe(405);
    expect(JSON.parse(answer.body)).toMatchObject({ kind: "Status", code: 405, reason: "MethodNotAllowed" });
  });

  it("dot segments are names, as kube-apiserver reads them: DELETE …/configmaps/.. is a 404, the namespace stays", async () => {
    const auth = `Authorization: Bearer ${ADMIN_TOKEN}\r\n`;
    await sendRaw(port, `POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 36\r\nConnection: close\r\n\r\n{"metadata":{"name":"dots-survive"}}`);
    for (const path of ["/api/v1/namespaces/dots-survive/configmaps/..", "/api/v1/namespaces/dots-survive/configmaps/%2e%2E", "/api/v1/namespaces/dots-survive/configmaps/."]) {
      const answer = await sendRaw(port, `DELETE ${path} HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`);
      expect(answer.status, `${path}: ${answer.body}`).toBe(404);
      expect(JSON.parse(answer.body)).toMatchObject({ kind: "Status", reason: "NotFound", details: { kind: "configmaps" } });
    }
    const namespace = await sendRaw(port, `GET /api/v1/namespaces/dots-survive HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`);
    expect(JSON.parse(namespace.body).status).toEqual({ phase: "Active" });
  });

  it("a client's own raw-path header is replaced, so it cannot make the router read another path", async () => {
    const answer = await sendRaw(port, `GET /api/v1/namespaces/default HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nX-Orb-Raw-Path: /api/v1/namespaces/kube-system\r\nConnection: close\r\n\r\n`);
    expect(JSON.parse(answer.body).metadata.name).toBe("default");
  });

  it("TRACK and a lowercase trace get 405 MethodNotAllowed; raw non-ASCII bytes in a name reach the API (404 NotFound)", async () => {
    for (const method of ["TRACK", "trace"]) {
      const answer = await sendRaw(port, `${method} /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect([answer.status, JSON.parse(answer.body).reason], method).toEqual([405, "MethodNotAllowed"]);
    }
    const nonAscii = await sendRaw(port, `GET /api/v1/namespaces/default/configmaps/caf\u00e9 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nConnection: close\r\n\r\n`);
    expect([nonAscii.status, JSON.parse(nonAscii.body).reason]).toEqual([404, "NotFound"]);
  });

  it("an absolute-form target is routed by its path", async () => {
    const answer = await sendRaw(port, `GET http://example.com/api/v1/namespaces/default HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nConnection: close\r\n\r\n`);
    expect([answer.status, JSON.parse(answer.body).metadata?.name]).toEqual([200, "default"]);
  });

  it("the server still serves after every refusal", async () => {
    const answer = await sendRaw(port, "GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect([answer.status, answer.body]).toEqual([200, "ok"]);
  });
});

describe("parseRawRequestHead", () => {
  it("reads the method, target and headers of a whole head", () => {
    const head = parseRawRequestHead(Buffer.from("FOO /x?y=1 HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n\r\nbody"));
    expect(head?.method).toBe("FOO");
    expect(head?.target).toBe("/x?y=1");
    expect(head?.headers.get("x-a")).toBe("1");
  });

  it("refuses a head cut short, a bad method, a bad version, a target that is not a path, a header without a name", () => {
    for (const text of ["FOO / HTTP/1.1\r\nHost: h\r\n", "F(O / HTTP/1.1\r\n\r\n", "FOO / HTTP/2.0\r\n\r\n", "FOO x HTTP/1.1\r\n\r\n", "FOO / HTTP/1.1\r\n: v\r\n\r\n"]) {
      expect(parseRawRequestHead(Buffer.from(text)), JSON.stringify(text)).toBeUndefined();
    }
  });
});

describe("fetchSafeMethod", () => {
  it("keeps a lowercase method fetch would upper-case unknown, and leaves others alone", () => {
    expect(fetchSafeMethod("delete")).toBe("delete-unrecognized");
    expect(fetchSafeMethod("Get")).toBe("Get-unrecognized");
    expect(fetchSafeMethod("patch")).toBe("patch-unrecognized");
    expect(fetchSafeMethod("PATCH")).toBe("PATCH");
    expect(fetchSafeMethod("FOO")).toBe("FOO");
    expect(new Request("http://x/", { method: fetchSafeMethod("get") }).method).not.toBe("GET");
  });
});
