/**
 * Responses whose whole body exists when they are made (an object, a list, a Status: everything
 * but watches). The socket adapter writes such a response's head and body in one write, with a
 * Content-Length, instead of sending the head alone and then reading the body's stream chunk by
 * chunk (issue #20: two TLS writes and a stream read per create). The Response still offers its
 * body, so in-process callers read it as any other.
 */
const bodies = new WeakMap<Response, readonly Uint8Array[]>();

// Response, typed without the body members that CompleteResponse redefines: TypeScript's types
// declare them as properties, which a subclass may not redefine as accessors and methods.
type BodilessResponse = new (body: null, init: ResponseInit) => Pick<Response, "status" | "statusText" | "headers">;

/**
 * A Response whose body stream is made only when something reads it. Every fetch body is a web
 * ReadableStream, and making one for each create cost 7-17 µs of the server's CPU (issue #20),
 * for a body the socket adapter sends from its parts and never reads from the Response.
 */
class CompleteResponse extends (Response as unknown as BodilessResponse) {
  readonly #parts: readonly Uint8Array[];
  #readable: Response | undefined;

  constructor(parts: readonly Uint8Array[], init: ResponseInit) {
    super(null, init);
    this.#parts = parts;
  }

  /** The same status and headers with the body as a stream: what the Response would have been. */
  #withStream(): Response {
    if (this.#readable !== undefined) return this.#readable;
    const parts = this.#parts;
    // A closed byte stream holding one chunk: what undici's own body of bytes is once read, and what
    // the stream these responses had from the start was by the time anyone read it, so a
    // simulation reading responses in-process runs through the same promise jobs (trace hashes).
    // A copy: a byte stream takes over its chunks' memory, and a part may be kept for later lists.
    const stream = new ReadableStream({
      type: "bytes",
      start(controller) {
        controller.enqueue(parts.length === 1 ? new Uint8Array(parts[0]!) : new Uint8Array(Buffer.concat(parts)));
        controller.close();
      },
    });
    this.#readable = new Response(stream, { status: this.status, statusText: this.statusText, headers: this.headers });
    return this.#readable;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#withStream().body;
  }
  get bodyUsed(): boolean {
    return this.#readable?.bodyUsed ?? false;
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#withStream().arrayBuffer();
  }
  blob(): Promise<Blob> {
    return this.#withStream().blob();
  }
  formData(): Promise<FormData> {
    return this.#withStream().formData();
  }
  json(): Promise<any> {
    return this.#withStream().json();
  }
  // Node's Response has bytes() though this project's TypeScript types do not name it yet.
  bytes(): Promise<Uint8Array> {
    return (this.#withStream() as Response & { bytes(): Promise<Uint8Array> }).bytes();
  }
  text(): Promise<string> {
    return this.#withStream().text();
  }
  clone(): Response {
    return this.#withStream().clone();
  }
}

/**
 * A Response of `body`, known to the socket adapter as complete. The body may come in parts (a
 * list's items, each encoded once and kept): they go to the socket as they are, never joined
 * into one buffer first (a 10,000-Pod list is 37 MB, and joining it cost a copy and a full GC).
 */
export function completeResponse(body: string | Uint8Array | readonly Uint8Array[], init: ResponseInit): Response {
  const parts = typeof body === "string" ? [Buffer.from(body, "utf8")] : body instanceof Uint8Array ? [body] : body;
  // A Response at run time (Response's own constructor made it), with a body made on demand.
  const response = new CompleteResponse(parts, init) as unknown as Response;
  bodies.set(response, parts);
  return response;
}

/** The body (its parts) of a response made by completeResponse, unless something has read it already. */
export function completeBody(response: Response): readonly Uint8Array[] | undefined {
  return response.bodyUsed ? undefined : bodies.get(response);
}
