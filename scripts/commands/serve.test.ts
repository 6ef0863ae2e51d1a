/**
 * `orb-harness serve` as a real process, driven by a real kubectl: what a user sees. Handler
 * semantics are covered in-memory (sim/apiserver/*.test.ts); this is the wiring, the wire, and
 * kubectl's view of it. kubectl runs with --server, a throwaway empty KUBECONFIG, HOME and cache
 * dir in a temp directory (never ~/.kube), and --request-timeout; every wait is bounded.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { request as httpsRequest } from "node:https";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const KUBECTL = "/usr/bin/kubectl";
const hasKubectl = existsSync(KUBECTL);
const START_MS = 15_000; // node + tsx start-up on a slow box
const WAIT_MS = 5_000;
const TEST_TIMEOUT_MS = 20_000;
// The committed self-signed test certificate for 127.0.0.1 (sim/transport/testdata/README.md).
const TLS_CERT = join(REPO, "sim/transport/testdata/server.crt");
const TLS_KEY = join(REPO, "sim/transport/testdata/server.key");

interface Finished {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A child process whose output is collected as it comes. */
interface Running {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when it exits; kills it (SIGKILL) and rejects if that takes longer than `ms`. */
  exited(ms: number): Promise<Finished>;
  /** Resolves once stdout matches `pattern`; rejects after `ms` or if the process exits first. */
  waitForOutput(pattern: RegExp, ms: number): Promise<RegExpMatchArray>;
}

