/**
 * Requests node:http's parser (llhttp) refuses before any handler sees them, which node answers
 * with an empty-bodied 400 or 431. kube-apiserver is a Go net/http server, so we answer as Go
 * does (recorded from kube-apiserver 1.26.4, transcripts header-too-large, method-unknown-*,
 * request-malformed):
 * - a request line and headers over the limit: 431 with Go's plain-text body;
 * - a method llhttp does not know (FOO, or a lowercase `get`): Go takes any token as a method and
 *   lets the API server answer it (405 MethodNotAllowed on a resource, 403 when the user may not,
 *   `/healthz` serves it), so its head is parsed here and given to the handler, without a body;
 * - anything else malformed: 400 with Go's plain-text body.
 * Each answer closes the connection: the parser has lost its place in the byte stream.
 */
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";

/** The parts of a request head the handler needs. */
export interface RawRequestHead {
  readonly method: string;
  readonly target: string;
  readonly headers: Headers;
}

// RFC 9110 token characters: what Go accepts as a method or a header name.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

// Methods the Fetch standard upper-cases in a Request: a lowercase `delete` would become DELETE,
// which Go never does (methods are case-sensitive), so such a method is handed on renamed. PATCH
// is not upper-cased, but undici warns on stderr about a lowercase `patch`: renamed too.
const FETCH_NORMALIZED_METHODS: ReadonlySet<string> = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH"]);

/** What Go answers for a request it cannot parse. */
export function plainRefusal(status: 400 | 431): Buffer {
  const text = `${status} ${STATUS_CODES[status]}`;
  return Buffer.from(`HTTP/1.1 ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${text}`);
}

/**
 * The head of a request whose method llhttp refused, from the bytes it had read; undefined when
 * they do not hold a whole, well-formed head (Go would answer 400 then too).
 */
export function parseRawRequestHead(packet: Buffer): RawRequestHead | undefined {
  const text = packet.toString("latin1");
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const [requestLine, ...headerLines] = text.slice(0, end).split("\r\n");
  const parts = requestLine!.split(" ");
  if (parts.length !== 3 || !TOKEN.test(parts[0]!) || !/^HTTP\/1\.[01]$/.test(parts[2]!) || !parts[1]!.startsWith("/")) return undefined;
  const headers = new Headers();
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (colon <= 0 || !TOKEN.test(line.slice(0, colon))) return undefined;
    try {
      headers.append(line.slice(0, colon), line.slice(colon + 1).trim());
    } catch {
      return undefined; // a value fetch's Headers refuses (a NUL byte, for one)
    }
  }
  return { method: parts[0]!, target: parts[1]!, headers };
}

/** The method to give a fetch Request so that it stays the unknown method it was. */
export function fetchSafeMethod(method: string): string {
  const upper = method.toUpperCase();
  return FETCH_NORMALIZED_METHODS.has(upper) && method !== upper ? `${method}-unrecognized` : method;
}

/** Writes a whole response on a socket the parser gave up on, then closes it. */
export async function writeRawResponse(socket: Duplex, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}`];
  response.headers.forEach((value, name) => {
    if (name !== "content-length" && name !== "transfer-encoding" && name !== "connection") lines.push(`${name}: ${value}`);
  });
  lines.push(`content-length: ${body.length}`, "connection: close", "", "");
  if (socket.writable) socket.end(Buffer.concat([Buffer.from(lines.join("\r\n"), "latin1"), body]));
  else socket.destroy();
}
