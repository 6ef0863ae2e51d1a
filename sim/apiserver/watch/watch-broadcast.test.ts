/**
 * Watch broadcast (watch-broadcast.ts): behind a socket (a flush interval), the watchers of a
 * whole collection share one store subscription and the very same batches of bytes, join without
 * a gap or a duplicate whenever they start, and one that stops reading is cut off alone.
 */
import { describe, expect, it } from "vitest";
import { MEMBER_WRITES_PER_SECOND, QUIET_EVENTS_PER_SECOND } from "./watch-broadcast.ts";

/** The names of the objects of the watch events in a chunk of JSON lines. */
function names(chunk: Uint8Array | undefined): string[] {
  return new TextDecoder()
    .decode(chunk)
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line).object.metadata.name);
}
import { testServer } from "../test-server.ts";
import { watchLineReader } from "./watch-line-reader.ts";

const CM = "/api/v1/namespaces/default/configmaps";
const FLUSH_MS = 50;

function broadcastServer(options: { watchBufferCapacity?: number } = {}) {
  return testServer("kubernetes", { watchFlushIntervalMs: FLUSH_MS, ...options });
}

type Server = ReturnType<typeof broadcastServer>;

async function open(s: Server, query: string) {
  const response = await s.server.handle(new Request(`http://test.local${CM}?${query}`));
  return response;
}

async function create(s: Server, name: string): Promise<string> {
  const created = await s.call("POST", CM, { metadata: { name }, data: { v: name } });
  expect(created.status).toBe(201);
  return created.json.metadata.resourceVersion as string;
}

/** The events of every chunk readable now (after the clock has run), as "TYPE name". */
async function readAvailable(reader: ReadableStreamDefaultReader<Uint8Array>, chunks: Uint8Array[]): Promise<string[]> {
  const lines: string[] = [];
  for (;;) {
    const next = await Promise.race([reader.read(), new Promise<"none">((resolve) => setTimeout(() => resolve("none"), 20))]);
    if (next === "none" || next.done) return lines;
    chunks.push(next.value);
    for (const line of new TextDecoder().decode(next.value).split("\n").filter((text) => text !== "")) {
      const event = JSON.parse(line);
      lines.push(`${event.type} ${event.object.metadata.name}`);
    }
  }
}

