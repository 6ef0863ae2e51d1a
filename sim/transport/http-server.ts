/**
 * The real-socket transport: serves a fetch-style handler on node:http, or on node:https when given
 * a certificate (kubectl sends a bearer token only over https). Bodies are capped while they are
 * read, responses are streamed with backpressure (watches), and a client that goes away cancels its
 * response stream, which ends the watch behind it. Both protocols share everything below the socket.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { carryRawPath } from "./raw-path.ts";
import { completeBody } from "./complete-body.ts";
import { requestCarrying } from "./request-bytes.ts";
import { fetchSafeMethod, parseRawRequestHead, plainRefusal, writeRawResponse } from "./parser-refusals.ts";
import type { TlsCredentials } from "./tls-files.ts";

// How much of an oversized body is read (and dropped) before the connection is cut instead.
const DRAIN_FACTOR = 8;

/**
 * Bytes a streamed response may hold in node's buffer before the stream waits for it to drain.
 * node:http reports a full buffer (write returns false) past 16 KiB, and a watch batch is larger:
 * every batch went into the buffer only until the socket took it a tick later, and waiting for
 * each "drain" cost a thousand watchers a listener pair and an event per batch. Past this bound a
 * reader that stopped is held back (and its watch, falling behind, cut off) as before.
 */
const STREAM_BUFFER_BYTES = 64 * 1024;

/** How much of a large complete body is written before waiting for the socket to take it (writeComplete). */
const SLICE_BYTES = 1024 * 1024;

// Methods node:http parses but the fetch Request refuses to carry (the Fetch standard forbids them).
const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(["CONNECT", "TRACE", "TRACK"]);

/** A fetch-style request handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** How to serve. */
export interface HttpServeOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Largest request body read; past it `tooLarge()` answers without reading further. */
  readonly maxBodyBytes: number;
  readonly tooLarge: () => Response;
  /** Largest request line plus headers; past it a 431 (node's default is 16 KiB). */
  readonly maxHeaderBytes?: number;
  /**
   * The answer to a request the handler cannot be given: 405 for a method a fetch Request cannot
   * carry (TRACE), 400 for a target or Host header that makes no URL. Plain text unless given.
   */
  readonly refused?: (status: 400 | 405, message: string) => Response;
  /** Serve https with this certificate and key (see readTlsFiles); plain http without. */
  readonly tls?: TlsCredentials;
}

/** A running server. */
export interface HttpServerHandle {
  /** `http://host:port`, or `https://host:port` with `tls`. */
  readonly url: string;
  /** Stops accepting, ends open connections (and so open watches), resolves when closed. */
  close(): Promise<void>;
  /**
   * A graceful stop: the listener closes at once, idle keep-alive connections close, requests in
   * flight finish (the caller ends long-running ones, such as watches, and calls `close` to cut
   * whatever is left after its grace period). Resolves when every connection is closed.
   */
  drain(): Promise<void>;
  /** Connections open now. */
  readonly openConnections: number;
  /** Requests read and not yet answered in full (an open watch counts until it ends). */
  readonly requestsInFlight: number;
}

