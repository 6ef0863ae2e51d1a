/**
 * A short soak against the embedded server (issue 15): the history holds every kind of operation
 * the workload makes, in the shape sim/history/api-history.ts defines, the history checkers find
 * it consistent, and afterwards the namespace is gone and nothing else on the server changed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkHistory } from "../../sim/history/check-history.ts";
import type { ApiHistory, WatchOperation } from "../../sim/history/api-history.ts";
import { compareSnapshots, snapshotCluster, type ClusterSnapshot, type SnapshotConnection } from "../safety/cluster-snapshot.ts";
import { startEmbeddedSoakServer } from "./embedded-soak-server.ts";
import { runSoak, type SoakRun } from "./run-soak.ts";
import { soakCounts, type SoakCounts } from "./soak-counts.ts";
import type { SoakTarget } from "./soak-target.ts";

// Short windows: bookmarks and compaction within the run's seconds. Seed 325 gives the cycling watchers
// streams of every mode in their first cycles, several short enough to be resumed within the run.
const WINDOWS = { historyWindowMs: 1_500, compactionIntervalMs: 500, bookmarkIntervalMs: 300 };
const SETTINGS = { seed: 325, durationMs: 2_500, writers: 3, watchers: 8, readers: 2, keys: 8, requestTimeoutMs: 5_000 };

let target: SoakTarget;
let connection: SnapshotConnection;
let before: ClusterSnapshot;
let run: SoakRun;
let counts: SoakCounts;

beforeAll(async () => {
  target = await startEmbeddedSoakServer({ windows: WINDOWS });
  connection = { transport: target.identity.transport, baseUrl: target.url, headers: target.identity.authHeaders };
  before = await snapshotCluster(connection);
  run = await runSoak({ settings: SETTINGS, target });
  counts = soakCounts(run.history);
});
afterAll(async () => {
  await target?.close();
});

function watches(history: ApiHistory): WatchOperation[] {
  return history.operations.filter((operation): operation is WatchOperation => operation.kind === "watch");
}

describe("a short soak against the embedded server", () => {
  it("records every kind of write, with and without preconditions, label flips included", () => {
    expect(Object.keys(counts.writes).sort()).toEqual(
      expect.arrayContaining(["create", "delete", "label flip", "patch", "patch if-version", "update", "update if-version"]),
    );
    for (const sort of ["create", "update", "update if-version", "patch", "label flip"]) expect(counts.writes[sort]!.ok, sort).toBeGreaterThan(0);
    expect(Object.values(counts.writes).some((tally) => tally.failed["409"] !== undefined)).toBe(true);
    const values = run.history.operations.flatMap((operation) => (operation.kind === "write" && operation.value !== undefined ? [operation.value] : []));
    expect(new Set(values).size).toBe(values.length);
  });

  it("records gets and lists at every resourceVersion mode, and paged lists of several pages", () => {
    expect(Object.keys(counts.gets)).toEqual(expect.arrayContaining(["most recent", "any (0)", "not older than"]));
    expect(Object.keys(counts.lists)).toEqual(expect.arrayContaining(["most recent", "any (0)", "exact", "not older than", "most recent paged"]));
    expect(counts.pages.multiPageLists).toBeGreaterThan(0);
    const continued = run.history.operations.filter((operation) => operation.kind === "list" && operation.pages.some((page) => page.continueSent !== undefined));
    expect(continued.length).toBeGreaterThan(0);
  });

  it("records watches of each mode, resumed ones, bookmarks and selectors, and two that watch throughout", () => {
    expect(Object.keys(counts.watches)).toEqual(expect.arrayContaining(["from now", "from any (0)", "after a list", "resumed"]));
    expect(counts.watchDetails.withBookmarks).toBeGreaterThan(0);
    expect(counts.watchDetails.withSelector).toBeGreaterThan(0);
    expect(counts.watchDetails.eventTypes["BOOKMARK"]).toBeGreaterThan(0);
    expect(counts.watchDetails.eventTypes["ADDED"]).toBeGreaterThan(0);
    expect(counts.watchDetails.eventTypes["MODIFIED"]).toBeGreaterThan(0);
    expect(counts.watchDetails.eventTypes["DELETED"]).toBeGreaterThan(0);
    expect(counts.watchDetails.endings["client-closed"]).toBeGreaterThan(0);
    const all = watches(run.history);
    for (const steady of ["watcher-0", "watcher-1"]) {
      const streams = all.filter((watch) => watch.client === steady);
      expect(streams.map((watch) => [watch.labelSelector, watch.ending])).toEqual([[undefined, "run-ended"]]);
    }
    const resumed = all.filter((watch) => watch.resumes?.kind === "watch");
    for (const watch of resumed) {
      const from = all.find((other) => other.id === watch.resumes!.operation)!;
      const versions = from.events.map((event) => event.object?.resourceVersion ?? event.bookmarkVersion);
      expect(versions).toContain(watch.resourceVersion);
      expect([from.labelSelector, from.allowWatchBookmarks]).toEqual([watch.labelSelector, watch.allowWatchBookmarks]);
    }
  });

  it("keeps the history's contract: ids unique, sorted by start, times within the recording, clients declared", () => {
    const { operations, clients } = run.history;
    expect(new Set(operations.map((operation) => operation.id)).size).toBe(operations.length);
    for (let index = 1; index < operations.length; index++) {
      const [a, b] = [operations[index - 1]!, operations[index]!];
      expect(a.startMs < b.startMs || (a.startMs === b.startMs && a.id < b.id)).toBe(true);
    }
    const ids = new Set(clients.map((client) => client.id));
    expect(clients.map((client) => client.role).sort()).toEqual([...Array(2).fill("reader"), ...Array(8).fill("watcher"), ...Array(3).fill("writer")]);
    for (const operation of operations) {
      expect(ids.has(operation.client)).toBe(true);
      expect(operation.startMs).toBeGreaterThanOrEqual(run.history.startMs);
      if (operation.endMs !== undefined) expect(operation.endMs).toBeLessThanOrEqual(run.history.endMs);
    }
  });

  it("satisfies every history invariant", () => {
    const verdicts = checkHistory(run.history);
    expect(verdicts.filter((verdict) => !verdict.held)).toEqual([]);
    expect(verdicts.length).toBeGreaterThan(0);
  });

  it("deletes its namespace and changes nothing outside it", async () => {
    expect(run.namespace.state).toBe("gone");
    expect(run.history.namespace).toBe(run.namespace.name);
    const after = await snapshotCluster(connection);
    expect(compareSnapshots(before, after)).toEqual([]);
    expect([...after.objects.keys()].filter((key) => !before.objects.has(key))).toEqual([]);
  });
});

describe("a soak stopped by Ctrl-C", () => {
  it("stops at once, keeps what it recorded, and still deletes its namespace", async () => {
    const stopped = await startEmbeddedSoakServer({ windows: WINDOWS });
    try {
      const interrupt = new AbortController();
      setTimeout(() => interrupt.abort(), 700);
      const started = performance.now();
      const run = await runSoak({ settings: { ...SETTINGS, durationMs: 60_000 }, target: stopped, signal: interrupt.signal });
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(run.interrupted).toBe(true);
      expect(run.workloadMs).toBeLessThan(2_000);
      expect(run.history.operations.length).toBeGreaterThan(10);
      expect(run.namespace.state).toBe("gone");
      expect(watches(run.history).filter((watch) => watch.ending === "run-ended").length).toBeGreaterThanOrEqual(2);
    } finally {
      await stopped.close();
    }
  });
});
