/**
 * A real client library against the served API server: @kubernetes/client-node 1.x, its typed
 * CoreV1Api for writes and its informer (ListWatch) for reads. The informer lists, then watches
 * from the list's resourceVersion, re-watches from the last event's version when a watch ends,
 * and relists after a 410. Each test drives churn and checks the informer's cache converges to the
 * server's list, with callbacks that match the writes exactly.
 */
import { CoreV1Api, KubeConfig, makeInformer, PatchStrategy, setHeaderOptions, type Informer, type ObjectCache, type V1ConfigMap } from "@kubernetes/client-node";
import { afterEach, describe, expect, it } from "vitest";
import { Rng } from "../kernel/rng.ts";
import type { FetchHandler } from "./http-server.ts";
import { startLoopbackServer, type LoopbackOptions, type LoopbackServer } from "./loopback-server.ts";

const WAIT_MS = 3_000;
const TEST_TIMEOUT_MS = 15_000;

/** Polls `condition` every 10 ms until it holds; fails after `ms` with `describe()`'s account. */
async function until(condition: () => boolean, ms: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms: ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A kubeconfig for the loopback server: no TLS, no credentials. */
function kubeConfigFor(url: string): KubeConfig {
  const config = new KubeConfig();
  config.loadFromOptions({
    // client-node 1.x refuses an http:// server unless skipTLSVerify is set (there is no TLS to verify).
    clusters: [{ name: "loopback", server: url, skipTLSVerify: true }],
    users: [{ name: "anonymous" }],
    contexts: [{ name: "loopback", cluster: "loopback", user: "anonymous" }],
    currentContext: "loopback",
  });
  return config;
}

/** The server, with every request URL it received, and a client-node API client for it. */
interface Harness {
  readonly s: LoopbackServer;
  readonly api: CoreV1Api;
  readonly config: KubeConfig;
  /** Watch requests on `namespace`'s configmaps, in arrival order. */
  watchRequests(namespace: string): URL[];
}

const harnesses: Array<{ harness: Harness; informers: InformerProbe[] }> = [];

async function harness(options: LoopbackOptions = {}): Promise<{ harness: Harness; informers: InformerProbe[] }> {
  const seen: URL[] = [];
  const wrap = (handler: FetchHandler): FetchHandler => (request) => {
    seen.push(new URL(request.url));
    return handler(request);
  };
  const s = await startLoopbackServer({ seed: "client-node-informer", ...options, wrap });
  const config = kubeConfigFor(s.url);
  const entry = {
    harness: {
      s,
      config,
      api: config.makeApiClient(CoreV1Api),
      watchRequests: (namespace: string) =>
        seen.filter((url) => url.pathname === `/api/v1/namespaces/${namespace}/configmaps` && url.searchParams.get("watch") === "true"),
    },
    informers: [] as InformerProbe[],
  };
  harnesses.push(entry);
  return entry;
}

afterEach(async () => {
  for (const { harness: h, informers } of harnesses.splice(0)) {
    for (const informer of informers) await informer.stop();
    // Also cuts a watch whose fetch() has not resolved, which ListWatch.stop() cannot abort (see http-server.test.ts).
    await h.s.close();
  }
});

type Verb = "add" | "update" | "delete";

/** An informer on one namespace's configmaps, recording its callbacks and list calls. */
interface InformerProbe {
  readonly informer: Informer<V1ConfigMap> & ObjectCache<V1ConfigMap>;
  readonly events: Array<{ verb: Verb; name: string; resourceVersion: string }>;
  readonly errors: unknown[];
  /** How many times the informer listed (1 at start; one more per relist). */
  lists(): number;
  /** Name → resourceVersion of the informer's cache. */
  cache(): Map<string, string>;
  stop(): Promise<void>;
}

/**
 * Starts an informer as client-node documents it: restart after an error (here after 50 ms).
 * `watchPath` may carry extra watch parameters in its query, which client-node's Watch keeps.
 */
function startInformer(h: Harness, registry: InformerProbe[], namespace: string, watchPath = `/api/v1/namespaces/${namespace}/configmaps`): InformerProbe {
  let listCalls = 0;
  let stopped = false;
  const informer = makeInformer<V1ConfigMap>(h.config, watchPath, async () => {
    const list = await h.api.listNamespacedConfigMap({ namespace });
    listCalls++;
    return list;
  });
  const events: InformerProbe["events"] = [];
  const errors: unknown[] = [];
  for (const verb of ["add", "update", "delete"] as const) {
    informer.on(verb, (object) => events.push({ verb, name: object.metadata!.name!, resourceVersion: object.metadata!.resourceVersion! }));
  }
  let restart: NodeJS.Timeout | undefined;
  informer.on("error", (error) => {
    if (stopped) return;
    errors.push(error);
    restart = setTimeout(() => void informer.start().catch(() => undefined), 50);
  });
  // start() resolves only once the watch's response has begun, which this server delays until the
  // first event; the probe does not wait for it (tests wait for lists() instead).
  void informer.start().catch((error: unknown) => errors.push(error));
  const probe: InformerProbe = {
    informer,
    events,
    errors,
    lists: () => listCalls,
    cache: () => new Map(informer.list(namespace).map((object) => [object.metadata!.name!, object.metadata!.resourceVersion!])),
    async stop() {
      stopped = true;
      clearTimeout(restart);
      await informer.stop();
    },
  };
  registry.push(probe);
  return probe;
}

/** Name → resourceVersion of the server's list. */
async function serverState(h: Harness, namespace: string): Promise<Map<string, string>> {
  const list = await h.api.listNamespacedConfigMap({ namespace });
  return new Map(list.items.map((object) => [object.metadata!.name!, object.metadata!.resourceVersion!]));
}

const sorted = (map: ReadonlyMap<string, string>) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Waits until the informer's cache equals the server's list (taken once: call it after the writes). */
async function converged(h: Harness, namespace: string, probe: InformerProbe): Promise<Map<string, string>> {
  const server = await serverState(h, namespace);
  const want = JSON.stringify(sorted(server));
  await until(
    () => JSON.stringify(sorted(probe.cache())) === want,
    WAIT_MS,
    () => `informer cache ${JSON.stringify(sorted(probe.cache()))}\n  server ${want}\n  errors ${probe.errors.map(String).join("; ")}`,
  );
  return server;
}

/** What the writes did to one object: the versions they returned, in order. */
interface Written {
  created?: string;
  updates: string[];
  deleted: boolean;
  /** The version of the last write that left the object in place. */
  current?: string;
}

/**
 * Churn: `count` objects written by `lanes` concurrent writers. Each writer owns the names with
 * index ≡ lane (mod lanes), creates them in turn, and after each create updates (PUT or merge
 * PATCH) and deletes random live objects of its own, so writers never conflict with each other.
 */
async function churn(h: Harness, namespace: string, options: { count: number; lanes: number; seed: string; prefix?: string; written?: Map<string, Written> }): Promise<Map<string, Written>> {
  const { count, lanes, seed, prefix = "cm", written = new Map<string, Written>() } = options;
  const rng = new Rng(seed);
  const lane = async (index: number) => {
    const laneRng = rng.fork(`lane-${index}`);
    const live: string[] = [];
    for (let i = index; i < count; i += lanes) {
      const name = `${prefix}-${String(i).padStart(2, "0")}`;
      const created = await h.api.createNamespacedConfigMap({ namespace, body: { metadata: { name }, data: { n: "0" } } });
      written.set(name, { created: created.metadata!.resourceVersion!, current: created.metadata!.resourceVersion!, updates: [], deleted: false });
      live.push(name);
      if (laneRng.bool(0.7)) {
        const target = laneRng.pick(live);
        const record = written.get(target)!;
        const n = String(record.updates.length + 1);
        const updated = laneRng.bool()
          ? await h.api.replaceNamespacedConfigMap({
              name: target,
              namespace,
              body: { metadata: { name: target, resourceVersion: record.current! }, data: { n } },
            })
          : await h.api.patchNamespacedConfigMap({ name: target, namespace, body: { data: { n } } }, setHeaderOptions("Content-Type", PatchStrategy.MergePatch));
        expect(updated.data).toEqual({ n });
        record.updates.push(updated.metadata!.resourceVersion!);
        record.current = updated.metadata!.resourceVersion!;
      }
      if (live.length > 1 && laneRng.bool(0.3)) {
        const target = live.splice(laneRng.int(0, live.length - 1), 1)[0]!;
        await h.api.deleteNamespacedConfigMap({ name: target, namespace });
        const record = written.get(target)!;
        record.deleted = true;
        delete record.current;
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, (_, index) => lane(index)));
  return written;
}

/** The end state the writes imply: name → version of the last write, for objects not deleted. */
function expectedState(written: ReadonlyMap<string, Written>): Map<string, string> {
  return new Map([...written].flatMap(([name, record]) => (record.current === undefined ? [] : [[name, record.current] as const])));
}

/** Asserts the informer's callbacks are exactly what the writes did: one add, each update, one delete. */
function expectCallbacksMatch(probe: InformerProbe, written: ReadonlyMap<string, Written>): void {
  for (const [name, record] of written) {
    const mine = probe.events.filter((event) => event.name === name);
    const summary = {
      add: mine.filter((event) => event.verb === "add").map((event) => event.resourceVersion),
      update: mine.filter((event) => event.verb === "update").map((event) => event.resourceVersion),
      delete: mine.filter((event) => event.verb === "delete").length,
    };
    expect(summary, name).toEqual({ add: [record.created], update: record.updates, delete: record.deleted ? 1 : 0 });
    // And in order: add first, delete (if any) last.
    expect(mine[0]?.verb, name).toBe("add");
    if (record.deleted) expect(mine.at(-1)?.verb, name).toBe("delete");
  }
}

async function createNamespace(h: Harness, name: string): Promise<void> {
  await h.api.createNamespace({ body: { metadata: { name } } });
}

describe("@kubernetes/client-node informer against the served API server", { timeout: TEST_TIMEOUT_MS }, () => {
  it("converges under churn, with callbacks matching every write", async () => {
    const { harness: h, informers } = await harness();
    await createNamespace(h, "churn");
    const probe = startInformer(h, informers, "churn");
    // From the list on, every write reaches the informer through its watch.
    await until(() => probe.lists() === 1, WAIT_MS, () => "the informer's first list");

    const written = await churn(h, "churn", { count: 50, lanes: 4, seed: "churn" });
    expect([...written.values()].filter((record) => record.deleted).length).toBeGreaterThan(5);
    expect([...written.values()].filter((record) => record.updates.length > 0).length).toBeGreaterThan(10);

    const server = await converged(h, "churn", probe);
    expect(sorted(server)).toEqual(sorted(expectedState(written)));
    expectCallbacksMatch(probe, written);
    expect(probe.lists()).toBe(1);
    expect(probe.errors).toEqual([]);
    expect(h.watchRequests("churn")).toHaveLength(1);
  });

  it("resumes each watch the server ends (timeoutSeconds=1) from the last version, missing nothing", async () => {
    const { harness: h, informers } = await harness();
    await createNamespace(h, "restarts");
    // client-node has no timeoutSeconds option; its Watch keeps a query on the path it is given.
    const probe = startInformer(h, informers, "restarts", "/api/v1/namespaces/restarts/configmaps?timeoutSeconds=1");
    await until(() => probe.lists() === 1, WAIT_MS, () => "the informer's first list");

    const written = new Map<string, Written>();
    // Three bursts of writes, more than a watch's lifetime apart, so they land in different watches.
    for (const burst of [0, 1, 2]) {
      if (burst > 0) await sleep(1_100);
      await churn(h, "restarts", { count: 10, lanes: 2, seed: `restarts-${burst}`, prefix: `b${burst}`, written });
    }
    const server = await converged(h, "restarts", probe);
    expect(sorted(server)).toEqual(sorted(expectedState(written)));
    expectCallbacksMatch(probe, written);

    const watches = h.watchRequests("restarts");
    expect(watches.length).toBeGreaterThanOrEqual(3);
    expect(watches.every((url) => url.searchParams.get("timeoutSeconds") === "1")).toBe(true);
    // Every re-watch resumed from a version the informer had seen: no relist, no 410.
    expect(watches.every((url) => /^\d+$/.test(url.searchParams.get("resourceVersion") ?? ""))).toBe(true);
    expect(new Set(watches.map((url) => url.searchParams.get("resourceVersion"))).size).toBeGreaterThan(1);
    expect(probe.lists()).toBe(1);
    expect(probe.errors).toEqual([]);
  });

  it("survives a server restart after its version was compacted: 410, relist, deletes reported", async () => {
    // History lives 300-350 ms: long enough for list-then-watch, short enough to expire in the outage.
    const { harness: h, informers } = await harness({ historyWindowMs: 300, compactionIntervalMs: 50 });
    await createNamespace(h, "outage");
    const probe = startInformer(h, informers, "outage");
    await until(() => probe.lists() >= 1, WAIT_MS, () => "the informer's first list");
    const before = await churn(h, "outage", { count: 12, lanes: 2, seed: "outage-before", prefix: "a" });
    await converged(h, "outage", probe);

    // Cut the socket; write in-process while the informer cannot connect (it retries every 50 ms).
    const revisionBeforeOutage = h.s.server.store.revision; // the informer has seen at most this
    await h.s.stopHttp();
    const call = (method: string, path: string, body?: unknown) =>
      h.s.server.handle(
        new Request(`http://in-process/api/v1/namespaces/outage/configmaps${path}`, {
          method,
          headers: { "content-type": method === "PATCH" ? "application/merge-patch+json" : "application/json" },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        }),
      );
    const survivors = [...before].filter(([, record]) => !record.deleted).map(([name]) => name);
    const [gone, changed] = [survivors.slice(0, 3), survivors[3]!];
    for (const name of gone) expect((await call("DELETE", `/${name}`)).status).toBe(200);
    expect((await call("PATCH", `/${changed}`, { data: { n: "outage" } })).status).toBe(200);
    expect((await call("POST", "", { metadata: { name: "born-in-outage" } })).status).toBe(201);
    // Let the history that covered the informer's version be compacted away.
    await until(() => h.s.server.store.compactedRevision > revisionBeforeOutage, WAIT_MS, () => "compaction past the informer's version");

    const errorsBefore = probe.errors.length;
    const listsBefore = probe.lists();
    await h.s.restartHttp();
    const server = await converged(h, "outage", probe);
    expect(server.has("born-in-outage")).toBe(true);
    for (const name of gone) expect(server.has(name)).toBe(false);

    // The informer could not connect during the outage, then relisted after the 410.
    expect(errorsBefore).toBeGreaterThan(0);
    expect(probe.lists()).toBe(listsBefore + 1);
    for (const name of gone) expect(probe.events.filter((event) => event.name === name).at(-1)?.verb, name).toBe("delete");
    expect(probe.events.filter((event) => event.name === changed).at(-1)).toEqual({ verb: "update", name: changed, resourceVersion: server.get(changed) });
    expect(probe.events.filter((event) => event.name === "born-in-outage").map((event) => event.verb)).toEqual(["add"]);
  });
});
