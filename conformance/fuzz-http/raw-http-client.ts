/**
 * An HTTP/1.1 client on a bare socket, for the HTTP fuzzer: fetch and node:http both refuse or
 * rewrite what the fuzzer must send as it is (a lowercase or unknown method, a Content-Length that
 * lies, bytes that are not UTF-8 in a header, a path no URL parser would keep). One request per
 * connection (`Connection: close`), so an answer's end is the socket's end when it has no length.
 */
import { connect as connectTcp, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";

/** Where to connect. */
export interface RawEndpoint {
  readonly url: URL;
  /** PEM CA for https; without it the system's roots are used. */
  readonly ca?: string;
}

/** A request exactly as it goes on the wire. */
export interface RawRequest {
  readonly method: string;
  /** Path and query, sent as written. */
  readonly target: string;
  /** Sent in order; `Host`, `Connection` and (unless declared) `Content-Length` are added. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: Uint8Array;
  /** A Content-Length other than the body's length (a lie); the body's length when absent. */
  readonly declaredLength?: number;
}

/** How long to wait, in milliseconds. */
export interface RawTimeouts {
  /** For the status line and headers. */
  readonly headMs: number;
  /** For the rest of the body once the head is in; a body still open then (a watch) is cut. */
  readonly bodyMs: number;
}

/** What came back. */
export type RawOutcome =
  | { readonly kind: "answer"; readonly status: number; readonly headers: ReadonlyMap<string, string>; readonly body: Uint8Array; readonly cut: boolean }
  | { readonly kind: "no-answer"; readonly why: "timeout" | "closed" | "error"; readonly detail: string };

/** Sends one request and reads its answer. Never throws. */
export function sendRaw(endpoint: RawEndpoint, request: RawRequest, timeouts: RawTimeouts): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const { url } = endpoint;
    const https = url.protocol === "https:";
    const port = Number(url.port || (https ? 443 : 80));
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const socket: Socket = https
      ? connectTls({ host, port, servername: isIp(host) ? undefined : host, ...(endpoint.ca !== undefined && { ca: endpoint.ca }), ALPNProtocols: ["http/1.1"] })
      : connectTcp({ host, port });
    const reader = new AnswerReader(request.method === "HEAD");
    let settled = false;
    const finish = (outcome: RawOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    let timer = setTimeout(() => finish({ kind: "no-answer", why: "timeout", detail: `no answer within ${timeouts.headMs} ms` }), timeouts.headMs);
    socket.once(https ? "secureConnect" : "connect", () => {
      socket.write(requestBytes(url, request), (error) => {
        // A server that answers before it has read the body (a 413) may close while we write.
        if (error !== undefined && error !== null && reader.head === undefined) finish({ kind: "no-answer", why: "error", detail: error.message });
      });
    });
    socket.on("data", (chunk: Buffer) => {
      const hadHead = reader.head !== undefined;
      reader.push(chunk);
      if (!hadHead && reader.head !== undefined) {
        clearTimeout(timer);
        timer = setTimeout(() => finish(reader.answer(true)), timeouts.bodyMs);
      }
      if (reader.complete()) finish(reader.answer(false));
    });
    socket.on("end", () => finish(reader.head === undefined ? { kind: "no-answer", why: "closed", detail: "connection closed before an answer" } : reader.answer(!reader.complete(true))));
    socket.on("error", (error) => finish(reader.head === undefined ? { kind: "no-answer", why: "error", detail: error.message } : reader.answer(!reader.complete(true))));
  });
}

function isIp(host: string): boolean {
  return /^[0-9.]+$/.test(host) || host.includes(":");
}

function requestBytes(url: URL, request: RawRequest): Buffer {
  const body = request.body ?? new Uint8Array(0);
  const lines = [`${request.method} ${request.target} HTTP/1.1`, `Host: ${url.host}`];
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  const declared = request.declaredLength ?? (request.body === undefined ? undefined : body.byteLength);
  if (declared !== undefined) lines.push(`Content-Length: ${declared}`);
  lines.push("Connection: close", "", "");
  // latin1: header bytes go out exactly as the fuzzer wrote them, one byte per character.
  return Buffer.concat([Buffer.from(lines.join("\r\n"), "latin1"), body]);
}

interface Head {
  readonly status: number;
  readonly headers: Map<string, string>;
  readonly bodyStart: number;
}

/** Accumulates an answer's bytes and knows when its body is complete. */
class AnswerReader {
  private buffer = Buffer.alloc(0);
  head: Head | undefined;

  constructor(private readonly headRequest: boolean) {}

  push(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    if (this.head === undefined) this.head = this.parseHead();
  }

  /** Whether the body is all in; `closed` when the connection has ended (a body without a length ends there). */
  complete(closed = false): boolean {
    const head = this.head;
    if (head === undefined) return false;
    if (this.headRequest || head.status === 204 || head.status === 304 || (head.status >= 100 && head.status < 200)) return true;
    const length = head.headers.get("content-length");
    if (length !== undefined) return this.buffer.length - head.bodyStart >= Number(length);
    if ((head.headers.get("transfer-encoding") ?? "").toLowerCase().includes("chunked")) return dechunk(this.buffer.subarray(head.bodyStart)).complete;
    return closed;
  }

  answer(cut: boolean): RawOutcome {
    const head = this.head!;
    let body: Uint8Array = this.buffer.subarray(head.bodyStart);
    const length = head.headers.get("content-length");
    if (this.headRequest) body = new Uint8Array(0);
    else if (length !== undefined) body = body.subarray(0, Number(length));
    else if ((head.headers.get("transfer-encoding") ?? "").toLowerCase().includes("chunked")) body = dechunk(Buffer.from(body)).body;
    return { kind: "answer", status: head.status, headers: head.headers, body, cut };
  }

  private parseHead(): Head | undefined {
    const end = this.buffer.indexOf("\r\n\r\n");
    if (end === -1) return undefined;
    const [statusLine = "", ...lines] = this.buffer.subarray(0, end).toString("latin1").split("\r\n");
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? "0");
    const headers = new Map<string, string>();
    for (const line of lines) {
      const colon = line.indexOf(":");
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
    }
    return { status, headers, bodyStart: end + 4 };
  }
}

/** A chunked body decoded as far as it has arrived. */
function dechunk(bytes: Buffer): { body: Uint8Array; complete: boolean } {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = bytes.indexOf("\r\n", offset);
    if (lineEnd === -1) return { body: Buffer.concat(parts), complete: false };
    const size = parseInt(bytes.subarray(offset, lineEnd).toString("latin1").split(";")[0]!, 16);
    if (Number.isNaN(size)) return { body: Buffer.concat(parts), complete: true };
    if (size === 0) return { body: Buffer.concat(parts), complete: true };
    const start = lineEnd + 2;
    if (bytes.length < start + size) {
      parts.push(bytes.subarray(start));
      return { body: Buffer.concat(parts), complete: false };
    }
    parts.push(bytes.subarray(start, start + size));
    offset = start + size + 2;
  }
}
