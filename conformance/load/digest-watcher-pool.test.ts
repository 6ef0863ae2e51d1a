/**
 * The digesting watchers' thread (digest-watcher-pool.ts) against the embedded server on a socket:
 * its watchers count every event, their streams digest the same as a watcher in the main thread
 * that checked each event, and finishing closes every watch it opened.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SOCKET_WATCH_FLUSH_INTERVAL_MS } from "../../sim/apiserver/api-server.ts";
import { startLoopbackServer, type LoopbackServer } from "../../sim/transport/loopback-server.ts";
import { DigestWatcherPool } from "./digest-watcher-pool.ts";
import { FanoutWatcher, WATCH_ACCEPT, type WatchEncoding } from "./fanout-watcher.ts";
import { LoadConnection } from "./load-connection.ts";

const COLLECTION = "/api/v1/namespaces/default/configmaps";
const WATCHERS = 20;
const WRITES = 30;

describe("digesting watchers in a thread of their own", () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startLoopbackServer({ watchFlushIntervalMs: SOCKET_WATCH_FLUSH_INTERVAL_MS });
  });
  afterAll(() => server?.close());

  it.each<WatchEncoding>(["protobuf", "json"])("count every event and digest the bytes a checked watcher received (%s)", async (encoding) => {
    const connection = new LoadConnection({ url: server.url }, 4);
    const watchesBefore = server.server.store.openWatches;
    const list = await connection.json("GET", `${COLLECTION}?limit=1`);
    const path = `${COLLECTION}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`;
    const pool = await DigestWatcherPool.open({ target: { url: server.url }, path, encoding, count: WATCHERS });
    const versions = new Map<string, number>();
    const checked = new FanoutWatcher(await connection.stream(path, WATCH_ACCEPT[encoding]), { sentAt: (version) => versions.get(version) }, undefined, () => performance.now(), true, encoding);
    for (let index = 0; index < WRITES; index++) {
      const created = await connection.json("POST", COLLECTION, { metadata: { name: `pooled-${encoding}-${index}` }, data: { v: String(index) } });
      versions.set(created.body.metadata.resourceVersion, 0);
    }
    for (let waited = 0; waited < 10_000 && (await pool.tallies()).some((tally) => tally.events < WRITES); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    checked.close();
    const { tallies, digests } = await pool.finish();
    connection.close();
    expect(checked.tally).toMatchObject({ events: WRITES, duplicated: 0, reordered: 0, unexpected: 0 });
    expect(checked.unknownVersions()).toBe(0);
    expect(tallies.map((tally) => tally.events)).toEqual(Array(WATCHERS).fill(WRITES));
    const reference = checked.digest();
    expect(new Set(digests.map((digest) => `${digest.crc32}/${digest.bytes}`))).toEqual(new Set([`${reference.crc32}/${reference.bytes}`]));
    for (let waited = 0; waited < 5_000 && server.server.store.openWatches > watchesBefore; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(server.server.store.openWatches).toBe(watchesBefore);
  });
});
