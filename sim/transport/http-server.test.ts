/**
 * The transport on a real loopback socket: what `fetch` (undici) and a raw TCP client see. Handler
 * semantics are covered in-memory by sim/apiserver/*.test.ts; these tests are about the wire:
 * bodies in and out, chunked watch streams, client disconnects, the body cap and shutdown.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Watch } from "../store/watch.ts";
import { startLoopbackServer, type LoopbackServer } from "./loopback-server.ts";

const CM = "/api/v1/namespaces/default/configmaps";
const WAIT_MS = 3_000;

const configMap = (name: string, data: Record<string, string> = {}) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data });

/** `fetch` with a deadline on the whole exchange (headers and body), so no test can hang on it. */
function request(url: string, init: RequestInit = {}, ms = WAIT_MS): Promise<Response> {
  const deadline = AbortSignal.timeout(ms);
  return fetch(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, deadline]) : deadline });
}

/** A response's JSON body, untyped (assertions check its shape). */
async function json(response: Response | Promise<Response>): Promise<any> {
  return (await response).json();
}

/** POSTs a ConfigMap as JSON. */
function createConfigMap(base: string, name: string, data: Record<string, string> = {}): Promise<Response> {
  return request(`${base}${CM}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(configMap(name, data)) });
}

/** Rejects after `ms` unless `promise` settles first. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `condition` every 10 ms until it holds; fails after `ms`. */
async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Reads a watch response body one JSON line at a time, each read bounded. */
function lineReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  return {
    /** The next event, or undefined when the stream ended; rejects if none comes within `ms`. */
    async next(ms = WAIT_MS): Promise<any> {
      const read = async () => {
        for (;;) {
          const newline = buffered.indexOf("\n");
          if (newline >= 0) {
            const line = buffered.slice(0, newline);
            buffered = buffered.slice(newline + 1);
            return JSON.parse(line);
          }
          const { done, value } = await reader.read();
          if (done) return undefined;
          buffered += decoder.decode(value, { stream: true });
        }
      };
      return within(read(), ms, "a watch event");
    },
    /** Settles once the stream has ended: "done" for a clean end, "error" for a cut connection. */
    async end(ms = WAIT_MS): Promise<"done" | "error"> {
      const drain = async (): Promise<"done" | "error"> => {
        try {
          for (;;) if ((await reader.read()).done) return "done";
        } catch {
          return "error";
        }
      };
      return within(drain(), ms, "the watch stream to end");
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}

/** Spies on the store's public `watch` so a test can see the watches its requests opened. */
function storeWatches(s: LoopbackServer): { readonly opened: () => Watch[]; restore(): void } {
  const spy = vi.spyOn(s.server.store, "watch");
  return {
    opened: () => spy.mock.results.flatMap((result) => (result.type === "return" ? [result.value] : [])),
    restore: () => spy.mockRestore(),
  };
}

/** Sends raw bytes on a TCP connection; resolves with what came back before `stopWhen` or close. */
function rawExchange(port: number, head: string, body: readonly Buffer[], stopWhen: (received: string) => boolean) {
  return new Promise<{ received: string; bytesSent: number }>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    let bytesSent = 0;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ received, bytesSent });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${WAIT_MS} ms; got ${JSON.stringify(received.slice(0, 200))}`));
    }, WAIT_MS);
    socket.on("data", (data) => {
      received += data.toString("utf8");
      if (stopWhen(received)) finish();
    });
    socket.on("close", finish);
    socket.on("error", () => undefined);
    socket.write(head);
    for (const part of body) {
      socket.write(part);
      bytesSent += part.length;
    }
  });
}

/** The Status in a raw chunked HTTP/1.1 response (one chunk, as the server sends small bodies). */
function rawStatus(received: string): { statusLine: string; body: any } {
  const [head = "", rest = ""] = received.split("\r\n\r\n");
  const statusLine = head.split("\r\n")[0] ?? "";
  const isChunked = /^transfer-encoding: chunked$/im.test(head);
  const json = isChunked ? rest.slice(rest.indexOf("\r\n") + 2, rest.lastIndexOf("\r\n0\r\n")) : rest;
  return { statusLine, body: JSON.parse(json) };
}

const responseComplete = (received: string) => received.includes("\r\n0\r\n\r\n") || /content-length: (\d+)/i.test(received);

// Every test is bounded well under vitest's global 60 s.
const TEST_TIMEOUT_MS = 10_000;

