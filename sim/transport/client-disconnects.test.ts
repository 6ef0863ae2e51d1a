/**
 * Clients that go away in the middle of an answer leave nothing behind on the server: after watches
 * cut mid-stream (some while their events wait out the flush interval) and lists cut mid-body, the
 * open watches, connections, requests in flight and timers return to what they were before.
 * Counted through `/metrics` and the process's own resource list, as a long-running server would be.
 */
import { request, type ClientRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SOCKET_WATCH_FLUSH_INTERVAL_MS } from "../apiserver/api-server.ts";
import { hostMetricLines, metricValue } from "./host-metrics.ts";
import { startLoopbackServer, type LoopbackServer } from "./loopback-server.ts";

const COLLECTION = "/api/v1/namespaces/default/configmaps";
const OBJECTS = 600;
const VALUE = "v".repeat(4096); // 600 × 4 KiB: a list of about 2.5 MB, many socket writes long

/** Starts a request and resolves once its head and `bytes` of its body have arrived; the caller cuts it. */
function startAnswer(base: string, path: string, bytes: number): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${base}${path}`, { agent: false }, (response) => {
      if (bytes === 0) resolve(outgoing);
      let received = 0;
      response.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received >= bytes) resolve(outgoing);
      });
      response.on("error", () => {});
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "ECONNRESET") reject(error);
    });
    outgoing.end();
  });
}

async function post(base: string, name: string): Promise<void> {
  const response = await fetch(`${base}${COLLECTION}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ metadata: { name }, data: { value: VALUE } }),
  });
  expect(response.status).toBe(201);
}

/** What could be left behind, counted now. */
async function leftovers(server: LoopbackServer): Promise<{ watches: number; connections: number; inFlight: number; timers: number }> {
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  const connections = server.connections();
  return {
    watches: metricValue(metrics, "apiserver_registered_watchers")!,
    // Less the one /metrics just used, which may still be closing.
    connections: Math.max(0, connections.open - 1),
    inFlight: connections.inFlight,
    timers: metricValue(hostMetricLines(undefined).join("\n"), "nodejs_active_timers")!,
  };
}

async function settled(server: LoopbackServer, expected: Awaited<ReturnType<typeof leftovers>>): Promise<Awaited<ReturnType<typeof leftovers>>> {
  let now = await leftovers(server);
  for (let attempt = 0; attempt < 60 && JSON.stringify(now) !== JSON.stringify(expected); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    now = await leftovers(server);
  }
  return now;
}

describe("clients that disconnect mid-answer leave nothing behind", () => {
  let server: LoopbackServer;

  beforeAll(async () => {
    server = await startLoopbackServer({ watchFlushIntervalMs: SOCKET_WATCH_FLUSH_INTERVAL_MS });
    for (let first = 0; first < OBJECTS; first += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, index) => post(server.url, `filler-${first + index}`)));
    }
  }, 60_000);
  afterAll(() => server?.close());

  it("watches cut mid-stream and lists cut mid-body: watches, connections, requests and timers back to the start", async () => {
    const start = await leftovers(server);
    // The server's own watches (its namespace controller) stay open throughout.
    const before = await settled(server, { ...start, connections: 0, inFlight: 0 });
    expect(before).toMatchObject({ connections: 0, inFlight: 0 });

    // 40 watches that replay all 600 objects (2.5 MB each), cut after 64 KiB.
    const watches = await Promise.all(Array.from({ length: 40 }, () => startAnswer(server.url, `${COLLECTION}?watch=1`, 64 * 1024)));
    // 20 watches cut while a live event waits out its flush interval.
    const live = await Promise.all(Array.from({ length: 20 }, () => startAnswer(server.url, `${COLLECTION}?watch=1&resourceVersion=${server.server.store.revision}`, 0)));
    await post(server.url, "one-more");
    await post(server.url, "and-another");
    // 20 full lists cut after 64 KiB of a 2.5 MB body.
    const lists = await Promise.all(Array.from({ length: 20 }, () => startAnswer(server.url, COLLECTION, 64 * 1024)));
    expect((await leftovers(server)).watches).toBe(before.watches + 60);
    for (const outgoing of [...watches, ...live, ...lists]) outgoing.destroy();

    expect(await settled(server, before)).toEqual(before);
  }, 60_000);
});
