/**
 * Reading and decoding request bodies as Kubernetes does: a size limit (413, transcript
 * body-too-large), accepted media types (415, content-type-text; which ones is
 * media-negotiation.ts's `negotiateInput`), JSON, YAML or Protobuf objects only (400 for malformed
 * JSON or a non-object, body-malformed and body-array; for a Protobuf body with a wrong prefix or
 * that does not decode), nesting no deeper than nesting-depth.ts allows (400, checked on the text
 * before any parser or recursive code sees it).
 */
import { isCollection, parseDocument, visit } from "yaml";
import { maxRequestBodyBytes } from "../../../spec/doc1/limits.ts";
import { ApiError, badRequest, failure } from "../responses/api-error.ts";

import type { Serialization } from "../responses/media-negotiation.ts";
import { exceedsNestingDepth, jsonDepthExcess, maxNestingDepth } from "./nesting-depth.ts";
import { yamlDepthExcess } from "./yaml-nesting-depth.ts";
import { decodeObject as decodeProtobufObject, ProtobufDecodeError } from "../protobuf/index.ts";
import { goQuote } from "../responses/go-text.ts";
import { requestBytes } from "../../transport/request-bytes.ts";

/** Media types of PATCH bodies, and how each patch is applied. */
export const PATCH_MEDIA_TYPES = {
  "application/merge-patch+json": "merge",
  "application/json-patch+json": "json",
  // Merged by the merge keys of Kubernetes' types (strategic-merge-patch.ts).
  "application/strategic-merge-patch+json": "strategic",
} as const;

/** How a patch body is applied. */
export type PatchKind = (typeof PATCH_MEDIA_TYPES)[keyof typeof PATCH_MEDIA_TYPES];

/** The body's bytes, or a 413 past the limit. */
export async function readBody(request: Request): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxRequestBodyBytes) throw requestEntityTooLarge();
  const bytes = await requestBytes(request);
  if (bytes.byteLength > maxRequestBodyBytes) throw requestEntityTooLarge();
  return bytes;
}

/** The 413 for a body over the limit (the transport answers it too, before the body has arrived). */
export function requestEntityTooLarge() {
  return failure("RequestEntityTooLarge", `Request entity too large: limit is ${maxRequestBodyBytes}`);
}

/** The media type of a request, without parameters, lowercased ("" when absent). */
export function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/** The 415 for a body in a media type the endpoint does not take (transcript content-type-text). */
export function unsupportedMediaType(accepted: readonly string[]): ReturnType<typeof failure> {
  return failure(
    "UnsupportedMediaType",
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`,
  );
}

/**
 * Decodes an object body for a type of kind `kind`, in the serialization its Content-Type named
 * (`negotiateInput`): JSON, YAML, or Protobuf (prefix + `Unknown` envelope; the object comes back
 * as the server's JSON, kind and apiVersion from the envelope).
 */
export function decodeObject(bytes: Uint8Array, serialization: Serialization, kind: string): Record<string, unknown> {
  if (serialization === "protobuf") {
    try {
      const { object } = decodeProtobufObject(bytes);
      if (exceedsNestingDepth(object)) throw badRequest(`the object provided is unrecognized (must be of type ${kind}): exceeded max depth`);
      return object;
    } catch (error) {
      // Kubernetes' transformDecodeError, without its summary of the body.
      if (error instanceof ProtobufDecodeError) throw badRequest(`the object provided is unrecognized (must be of type ${kind}): ${error.message}`);
      throw error;
    }
  }
  const text = new TextDecoder().decode(bytes);
  checkObjectDepth(text, bytes, serialization, kind);
  let value: unknown;
  try {
    value = serialization === "yaml" ? parseYamlObject(text, bytes, kind) : JSON.parse(text);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw unrecognized(kind, `json parse error: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw unrecognized(kind, "json parse error: the body is not a JSON object");
  }
  // YAML aliases can nest a value deeper than its text (each alias of a chain adds a level); Kubernetes
  // converts YAML to JSON and refuses that JSON past its depth.
  if (serialization === "yaml" && exceedsNestingDepth(value)) {
    throw unrecognized(kind, `json parse error: invalid character '[' exceeded max depth (${bodySummary(bytes, "hex")})`);
  }
  return value as Record<string, unknown>;
}

/**
 * A YAML body's value. A mapping or sequence used as a key has no JSON form: Kubernetes converts
 * YAML to JSON and answers 400 `yaml: invalid map key: <the key as Go's %#v>` (recorded from
 * 1.26.4 on 2026-11-25; found by `fuzz --target http`: the key used to be stringified and the
 * object stored). The yaml package's warning about such keys is not printed: the server answers it.
 */
function parseYamlObject(text: string, bytes: Uint8Array, kind: string): unknown {
  const document = parseDocument(text, { logLevel: "error" });
  if (document.errors.length > 0) throw document.errors[0]!;
  let collectionKey: unknown;
  visit(document, {
    Pair(_, pair) {
      if (!isCollection(pair.key)) return undefined;
      collectionKey = pair.key.toJSON();
      return visit.BREAK;
    },
  });
  if (collectionKey !== undefined) {
    throw badRequest(`the object provided is unrecognized (must be of type ${kind}): yaml: invalid map key: ${goSyntax(collectionKey)} (${bodySummary(bytes, "hex")})`);
  }
  return document.toJS();
}

