/**
 * The npm package as a user gets it: `npm pack` (which compiles through prepack), installed into a
 * temporary project, then imported from plain Node, used through its bin, type-checked as a
 * TypeScript user's code, and driven by vitest files of that project with @kubernetes/client-node
 * (a ConfigMap created, seen by an informer's watch, listed): the README's example of "Use it in
 * your tests" as it is written there, and a stricter one of this file.
 *
 * The install works offline: the project's package-lock.json is the repository's, cut down to what
 * the package, vitest and @kubernetes/client-node need, with the packed tarball added; npm then
 * takes every package from the cache that `npm ci` filled (falling back to the registry only for
 * what the cache lacks). Every temporary directory is removed and every process it starts is
 * stopped, also when a step fails or times out.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const STEP_TIMEOUT_MS = 120_000;

/** What a finished child process said. */
interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const running = new Set<number>();
const scratch = mkdtempSync(join(tmpdir(), "orb-harness-package-"));

afterAll(() => {
  for (const pid of running) killGroup(pid);
  rmSync(scratch, { recursive: true, force: true });
});

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/**
 * Runs a command in a process group of its own (so a timeout ends its children too: vitest's
 * workers), without the variables of the vitest run this test is part of.
 */
function run(command: string, args: readonly string[], cwd: string, timeoutMs = STEP_TIMEOUT_MS): Promise<Finished> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST") && name !== "NODE_OPTIONS" && name !== "TEST"));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const pid = child.pid!;
    running.add(pid);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => {
      killGroup(pid);
      stderr += `\n[killed after ${timeoutMs / 1000} s]`;
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      running.delete(pid);
      reject(error);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      running.delete(pid);
      resolve({ code, stdout, stderr });
    });
  });
}

function explain(step: string, result: Finished): string {
  return `${step} exited ${result.code}\n--- stdout\n${result.stdout.slice(-4000)}\n--- stderr\n${result.stderr.slice(-4000)}`;
}

/** One entry of package-lock.json's `packages`. */
interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  optional?: boolean;
  dev?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  [field: string]: unknown;
}

/**
 * The repository's lock entries that `roots` need, found as Node would (from a package's own
 * node_modules up to the top), with the repository's dev flags dropped: here they are dependencies.
 */
function lockSubset(packages: Readonly<Record<string, LockEntry>>, roots: readonly string[]): Record<string, LockEntry> {
  const place = (from: string, name: string): string | undefined => {
    for (let dir = from; ; ) {
      const path = `${dir === "" ? "" : `${dir}/`}node_modules/${name}`;
      if (packages[path] !== undefined) return path;
      if (dir === "") return undefined;
      const parent = dir.lastIndexOf("/node_modules/");
      dir = parent === -1 ? "" : dir.slice(0, parent);
    }
  };
  const chosen: Record<string, LockEntry> = {};
  const queue: Array<[from: string, name: string, optional: boolean]> = roots.map((name) => ["", name, false]);
  while (queue.length > 0) {
    const [from, name, optional] = queue.pop()!;
    const path = place(from, name);
    if (path === undefined) {
      if (optional) continue;
      throw new Error(`package-lock.json has no ${name} for ${from || "the root"}: run npm install in the repository`);
    }
    if (chosen[path] !== undefined) continue;
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = packages[path]!;
    chosen[path] = entry;
    for (const dependency of Object.keys(entry.dependencies ?? {})) queue.push([path, dependency, false]);
    for (const dependency of Object.keys(entry.optionalDependencies ?? {})) queue.push([path, dependency, true]);
    for (const dependency of Object.keys(entry.peerDependencies ?? {})) {
      if (entry.peerDependenciesMeta?.[dependency]?.optional !== true) queue.push([path, dependency, false]);
    }
  }
  return chosen;
}

const repoManifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { name: string; version: string; dependencies: Record<string, string>; bin: Record<string, string>; engines: Record<string, string>; license: string };
const installedVersion = (name: string) => (JSON.parse(readFileSync(join(REPO, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;

/** What the plain-Node check prints: the type of each export it expects. */
const EXPECTED_EXPORTS = {
  startEmbeddedServer: "function",
  createEmbeddedServer: "function",
  runConformanceSuite: "function",
  startKubeControlPlane: "function",
  MvccStore: "function",
  Simulation: "function",
  ApiServer: "function",
  runLeaderElectionScenario: "function",
  runNodeEvictionScenario: "function",
  conformanceCases: "object",
  defects: "object",
};

const CHECK_EXPORTS_MJS = `
import * as orb from "orb-harness";
const expected = ${JSON.stringify(EXPECTED_EXPORTS)};
const types = Object.fromEntries(Object.keys(expected).map((name) => [name, typeof orb[name]]));
// The OpenAPI document is read from data shipped beside the compiled code: answered, not a 500.
const server = orb.createEmbeddedServer();
const openapi = (await server.handler(new Request("http://embedded/openapi/v2", { headers: { accept: "application/json" } }))).status;
await server.close();
console.log(JSON.stringify({ types, openapi }));
`;

/** Files the compiled code names with \`new URL("<literal>", import.meta.url)\` (data, not code) that the installed package lacks. */
function missingDataFiles(packageDir: string): string[] {
  const missing: string[] = [];
  for (const file of readdirSync(join(packageDir, "dist"), { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".js")) continue;
    const emitted = join(packageDir, "dist", file);
    for (const [, , literal] of readFileSync(emitted, "utf8").matchAll(/new URL\(\s*(["'])([^"'`$]+)\1\s*,\s*import\.meta\.url\s*\)/g)) {
      const target = new URL(literal!, pathToFileURL(emitted));
      if (target.protocol === "file:" && !/\.(ts|mts|cts|js|mjs|cjs)$/.test(target.pathname.replace(/\/$/, "")) && !existsSync(target)) missing.push(`dist/${file}: ${literal}`);
    }
  }
  return missing;
}

/** A TypeScript user's code: it must compile against the package's declarations, and its one wrong line must not. */
const TYPED_USE_TS = `
import { createEmbeddedServer, startEmbeddedServer, runConformanceSuite, type EmbeddedServer, type ConformanceSuiteResult } from "orb-harness";
export async function typed(): Promise<number> {
  const server: EmbeddedServer = await startEmbeddedServer({ dialect: "kubernetes", clock: "virtual", historyWindowMs: 10_000, auth: { tokens: { t: { name: "admin" } } } });
  const port: number = server.port;
  // @ts-expect-error: url is a string (were the declarations not found, everything would be any and this line would pass)
  const wrong: number = server.url;
  const inProcess = createEmbeddedServer({ defects: ["continue-tokens-never-expire"] });
  const response: Response = await inProcess.handler(new Request("http://embedded/api/v1/namespaces"));
  const suite: ConformanceSuiteResult = await runConformanceSuite({ focus: "^health/" });
  await server.stop();
  return port + response.status + suite.totals.pass + String(wrong).length;
}
`;

/** The ts code block of the README's "Use it in your tests", which must run as written. */
function readmeExample(): string {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const section = readme.indexOf("\n## Use it in your tests\n");
  const start = readme.indexOf("```ts\n", section);
  const end = readme.indexOf("\n```\n", start);
  if (section === -1 || start === -1 || end === -1) throw new Error('README.md has no ts code block under "## Use it in your tests"');
  return readme.slice(start + "```ts\n".length, end + 1);
}

/**
 * The project's own vitest file: the ConfigMap is created only after the informer's list, so the
 * informer can learn of it only from its watch; and the in-process handler in virtual time.
 */
const CONSUMER_TEST_TS = `
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from "@kubernetes/client-node";
import { createEmbeddedServer, startEmbeddedServer, type EmbeddedServer } from "orb-harness";
import { afterAll, beforeAll, expect, test } from "vitest";

let server: EmbeddedServer;
beforeAll(async () => {
  server = await startEmbeddedServer();
});
afterAll(async () => {
  await server.stop();
});

test("a ConfigMap is created, seen by an informer's watch, and listed", async () => {
  const kc = new KubeConfig();
  kc.loadFromString(server.kubeconfig);
  const api = kc.makeApiClient(CoreV1Api);
  let listed!: () => void;
  const didList = new Promise<void>((resolve) => (listed = resolve));
  const informer = makeInformer<V1ConfigMap>(kc, "/api/v1/namespaces/default/configmaps", async () => {
    const list = await api.listNamespacedConfigMap({ namespace: "default" });
    listed();
    return list;
  });
  const added = new Promise<string>((resolve) => informer.on("add", (cm) => resolve(cm.metadata!.name!)));
  void informer.start();
  await didList; // created after the list: the informer can only learn of it from its watch
  await api.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "settings" }, data: { mode: "fast" } } });
  expect(await added).toBe("settings");
  const list = await api.listNamespacedConfigMap({ namespace: "default" });
  expect(list.items.map((cm) => cm.metadata?.name)).toEqual(["settings"]);
  await informer.stop();
});

test("the in-process handler, in virtual time", async () => {
  const embedded = createEmbeddedServer({ clock: "virtual" });
  const response = await embedded.handler(new Request("http://embedded/api/v1/namespaces"));
  expect(response.status).toBe(200);
  const start = embedded.simulation!.nowMs();
  await embedded.advance(60_000);
  expect(embedded.simulation!.nowMs() - start).toBe(60_000);
  await embedded.close();
});
`;

describe("the npm package", () => {
  it(
    "packs without tests, installs offline, imports from plain Node, runs its bin, type-checks, and serves @kubernetes/client-node in a vitest file",
    async () => {
      // 1. npm pack: prepack compiles to dist/, the tarball goes to the scratch directory.
      const packDir = join(scratch, "pack");
      mkdirSync(packDir);
      const packed = await run("npm", ["pack", "--json", "--pack-destination", packDir], REPO);
      expect(packed.code, explain("npm pack", packed)).toBe(0);
      // The JSON array on stdout (lines a build prints before it, if any, are not JSON).
      const manifest = JSON.parse(packed.stdout.slice(packed.stdout.search(/^\[/m))) as Array<{ filename: string; integrity: string; files: Array<{ path: string }> }>;
      const { filename, integrity, files } = manifest[0]!;
      const paths = files.map((file) => file.path);
      expect(paths.filter((path) => /\.(test|bench)\.|(^|\/)test-support\//.test(path)), "tests in the package").toEqual([]);
      expect(paths.filter((path) => path.endsWith(".ts") && !path.endsWith(".d.ts")), "TypeScript sources in the package").toEqual([]);
      expect(paths).toEqual(expect.arrayContaining(["package.json", "scripts/orb-harness.mjs", "dist/scripts/library/index.js", "dist/scripts/library/index.d.ts", "dist/scripts/cli.js"]));

      // 2. A project depending on the tarball, vitest and client-node, installed from a lockfile (offline when the cache holds everything).
      const project = join(scratch, "project");
      mkdirSync(project);
      const tarball = `file:../pack/${filename}`;
      const lock = JSON.parse(readFileSync(join(REPO, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
      const dependencies = { "orb-harness": tarball, vitest: installedVersion("vitest"), "@kubernetes/client-node": installedVersion("@kubernetes/client-node") };
      const packages = lockSubset(lock.packages, [...Object.keys(repoManifest.dependencies), "vitest", "@kubernetes/client-node"]);
      const root = { name: "orb-harness-consumer", version: "1.0.0", private: true, type: "module", dependencies };
      writeFileSync(join(project, "package.json"), JSON.stringify(root, null, 2));
      writeFileSync(
        join(project, "package-lock.json"),
        JSON.stringify({
          name: root.name,
          version: root.version,
          lockfileVersion: 3,
          requires: true,
          packages: {
            "": { name: root.name, version: root.version, dependencies },
            "node_modules/orb-harness": {
              version: repoManifest.version,
              resolved: tarball,
              integrity,
              license: repoManifest.license,
              dependencies: repoManifest.dependencies,
              bin: repoManifest.bin,
              engines: repoManifest.engines,
            },
            ...packages,
          },
        }, null, 2),
      );
      const installed = await run("npm", ["ci", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund"], project);
      expect(installed.code, explain("npm ci in the project", installed)).toBe(0);

      // 3a. Plain Node, no TypeScript anywhere: the package imports and has its exports.
      writeFileSync(join(project, "check-exports.mjs"), CHECK_EXPORTS_MJS);
      const imported = await run(process.execPath, ["check-exports.mjs"], project);
      expect(imported.code, `the package cannot be imported from plain Node: ${explain("node check-exports.mjs", imported)}`).toBe(0);
      expect(JSON.parse(imported.stdout)).toEqual({ types: EXPECTED_EXPORTS, openapi: 200 });
      expect(missingDataFiles(join(project, "node_modules", "orb-harness")), "data files the compiled code reads, missing from the package").toEqual([]);

      // 3b. The bin runs the compiled CLI.
      const help = await run(process.execPath, [join(project, "node_modules", ".bin", "orb-harness"), "--help"], project);
      expect(help.code, explain("orb-harness --help", help)).toBe(0);
      expect(help.stdout).toContain("usage: orb-harness <command>");

      // 3c. The declarations: a TypeScript user's code, and both vitest files below, compile against them
      // (tsc of this repository; @types/node from it).
      writeFileSync(join(project, "typed-use.ts"), TYPED_USE_TS);
      writeFileSync(join(project, "consumer.test.ts"), CONSUMER_TEST_TS);
      writeFileSync(join(project, "readme-example.test.ts"), readmeExample());
      const compilerOptions = { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, noEmit: true, skipLibCheck: true, types: ["node"], typeRoots: [join(REPO, "node_modules", "@types")] };
      writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["typed-use.ts", "consumer.test.ts", "readme-example.test.ts"] }));
      const typed = await run(process.execPath, [join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", project], project);
      expect(typed.code, explain("tsc in the project", typed)).toBe(0);

      // 3d. The project's vitest files (the README's example and this file's): server started, driven by client-node, stopped.
      const tested = await run(process.execPath, [join(project, "node_modules", "vitest", "vitest.mjs"), "run", "--reporter=verbose"], project);
      expect(tested.code, explain("vitest run in the project", tested)).toBe(0);
      expect(tested.stdout).toMatch(/Tests\s+3 passed \(3\)/);
    },
    STEP_TIMEOUT_MS * 2,
  );
});
