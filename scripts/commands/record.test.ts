/**
 * `orb-harness record` against the embedded server (kubernetes dialect, authentication on): the
 * file it writes has the reference transcripts' shape and ids, answers that make sense, and no
 * credential anywhere; bad flags and an unreachable server exit 2 with one line.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialectByName } from "../../spec/dialects.ts";
import { MAIN_FILE, readTranscriptFile, referenceDir } from "../../spec/reference-transcripts.ts";
import { startEmbeddedTarget } from "../../conformance/targets/embedded-target.ts";
import type { Target } from "../../conformance/targets/target.ts";
import { main } from "../cli.ts";

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const token = (identity: Target["identity"]) => identity.authHeaders["authorization"]!.replace(/^Bearer /, "");
const RESPONSE_HEADERS = ["content-type", "retry-after", "warning", "transfer-encoding"];
const IDENTITIES = ["restricted user", "unknown token", "anonymous"];
// Three requests at a future resourceVersion wait about 3 s each before their 504, as kube-apiserver does.
const RECORDING_TIMEOUT_MS = 60_000;

let target: Target;
let dir: string;

beforeAll(async () => {
  target = await startEmbeddedTarget(dialectByName("kubernetes"));
  dir = await mkdtemp(join(tmpdir(), "orb-record-cli-"));
});

afterAll(async () => {
  await target.close();
  await rm(dir, { recursive: true, force: true });
});

describe("orb-harness record", () => {
  let result: Awaited<ReturnType<typeof run>>;
  let text: string;
  let lines: any[];
  const byId = (id: string) => lines.find((line) => line.id === id);

  beforeAll(async () => {
    const out = join(dir, "recorded.jsonl");
    const admin = token(target.identity);
    const restricted = token(target.restricted!);
    result = await run("record", "--server", target.url, "--token", admin, "--restricted-token", restricted, "--out", out, "--watch-seconds", "1", "--bookmark-seconds", "1");
    text = await readFile(out, "utf8");
    lines = text.trimEnd().split("\n").map((line) => JSON.parse(line));
  }, RECORDING_TIMEOUT_MS);

  it("exits 0 and says what it did: every request answered, the two cluster-scoped writes skipped", () => {
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/118 answers recorded, 2 skipped, 0 unanswered; wrote .*recorded\.jsonl; namespace orb-record-[0-9a-f]{8} deleted/);
    expect(result.err).toContain("skipped node-create:");
    expect(result.err).toContain("skipped node-lease-create:");
  });

  it("writes a line for each reference request but the two it never sends, in the reference's order", () => {
    const reference = readTranscriptFile(join(referenceDir, MAIN_FILE)).map((transcript) => transcript.id);
    expect(lines.map((line) => line.id)).toEqual(reference.filter((id) => id !== "node-create" && id !== "node-lease-create"));
  });

  it("gives every line the reference shape", () => {
    for (const line of lines) {
      expect(Object.keys(line), line.id).toEqual(["id", "note", "request", "response"]);
      expect(typeof line.note, line.id).toBe("string");
      const { method, path, headers, identity } = line.request;
      expect(["GET", "POST", "PUT", "PATCH", "DELETE"], line.id).toContain(method);
      expect(path, line.id).toMatch(/^\//);
      expect(Object.values(headers).every((value) => typeof value === "string"), line.id).toBe(true);
      if (identity !== undefined) expect(IDENTITIES, line.id).toContain(identity);
      const { status, headers: responseHeaders, body } = line.response;
      expect(Number.isInteger(status) && status >= 100 && status < 600, line.id).toBe(true);
      expect(Object.keys(responseHeaders).every((name) => RESPONSE_HEADERS.includes(name)), line.id).toBe(true);
      expect(Object.keys(body), line.id).toHaveLength(1);
      expect(typeof (body.text ?? body.base64), line.id).toBe("string");
    }
  });

  it("never writes a token, a client's Authorization header, or the reference's namespace", () => {
    for (const secret of target.secrets) {
      expect(text).not.toContain(secret);
      expect(result.out + result.err).not.toContain(secret);
    }
    expect(text).not.toMatch(/"authorization"/i);
    expect(text).not.toContain("ref-main");
  });

  it("records answers that make sense", () => {
    expect(byId("namespace-create").response.status).toBe(201);
    expect(byId("create-configmap").response.status).toBe(201);
    expect(byId("create-duplicate").response.status).toBe(409);
    expect(byId("get-missing").response.status).toBe(404);
    expect(JSON.parse(byId("get-missing").response.body.text)).toMatchObject({ kind: "Status", reason: "NotFound" });
    expect(byId("unauthorized").response.status).toBe(401);
    // The embedded target's restricted user may read ConfigMaps but not create them.
    expect(byId("forbidden-dryrun").response.status).toBe(403);
    expect(byId("protobuf-get-configmap").response.body.base64).toEqual(expect.any(String));
    expect(byId("unknown-group").response.body.text).toBe("404 page not found\n");
  });

  it("takes values from earlier answers: the update's resourceVersion, the continue token, the watches' start", () => {
    const created = JSON.parse(byId("create-configmap").response.body.text).metadata.resourceVersion;
    expect(byId("update-configmap").request.body.metadata.resourceVersion).toBe(created);
    expect(byId("update-configmap").response.status).toBe(200);
    const firstPage = JSON.parse(byId("list-page-1").response.body.text).metadata;
    expect(byId("list-page-2").request.path).toContain(`continue=${encodeURIComponent(firstPage.continue)}`);
    expect(byId("list-page-2").response.status).toBe(200);
    const watchFrom = JSON.parse(byId("list-all-namespaces").response.body.text).metadata.resourceVersion;
    expect(byId("watch-from-rv").request.path).toContain(`resourceVersion=${watchFrom}&`);
    const events = byId("watch-from-rv").response.body.text.trimEnd().split("\n").map((event: string) => JSON.parse(event));
    expect(events.slice(0, 3).map((event: any) => [event.type, event.object.metadata.name])).toEqual([["ADDED", "w-1"], ["MODIFIED", "w-1"], ["DELETED", "w-1"]]);
  });

  it("leaves no namespace behind", async () => {
    const namespace = byId("namespace-create").request.body.metadata.name;
    const answer = await target.identity.transport(new Request(`${target.url}/api/v1/namespaces/${namespace}`, { headers: target.identity.authHeaders }));
    // Gone, or on its way out (the namespace controller finishes the deletion).
    if (answer.status !== 404) expect(((await answer.json()) as { status: { phase: string } }).status.phase).toBe("Terminating");
  });
});

describe("orb-harness record usage", () => {
  it("exits 2 with the usage for missing or conflicting flags", async () => {
    const out = join(dir, "never.jsonl");
    for (const [argv, message] of [
      [["--out", out], /give --server URL or --kubeconfig PATH/],
      [["--server", "http://127.0.0.1:9", "--kubeconfig", "k", "--out", out], /not both/],
      [["--kubeconfig", "k", "--token", "t", "--out", out], /--token goes with --server/],
      [["--server", "http://127.0.0.1:9"], /--out FILE is required/],
      [["--server", "http://127.0.0.1:9", "--out", out, "--watch-seconds", "-1"], /--watch-seconds must be 0 or more/],
      [["--server", "http://127.0.0.1:9", "--out", out, "--bogus"], /unknown flag --bogus/],
    ] as const) {
      const result = await run("record", ...argv);
      expect(result, argv.join(" ")).toMatchObject({ code: 2, err: expect.stringMatching(message) });
      expect(result.err).toContain("usage: orb-harness record");
    }
  });

  it("exits 2 with one line, without the token, when the server cannot be reached", async () => {
    const port = await closedPort();
    const out = join(dir, "unreachable.jsonl");
    const result = await run("record", "--server", `http://127.0.0.1:${port}`, "--token", "s3cr3t-token-value", "--out", out);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^orb-harness record: cannot reach http:\/\/127\.0\.0\.1:\d+/);
    expect(result.err.split("\n")).toHaveLength(1);
    expect(result.err + result.out).not.toContain("s3cr3t-token-value");
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
  });

  it("is listed by --help, and its --help says what is skipped", async () => {
    expect((await run("--help")).out).toMatch(/^\s+record\s+send the requests of the reference transcripts/m);
    const help = await run("record", "--help");
    expect(help.out).toMatch(/without it those two are skipped/);
    expect(help.out).toMatch(/never sends node-create and\s+node-lease-create/);
  });
});

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