describe("watch broadcast behind a socket", () => {
  it("serves every whole-collection watcher from one subscription, with the same batches of bytes", async () => {
    const s = broadcastServer();
    const idle = s.server.store.openWatches;
    const from = await create(s, "before");
    const first = (await open(s, `watch=1&resourceVersion=${from}`)).body!.getReader();
    const second = (await open(s, `watch=1&resourceVersion=${from}`)).body!.getReader();
    expect(s.server.store.openWatches).toBe(idle + 1);
    const metrics = await s.call("GET", "/metrics");
    expect(metrics.text).toContain(`apiserver_registered_watchers ${idle + 2}\n`);
    for (const name of ["a", "b", "c"]) await create(s, name);
    await s.sim.runFor(FLUSH_MS);
    const firstChunks: Uint8Array[] = [];
    const secondChunks: Uint8Array[] = [];
    expect(await readAvailable(first, firstChunks)).toEqual(["ADDED a", "ADDED b", "ADDED c"]);
    expect(await readAvailable(second, secondChunks)).toEqual(["ADDED a", "ADDED b", "ADDED c"]);
    // One batch for the three writes of the interval, and the same bytes (the same array) for both.
    expect(firstChunks).toHaveLength(1);
    expect(secondChunks[0]).toBe(firstChunks[0]);
    await first.cancel();
    await second.cancel();
    expect(s.server.store.openWatches).toBe(idle);
  });

  it("lets a watcher join while changes wait for the next batch: its start has them, the batches the rest", async () => {
    const s = broadcastServer();
    const from = await create(s, "before");
    const early = watchLineReader(await open(s, `watch=1&resourceVersion=${from}`));
    await create(s, "a");
    await s.sim.runFor(FLUSH_MS);
    await create(s, "b");
    // b is committed but not yet in a batch: the late watcher from `from` gets a and b from the
    // store's replay, and only what comes after from the broadcast.
    const late = watchLineReader(await open(s, `watch=1&resourceVersion=${from}`));
    const fresh = watchLineReader(await open(s, "watch=1"));
    await create(s, "c");
    await s.sim.runFor(FLUSH_MS);
    const names = async (reader: ReturnType<typeof watchLineReader>, count: number) => {
      const seen: string[] = [];
      for (let index = 0; index < count; index++) {
        const event = await reader.next();
        seen.push(`${event.type} ${event.object.metadata.name}`);
      }
      return seen;
    };
    expect(await names(early, 3)).toEqual(["ADDED a", "ADDED b", "ADDED c"]);
    expect(await names(late, 3)).toEqual(["ADDED a", "ADDED b", "ADDED c"]);
    expect(await names(fresh, 4)).toEqual(["ADDED a", "ADDED b", "ADDED before", "ADDED c"]);
    await create(s, "d");
    await s.sim.runFor(FLUSH_MS);
    for (const reader of [early, late, fresh]) expect((await reader.next()).object.metadata.name).toBe("d");
    for (const reader of [early, late, fresh]) await reader.cancel();
  });

  it("cuts off a watcher that stops reading once it is more than the buffer behind; the others get everything", async () => {
    const s = broadcastServer({ watchBufferCapacity: 5 });
    const idle = s.server.store.openWatches;
    const from = await create(s, "before");
    const paused = (await open(s, `watch=1&resourceVersion=${from}`)).body!.getReader();
    const reading = watchLineReader(await open(s, `watch=1&resourceVersion=${from}`));
    const seen: string[] = [];
    for (let round = 0; round < 4; round++) {
      for (let index = 0; index < 3; index++) await create(s, `o${round}-${index}`);
      await s.sim.runFor(FLUSH_MS);
      for (let index = 0; index < 3; index++) seen.push((await reading.next()).object.metadata.name);
    }
    expect(seen).toHaveLength(12);
    expect(new Set(seen).size).toBe(12);
    // The paused reader's stream holds what was queued before it fell behind, then ends.
    const events: string[] = [];
    for (let read = await paused.read(); !read.done; read = await paused.read()) {
      events.push(...new TextDecoder().decode(read.value).split("\n").filter((line) => line !== ""));
    }
    expect(events.length).toBeLessThan(12);
    await reading.cancel();
    expect(s.server.store.openWatches).toBe(idle);
  });

  it("ends each member at its timeout, and leaves watches that need their own stream alone", async () => {
    const s = broadcastServer();
    const idle = s.server.store.openWatches;
    const shortLived = watchLineReader(await open(s, "watch=1&timeoutSeconds=1"));
    const longLived = watchLineReader(await open(s, "watch=1&timeoutSeconds=100"));
    const selected = watchLineReader(await open(s, "watch=1&labelSelector=a%3Db"));
    const bookmarked = watchLineReader(await open(s, "watch=1&allowWatchBookmarks=true"));
    // One broadcast for the two whole-collection watches; the selector and the bookmarks each their own.
    expect(s.server.store.openWatches).toBe(idle + 3);
    await s.sim.runFor(1_000);
    expect(await shortLived.next()).toBeUndefined();
    await create(s, "after");
    await s.sim.runFor(FLUSH_MS);
    expect((await longLived.next()).object.metadata.name).toBe("after");
    for (const reader of [longLived, selected, bookmarked]) await reader.cancel();
    expect(s.server.store.openWatches).toBe(idle);
  });

  it("lets go of the broadcast at a member's timeout even when nobody reads its stream", async () => {
    const s = broadcastServer();
    const idle = s.server.store.openWatches;
    const unread = await open(s, "watch=1&timeoutSeconds=1");
    expect(s.server.store.openWatches).toBe(idle + 1);
    await s.sim.runFor(1_000);
    expect(s.server.store.openWatches).toBe(idle);
    await unread.body!.cancel();
  });

  it("sends each change of a quiet broadcast at once, whatever its members", async () => {
    const s = broadcastServer();
    const members = (MEMBER_WRITES_PER_SECOND * FLUSH_MS * 2) / 1000; // a busy interval of twice FLUSH_MS
    const readers = [];
    for (let index = 0; index < members; index++) readers.push((await open(s, "watch=1")).body!.getReader());
    const reader = readers[0]!;
    for (const object of ["a", "b"]) {
      await create(s, object);
      await s.sim.runFor(0);
      expect(names((await reader.read()).value)).toEqual([object]);
    }
    await Promise.all(readers.map((reader) => reader.cancel()));
  });

  it("batches a busy broadcast's changes, its interval stretched with its members to at most MEMBER_WRITES_PER_SECOND socket writes a second", async () => {
    const s = broadcastServer();
    const members = (MEMBER_WRITES_PER_SECOND * FLUSH_MS * 2) / 1000; // an interval of twice FLUSH_MS
    const readers = [];
    for (let index = 0; index < members; index++) readers.push((await open(s, "watch=1")).body!.getReader());
    const reader = readers[0]!;
    // A burst of QUIET_EVENTS_PER_SECOND changes in one instant makes the broadcast busy.
    for (let index = 0; index < QUIET_EVENTS_PER_SECOND; index++) await create(s, `burst-${index}`);
    await s.sim.runFor(0);
    let burst = 0;
    while (burst < QUIET_EVENTS_PER_SECOND) burst += names((await reader.read()).value).length;
    expect(burst).toBe(QUIET_EVENTS_PER_SECOND);
    await create(s, "b");
    let arrived = false;
    const next = reader.read().then((result) => ((arrived = true), result));
    await s.sim.runFor(FLUSH_MS);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(arrived).toBe(false);
    await s.sim.runFor(FLUSH_MS);
    expect(names((await next).value)).toEqual(["b"]);
    await Promise.all(readers.map((reader) => reader.cancel()));
  });

  it("is not used without a flush interval: in-process and virtual-time watches keep their own streams", async () => {
    const s = testServer("kubernetes");
    const idle = s.server.store.openWatches;
    const readers = [watchLineReader(await open(s, "watch=1")), watchLineReader(await open(s, "watch=1"))];
    expect(s.server.store.openWatches).toBe(idle + 2);
    for (const reader of readers) await reader.cancel();
  });
});
