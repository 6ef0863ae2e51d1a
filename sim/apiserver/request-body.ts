/**
 * Reading and decoding request bodies as Kubernetes does: a size limit (413, transcript
 * body-too-large), accepted media types (415, content-type-text), JSON or YAML objects only (400
 * for malformed JSON or a non-object, body-malformed and body-array).
 */
import { parse as parseYaml } from "yaml";
import { maxRequestBodyBytes } from "../../spec/doc1/limits.ts";
import { badRequest, failure } from "./api-error.ts";

/** Media types of object bodies (protobuf bodies come with the Protobuf representation). */
const OBJECT_MEDIA_TYPES = ["application/json", "application/yaml"];

/** Media types of PATCH bodies, and how each patch is applied. */
export const PATCH_MEDIA_TYPES = {
  "application/merge-patch+json": "merge",
  "application/json-patch+json": "json",
  // Strategic merge patch is treated as a merge patch for built-in kinds (issue #3).
  "application/strategic-merge-patch+json": "merge",
} as const;

/** How a patch body is applied. */
export type PatchKind = (typeof PATCH_MEDIA_TYPES)[keyof typeof PATCH_MEDIA_TYPES];

/** The body's bytes, or a 413 past the limit. */
export async function readBody(request: Request): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxRequestBodyBytes) throw tooLarge();
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > maxRequestBodyBytes) throw tooLarge();
  return bytes;
}

function tooLarge() {
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

/** Decodes an object body (JSON, or YAML), for a type of kind `kind`. */
export function decodeObject(bytes: Uint8Array, contentType: string | null, kind: string, protobufMediaType: string): Record<string, unknown> {
  const mediaType = mediaTypeOf(contentType);
  // A missing Content-Type is read as JSON, as kube-apiserver does.
  if (mediaType !== "" && !OBJECT_MEDIA_TYPES.includes(mediaType)) {
    throw unsupportedMediaType([...OBJECT_MEDIA_TYPES, protobufMediaType]);
  }
  const text = new TextDecoder().decode(bytes);
  let value: unknown;
  try {
    value = mediaType === "application/yaml" ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw unrecognized(kind, `json parse error: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw unrecognized(kind, "json parse error: the body is not a JSON object");
  }
  return value as Record<string, unknown>;
}

/** Decodes a JSON document of any shape (patch bodies). */
export function decodeJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw badRequest(`error decoding patch: ${(error as Error).message}`);
  }
}

function unrecognized(kind: string, why: string) {
  return badRequest(`the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind; ${why}`);
}
