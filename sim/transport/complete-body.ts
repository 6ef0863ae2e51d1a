/**
 * Responses whose whole body exists when they are made (an object, a list, a Status: everything
 * but watches). The socket adapter writes such a response's head and body in one write, with a
 * Content-Length, instead of sending the head alone and then reading the body's stream chunk by
 * chunk (issue #20: two TLS writes and a stream read per create). The Response still carries its
 * body, so in-process callers read it as any other.
 */
const bodies = new WeakMap<Response, readonly Uint8Array[]>();

/**
 * A Response of `body`, known to the socket adapter as complete. The body may come in parts (a
 * list's items, each encoded once and kept): they go to the socket as they are, never joined
 * into one buffer first (a 10,000-Pod list is 37 MB, and joining it cost a copy and a full GC).
 */
export function completeResponse(body: string | Uint8Array | readonly Uint8Array[], init: ResponseInit): Response {
  const parts = typeof body === "string" ? [Buffer.from(body, "utf8")] : body instanceof Uint8Array ? [body] : body;
  // The body stream is undici's for a byte body, step for step (one chunk, closed a microtask
  // later), so a simulation reading responses in-process runs through the same promise jobs as
  // with `new Response(bytes)` and keeps its trace hash. Unlike that constructor it copies and
  // joins the parts only when read: a list's body runs to tens of megabytes that the socket
  // adapter sends from the parts and never reads from the Response.
  const response = new Response(
    new ReadableStream({
      type: "bytes",
      pull(controller) {
        // A copy: a byte stream takes over its chunks' memory, and a part may be kept for later lists.
        controller.enqueue(parts.length === 1 ? new Uint8Array(parts[0]!) : new Uint8Array(Buffer.concat(parts)));
        queueMicrotask(() => controller.close());
      },
    }),
    init,
  );
  bodies.set(response, parts);
  return response;
}

/** The body (its parts) of a response made by completeResponse, unless something has read it already. */
export function completeBody(response: Response): readonly Uint8Array[] | undefined {
  return response.bodyUsed ? undefined : bodies.get(response);
}
