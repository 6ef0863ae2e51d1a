/**
 * One line of a recording, in the shape of the reference transcripts (spec/reference-transcripts.ts):
 * what was sent (never the Authorization header: only the headers the template names) and what
 * came back (four headers, the body as text or base64, cut at 24,000).
 */
import type { IdentityName, RecordValues, RequestTemplate } from "./reference-requests.ts";

/** The request as a line shows it. */
export interface LineRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly identity?: Exclude<IdentityName, "admin">;
}

/** The response as a line shows it. */
export interface LineResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: { readonly text: string } | { readonly base64: string };
}

/** One line of the output file. */
export interface TranscriptLine {
  readonly id: string;
  readonly note: string;
  readonly request: LineRequest;
  readonly response: LineResponse;
}

/** The response headers the reference keeps, in its order; everything else (cookies, dates) is left out. */
const KEPT_RESPONSE_HEADERS = ["content-type", "retry-after", "warning", "transfer-encoding"];
/** Text past this many characters (binary past this many bytes) is cut, as in the reference. */
export const BODY_LIMIT = 24_000;
/** A request body longer than this is shown as `<N bytes>`, as the reference shows its 4 MiB body. */
const SHOWN_BODY_LIMIT = 64 * 1024;

/** What the template sends, with these values: the path, and the body as bytes on the wire. */
export function renderRequest(template: RequestTemplate, values: RecordValues): { path: string; body: string | undefined } {
  const body = template.body?.(values);
  return { path: template.path(values), body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) };
}

/** The request part of a line. */
export function lineRequest(template: RequestTemplate, values: RecordValues): LineRequest {
  const body = template.body?.(values);
  const shownBody = typeof body === "string" && body.length > SHOWN_BODY_LIMIT ? `<${Buffer.byteLength(body)} bytes>` : body;
  return {
    method: template.method,
    path: template.path(values),
    headers: { ...template.headers },
    ...(body !== undefined && { body: shownBody }),
    ...(template.identity !== undefined && template.identity !== "admin" && { identity: template.identity }),
  };
}

/** The response part of a line. */
export function lineResponse(status: number, headers: Headers, bytes: Uint8Array): LineResponse {
  const kept: Record<string, string> = {};
  for (const name of KEPT_RESPONSE_HEADERS) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value;
  }
  return { status, headers: kept, body: lineBody(headers.get("content-type") ?? "", bytes) };
}

// Protobuf is binary even when its bytes happen to be valid UTF-8; anything else is text if it decodes.
function lineBody(contentType: string, bytes: Uint8Array): LineResponse["body"] {
  if (!/protobuf/i.test(contentType)) {
    const text = utf8(bytes);
    if (text !== undefined) return { text: text.length > BODY_LIMIT ? text.slice(0, BODY_LIMIT) : text };
  }
  return { base64: Buffer.from(bytes.subarray(0, BODY_LIMIT)).toString("base64") };
}

function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