/** A decoded YAML value as Go's %#v prints it once go-yaml has read it into interface{} values. */
function goSyntax(value: unknown): string {
  if (value === null || value === undefined) return "interface {}(nil)";
  if (typeof value === "string") return goQuote(value);
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSyntax).join(", ")}}`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[interface {}]interface {}{${entries.map(([key, item]) => `${goQuote(key)}:${goSyntax(item)}`).join(", ")}}`;
}

/**
 * Refuses a JSON or YAML object body nested past maxNestingDepth, with Kubernetes' messages (a JSON
 * body: "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth
 * (<body>)"; a YAML body: "yaml: line 6: exceeded max depth of 10000 (<hex>)", the line only past
 * the first, as go-yaml reports scanner errors).
 */
function checkObjectDepth(text: string, bytes: Uint8Array, serialization: Serialization, kind: string): void {
  if (serialization === "yaml") {
    const excess = yamlDepthExcess(text);
    if (excess === undefined) return;
    const line = excess.line > 1 ? `line ${excess.line}: ` : "";
    throw badRequest(`the object provided is unrecognized (must be of type ${kind}): yaml: ${line}exceeded max depth of ${maxNestingDepth} (${bodySummary(bytes, "hex")})`);
  }
  const bracket = jsonDepthExcess(text);
  if (bracket !== undefined) throw unrecognized(kind, `json parse error: invalid character '${bracket}' exceeded max depth (${bodySummary(bytes, "text")})`);
}

/** Decodes a JSON document of any shape (patch and DeleteOptions bodies), no deeper than maxNestingDepth. */
export function decodeJson(bytes: Uint8Array): unknown {
  const text = new TextDecoder().decode(bytes);
  const bracket = jsonDepthExcess(text);
  if (bracket !== undefined) throw badRequest(`error decoding patch: ${depthMessage(bracket)}`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`error decoding patch: ${(error as Error).message}`);
  }
}

/**
 * Decodes a PATCH body as `decodeJson` does. A strategic merge patch nested too deep is refused
 * without the "error decoding patch: " prefix, as Kubernetes answers it (recorded against 1.26.4).
 */
export function decodePatch(bytes: Uint8Array, kind: PatchKind): unknown {
  if (kind === "strategic") {
    const bracket = jsonDepthExcess(new TextDecoder().decode(bytes));
    if (bracket !== undefined) throw badRequest(depthMessage(bracket));
  }
  const patch = decodeJson(bytes);
  checkPatchNumbers(patch, bytes, kind);
  return patch;
}

/**
 * Go decodes a patch's numbers into float64, so one past its range (1e400, which JSON.parse reads
 * as Infinity) fails the whole patch: 400 `json: cannot unmarshal number 1e400 into Go value of
 * type float64` (kube-apiserver 1.26.4, recorded 2026-11-25; found by comparing with `fuzz
 * --target http`: the embedded server applied such a merge patch, the number stored as null).
 */
function checkPatchNumbers(patch: unknown, bytes: Uint8Array, kind: PatchKind): void {
  if (!hasInfiniteNumber(patch)) return;
  const text = new TextDecoder().decode(bytes);
  const literal = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
  let number = "";
  for (let match = literal.exec(text); match !== null; match = literal.exec(text)) {
    if (!Number.isFinite(Number(match[0]))) {
      number = match[0];
      break;
    }
  }
  const target = kind === "json" ? "Go struct field jsonPatchOp.value of type float64" : "Go value of type float64";
  const message = `json: cannot unmarshal number ${number} into ${target}`;
  throw badRequest(kind === "strategic" ? message : `error decoding patch: ${message}`);
}

/** Whether a decoded JSON value holds a number JSON.parse could not represent. Iterative. */
function hasInfiniteNumber(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node === "number" && !Number.isFinite(node)) return true;
    if (node !== null && typeof node === "object") pending.push(...Object.values(node));
  }
  return false;
}

// Go's encoding/json scanner error past its depth.
function depthMessage(bracket: "{" | "["): string {
  return `invalid character '${bracket}' exceeded max depth`;
}

/**
 * The body as Kubernetes quotes it after a decode error: its first 30 bytes, " ..." when there is
 * more; as text for JSON, in hex for YAML (as recorded against 1.26.4).
 */
export function bodySummary(bytes: Uint8Array, form: "text" | "hex"): string {
  const head = bytes.subarray(0, 30);
  const shown = form === "hex" ? Buffer.from(head).toString("hex") : new TextDecoder().decode(head);
  return bytes.byteLength > 30 ? `${shown} ...` : shown;
}

function unrecognized(kind: string, why: string) {
  return badRequest(`the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind; ${why}`);
}
