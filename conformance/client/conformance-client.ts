/**
 * The only way a case speaks HTTP: requests through a transport (a socket, or the embedded
 * server's handler in virtual time), every exchange recorded, every mutation checked by the
 * interlock, JSON handled, and watches read event by event with bounded waits.
 */
import type { ExchangeRecorder } from "./exchange-recorder.ts";
import { fieldAt } from "./json-fields.ts";
import type { MutationInterlock } from "./mutation-interlock.ts";

/** Carries a request to a server. */
export type Transport = (request: Request) => Promise<Response>;

/** A response, read whole. */
export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Uint8Array;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON; its shape is the server's (read it with json-fields.ts). */
  readonly json: unknown;
}

/** Options of one request. */
export interface RequestOptions {
  /** A string or bytes go as they are; anything else is sent as JSON. */
  readonly body?: unknown;
  readonly contentType?: string;
  readonly accept?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One event read from a watch stream. */
export interface WatchLine {
  readonly type: string;
  /** The event's object as parsed (the line itself for an UNPARSEABLE one); its shape is the server's. */
  readonly object: unknown;
}

/** An open watch. */
export interface WatchStream {
  readonly status: number;
  readonly headers: Headers;
  /** The next event; undefined when the stream ended, "timeout" when none came within `timeoutMs`. */
  next(timeoutMs?: number): Promise<WatchLine | undefined | "timeout">;
  close(): Promise<void>;
}

/** Waits in real time (conformance runs outside sim/, against real servers too). */
function delay(ms: number): Promise<"timeout"> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve("timeout"), ms);
    timer.unref?.();
  });
}

/** The client a case gets. */
export class ConformanceClient {
  constructor(
    private readonly transport: Transport,
    private readonly baseUrl: string,
    private readonly recorder: ExchangeRecorder,
    private readonly interlock: MutationInterlock,
    private readonly authHeaders: Readonly<Record<string, string>> = {},
  ) {}

  /** Sends a request and reads the whole response. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const { request, bodyText } = this.build(method, path, options);
    const started = performance.now();
    let response: Response | undefined;
    let text = "";
    let bytes = new Uint8Array();
    try {
      response = await this.transport(request);
      bytes = new Uint8Array(await response.arrayBuffer());
      text = new TextDecoder().decode(bytes);
    } finally {
      this.recorder.record({
        method,
        path,
        status: response?.status ?? 0,
        requestHeaders: request.headers,
        responseHeaders: response?.headers,
        requestBody: bodyText,
        responseBody: text,
        durationMs: performance.now() - started,
      });
    }
    const json = parseJson(text);
    const createdName = fieldAt(json, "metadata", "name");
    this.interlock.recordCreated(method, path, response.status, typeof createdName === "string" ? createdName : undefined);
    return { status: response.status, headers: response.headers, bytes, text, json };
  }

  /** GET. */
  get(path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    return this.request("GET", path, options);
  }

  /** POST of a JSON body. */
  post(path: string, body: unknown, options: RequestOptions = {}): Promise<ApiResponse> {
    return this.request("POST", path, { ...options, body });
  }

  /** PUT of a JSON body. */
  put(path: string, body: unknown, options: RequestOptions = {}): Promise<ApiResponse> {
    return this.request("PUT", path, { ...options, body });
  }

  /** PATCH with a merge patch unless another content type is given. */
  patch(path: string, body: unknown, contentType = "application/merge-patch+json"): Promise<ApiResponse> {
    return this.request("PATCH", path, { body, contentType });
  }

  /** DELETE, with an optional DeleteOptions body. */
  delete(path: string, body?: unknown): Promise<ApiResponse> {
    return this.request("DELETE", path, body === undefined ? {} : { body });
  }

  /** Opens a watch (the path must carry `watch=1` or `watch=true`); events are recorded as they are read. */
  async watch(path: string, options: RequestOptions = {}): Promise<WatchStream> {
    const { request } = this.build("GET", path, options);
    const started = performance.now();
    const response = await this.transport(request);
    const reader = response.body?.getReader();
    const decoder = new TextDecoder();
    const seen: string[] = [];
    let buffered = "";
    let ended = false;
    const finish = () => {
      this.recorder.record({
        method: "GET",
        path,
        status: response.status,
        requestHeaders: request.headers,
        responseHeaders: response.headers,
        requestBody: "",
        responseBody: seen.join("\n"),
        durationMs: performance.now() - started,
      });
    };
    const takeRest = (): string | undefined => {
      const rest = buffered.trim();
      buffered = "";
      return rest === "" ? undefined : rest;
    };
    const readLine = async (): Promise<string | undefined> => {
      for (;;) {
        const newline = buffered.indexOf("\n");
        if (newline >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          if (line.trim() !== "") return line;
          continue;
        }
        // A stream that ends without a newline (a plain Status body) still yields its last document.
        if (ended || reader === undefined) return takeRest();
        const { done, value } = await reader.read();
        if (done) ended = true;
        else buffered += decoder.decode(value, { stream: true });
      }
    };
    let pending: Promise<string | undefined> | undefined;
    return {
      status: response.status,
      headers: response.headers,
      async next(timeoutMs = 5000) {
        pending ??= readLine();
        const outcome = await Promise.race([pending, delay(timeoutMs)]);
        if (outcome === "timeout") return "timeout";
        pending = undefined;
        if (outcome === undefined) return undefined;
        seen.push(outcome);
        const event = parseJson(outcome);
        return event === undefined ? { type: "UNPARSEABLE", object: outcome } : (event as WatchLine);
      },
      async close() {
        finish();
        await reader?.cancel().catch(() => undefined);
      },
    };
  }

  private build(method: string, path: string, options: RequestOptions): { request: Request; bodyText: string } {
    const { body } = options;
    let payload: string | Uint8Array | undefined;
    let contentType = options.contentType;
    if (typeof body === "string" || body instanceof Uint8Array) payload = body;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      contentType ??= "application/json";
    }
    const bodyName = (body as { metadata?: { name?: unknown } } | undefined)?.metadata?.name;
    this.interlock.checkRequest(method, path, typeof bodyName === "string" ? bodyName : undefined);
    const headers = new Headers({ ...this.authHeaders, ...options.headers });
    if (contentType !== undefined) headers.set("content-type", contentType);
    headers.set("accept", options.accept ?? "application/json");
    const request = new Request(`${this.baseUrl}${path}`, { method, headers, ...(payload !== undefined && { body: payload }) });
    const bodyText = payload === undefined ? "" : typeof payload === "string" ? payload : `<${payload.byteLength} bytes>`;
    return { request, bodyText };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
