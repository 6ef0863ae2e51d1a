/**
 * A small load run against `orb-harness serve` in a process of its own, as `orb-harness load` runs
 * it (the full run has 1,000 watchers for 60 s): every reading watcher gets every write in order exactly once,
 * paused watchers are cut off once more was written than their connection can hold, nothing is
 * left open, and the checks fail when the figures say so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServeProcess, type ServeProcess } from "./serve-process.ts";
import { loadChecks } from "./load-checks.ts";
import { pausedConnectionBytes } from "./socket-buffer-bound.ts";
import { KEYS_PER_WRITER, runWatchLoad, type WatchLoadResult } from "./watch-load-run.ts";

const VALUE_BYTES = 256 * 1024;
// Unread events a watcher may leave before the server cuts it off: small, so the test stays short.
const WATCH_BUFFER = 200;
// A quarter more than a paused watcher's connection (about 40 MiB here) and buffer hold, so it must be cut off.
const FANOUT_WRITES = Math.ceil(1.25 * (pausedConnectionBytes() / VALUE_BYTES + WATCH_BUFFER));
const WRITERS = 4;
const BOUNDS = { minRateRatio: 0, maxMemoryBytes: 4 * 2 ** 30, pausedBufferBytes: pausedConnectionBytes() };

describe("a watch load run against the embedded server", () => {
  let server: ServeProcess;
  let result: WatchLoadResult;
  const progress: string[] = [];

  beforeAll(async () => {
    server = await startServeProcess(["--watch-buffer", String(WATCH_BUFFER)]);
    result = await runWatchLoad({
      target: { url: server.url },
      watchers: 2,
      pausedWatchers: 1,
      writers: WRITERS,
      phaseMs: 1_000,
      minFanoutWrites: FANOUT_WRITES,
      valueBytes: VALUE_BYTES,
      onProgress: (line) => progress.push(line),
    });
  }, 120_000);
  afterAll(() => server?.stop());

  it("delivers every write to every reading watcher, in order, exactly once", () => {
    expect(result.fanout.writes).toBeGreaterThanOrEqual(FANOUT_WRITES);
    expect(result.events).toBe(result.fanout.writes * 2);
    expect({ lost: result.lost, duplicated: result.duplicated, reordered: result.reordered, unexpected: result.unexpected, differing: result.differing, cutOff: result.readersCutOff }).toEqual({
      differing: 0,
      lost: 0,
      duplicated: 0,
      reordered: 0,
      unexpected: 0,
      cutOff: 0,
    });
  });

  it("writes each writer's few ConfigMaps over and over: what the run stores is bounded", () => {
    expect(result.objectsWritten).toBeLessThanOrEqual(WRITERS * KEYS_PER_WRITER);
    expect(result.alone.writes + result.fanout.writes).toBeGreaterThan(result.objectsWritten);
  });

  it("cuts off the watchers that stopped reading, each after fewer events than were written", () => {
    expect(result.paused).toMatchObject({ watchers: 1, cutOff: 1 });
    expect(result.paused.mostEventsBeforeCutOff).toBeLessThan(result.fanout.writes);
  });

  it("leaves no watch open on the server, deletes its namespace, and measures memory through /metrics", async () => {
    expect(result.watchesLeftOpen).toBe(0);
    expect(result.peakMemoryBytes).toBeGreaterThan(0);
    const namespace = await fetch(`${server.url}/api/v1/namespaces/${result.namespace}`);
    expect([404, 200]).toContain(namespace.status);
    if (namespace.status === 200) expect(((await namespace.json()) as { status: { phase: string } }).status.phase).toBe("Terminating");
  });

  it("writes no warning: a full socket waited on again and again leaks no listener", () => {
    expect(server.stderr()).not.toMatch(/Warning/);
  });

  it("passes every check it can make, and says what it measured", () => {
    const checks = loadChecks(result, BOUNDS, VALUE_BYTES + 300);
    expect(checks.map((check) => check.name)).toContain("every paused watcher cut off");
    expect(checks.filter((check) => !check.passed)).toEqual([]);
    expect(progress.some((line) => line.startsWith("phase 2:"))).toBe(true);
  });

  it("fails the checks when a watcher lost events, the rate fell too far, or memory went over", () => {
    const bad = { ...result, lost: 3, rateRatio: 0.2, peakMemoryBytes: 2 * BOUNDS.maxMemoryBytes, paused: { ...result.paused, cutOff: 0 } };
    const failed = loadChecks(bad, { ...BOUNDS, minRateRatio: 0.5 }, VALUE_BYTES + 300)
      .filter((check) => !check.passed)
      .map((check) => check.name);
    expect(failed).toEqual([
      "every event to every reading watcher, in order, exactly once",
      "write rate with watchers within 2.0× of the rate without",
      "every paused watcher cut off",
      "server memory under 4096 MiB",
    ]);
    const differing = loadChecks({ ...result, differing: 1 }, BOUNDS, VALUE_BYTES + 300).filter((check) => !check.passed);
    expect(differing.map((check) => check.name)).toEqual(["every event to every reading watcher, in order, exactly once"]);
  });
});
