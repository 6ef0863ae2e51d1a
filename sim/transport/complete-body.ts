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
  // A stream that hands over these bytes when read: `new Response(bytes)` would copy them, and a
  // list's body runs to tens of megabytes that the socket adapter never reads from the Response.
  const response = new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
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
