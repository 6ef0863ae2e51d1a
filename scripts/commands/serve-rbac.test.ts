/**
 * `orb-harness serve --authorization-mode RBAC` as a real process driven by a real kubectl: an
 * admin (system:masters, allowed by the bootstrap policy's privileged group) grants alice a Role
 * in one namespace, and alice's requests and `kubectl auth can-i` answers follow it. The wording
 * of reasons and 403s is checked against kube-apiserver 1.26.4 in sim/apiserver/auth/rbac-recorded.test.ts.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const KUBECTL = "/usr/bin/kubectl";
const START_MS = 15_000;
const WAIT_MS = 8_000;
const TLS_CERT = join(REPO, "sim/transport/testdata/server.crt");
const TLS_KEY = join(REPO, "sim/transport/testdata/server.key");
// What kube-apiserver 1.26.4 answered (conformance/record/record-rbac-bootstrap.ts).
const RECORDED = JSON.parse(readFileSync(join(REPO, "sim/apiserver/auth/rbac-bootstrap-data/rbac-answers.json"), "utf8"));

interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a process to completion (bounded: SIGKILL after `ms`). */
function run(command: string, args: readonly string[], ms: number, env: NodeJS.ProcessEnv = process.env): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: REPO, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const cli = (...args: string[]) => run(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], START_MS);

