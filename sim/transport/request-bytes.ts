/**
 * Requests whose body the socket adapter has read already. The adapter hands those bytes over
 * beside the Request instead of as its body stream: a fetch body is a web ReadableStream, made
 * for every create and read back at once, and cost 30-40 µs of the server's CPU per create over
 * TLS, interleaved, for bytes that were in memory all along (issue #20). Requests made anywhere else carry their body as usual,
 * and `requestBytes` reads either kind.
 */
const bodies = new WeakMap<Request, Uint8Array>();

/** A Request of `url` whose body is `body`, for `requestBytes` (its own body stream is empty). */
export function requestCarrying(url: string, init: Omit<RequestInit, "body">, body: Uint8Array | undefined): Request {
  const request = new Request(url, init);
  if (body !== undefined) bodies.set(request, body);
  return request;
}

/** The body of `request`: the bytes it carries beside it, else its body stream, read. */
export async function requestBytes(request: Request): Promise<Uint8Array> {
  return bodies.get(request) ?? new Uint8Array(await request.arrayBuffer());
}

/** `requestBytes`, leaving a body stream unread for the handler (a clone's is read instead). */
export async function peekRequestBytes(request: Request): Promise<Uint8Array> {
  // A request without a body (every GET) is not cloned only to read nothing.
  if (!bodies.has(request) && request.body === null) return new Uint8Array(0);
  return requestBytes(bodies.has(request) ? request : request.clone());
}

/** `request` with other headers and the same body, however it carries it. */
export function withOtherHeaders(request: Request, headers: Headers): Request {
  const copy = new Request(request, { headers });
  const body = bodies.get(request);
  if (body !== undefined) bodies.set(copy, body);
  return copy;
}