/** Starts serving `handler`; resolves once listening. */
export function serveHttp(handler: FetchHandler, options: HttpServeOptions): Promise<HttpServerHandle> {
  const scheme = options.tls === undefined ? "http" : "https";
  let requestsInFlight = 0;
  let draining = false;
  // Per connection: requests answered and in progress, so a drain closes only connections that
  // are idle between requests, never one whose first request is still on its way (as Go's Shutdown).
  const connections = new Map<Duplex, { served: number; active: number }>();
  const closeIdleKeepAlive = () => {
    for (const [socket, state] of connections) if (state.served > 0 && state.active === 0) socket.destroy();
  };
  const listener: RequestListener = (incoming, outgoing) => {
    requestsInFlight++;
    const state = connections.get(incoming.socket);
    if (state !== undefined) state.active++;
    // Once draining, each answer closes its connection after it.
    if (draining) outgoing.shouldKeepAlive = false;
    void answer(handler, options, scheme, incoming, outgoing).finally(() => {
      requestsInFlight--;
      if (state !== undefined) {
        state.active--;
        state.served++;
      }
      if (draining) closeIdleKeepAlive();
    });
  };
  // A client that fails the handshake (plain http on this port, an untrusted certificate) only
  // costs its own socket: node:https destroys it and the server carries on.
  const limits = options.maxHeaderBytes === undefined ? {} : { maxHeaderSize: options.maxHeaderBytes };
  const server = options.tls === undefined ? createServer(limits, listener) : createTlsServer({ ...limits, cert: options.tls.cert, key: options.tls.key }, listener);
  // Over TLS the request's socket is the TLS socket, which "secureConnection" announces.
  server.on(options.tls === undefined ? "connection" : "secureConnection", (socket: Duplex) => {
    connections.set(socket, { served: 0, active: 0 });
    socket.once("close", () => connections.delete(socket));
  });
  // CONNECT is handed to this event, not to the listener; without an answer the socket would close
  // unanswered. Kubernetes answers 405 (a fetch Request cannot carry CONNECT, so no handler sees it).
  server.on("connect", (_incoming: IncomingMessage, socket: Duplex) => {
    void writeRawResponse(socket, refusal(options, 405, "method CONNECT is not allowed"));
  });
  server.on("clientError", (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    void refuseUnparsed(handler, options, scheme, error, socket);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(":") ? `[${options.host}]` : options.host;
      resolve({
        url: `${scheme}://${host}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
        drain: () =>
          new Promise<void>((done) => {
            draining = true;
            server.close(() => done());
            closeIdleKeepAlive();
          }),
        get openConnections() {
          return connections.size;
        },
        get requestsInFlight() {
          return requestsInFlight;
        },
      });
    });
  });
}

async function answer(handler: FetchHandler, options: HttpServeOptions, scheme: string, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  try {
    const body = await readCapped(incoming, options.maxBodyBytes);
    if (body === "too-large") {
      await writeResponse(options.tooLarge(), outgoing);
      return;
    }
    const method = (incoming.method ?? "GET").toUpperCase();
    if (FORBIDDEN_METHODS.has(method)) {
      await writeResponse(refusal(options, 405, `method ${method} is not allowed`), outgoing);
      return;
    }
    let request: Request;
    try {
      request = toRequest(incoming, scheme, body);
    } catch (error) {
      await writeResponse(refusal(options, 400, `malformed request: ${(error as Error).message}`), outgoing);
      return;
    }
    const response = await handler(request);
    await writeResponse(response, outgoing);
  } catch (error) {
    // The handler answers every failure itself; this is only a broken connection or a bug.
    if (!outgoing.headersSent) {
      outgoing.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      outgoing.end(`internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    } else {
      outgoing.destroy();
    }
  }
}

/** Answers a request node:http could not parse, as Go does (parser-refusals.ts). */
async function refuseUnparsed(handler: FetchHandler, options: HttpServeOptions, scheme: string, error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): Promise<void> {
  // A reset or a timed-out socket has no one to answer.
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  if (error.code === "HPE_HEADER_OVERFLOW") {
    socket.end(plainRefusal(431));
    return;
  }
  // An unknown method, or bytes in the target llhttp will not take (raw non-ASCII): Go reads both.
  const dispatchable = error.code === "HPE_INVALID_METHOD" || error.code === "HPE_INVALID_URL";
  const head = dispatchable && error.rawPacket !== undefined ? parseRawRequestHead(error.rawPacket) : undefined;
  if (head === undefined) {
    socket.end(plainRefusal(400));
    return;
  }
  // TRACK, or a lowercase trace: methods a fetch Request cannot carry, which Kubernetes answers 405.
  if (FORBIDDEN_METHODS.has(head.method.toUpperCase())) {
    await writeRawResponse(socket, refusal(options, 405, `method ${head.method} is not allowed`));
    return;
  }
  let request: Request;
  try {
    carryRawPath(head.headers, head.target);
    request = new Request(`${scheme}://${head.headers.get("host") ?? "localhost"}${head.target}`, { method: fetchSafeMethod(head.method), headers: head.headers });
  } catch {
    // A target or Host header that makes no URL.
    if (socket.writable) socket.end(plainRefusal(400));
    return;
  }
  await writeRawResponse(socket, await handler(request));
}

function refusal(options: HttpServeOptions, status: 400 | 405, message: string): Response {
  if (options.refused !== undefined) return options.refused(status, message);
  return new Response(`${message}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/**
 * The request body, or "too-large" as soon as it is known to exceed `maxBytes` (from the declared
 * length, or once the bytes read pass it). The answer goes out at once; the rest of the body is
 * still read and dropped, so a client still sending gets the 413 rather than a broken connection,
 * up to DRAIN_FACTOR times the limit, past which the connection is cut.
 */
function readCapped(incoming: IncomingMessage, maxBytes: number): Promise<Buffer | "too-large" | undefined> {
  if (incoming.method === "GET" || incoming.method === "HEAD") return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (outcome: Buffer | "too-large") => {
      settled = true;
      resolve(outcome);
    };
    if (Number(incoming.headers["content-length"] ?? 0) > maxBytes) settle("too-large");
    incoming.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (settled) {
        if (size > maxBytes * DRAIN_FACTOR) incoming.destroy();
        return;
      }
      if (size > maxBytes) settle("too-large");
      else chunks.push(chunk);
    });
    incoming.on("end", () => {
      if (!settled) settle(Buffer.concat(chunks));
    });
    incoming.on("error", (error) => {
      if (!settled) {
        settled = true;
        reject(error);
      }
    });
  });
}

function toRequest(incoming: IncomingMessage, scheme: string, body: Buffer | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const target = incoming.url ?? "/";
  // An absolute-form target (`OPTIONS http://host/api/v1`, proxies' form) is a URL already; Go
  // routes its path like any other.
  const absolute = /^https?:\/\/[^/?]*/i.exec(target);
  const url = absolute !== null ? target : `${scheme}://${incoming.headers.host ?? "localhost"}${target}`;
  carryRawPath(headers, absolute !== null ? target.slice(absolute[0].length) || "/" : target);
  // A plain Uint8Array over the Buffer's bytes: a Buffer's slice() is a view where a Uint8Array's is a copy.
  const bytes = body === undefined ? undefined : new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return requestCarrying(url, { method: incoming.method ?? "GET", headers }, bytes);
}

async function writeResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const parts = completeBody(response);
  if (parts !== undefined) {
    await writeComplete(response.status, headers, parts, outgoing);
    return;
  }
  outgoing.writeHead(response.status, headers);
  // Send the status line and headers now: a watch may have no event for a long time, and clients
  // (informers) wait for the 200 before they count the watch as open, as real servers send it.
  outgoing.flushHeaders();
  if (response.body === null) {
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  let clientGone = false;
  outgoing.on("close", () => {
    if (!outgoing.writableFinished) {
      clientGone = true;
      void reader.cancel();
    }
  });
  for (;;) {
    const { done, value } = await reader.read();
    if (done || clientGone) break;
    if (!outgoing.write(value) && outgoing.writableLength > STREAM_BUFFER_BYTES) await drainedOrClosed(outgoing);
  }
  outgoing.end();
}

/**
 * A complete body, with its length. A small one (an object, a Status) leaves with its head in one
 * writev: node:http corks the socket until the next tick. A large one (a list) goes in slices of
 * about SLICE_BYTES, each after the socket took the last: written whole, every byte of a 37 MB
 * list was copied and encrypted before the first left, and the client could decrypt nothing
 * meanwhile (issue #20: 93-98 ms for such a list, 56-82 ms sliced, over TLS on this machine).
 */
async function writeComplete(status: number, headers: Record<string, string>, parts: readonly Uint8Array[], outgoing: ServerResponse): Promise<void> {
  let length = 0;
  for (const part of parts) length += part.length;
  outgoing.writeHead(status, { ...headers, "content-length": String(length) });
  let sliced = 0;
  let full = false;
  for (const part of parts) {
    full = !outgoing.write(part) || full;
    sliced += part.length;
    if (sliced < SLICE_BYTES) continue;
    sliced = 0;
    // node:http sends a corked slice on the next tick; send it now, and wait only if the socket
    // could not take it (a write said so, which is also when node:http will say "drain").
    outgoing.uncork();
    if (full && outgoing.writableLength > 0) await drainedOrClosed(outgoing);
    full = false;
    // The client went away: the rest has nowhere to go.
    if (outgoing.socket?.destroyed !== false) return;
  }
  outgoing.end();
}

/**
 * Waits for a full socket to drain or close, then removes both listeners: a watch waits here once
 * per full buffer, and a listener left behind each time leaked (MaxListenersExceededWarning).
 */
function drainedOrClosed(outgoing: ServerResponse): Promise<void> {
  return new Promise((resume) => {
    const done = () => {
      outgoing.off("drain", done);
      outgoing.off("close", done);
      resume();
    };
    outgoing.on("drain", done);
    outgoing.on("close", done);
  });
}