function start(command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv } = {}): Running {
  const child = spawn(command, args, { cwd: REPO, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (data: string) => (stdout += data));
  child.stderr!.setEncoding("utf8").on("data", (data: string) => (stderr += data));
  const exit = new Promise<Finished>((resolve) => {
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    async exited(ms) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          child.kill("SIGKILL");
          reject(new Error(`${command} ${args.join(" ")} did not exit within ${ms} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
        }, ms);
      });
      try {
        return await Promise.race([exit, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    waitForOutput(pattern, ms) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = stdout.match(pattern);
          if (match === null) return false;
          cleanup();
          resolve(match);
          return true;
        };
        const onData = () => void check();
        const onClose = () => {
          if (check()) return;
          cleanup();
          reject(new Error(`exited before printing ${pattern}\nstdout: ${stdout}\nstderr: ${stderr}`));
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${pattern} within ${ms} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
        }, ms);
        const cleanup = () => {
          clearTimeout(timer);
          child.stdout!.off("data", onData);
          child.off("close", onClose);
        };
        if (check()) return;
        child.stdout!.on("data", onData);
        child.once("close", onClose);
      });
    },
  };
}

/** Runs the CLI in its own process, as a user would. */
function startCli(...args: string[]): Running {
  return start(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args]);
}

// Kills a server a test left running and removes its scratch directory.
async function stopAndRemove(serve: Running | undefined, scratch: string): Promise<void> {
  if (serve !== undefined && serve.child.exitCode === null && serve.child.signalCode === null) {
    serve.child.kill("SIGKILL");
    await serve.exited(WAIT_MS).catch(() => undefined);
  }
  if (scratch !== "") await rm(scratch, { recursive: true, force: true });
}

describe("orb-harness serve", { timeout: TEST_TIMEOUT_MS }, () => {
  let serve: Running;
  let url = "";
  let scratch = "";

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "orb-serve-test-"));
    serve = startCli("serve", "--dialect", "kubernetes", "--port", "0");
    const [, served] = await serve.waitForOutput(/^serving on (http:\/\/127\.0\.0\.1:\d+) \(dialect kubernetes\)\n/, START_MS);
    url = served!;
  }, START_MS + 5_000);

  // Normally the SIGTERM test has stopped it already.
  afterAll(() => stopAndRemove(serve, scratch));

  it("prints its URL on the first stdout line and answers on it", async () => {
    expect(serve.stdout().split("\n")[0]).toMatch(/^serving on http:\/\/127\.0\.0\.1:\d+ \(dialect kubernetes\)$/);
    const version = await fetch(`${url}/version`, { signal: AbortSignal.timeout(WAIT_MS) });
    expect(version.status).toBe(200);
  });

  describe.skipIf(!hasKubectl)(`kubectl against serve${hasKubectl ? "" : " (skipped: kubectl not installed)"}`, () => {
    let kubeconfig = "";

    beforeAll(async () => {
      kubeconfig = join(scratch, "kubeconfig");
      await writeFile(kubeconfig, ""); // empty: no contexts, no credentials
    });

    const kubectlEnv = (): NodeJS.ProcessEnv => ({ ...process.env, KUBECONFIG: kubeconfig, HOME: scratch });
    const kubectlArgs = (args: readonly string[], requestTimeout = "5s") => [
      "--server",
      url,
      "--request-timeout",
      requestTimeout,
      "--cache-dir",
      join(scratch, "kube-cache"),
      ...args,
    ];

    /** Runs kubectl to completion (bounded). */
    async function kubectl(...args: string[]): Promise<Finished> {
      return start(KUBECTL, kubectlArgs(args), { env: kubectlEnv() }).exited(WAIT_MS + 3_000);
    }

    /** Writes `documents` as one multi-document YAML file and returns its path. */
    async function yamlFile(name: string, documents: readonly string[]): Promise<string> {
      const path = join(scratch, name);
      await writeFile(path, documents.join("---\n"));
      return path;
    }

    const namespaceYaml = (name: string) => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n`;
    const configMapYaml = (namespace: string, name: string, data: Record<string, string>) =>
      [
        "apiVersion: v1",
        "kind: ConfigMap",
        "metadata:",
        `  name: ${name}`,
        `  namespace: ${namespace}`,
        "data:",
        ...Object.entries(data).map(([key, value]) => `  ${key}: ${JSON.stringify(value)}`),
        "",
      ].join("\n");

    it("get namespaces lists the system namespaces", async () => {
      const result = await kubectl("get", "namespaces");
      expect(result.code, result.stderr).toBe(0);
      const names = result.stdout.split("\n").slice(1).map((line) => line.split(/\s+/)[0]).filter(Boolean);
      expect(names).toEqual(["default", "kube-node-lease", "kube-public", "kube-system"]);
    });

    it("create -f a ConfigMap YAML, then get -o json shows its data", async () => {
      const file = await yamlFile("single.yaml", [configMapYaml("default", "from-yaml", { greeting: "hello", multi: "a b: c" })]);
      const created = await kubectl("create", "-f", file);
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout.trim()).toBe("configmap/from-yaml created");

      const got = await kubectl("get", "cm", "from-yaml", "-o", "json");
      expect(got.code, got.stderr).toBe(0);
      const object = JSON.parse(got.stdout);
      expect(object).toMatchObject({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "from-yaml", namespace: "default" }, data: { greeting: "hello", multi: "a b: c" } });
      expect(object.metadata.resourceVersion).toMatch(/^\d+$/);
      expect(object.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    });

    it("pages with --chunk-size=2: every object, fetched in several limit=2 requests", async () => {
      const names = ["page-1", "page-2", "page-3", "page-4", "page-5"];
      const file = await yamlFile("paging.yaml", [namespaceYaml("paging"), ...names.map((name, i) => configMapYaml("paging", name, { i: String(i) }))]);
      const created = await kubectl("create", "-f", file);
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout.trim().split("\n")).toEqual(["namespace/paging created", ...names.map((name) => `configmap/${name} created`)]);

      const listed = await kubectl("get", "configmaps", "-n", "paging", "--chunk-size=2", "-v=6");
      expect(listed.code, listed.stderr).toBe(0);
      const rows = listed.stdout.split("\n").slice(1).map((line) => line.split(/\s+/)[0]).filter(Boolean);
      expect(rows).toEqual(names);
      // -v=6 logs each request: 5 objects at 2 a page are 3 GETs, the later ones with a continue token.
      const pages = listed.stderr.split("\n").filter((line) => /GET \S+\/api\/v1\/namespaces\/paging\/configmaps\?\S*limit=2\S* 200 OK/.test(line));
      expect(pages).toHaveLength(3);
      expect(pages.filter((line) => /[?&]continue=/.test(line))).toHaveLength(2);
    });

    it("apply -f creates, then configures only what changed (client-side apply: last-applied annotation, strategic merge patch)", async () => {
      const documents = (value: string) => [namespaceYaml("applying"), configMapYaml("applying", "applied", { key: value })];
      const file = await yamlFile("apply.yaml", documents("one"));
      const first = await kubectl("apply", "-f", file);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout.trim().split("\n")).toEqual(["namespace/applying created", "configmap/applied created"]);
      await writeFile(file, documents("two").join("---\n"));
      const second = await kubectl("apply", "-f", file);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout.trim().split("\n")).toEqual(["namespace/applying unchanged", "configmap/applied configured"]);
      const got = await kubectl("get", "cm", "applied", "-n", "applying", "-o", "json");
      const object = JSON.parse(got.stdout);
      expect(object.data).toEqual({ key: "two" });
      expect(JSON.parse(object.metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]).data).toEqual({ key: "two" });
    });

    it("get --raw with limit=1 returns a ConfigMapList with a continue token", async () => {
      const raw = await kubectl("get", "--raw", "/api/v1/namespaces/paging/configmaps?limit=1");
      expect(raw.code, raw.stderr).toBe(0);
      const list = JSON.parse(raw.stdout);
      expect(list).toMatchObject({ kind: "ConfigMapList", apiVersion: "v1", metadata: { remainingItemCount: 4 } });
      expect(list.items.map((item: any) => item.metadata.name)).toEqual(["page-1"]);
      expect(list.metadata.continue).toEqual(expect.any(String));
      expect(list.metadata.continue.length).toBeGreaterThan(0);

      const next = await kubectl("get", "--raw", `/api/v1/namespaces/paging/configmaps?limit=1&continue=${encodeURIComponent(list.metadata.continue)}`);
      expect(next.code, next.stderr).toBe(0);
      expect(JSON.parse(next.stdout).items.map((item: any) => item.metadata.name)).toEqual(["page-2"]);
    });

    it("delete --dry-run=server leaves the object; delete removes it and get is NotFound", async () => {
      const dryRun = await kubectl("delete", "cm", "page-1", "-n", "paging", "--dry-run=server");
      expect(dryRun.code, dryRun.stderr).toBe(0);
      expect(dryRun.stdout.trim()).toBe('configmap "page-1" deleted (server dry run)');
      expect((await kubectl("get", "cm", "page-1", "-n", "paging", "-o", "name")).stdout.trim()).toBe("configmap/page-1");

      const deleted = await kubectl("delete", "cm", "page-1", "-n", "paging");
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(deleted.stdout.trim()).toBe('configmap "page-1" deleted');
      const gone = await kubectl("get", "cm", "page-1", "-n", "paging");
      expect(gone.code).toBe(1);
      expect(gone.stderr).toMatch(/Error from server \(NotFound\): configmaps "page-1" not found/);
    });

    it("create and patch --dry-run=server answer the would-be object and leave the store as it was", async () => {
      const dryCreate = await kubectl("create", "configmap", "dry-made", "-n", "paging", "--from-literal=k=v", "--dry-run=server", "-o", "json");
      expect(dryCreate.code, dryCreate.stderr).toBe(0);
      expect(JSON.parse(dryCreate.stdout)).toMatchObject({ metadata: { name: "dry-made", uid: expect.any(String) }, data: { k: "v" } });
      const absent = await kubectl("get", "cm", "dry-made", "-n", "paging");
      expect([absent.code, absent.stderr.trim()]).toEqual([1, 'Error from server (NotFound): configmaps "dry-made" not found']);

      const before = JSON.parse((await kubectl("get", "cm", "page-2", "-n", "paging", "-o", "json")).stdout);
      const dryPatch = await kubectl("patch", "cm", "page-2", "-n", "paging", "--type", "merge", "-p", '{"data":{"i":"patched"}}', "--dry-run=server", "-o", "json");
      expect(dryPatch.code, dryPatch.stderr).toBe(0);
      expect(JSON.parse(dryPatch.stdout).data).toEqual({ i: "patched" });
      const after = JSON.parse((await kubectl("get", "cm", "page-2", "-n", "paging", "-o", "json")).stdout);
      expect([after.data, after.metadata.resourceVersion]).toEqual([before.data, before.metadata.resourceVersion]);
    });

    it("create configmap sends and receives Protobuf, and the object reads back as JSON", async () => {
      const created = await kubectl("create", "configmap", "via-protobuf", "-n", "paging", "--from-literal=k=v", "-v=8");
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout.trim()).toBe("configmap/via-protobuf created");
      // -v=8 logs the POST's request and response headers: Protobuf both ways, answered 201.
      const exchange = created.stderr.slice(created.stderr.search(/POST \S+\/api\/v1\/namespaces\/paging\/configmaps/));
      const [requestHeaders = "", responseHeaders = ""] = exchange.split("Response Status: 201 Created");
      expect(requestHeaders).toMatch(/Content-Type: application\/vnd\.kubernetes\.protobuf$/m);
      expect(responseHeaders.split("Response Body")[0]).toMatch(/Content-Type: application\/vnd\.kubernetes\.protobuf$/m);
      const got = await kubectl("get", "cm", "via-protobuf", "-n", "paging", "-o", "jsonpath={.data.k}");
      expect([got.code, got.stdout]).toEqual([0, "v"]);
    });

    it("get -w prints a line for an object created after the watch started", async () => {
      const seed = await kubectl("create", "-f", await yamlFile("watch-ns.yaml", [namespaceYaml("watching"), configMapYaml("watching", "already-there", {})]));
      expect(seed.code, seed.stderr).toBe(0);
      const watch = start(KUBECTL, kubectlArgs(["get", "cm", "-n", "watching", "-w", "--output-watch-events"], "15s"), { env: kubectlEnv() });
      try {
        // The initial list is printed before kubectl opens the watch from the list's resourceVersion,
        // so anything created from here on can only reach kubectl through the watch.
        await watch.waitForOutput(/^ADDED\s+already-there\s/m, WAIT_MS);
        const created = await kubectl("create", "-f", await yamlFile("watch-cm.yaml", [configMapYaml("watching", "made-later", { k: "v" })]));
        expect(created.code, created.stderr).toBe(0);
        await watch.waitForOutput(/^ADDED\s+made-later\s/m, WAIT_MS);
        const deleted = await kubectl("delete", "cm", "made-later", "-n", "watching");
        expect(deleted.code, deleted.stderr).toBe(0);
        await watch.waitForOutput(/^DELETED\s+made-later\s/m, WAIT_MS);
      } finally {
        watch.child.kill("SIGTERM");
        await watch.exited(WAIT_MS);
      }
    });
  });

  it("stops on SIGTERM, with a watch still open: exit 0 and `stopped`", async () => {
    // A watch whose response has started (the namespaces' initial ADDED events), left open.
    const watch = await fetch(`${url}/api/v1/namespaces?watch=1`, { signal: AbortSignal.timeout(2 * WAIT_MS) });
    expect(watch.status).toBe(200);
    const reader = watch.body!.getReader();
    expect((await reader.read()).done).toBe(false);

    serve.child.kill("SIGTERM");
    const finished = await serve.exited(WAIT_MS);
    expect({ code: finished.code, signal: finished.signal }).toEqual({ code: 0, signal: null });
    expect(finished.stdout.trim().split("\n").at(-1)).toBe("stopped");
    expect(finished.stderr).not.toMatch(/error/i);
    // The server cut the open watch.
    const drained = (async () => {
      try {
        while (!(await reader.read()).done);
        return "ended";
      } catch {
        return "cut";
      }
    })();
    expect(["ended", "cut"]).toContain(await drained);
  });
});

