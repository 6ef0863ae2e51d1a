/**
 * Reading and decoding request bodies as Kubernetes does: a size limit (413, transcript
 * body-too-large), accepted media types (415, content-type-text; which ones is
 * media-negotiation.ts's `negotiateInput`), JSON, YAML or Protobuf objects only (400 for malformed
 * JSON or a non-object, body-malformed and body-array; for a Protobuf body with a wrong prefix or
 * that does not decode).
 */
import { parse as parseYaml } from "yaml";
import { maxRequestBodyBytes } from "../../spec/doc1/limits.ts";
import { badRequest, failure } from "./api-error.ts";
import type { Serialization } from "./media-negotiation.ts";
import { decodeObject as decodeProtobufObject, ProtobufDecodeError } from "./protobuf/index.ts";

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
  const bytes = new Uint8Array(await request.arrayBuffer());
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
      return decodeProtobufObject(bytes).object;
    } catch (error) {
      // Kubernetes' transformDecodeError, without its summary of the body.
      if (error instanceof ProtobufDecodeError) throw badRequest(`the object provided is unrecognized (must be of type ${kind}): ${error.message}`);
      throw error;
    }
  }
  const text = new TextDecoder().decode(bytes);
  let value: unknown;
  try {
    value = serialization === "yaml" ? parseYaml(text) : JSON.parse(text);
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
