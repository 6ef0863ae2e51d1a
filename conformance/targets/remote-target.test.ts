/**
 * Real endpoints as targets (issue #5, "Targets"): `--server` with a token, a kubeconfig read by
 * client-node (tokens, exec credential plugins, contexts, plain-HTTP servers as kubectl allows),
 * the one-line reasons for an unreachable or unauthorized target, and `--dialect auto`.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialectByName } from "../../spec/dialects.ts";
import { detectDialect } from "./dialect-detection.ts";
import { startEmbeddedTarget } from "./embedded-target.ts";
import { connectRemoteTarget, TargetError } from "./remote-target.ts";
import type { Target } from "./target.ts";

let orb: Target;
let kubernetes: Target;
let dir: string;

beforeAll(async () => {
  [orb, kubernetes] = await Promise.all([startEmbeddedTarget(dialectByName("orb")), startEmbeddedTarget(dialectByName("kubernetes"))]);
  dir = mkdtempSync(join(tmpdir(), "orb-remote-target-"));
});
afterAll(async () => {
  await Promise.all([orb.close(), kubernetes.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const adminToken = (target: Target) => target.secrets[0]!;

/** A kubeconfig for `server` (no insecure-skip-tls-verify) with a token user, an exec-plugin user and a bad one. */
function kubeconfig(server: string, token: string): string {
  const plugin = join(dir, "credential-plugin.sh");
  writeFileSync(plugin, `#!/bin/sh\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"${token}"}}'\n`);
  chmodSync(plugin, 0o755);
  const path = join(dir, "kubeconfig");
  writeFileSync(
    path,
    [
      "apiVersion: v1",
      "kind: Config",
      "clusters:",
      `- {name: local, cluster: {server: "${server}"}}`,
      "users:",
      `- {name: token, user: {token: "${token}"}}`,
      `- {name: plugin, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: "${plugin}", interactiveMode: Never}}}`,
      `- {name: stranger, user: {token: not-a-known-token}}`,
      "contexts:",
      "- {name: token, context: {cluster: local, user: token}}",
      "- {name: plugin, context: {cluster: local, user: plugin}}",
      "- {name: stranger, context: {cluster: local, user: stranger}}",
      "current-context: token",
    ].join("\n"),
  );
  return path;
}

describe("a remote target", () => {
  it("with --server and a token: reached, its version read, the dialect detected, the token a secret", async () => {
    for (const [target, dialect] of [
      [orb, "orb"],
      [kubernetes, "kubernetes"],
    ] as const) {
      const remote = await connectRemoteTarget({ server: `${target.url}/`, credentials: { token: adminToken(target) }, dialect: "auto" });
      expect([remote.kind, remote.url, remote.dialect.name, remote.serverVersion]).toEqual(["server", target.url, dialect, target.serverVersion]);
      expect(remote.secrets).toEqual([adminToken(target)]);
      expect(remote.virtualTimeServer).toBeUndefined();
    }
  });

  it("refuses an unreachable or unauthorized target with a one-line reason", async () => {
    const unreachable = connectRemoteTarget({ server: "http://127.0.0.1:1", credentials: {}, dialect: "auto" });
    await expect(unreachable).rejects.toThrow(TargetError);
    await expect(unreachable).rejects.toThrow(/^cannot reach http:\/\/127\.0\.0\.1:1: [^\n]+$/);
    const stranger = connectRemoteTarget({ server: orb.url, credentials: { token: "not-a-known-token" }, dialect: "auto" });
    await expect(stranger).rejects.toThrow(new TargetError(`${orb.url} refused our credentials: HTTP 401 on /version`));
  });

  it("with --kubeconfig: a plain-HTTP server, a token or an exec credential plugin, the context chosen by --context", async () => {
    const path = kubeconfig(orb.url, adminToken(orb));
    for (const context of [undefined, "plugin"]) {
      const remote = await connectRemoteTarget({ kubeconfig: path, ...(context !== undefined && { context }), dialect: "auto" });
      expect([remote.kind, remote.url, remote.dialect.name]).toEqual(["kubeconfig", orb.url, "orb"]);
      expect(remote.secrets).toContain(adminToken(orb));
    }
    await expect(connectRemoteTarget({ kubeconfig: path, context: "stranger", dialect: "auto" })).rejects.toThrow(/refused our credentials: HTTP 401/);
    await expect(connectRemoteTarget({ kubeconfig: path, context: "nowhere", dialect: "auto" })).rejects.toThrow(TargetError);
    await expect(connectRemoteTarget({ kubeconfig: path, context: "nowhere", dialect: "auto" })).rejects.toThrow(`--context nowhere: kubeconfig ${path} has no such context (it has token, plugin, stranger)`);
  });

  it("says what is wrong with a malformed kubeconfig in one line, without quoting it (it holds credentials)", async () => {
    const path = join(dir, "malformed");
    writeFileSync(path, ["apiVersion: v1", "kind: Config", "users:", "- name: u", "  user:", "    token: quoted-secret-token", "     misplaced: indentation"].join("\n"));
    const loading = connectRemoteTarget({ kubeconfig: path, dialect: "auto" });
    await expect(loading).rejects.toThrow(new TargetError(`cannot load kubeconfig ${path}: bad indentation of a mapping entry (7:15)`));
  });
});

describe("dialect detection", () => {
  /** A server whose /apis lists `groups` and which answers lists in Protobuf of `protobuf` media types. */
  function fakeServer(groups: string[], protobuf: string[]) {
    return async (request: Request): Promise<Response> => {
      const url = new URL(request.url);
      if (url.pathname === "/apis") return Response.json({ kind: "APIGroupList", groups: groups.map((name) => ({ name })) });
      const accept = request.headers.get("accept") ?? "";
      if (protobuf.includes(accept)) return new Response(new Uint8Array([0x6b, 0x38, 0x73, 0x00]), { headers: { "content-type": accept } });
      return new Response("{}", { status: 406, headers: { "content-type": "application/json" } });
    };
  }
  const ORB_PB = "application/vnd.orb.protobuf";
  const K8S_PB = "application/vnd.kubernetes.protobuf";

  it.each([
    ["discovery lists coordination.orb.io", ["coordination.orb.io"], [K8S_PB], "orb"],
    ["discovery lists coordination.k8s.io", ["coordination.k8s.io", "apps"], [ORB_PB], "kubernetes"],
    ["discovery lists neither: the Protobuf media type decides", ["apps"], [ORB_PB], "orb"],
    ["discovery lists both: the Protobuf media type decides", ["coordination.orb.io", "coordination.k8s.io"], [K8S_PB], "kubernetes"],
    ["nothing tells: kubernetes", [], [], "kubernetes"],
  ])("%s", async (_name, groups, protobuf, expected) => {
    expect((await detectDialect(fakeServer(groups, protobuf), "http://server.invalid", {})).name).toBe(expected);
  });
});