/** One GET over https trusting `ca`, bounded; resolves to the status and body. */
function httpsGet(url: string, ca: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca, headers, timeout: WAIT_MS }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer from ${url} within ${WAIT_MS} ms`)));
    req.on("error", reject);
    req.end();
  });
}

// kubectl sends a bearer token only over https: this is the setup in which it authenticates.
describe("orb-harness serve over TLS with tokens", { timeout: TEST_TIMEOUT_MS }, () => {
  const TOKEN = "alice-secret-token";
  let serve: Running;
  let url = "";
  let scratch = "";

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "orb-serve-tls-test-"));
    const tokenFile = join(scratch, "tokens.csv");
    const policyFile = join(scratch, "policy.yaml");
    // Kubernetes' static token CSV (token,user,uid,"groups") and the policy format of sim/apiserver/auth.
    await writeFile(tokenFile, `${TOKEN},alice,1001,"team-a"\n`);
    await writeFile(policyFile, ["- user: alice", '  apiGroups: [""]', "  resources: [configmaps]", "  verbs: [get, list, create]", "  namespaces: [default]", ""].join("\n"));
    await writeFile(join(scratch, "kubeconfig"), ""); // empty: no contexts, no credentials
    serve = startCli("serve", "--dialect", "kubernetes", "--port", "0", "--tls-cert-file", TLS_CERT, "--tls-private-key-file", TLS_KEY, "--token-file", tokenFile, "--policy-file", policyFile);
    const [, served] = await serve.waitForOutput(/^serving on (https:\/\/127\.0\.0\.1:\d+) \(dialect kubernetes\)\n/, START_MS);
    url = served!;
  }, START_MS + 5_000);

  afterAll(() => stopAndRemove(serve, scratch));

  it("prints an https URL on the first stdout line", () => {
    expect(serve.stdout().split("\n")[0]).toMatch(/^serving on https:\/\/127\.0\.0\.1:\d+ \(dialect kubernetes\)$/);
  });

  it("answers an anonymous request (no token) with the policy's 403 for system:anonymous", async () => {
    // kubectl itself cannot be made to send no credentials over https (it prompts for a username
    // instead), so the anonymous request is made directly.
    const anonymous = await httpsGet(`${url}/api/v1/namespaces/default/configmaps`, readFileSync(TLS_CERT, "utf8"));
    expect(anonymous.status).toBe(403);
    expect(JSON.parse(anonymous.body)).toMatchObject({
      reason: "Forbidden",
      message: 'configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "default"',
    });
  });

  describe.skipIf(!hasKubectl)(`kubectl with --token${hasKubectl ? "" : " (skipped: kubectl not installed)"}`, () => {
    /** Runs kubectl against the TLS server, trusting the fixture certificate unless `trust` is false. */
    function kubectl(args: readonly string[], { token, trust = true }: { token?: string; trust?: boolean } = {}): Promise<Finished> {
      const flags = [
        "--server",
        url,
        ...(trust ? ["--certificate-authority", TLS_CERT] : []),
        ...(token !== undefined ? ["--token", token] : []),
        "--request-timeout",
        "5s",
        "--cache-dir",
        join(scratch, "kube-cache"),
      ];
      return start(KUBECTL, [...flags, ...args], { env: { ...process.env, KUBECONFIG: join(scratch, "kubeconfig"), HOME: scratch } }).exited(WAIT_MS + 3_000);
    }

    it("an allowed create and list succeed as the token's user", async () => {
      const created = await kubectl(["create", "configmap", "made-over-tls", "-n", "default", "--from-literal=k=v"], { token: TOKEN });
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout.trim()).toBe("configmap/made-over-tls created");
      const listed = await kubectl(["get", "configmaps", "-n", "default", "-o", "name"], { token: TOKEN });
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout.split("\n")).toContain("configmap/made-over-tls");
    });

    it("a denied list fails with the 403 naming the token's user (so kubectl sent the token)", async () => {
      const denied = await kubectl(["get", "configmaps", "-n", "kube-system"], { token: TOKEN });
      expect(denied.code).toBe(1);
      expect(denied.stderr.trim()).toBe('Error from server (Forbidden): configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "kube-system"');
    });

    it("a token the file does not hold is 401 Unauthorized", async () => {
      const unknown = await kubectl(["get", "configmaps", "-n", "default"], { token: "not-a-token" });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/error: You must be logged in to the server \(Unauthorized\)/);
    });

    it("without the certificate trusted, kubectl refuses the server (the TLS is real)", async () => {
      const untrusted = await kubectl(["get", "configmaps", "-n", "default"], { token: TOKEN, trust: false });
      expect(untrusted.code).toBe(1);
      expect(untrusted.stderr).toMatch(/x509: certificate signed by unknown authority/);
    });
  });

  it("stops on SIGTERM: exit 0 and `stopped`", async () => {
    serve.child.kill("SIGTERM");
    const finished = await serve.exited(WAIT_MS);
    expect({ code: finished.code, signal: finished.signal }).toEqual({ code: 0, signal: null });
    expect(finished.stdout.trim().split("\n").at(-1)).toBe("stopped");
  });
});

describe("orb-harness serve usage errors, and SIGINT", { timeout: TEST_TIMEOUT_MS }, () => {
  // The processes start at once: each run is mostly node + tsx start-up.
  let badPort: Finished;
  let portInUse: Finished;
  let busyPort = 0;
  let badDialect: Finished;
  let certOnly: Finished;
  let keyOnly: Finished;
  let missingCert: Finished;
  let mismatchedKey: Finished;
  let interrupted: Finished;
  let scratch = "";
  let otherKey = "";
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "orb-serve-usage-"));
    // A valid key that is not the certificate's: made here, so no openssl is needed at run time.
    otherKey = join(scratch, "other.key");
    await writeFile(otherKey, generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey.export({ type: "pkcs8", format: "pem" }));
    // Another server holds a port: serve must say so in one line, not with a stack trace.
    const holder: Server = createServer();
    busyPort = await new Promise<number>((resolve) => holder.listen(0, "127.0.0.1", () => resolve((holder.address() as { port: number }).port)));
    const busyRun = async () => {
      try {
        return await startCli("serve", "--port", String(busyPort)).exited(START_MS);
      } finally {
        holder.close();
      }
    };
    const interruptedRun = async () => {
      // No --dialect: Kubernetes', said on the first line.
      const serving = startCli("serve", "--port", "0");
      await serving.waitForOutput(/^serving on http:\/\/127\.0\.0\.1:\d+ \(dialect kubernetes\)\n/, START_MS);
      serving.child.kill("SIGINT"); // what Ctrl-C sends
      return serving.exited(WAIT_MS);
    };
    [badPort, portInUse, badDialect, certOnly, keyOnly, missingCert, mismatchedKey, interrupted] = await Promise.all([
      startCli("serve", "--port", "99999").exited(START_MS),
      busyRun(),
      startCli("serve", "--dialect", "nope").exited(START_MS),
      startCli("serve", "--tls-cert-file", TLS_CERT).exited(START_MS),
      startCli("serve", "--tls-private-key-file", TLS_KEY).exited(START_MS),
      startCli("serve", "--tls-cert-file", join(scratch, "absent.crt"), "--tls-private-key-file", TLS_KEY).exited(START_MS),
      startCli("serve", "--tls-cert-file", TLS_CERT, "--tls-private-key-file", otherKey).exited(START_MS),
      interruptedRun(),
    ]);
  }, START_MS + WAIT_MS + 5_000);

  afterAll(async () => {
    if (scratch !== "") await rm(scratch, { recursive: true, force: true });
  });

  it("stops on SIGINT: exit 0 and `stopped`, nothing on stderr", () => {
    expect({ code: interrupted.code, signal: interrupted.signal }).toEqual({ code: 0, signal: null });
    expect(interrupted.stdout.trim().split("\n").at(-1)).toBe("stopped");
    expect(interrupted.stderr).toBe("");
  });

  it("exits 2 with a message for --port 99999", () => {
    expect(badPort.code, badPort.stderr).toBe(2);
    expect(badPort.stderr).toMatch(/orb-harness serve: --port must be 0\.\.65535, got 99999/);
    expect(badPort.stderr).toMatch(/usage: orb-harness serve/);
    expect(badPort.stdout).toBe("");
  });

  it("serves the kubernetes dialect when none is asked for, and says so", () => {
    expect(interrupted.stdout.split("\n")[0]).toMatch(/^serving on http:\/\/127\.0\.0\.1:\d+ \(dialect kubernetes\)$/);
  });

  it("exits 2 with one line, no stack trace, for a port another server holds", () => {
    expect(portInUse.code, portInUse.stderr).toBe(2);
    expect(portInUse.stderr.trim()).toBe(`orb-harness serve: port ${busyPort} on 127.0.0.1 is in use (another server is listening there); choose another with --port, or --port 0 for any free one`);
    expect(portInUse.stdout).toBe("");
  });

  it("exits 2 with a message for --dialect nope", () => {
    expect(badDialect.code, badDialect.stderr).toBe(2);
    expect(badDialect.stderr).toMatch(/orb-harness serve: unknown dialect "nope": expected one of orb, kubernetes/);
    expect(badDialect.stdout).toBe("");
  });

  it("exits 2 with a usage message for only one of --tls-cert-file and --tls-private-key-file", () => {
    expect([certOnly.code, keyOnly.code], certOnly.stderr + keyOnly.stderr).toEqual([2, 2]);
    expect(certOnly.stderr).toMatch(/^orb-harness serve: --tls-cert-file needs --tls-private-key-file \(give both or neither\)\n/);
    expect(keyOnly.stderr).toMatch(/^orb-harness serve: --tls-private-key-file needs --tls-cert-file \(give both or neither\)\n/);
    expect(certOnly.stderr).toMatch(/usage: orb-harness serve/);
    expect([certOnly.stdout, keyOnly.stdout]).toEqual(["", ""]);
  });

  it("exits 2 with one line, no stack trace, for an unreadable certificate or a key that does not match it", () => {
    expect(missingCert.code, missingCert.stderr).toBe(2);
    expect(missingCert.stderr).toBe(`orb-harness serve: cannot read the certificate ${join(scratch, "absent.crt")}: ENOENT: no such file or directory, open '${join(scratch, "absent.crt")}'\n`);
    expect(mismatchedKey.code, mismatchedKey.stderr).toBe(2);
    expect(mismatchedKey.stderr).toBe(`orb-harness serve: ${otherKey}: the private key does not match the certificate in ${TLS_CERT}\n`);
    expect([missingCert.stdout, mismatchedKey.stdout]).toEqual(["", ""]);
  });
});
