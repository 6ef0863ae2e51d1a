/**
 * TLS verification of `orb-harness conformance` against a real endpoint (issue #14): on unless
 * --insecure-skip-tls-verify is given. A server whose certificate nobody vouched for (the test
 * fixture, self-signed) is refused before any request reaches it — so the token never goes over a
 * connection to an unverified party — with a one-line reason and exit 2; its CA, or the flag, let
 * the run go on. The same for a kubeconfig, where the flag overrides the file, as kubectl's does.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startObservedServer, type ObservedServer } from "../../conformance/safety/observed-server.ts";
import { readTlsFiles } from "../../sim/transport/tls-files.ts";
import { main } from "../cli.ts";

const TESTDATA = fileURLToPath(new URL("../../sim/transport/testdata/", import.meta.url));
const CERTIFICATE = join(TESTDATA, "server.crt");
const TOKEN = `orb-tls-${randomBytes(16).toString("hex")}`;
// One quick case: what is tested is the connection, not the suite.
const SELECTION = ["--focus", "^health/endpoints-answer-200$"];

let server: ObservedServer;
let dir: string;

beforeAll(async () => {
  server = await startObservedServer({ token: TOKEN, tls: readTlsFiles(CERTIFICATE, join(TESTDATA, "server.key")) });
  dir = mkdtempSync(join(tmpdir(), "orb-conformance-tls-"));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function conformance(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const reportDir = join(dir, `reports-${randomBytes(4).toString("hex")}`);
  const code = await main(["conformance", ...args, ...SELECTION, "--reporter", "plain", "--report-dir", reportDir], { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err, reportsWritten: existsSync(join(reportDir, "results.json")) };
}

/** A kubeconfig for the server with a token user; `cluster` holds the cluster's TLS settings. */
function kubeconfig(name: string, cluster: string): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    [
      "apiVersion: v1",
      "kind: Config",
      `clusters: [{name: tls, cluster: {server: "${server.url}"${cluster}}}]`,
      `users: [{name: admin, user: {token: "${TOKEN}"}}]`,
      "contexts: [{name: admin, context: {cluster: tls, user: admin}}]",
      "current-context: admin",
    ].join("\n"),
  );
  return path;
}

describe("conformance against an https server", () => {
  it.each([
    ["--server with a token and no CA", () => ["--server", server.url, "--token", TOKEN]],
    ["--kubeconfig with no CA", () => ["--kubeconfig", kubeconfig("untrusted", "")]],
  ])("refuses one with a certificate nobody vouched for: %s; exit 2, one line, no request sent", async (_name, args) => {
    const requestsBefore = server.log.length;
    const { code, out, err, reportsWritten } = await conformance(...args());
    expect(code).toBe(2);
    expect(err).toEqual([
      `orb-harness conformance: cannot reach ${server.url}: its certificate could not be verified (self-signed certificate); give the CA that signed it with --certificate-authority FILE (in a kubeconfig: certificate-authority), or --insecure-skip-tls-verify to not verify it`,
    ]);
    expect(out).toEqual([]);
    expect(reportsWritten).toBe(false);
    // The handshake failed: no request, so no token, reached the server.
    expect(server.log.length).toBe(requestsBefore);
  });

  it.each([
    ["--server with its CA", () => ["--server", server.url, "--token", TOKEN, "--certificate-authority", CERTIFICATE]],
    ["--server with --insecure-skip-tls-verify", () => ["--server", server.url, "--token", TOKEN, "--insecure-skip-tls-verify"]],
    ["--kubeconfig with its CA", () => ["--kubeconfig", kubeconfig("trusted", `, certificate-authority: "${CERTIFICATE}"`)]],
    ["--kubeconfig saying insecure-skip-tls-verify", () => ["--kubeconfig", kubeconfig("insecure", ", insecure-skip-tls-verify: true")]],
    ["--kubeconfig with no CA and --insecure-skip-tls-verify", () => ["--kubeconfig", kubeconfig("overridden", ""), "--insecure-skip-tls-verify"]],
  ])("runs against it given %s", async (_name, args) => {
    const { code, out, err, reportsWritten } = await conformance(...args());
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(out.filter((line) => /^[A-Z]+ +health\//.test(line))).toEqual([expect.stringMatching(/^PASS  health\/endpoints-answer-200 /)]);
    expect(reportsWritten).toBe(true);
  });

  it("--help says what --insecure-skip-tls-verify does and costs", async () => {
    const out: string[] = [];
    expect(await main(["conformance", "--help"], { out: (line) => out.push(line), err: () => undefined })).toBe(0);
    expect(out.join("\n")).toMatch(/^ {2}--insecure-skip-tls-verify +with --server or --kubeconfig: do not verify the server's certificate/m);
  });

  it.each([
    [["--insecure-skip-tls-verify"], "--insecure-skip-tls-verify goes with --server or --kubeconfig"],
    [["--kubeconfig", "/nonexistent", "--token", "t"], "--token goes with --server (a kubeconfig holds its own credentials)"],
    [["--kubeconfig", "/nonexistent", "--certificate-authority", "ca.crt"], "--certificate-authority goes with --server (a kubeconfig holds its own)"],
    [["--server", "https://127.0.0.1:1", "--context", "admin"], "--context goes with --kubeconfig"],
    [["--kube-assets", "/nonexistent", "--insecure-skip-tls-verify"], "--insecure-skip-tls-verify goes with --server or --kubeconfig"],
  ])("refuses %j, which the target would ignore: exit 2", async (args, message) => {
    const { code, err } = await conformance(...args);
    expect(code).toBe(2);
    expect(err[0]!.split("\n")[0]).toBe(`orb-harness conformance: ${message}`);
  });
});