describe("http transport on a loopback socket", { timeout: TEST_TIMEOUT_MS }, () => {
  let s: LoopbackServer;
  beforeAll(async () => {
    s = await startLoopbackServer({ seed: "http-server-test" });
  });
  afterAll(async () => {
    await s?.close();
  });

  it("binds 127.0.0.1 on a free port", () => {
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.port).toBeGreaterThan(0);
  });

  it("round-trips JSON through create and get, multi-byte text included", async () => {
    const data = { plain: "v", unicode: "héllo ✓ 日本語 🚀", newline: "a\nb" };
    const created = await createConfigMap(s.url, "round-trip", data);
    expect(created.status).toBe(201);
    expect(created.headers.get("content-type")).toBe("application/json");
    const createdJson = await created.json();
    expect(createdJson).toMatchObject({ kind: "ConfigMap", apiVersion: "v1", metadata: { name: "round-trip", namespace: "default" }, data });

    const got = await request(`${s.url}${CM}/round-trip`, { headers: { accept: "application/json" } });
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual(createdJson);

    const missing = await request(`${s.url}${CM}/no-such`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ kind: "Status", status: "Failure", reason: "NotFound", code: 404 });
  });

  it("reads a request body sent in chunks (no content-length), split inside a multi-byte character", async () => {
    const bytes = new TextEncoder().encode(JSON.stringify(configMap("chunked-body", { k: "ü".repeat(5000) })));
    // Cut the body one byte into a two-byte "ü", so the server must join chunks before decoding.
    const cut = bytes.indexOf(0xc3) + 1;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    const created = await request(`${s.url}${CM}`, { method: "POST", headers: { "content-type": "application/json" }, body, duplex: "half" } as RequestInit);
    expect(created.status).toBe(201);
    expect((await json(created)).data.k).toBe("ü".repeat(5000));
  });

  it("streams a watch as chunked JSON lines, delivering events written after the watch opened", async () => {
    const first = await json(createConfigMap(s.url, "w-before"));
    const watches = storeWatches(s);
    const abort = new AbortController();
    try {
      // No event is due yet; the headers come at once (see the test below).
      const pending = request(`${s.url}${CM}?watch=1&resourceVersion=${first.metadata.resourceVersion}`, { signal: abort.signal });
      await until(() => watches.opened().length === 1, WAIT_MS, "the server to open the store watch");
      expect((await createConfigMap(s.url, "w-after", { k: "1" })).status).toBe(201);

      const response = await within(pending, WAIT_MS, "the watch response");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(response.headers.get("transfer-encoding")).toBe("chunked");
      const events = lineReader(response);
      expect(await events.next()).toMatchObject({ type: "ADDED", object: { kind: "ConfigMap", apiVersion: "v1", metadata: { name: "w-after" }, data: { k: "1" } } });

      // The stream stays open: a later write arrives as a later chunk.
      expect((await request(`${s.url}${CM}/w-after`, { method: "DELETE" })).status).toBe(200);
      expect(await events.next()).toMatchObject({ type: "DELETED", object: { metadata: { name: "w-after" } } });
    } finally {
      abort.abort();
      watches.restore();
    }
  });

  // Server behaviour to fix (transport): node:http sends the status line and headers only with the
  // first body write, and writeResponse() writes nothing until the watch has an event. So a watch
  // with nothing to report leaves the client without even `HTTP/1.1 200 OK` until the first event
  // or the watch timeout. kube-apiserver writes the 200 and flushes at once (serveWatch: WriteHeader
  // then Flush before the event loop). Visible to clients: @kubernetes/client-node's ListWatch.stop()
  // cannot abort a watch whose fetch() has not resolved yet.
  it("sends the watch's 200 and headers before any event exists", async () => {
    const { metadata } = await json(request(`${s.url}${CM}`));
    const abort = new AbortController();
    try {
      const response = await within(request(`${s.url}${CM}?watch=1&resourceVersion=${metadata.resourceVersion}`, { signal: abort.signal }), 1_000, "the watch headers");
      expect(response.status).toBe(200);
    } finally {
      abort.abort();
    }
  });

  it("closes the store watch when the client aborts, and keeps serving", async () => {
    expect((await createConfigMap(s.url, "before-abort")).status).toBe(201);
    const watches = storeWatches(s);
    const abort = new AbortController();
    try {
      // From the current state, so the initial ADDED events flush the headers at once.
      const response = await request(`${s.url}${CM}?watch=1`, { signal: abort.signal });
      expect(response.status).toBe(200);
      const events = lineReader(response);
      expect((await events.next()).type).toBe("ADDED");
      const [watch] = watches.opened();
      expect(watch?.endReason).toBeUndefined();

      abort.abort();
      await until(() => watch!.endReason !== undefined, WAIT_MS, "the store watch to be closed after the client aborted");
      expect(watch!.endReason).toBe("closed");

      // The server is unharmed: a write after the abort succeeds and reads see it.
      expect((await createConfigMap(s.url, "after-abort")).status).toBe(201);
      expect((await request(`${s.url}${CM}/after-abort`)).status).toBe(200);
    } finally {
      abort.abort();
      watches.restore();
    }
  });

  it("answers a body over 3 MiB with 413 and a Status (fetch)", async () => {
    const response = await request(`${s.url}${CM}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(3 * 1024 * 1024 + 1),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ kind: "Status", apiVersion: "v1", status: "Failure", reason: "RequestEntityTooLarge", code: 413 });
  });

  it("answers 413 from a declared Content-Length alone, without waiting for the body", async () => {
    const declared = 4 * 1024 * 1024;
    const head = `POST ${CM} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`;
    const { received, bytesSent } = await rawExchange(s.port, head, [Buffer.from("{")], responseComplete);
    expect(bytesSent).toBe(1); // the other 4 MiB - 1 bytes are never sent
    const { statusLine, body } = rawStatus(received);
    expect(statusLine).toMatch(/^HTTP\/1\.1 413 /);
    expect(body).toMatchObject({ kind: "Status", reason: "RequestEntityTooLarge", code: 413 });
  });

  it("answers 413 to a chunked body once it passes the cap, though the body never ends", async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]);
    const chunks = Math.ceil((3 * 1024 * 1024 + 1) / chunk.length); // just over 3 MiB; no terminating 0-chunk
    const head = `POST ${CM} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const { received } = await rawExchange(s.port, head, Array.from({ length: chunks }, () => framed), responseComplete);
    const { statusLine, body } = rawStatus(received);
    expect(statusLine).toMatch(/^HTTP\/1\.1 413 /);
    expect(body).toMatchObject({ kind: "Status", reason: "RequestEntityTooLarge", code: 413 });
    // Still serving.
    expect((await request(`${s.url}/api/v1/namespaces`)).status).toBe(200);
  });

  it("answers what a fetch Request cannot carry with a Status, not a 500: TRACE 405, a Host or target that makes no URL 400", async () => {
    const cases: Array<[string, number, string]> = [
      [`TRACE ${CM} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, 405, "MethodNotAllowed"],
      [`GET /version HTTP/1.1\r\nHost: a b\r\n\r\n`, 400, "BadRequest"],
      // curl --request-target '*': "http://127.0.0.1:PORT*" has no valid port.
      [`OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\n\r\n`, 400, "BadRequest"],
    ];
    for (const [head, code, reason] of cases) {
      const { received } = await rawExchange(s.port, head, [], responseComplete);
      const { statusLine, body } = rawStatus(received);
      expect(statusLine, head).toMatch(new RegExp(`^HTTP/1\\.1 ${code} `));
      expect(body).toMatchObject({ kind: "Status", status: "Failure", reason, code });
    }
    expect((await request(`${s.url}/api/v1/namespaces`)).status).toBe(200);
  });
});

describe("http transport shutdown", { timeout: TEST_TIMEOUT_MS }, () => {
  it("close() ends open watch streams, closes their store watches, and resolves", async () => {
    const s = await startLoopbackServer({ seed: "http-server-close" });
    const watches = storeWatches(s);
    try {
      expect((await createConfigMap(s.url, "present")).status).toBe(201);
      const { metadata } = await json(request(`${s.url}${CM}`));
      // Two watches that have sent their initial ADDED (so their responses have started), and one
      // from the current version that has nothing to send yet (its response has not started).
      const started = await Promise.all(
        ["watch=1", "watch=1&resourceVersion=0"].map(async (query) => {
          const response = await request(`${s.url}${CM}?${query}`, {}, 2 * WAIT_MS);
          expect(response.status).toBe(200);
          const events = lineReader(response);
          expect((await events.next()).type).toBe("ADDED");
          return events;
        }),
      );
      const idle = request(`${s.url}${CM}?watch=1&resourceVersion=${metadata.resourceVersion}`, {}, 2 * WAIT_MS).then(
        (response) => lineReader(response).end(),
        () => "error" as const,
      );
      await until(() => watches.opened().length === 3, WAIT_MS, "three store watches to open");

      await within(s.close(), WAIT_MS, "close() to resolve");

      // Each client sees its stream end (a cut chunked response reads as an error, which is fine).
      for (const stream of started) expect(["done", "error"]).toContain(await stream.end());
      expect(["done", "error"]).toContain(await within(idle, WAIT_MS, "the idle watch to end"));
      await until(() => watches.opened().every((watch) => watch.endReason !== undefined), WAIT_MS, "the store watches to close");
      expect(watches.opened().map((watch) => watch.endReason)).toEqual(["closed", "closed", "closed"]);
      // Nothing listens any more.
      await expect(request(`${s.url}/api/v1/namespaces`)).rejects.toThrow();
    } finally {
      watches.restore();
      await s.close();
    }
  });

  it("close() resolves promptly with an idle keep-alive connection open", async () => {
    const s = await startLoopbackServer({ seed: "http-server-idle" });
    try {
      expect((await request(`${s.url}/version`)).status).toBe(200); // leaves a keep-alive socket in undici's pool
      const started = Date.now();
      await within(s.close(), WAIT_MS, "close() to resolve");
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      await s.close();
    }
  });
});