describe("orb-harness serve --authorization-mode", () => {
  it("refuses a bad mode, RBAC without tokens and AlwaysAllow with a policy file: exit 2", async () => {
    const [bad, noTokens, both, help] = await Promise.all([
      cli("serve", "--authorization-mode", "Nope"),
      cli("serve", "--authorization-mode", "RBAC"),
      cli("serve", "--authorization-mode", "AlwaysAllow", "--policy-file", "/nonexistent.yaml"),
      cli("serve", "--help"),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split("\n")[0]).toBe('orb-harness serve: --authorization-mode must be RBAC or AlwaysAllow, got "Nope"');
    expect(noTokens.code).toBe(2);
    expect(noTokens.stderr.split("\n")[0]).toMatch(/^orb-harness serve: --authorization-mode RBAC needs --token-file/);
    expect(both.code).toBe(2);
    expect(both.stderr.split("\n")[0]).toMatch(/^orb-harness serve: --authorization-mode AlwaysAllow allows everything/);
    expect(help.stdout).toMatch(/--authorization-mode {9}RBAC: Roles, ClusterRoles and their bindings authorize/);
  }, 3 * START_MS);
});

describe.skipIf(!existsSync(KUBECTL))("orb-harness serve --authorization-mode RBAC with kubectl", { timeout: 3 * WAIT_MS }, () => {
  let scratch = "";
  let url = "";
  let serve: ReturnType<typeof spawn> | undefined;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "orb-serve-rbac-"));
    const tokens = join(scratch, "tokens.csv");
    await writeFile(tokens, 't-admin,admin,0,"system:masters"\nt-alice,alice,1\n');
    serve = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", "serve", "--dialect", "kubernetes", "--port", "0", "--token-file", tokens,
      "--authorization-mode", "RBAC", "--tls-cert-file", TLS_CERT, "--tls-private-key-file", TLS_KEY], { cwd: REPO });
    url = await new Promise<string>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), START_MS);
      serve!.stdout!.on("data", (chunk) => {
        out += chunk;
        const served = /serving on (https:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (served !== null) {
          clearTimeout(timer);
          resolve(served[1]!);
        }
      });
    });
  }, START_MS + 5_000);

  afterAll(async () => {
    if (serve !== undefined && serve.exitCode === null) {
      const closed = new Promise((resolve) => serve!.once("close", resolve));
      serve.kill("SIGINT");
      await closed;
    }
    if (scratch !== "") await rm(scratch, { recursive: true, force: true });
  });

  const kubectl = (token: string, ...args: string[]) =>
    run(KUBECTL, ["--server", url, "--certificate-authority", TLS_CERT, "--token", token, "--request-timeout", "5s", "--cache-dir", join(scratch, "cache"), ...args], WAIT_MS, {
      ...process.env,
      KUBECONFIG: join(scratch, "kubeconfig"),
      HOME: scratch,
    });
  const admin = (...args: string[]) => kubectl("t-admin", ...args);
  const alice = (...args: string[]) => kubectl("t-alice", ...args);

  it("lists the bootstrap ClusterRoles and ClusterRoleBindings to the admin", async () => {
    const roles = await admin("get", "clusterroles", "-o", "name");
    expect(roles.code, roles.stderr).toBe(0);
    for (const name of ["cluster-admin", "admin", "edit", "view", "system:discovery", "system:basic-user", "system:public-info-viewer"]) {
      expect(roles.stdout.split("\n")).toContain(`clusterrole.rbac.authorization.k8s.io/${name}`);
    }
    const bindings = await admin("get", "clusterrolebinding", "cluster-admin", "-o", "jsonpath={.subjects[0].name}");
    expect([bindings.code, bindings.stdout]).toEqual([0, "system:masters"]);
  });

  it("alice may do what a Role the admin binds to her grants, in its namespace only, and nothing else", async () => {
    for (const args of [
      ["create", "namespace", "team-a"],
      ["create", "role", "pod-reader", "-n", "team-a", "--verb=get,list", "--resource=pods"],
      ["create", "rolebinding", "alice-reads-pods", "-n", "team-a", "--role=pod-reader", "--user=alice"],
    ]) {
      const made = await admin(...args);
      expect(made.code, made.stderr).toBe(0);
    }
    const listed = await alice("get", "pods", "-n", "team-a");
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr.trim()).toBe("No resources found in team-a namespace.");
    const elsewhere = await alice("get", "pods", "-n", "default");
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr.trim()).toBe('Error from server (Forbidden): pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"');
    const create = await alice("create", "configmap", "c", "-n", "team-a");
    expect(create.stderr.trim()).toBe('error: failed to create configmap: configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "team-a"');

    const can = async (...args: string[]) => (await alice("auth", "can-i", ...args)).stdout.trim();
    expect(await can("list", "pods", "-n", "team-a")).toBe("yes");
    expect(await can("delete", "pods", "-n", "team-a")).toBe("no");
    expect(await can("list", "pods", "-n", "default")).toBe("no");
    expect(await can("get", "/api")).toBe("yes"); // system:discovery, to every signed-in user
    expect((await admin("auth", "can-i", "delete", "nodes")).stdout.trim()).toBe("yes");

    const list = await alice("auth", "can-i", "--list", "-n", "team-a");
    expect(list.code, list.stderr).toBe(0);
    const rows = list.stdout.split("\n").map((line) => line.trim().split(/\s+/));
    expect(rows).toContainEqual(["pods", "[]", "[]", "[get", "list]"]);
    expect(rows).toContainEqual(["selfsubjectaccessreviews.authorization.k8s.io", "[]", "[]", "[create]"]);
    expect(rows).toContainEqual(["[/api/*]", "[]", "[get]"]);
    expect(list.stdout).not.toMatch(/configmaps/);
  });

  it("kubectl auth can-i --list prints what it printed against kube-apiserver 1.26.4 for the same Role and binding", async () => {
    const ns: string = RECORDED.namespace;
    const objects = join(scratch, "recorded-role.json");
    await writeFile(objects, JSON.stringify({
      apiVersion: "v1", kind: "List", items: [
        { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } },
        { apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", metadata: { name: "pod-reader", namespace: ns },
          rules: [{ apiGroups: [""], resources: ["pods", "pods/*"], verbs: ["get", "list"] }, { apiGroups: [""], resources: ["configmaps"], resourceNames: ["settings"], verbs: ["get"] }] },
        { apiVersion: "rbac.authorization.k8s.io/v1", kind: "RoleBinding", metadata: { name: "alice-reads-pods", namespace: ns },
          subjects: [{ kind: "User", name: "alice", apiGroup: "rbac.authorization.k8s.io" }], roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "pod-reader" } },
      ],
    }));
    const made = await admin("create", "-f", objects);
    expect(made.code, made.stderr).toBe(0);
    const list = await alice("auth", "can-i", "--list", "-n", ns);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toBe(RECORDED.aliceCanIList);
  });
});
