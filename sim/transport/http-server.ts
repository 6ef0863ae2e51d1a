/**
 * The real-socket transport: serves a fetch-style handler on node:http, or on node:https when given
 * a certificate (kubectl sends a bearer token only over https). Bodies are capped while they are
 * read, responses are streamed with backpressure (watches), and a client that goes away cancels its
 * response stream, which ends the watch behind it. Both protocols share everything below the socket.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { TlsCredentials } from "./tls-files.ts";

// How much of an oversized body is read (and dropped) before the connection is cut instead.
const DRAIN_FACTOR = 8;

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
}

/** Starts serving `handler`; resolves once listening. */
export function serveHttp(handler: FetchHandler, options: HttpServeOptions): Promise<HttpServerHandle> {
  const scheme = options.tls === undefined ? "http" : "https";
  const listener: RequestListener = (incoming, outgoing) => {
    void answer(handler, options, scheme, incoming, outgoing);
  };
  // A client that fails the handshake (plain http on this port, an untrusted certificate) only
  // costs its own socket: node:https destroys it and the server carries on.
  const server = options.tls === undefined ? createServer(listener) : createTlsServer({ cert: options.tls.cert, key: options.tls.key }, listener);
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
  const url = `${scheme}://${incoming.headers.host ?? "localhost"}${incoming.url ?? "/"}`;
  return new Request(url, { method: incoming.method ?? "GET", headers, ...(body !== undefined && { body: new Uint8Array(body) }) });
}

async function writeResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
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
    if (!outgoing.write(value)) {
      await new Promise((resume) => {
        outgoing.once("drain", resume);
        outgoing.once("close", resume);
      });
    }
  }
  outgoing.end();
}
