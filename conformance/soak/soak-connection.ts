/**
 * How the soak's clients speak HTTP: through the target's identity (its transport and auth
 * headers, which nothing here records), every request with a timeout, every answer read whole
 * and parsed, and nothing sent outside the run's namespace. An answer that does not come (the
 * timeout, a reset connection, a body cut short) is `uncertain`: for a write, it may or may not
 * have happened.
 */
import type { Identity } from "../targets/target.ts";

/** What came back: an answer (any status) with its parsed body, or nothing certain. */
export type SoakExchange =
  | { readonly type: "answer"; readonly status: number; readonly body: unknown; readonly endMs: number }
  | { readonly type: "uncertain"; readonly error: string };

/** What a watch request got: an open stream, an answer that is not one (410, 403, …), or nothing. */
export type WatchOpening =
  | { readonly type: "stream"; readonly body: ReadableStream<Uint8Array> }
  | SoakExchange;

/** A request the soak may not send: a bug in the soak, never sent. */
export class OutsideNamespaceError extends Error {}

/** The soak's HTTP client for one namespace. */
export class SoakConnection {
  /** The ConfigMap collection of the run's namespace. */
  readonly collectionPath: string;
  private readonly namespacePath: string;

  constructor(
    private readonly identity: Identity,
    private readonly baseUrl: string,
    readonly namespace: string,
    readonly timeoutMs: number,
  ) {
    this.namespacePath = `/api/v1/namespaces/${namespace}`;
    this.collectionPath = `${this.namespacePath}/configmaps`;
  }

  /** Sends a request and reads the whole answer, giving up after the timeout. */
  async request(method: string, path: string, body?: unknown, contentType = "application/json"): Promise<SoakExchange> {
    this.checkInNamespace(method, path, body);
    const control = new AbortController();
    const timer = setTimeout(() => control.abort(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    const request = this.build(method, path, control.signal, body, contentType);
    try {
      const response = await this.identity.transport(request);
      const text = await response.text();
      return { type: "answer", status: response.status, body: parsedBody(text, response.status), endMs: performance.now() };
    } catch (error) {
      return { type: "uncertain", error: failureText(error, control.signal) };
    } finally {
      clearTimeout(timer);
      this.held.delete(request);
    }
  }

  /**
   * Opens a watch (`query` without `watch=1`): the stream once its head arrives (200), or the
   * answer read whole when it is an error. `control` closes the stream later; the timeout covers
   * the head only.
   */
  async openWatch(query: string, control: AbortController): Promise<WatchOpening> {
    const path = `${this.collectionPath}?watch=1${query === "" ? "" : `&${query}`}`;
    this.checkInNamespace("GET", path, undefined);
    const timer = setTimeout(() => control.abort(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    try {
      const response = await this.identity.transport(this.build("GET", path, control.signal, undefined, undefined));
      clearTimeout(timer);
      if (response.status === 200 && response.body !== null) return { type: "stream", body: response.body };
      const answerTimer = setTimeout(() => control.abort(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      try {
        const text = await response.text();
        return { type: "answer", status: response.status, body: parsedBody(text, response.status), endMs: performance.now() };
      } finally {
        clearTimeout(answerTimer);
      }
    } catch (error) {
      return { type: "uncertain", error: failureText(error, control.signal) };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A Request's signal follows the caller's only through a weak reference (undici): a Request
   * collected while its exchange is open would never hear the timeout's or the watcher's abort, and
   * its exchange would hang (seen in a test under CI's memory pressure). Each one is held here until
   * its signal aborts or its exchange is over.
   */
  private readonly held = new Set<Request>();

  private build(method: string, path: string, signal: AbortSignal, body: unknown, contentType: string | undefined): Request {
    const headers = new Headers(this.identity.authHeaders);
    headers.set("accept", "application/json");
    if (body !== undefined && contentType !== undefined) headers.set("content-type", contentType);
    const request = new Request(`${this.baseUrl}${path}`, { method, headers, signal, ...(body !== undefined && { body: JSON.stringify(body) }) });
    this.held.add(request);
    signal.addEventListener("abort", () => this.held.delete(request), { once: true });
    return request;
  }

  /**
   * The soak touches its namespace and the ConfigMaps in it, nothing else: it creates the
   * namespace (by name), reads and deletes it, and works on its ConfigMaps.
   */
  private checkInNamespace(method: string, path: string, body: unknown): void {
    const pathOnly = path.split("?")[0]!;
    // The path as the request will carry it: dot segments resolved, nothing encoded to hide a slash.
    if (pathOnly.includes("%") || new URL(pathOnly, "http://soak.invalid").pathname !== pathOnly) {
      throw new OutsideNamespaceError(`soak refused to send ${method} ${path}: not a plain path`);
    }
    const inCollection = pathOnly === this.collectionPath || (pathOnly.startsWith(`${this.collectionPath}/`) && !pathOnly.slice(this.collectionPath.length + 1).includes("/"));
    if (inCollection) return;
    if (pathOnly === this.namespacePath && (method === "GET" || method === "DELETE")) return;
    const name = (body as { metadata?: { name?: unknown } } | undefined)?.metadata?.name;
    if (pathOnly === "/api/v1/namespaces" && method === "POST" && name === this.namespace) return;
    throw new OutsideNamespaceError(`soak refused to send ${method} ${path}: outside its namespace ${this.namespace}`);
  }
}

/**
 * The body as JSON. A success whose body does not parse was cut short (an error's body may be
 * plain text, as some proxies send): the answer is not certain.
 */
function parsedBody(text: string, status: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    if (status >= 200 && status < 300) throw new Error(`HTTP ${status} with a body that is not JSON (${text.length} bytes): cut short?`);
    return undefined;
  }
}

/** One line on why no answer came: the timeout, or the connection's error and its cause. */
export function failureText(error: unknown, signal?: AbortSignal): string {
  if (signal?.aborted && signal.reason instanceof Error) return signal.reason.message;
  const message = error instanceof Error ? error.message : String(error);
  const cause = (error as { cause?: { message?: string; code?: string } }).cause;
  const detail = cause?.code ?? cause?.message;
  return detail === undefined || detail === message ? message : `${message} (${detail})`;
}
