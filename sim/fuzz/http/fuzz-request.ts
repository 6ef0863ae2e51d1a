/**
 * A generated HTTP request, as data: what the HTTP fuzzer sends (through a driver that owns the
 * socket, conformance/fuzz-http/), what it expects of the fuzzer's own objects beforehand, and how
 * it prints in a shrunk counterexample.
 *
 * Values known only when the request is sent are placeholders, filled in by `fillPlaceholders`:
 * the fuzzer's namespace, the resourceVersion and uid of the lane's object, continue tokens.
 */
import fc from "fast-check";
import { encodeObject } from "../../apiserver/protobuf/index.ts";

/** The number of lanes: requests in flight at once, each lane owning its own objects. */
export const LANE_COUNT = 8;

/** Placeholders a request may hold in its path, query, headers or text body. */
export const PLACEHOLDERS = {
  /** The fuzzer's namespace. */
  namespace: "$NS$",
  /** The resourceVersion of the target object (or of the collection, when there is none). */
  resourceVersion: "$RV$",
  /** A resourceVersion far ahead of the server's. */
  futureResourceVersion: "$RV_FUTURE$",
  /** The uid of the target object. */
  uid: "$UID$",
  /** A continue token this server issued for a list in the namespace. */
  continueToken: "$CONTINUE$",
  /** That token with one byte flipped. */
  flippedContinueToken: "$CONTINUE_FLIPPED$",
  /** A continue token another server instance issued. */
  foreignContinueToken: "$CONTINUE_FOREIGN$",
} as const;

/** What the target object must be before a write is sent. */
export type Precondition =
  /** The lane's object exists in its baseline form (kinds.ts). */
  | "present"
  /** The name is free. */
  | "absent"
  /** Whatever earlier requests left. */
  | "any";

/**
 * A request body: text (placeholders are filled in), raw bytes (sent as they are), or an object
 * sent in Protobuf, encoded once its placeholders are filled, then optionally damaged.
 */
export type FuzzBody =
  | { readonly text: string }
  | { readonly bytes: Uint8Array }
  | { readonly protobuf: { readonly apiVersion: string; readonly kind: string; readonly object: Record<string, unknown>; readonly damage?: ProtobufDamage } };

/** What is done to an encoded Protobuf body: a byte flipped, or the body cut short. */
export type ProtobufDamage = { readonly flip: number } | { readonly cutTo: number } | { readonly withoutPrefix: true };

/** One generated request. */
export interface FuzzRequest {
  /** The lane that sends it (0 … LANE_COUNT-1); its writes touch only that lane's objects. */
  readonly lane: number;
  /** Sent as written: unknown and lowercase methods too. */
  readonly method: string;
  /** The path, as sent (may be malformed on purpose). */
  readonly path: string;
  /** The query string without `?`, as sent; "" for none. */
  readonly query: string;
  /** Headers in order, beside Host, Connection, Content-Length and the credential. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: FuzzBody;
  /** Send a Content-Length that lies: half the body's length ("short"), or 16 bytes more ("long"). */
  readonly lengthLie?: "short" | "long";
  /**
   * For a write: the resource (plural) whose lane objects it may change, the object's name, and
   * the state it needs first. Undefined for reads, which may go anywhere.
   */
  readonly write?: { readonly resource: string; readonly name?: string; readonly precondition: Precondition };
  /** What the generator meant, for the counterexample ("wrong type at spec.replicas"). */
  readonly intent: string;
}

/** The Content-Length a lie declares for a body of `length` bytes. */
export function declaredLength(lie: "short" | "long", length: number): number {
  return lie === "short" ? length >> 1 : length + 16;
}

/** Methods that may change something (in any case: a server might normalize them). */
export function isWriteMethod(method: string): boolean {
  return !["GET", "HEAD", "OPTIONS"].includes(method);
}

/** The body's bytes, its placeholders filled in. */
export function bodyBytes(body: FuzzBody, values: PlaceholderValues): Uint8Array {
  if ("bytes" in body) return body.bytes;
  if ("text" in body) return new TextEncoder().encode(fillPlaceholders(body.text, values));
  const { apiVersion, kind, object, damage } = body.protobuf;
  const filled = JSON.parse(fillPlaceholders(JSON.stringify(object), values)) as Record<string, unknown>;
  const encoded = encodeObject(apiVersion, kind, filled, { unknownFields: "drop" });
  if (damage === undefined) return encoded;
  if ("flip" in damage) {
    const copy = new Uint8Array(encoded);
    const at = damage.flip % copy.length;
    copy[at] = copy[at]! ^ 0xff;
    return copy;
  }
  if ("cutTo" in damage) return encoded.subarray(0, damage.cutTo % (encoded.length + 1));
  return encoded.subarray(4);
}

/** A request as one line, for counterexamples and findings: long bodies are summarized. */
export function describeRequest(request: FuzzRequest): string {
  const target = request.query === "" ? request.path : `${request.path}?${request.query}`;
  const headers = request.headers.map(([name, value]) => `${name}: ${clip(value, 120)}`).join("; ");
  const length = request.lengthLie === undefined ? "" : ` [Content-Length ${request.lengthLie}]`;
  return `lane ${request.lane} ${request.method} ${clip(target, 300)}${headers === "" ? "" : ` [${headers}]`}${length}${describeBody(request.body)}  (${request.intent})`;
}

function describeBody(body: FuzzBody | undefined): string {
  if (body === undefined) return "";
  if ("protobuf" in body) return ` body protobuf ${JSON.stringify(body.protobuf.object).slice(0, 300)}${body.protobuf.damage === undefined ? "" : ` damaged ${JSON.stringify(body.protobuf.damage)}`}`;
  if ("text" in body) return ` body ${body.text.length > 300 ? `${JSON.stringify(body.text.slice(0, 300))}… (${body.text.length} chars)` : JSON.stringify(body.text)}`;
  return ` body <${body.bytes.byteLength} bytes: ${Buffer.from(body.bytes.subarray(0, 48)).toString("hex")}${body.bytes.byteLength > 48 ? "…" : ""}>`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** The request with fast-check's printing hook, so a counterexample reads as requests. */
export function printable(request: FuzzRequest): FuzzRequest {
  return Object.defineProperty({ ...request }, fc.toStringMethod, { value: () => describeRequest(request), enumerable: false });
}

/** Values the placeholders stand for. */
export type PlaceholderValues = Readonly<Record<keyof typeof PLACEHOLDERS, string>>;

/** Replaces every placeholder in `text`. */
export function fillPlaceholders(text: string, values: PlaceholderValues): string {
  if (!text.includes("$")) return text;
  let filled = text;
  for (const [key, placeholder] of Object.entries(PLACEHOLDERS) as Array<[keyof typeof PLACEHOLDERS, string]>) {
    if (filled.includes(placeholder)) filled = filled.split(placeholder).join(values[key]);
  }
  return filled;
}
