/**
 * The transport served over TLS (what `serve --tls-cert-file` runs): the same handler and wire
 * behaviour as plain http (see http-server.test.ts), reached through node:https with the fixture
 * certificate trusted, and nothing for a client that does not speak TLS or does not trust it.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxRequestBodyBytes } from "../../spec/doc1/limits.ts";
import { startLoopbackServer, type LoopbackServer } from "./loopback-server.ts";
import { readTlsFiles, TlsFilesError } from "./tls-files.ts";

const WAIT_MS = 3_000;
const CERT_FILE = fileURLToPath(new URL("./testdata/server.crt", import.meta.url));
const KEY_FILE = fileURLToPath(new URL("./testdata/server.key", import.meta.url));
const credentials = readTlsFiles(CERT_FILE, KEY_FILE);

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** One request over https, trusting only the fixture certificate unless told to use node's default roots; bounded. */
function https(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; trust?: "fixture" | "default roots" } = {}): Promise<Answer> {
  const { method = "GET", headers = {}, body, trust = "fixture" } = options;
  const ca = trust === "fixture" ? credentials.cert : undefined;
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method, headers, ...(ca !== undefined && { ca }), timeout: WAIT_MS }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer from ${url} within ${WAIT_MS} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

describe("serveHttp with tls", () => {
  let loopback: LoopbackServer;

  beforeAll(async () => {
    loopback = await startLoopbackServer({ tls: credentials, seed: "https-server-test" });
  });

  afterAll(async () => {
    await loopback?.close();
  });

  it("listens on an https URL and answers over TLS with the fixture CA trusted", async () => {
    expect(loopback.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const version = await https(`${loopback.url}/version`);
    expect(version.status).toBe(200);
    expect(JSON.parse(version.body)).toMatchObject({ gitVersion: expect.any(String) });
  });

  it("carries request bodies both ways: a POSTed ConfigMap reads back", async () => {
    const configMap = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "over-tls" }, data: { k: "v" } };
    const created = await https(`${loopback.url}/api/v1/namespaces/default/configmaps`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(configMap),
    });
    expect(created.status, created.body).toBe(201);
    const got = await https(`${loopback.url}/api/v1/namespaces/default/configmaps/over-tls`);
    expect([got.status, JSON.parse(got.body).data]).toEqual([200, { k: "v" }]);
  });

  it("answers an oversized body with the same 413 Status as plain http", async () => {
    const tooBig = await https(`${loopback.url}/api/v1/namespaces/default/configmaps`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: Buffer.alloc(maxRequestBodyBytes + 1, 0x20),
    });
    expect(tooBig.status).toBe(413);
    expect(JSON.parse(tooBig.body)).toMatchObject({ kind: "Status", reason: "RequestEntityTooLarge", code: 413 });
  });

  it("is refused by a client that does not trust the certificate (it is checked, not ignored)", async () => {
    // Node's default roots do not hold the self-signed fixture.
    await expect(https(`${loopback.url}/version`, { trust: "default roots" })).rejects.toThrow(/self[- ]signed|unable to verify|certificate/i);
  });

  it("gives a plain-http request to the TLS port no HTTP answer", async () => {
    const plain = loopback.url.replace(/^https:/, "http:");
    const outcome = await fetch(`${plain}/version`, { signal: AbortSignal.timeout(WAIT_MS) }).then(
      (response) => `answered ${response.status}`,
      () => "failed",
    );
    expect(outcome).toBe("failed");
    // The server shrugs that client off and goes on serving.
    expect((await https(`${loopback.url}/version`)).status).toBe(200);
  });

  it("ends an open watch when the socket closes, as over plain http", async () => {
    const server = await startLoopbackServer({ tls: credentials, seed: "https-server-test-close" });
    const ended = new Promise<string>((resolve, reject) => {
      const req = httpsRequest(`${server.url}/api/v1/namespaces?watch=1`, { ca: credentials.cert }, (res) => {
        // The watch is open (its first event came); stopHttp closes only the socket, so this is the
        // transport ending the connection, not the API server ending its watches.
        res.once("data", () => void server.stopHttp());
        res.on("end", () => resolve("ended"));
        res.on("error", () => resolve("cut"));
        res.on("close", () => resolve("closed"));
      });
      req.on("error", reject);
      req.end();
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve("still open"), WAIT_MS)));
    try {
      expect(await Promise.race([ended, timeout])).not.toBe("still open");
    } finally {
      clearTimeout(timer);
      await server.close();
    }
  });
});

describe("readTlsFiles", () => {
  let scratch = "";
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), "orb-tls-files-"));
  });
  afterAll(() => {
    if (scratch !== "") rmSync(scratch, { recursive: true, force: true });
  });

  const problem = (certFile: string, keyFile: string): string => {
    try {
      readTlsFiles(certFile, keyFile);
    } catch (error) {
      if (error instanceof TlsFilesError) return error.message;
      throw error;
    }
    throw new Error("expected a TlsFilesError");
  };

  it("reads the fixture pair", () => {
    expect(credentials.cert).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(credentials.key).toMatch(/-----BEGIN PRIVATE KEY-----/);
  });

  it("names a missing file", () => {
    const missing = join(scratch, "absent.crt");
    expect(problem(missing, KEY_FILE)).toMatch(new RegExp(`^cannot read the certificate ${missing}: ENOENT`));
  });

  it("names a file that is not PEM", () => {
    const junk = join(scratch, "junk.pem");
    writeFileSync(junk, "not a certificate\n");
    expect(problem(junk, KEY_FILE)).toMatch(/junk\.pem: not a PEM certificate/);
    expect(problem(CERT_FILE, junk)).toMatch(/junk\.pem: not a PEM private key/);
  });

  it("refuses a key that does not belong to the certificate, in one line", () => {
    const other = join(scratch, "other.key");
    writeFileSync(other, generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey.export({ type: "pkcs8", format: "pem" }));
    const message = problem(CERT_FILE, other);
    expect(message).toBe(`${other}: the private key does not match the certificate in ${CERT_FILE}`);
    expect(message).not.toContain("\n");
  });
});
