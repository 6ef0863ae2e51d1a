/**
 * The Protobuf body of doc 1 §2.6: the prefix 0x6b 0x38 0x73 0x00 ("k8s\0"), then a runtime.Unknown
 * {1: typeMeta {1: apiVersion, 2: kind}, 2: raw, 3: contentEncoding, 4: contentType} whose raw is
 * the object's message. Bodies in, JSON objects out, and back: the server's JSON stays the one
 * representation; this is a wire format for it.
 */
import type protobuf from "protobufjs";
import { jsonToMessage, messageToJson, type EncodeOptions, type JsonObject, type PlainMessage } from "./convert.ts";
import { ProtobufDecodeError, ProtobufEncodeError } from "./errors.ts";
import { protobufKind } from "./kinds.ts";
import { messageInfo } from "./schema.ts";
import { checkWire, WireError } from "./wire-check.ts";

export type { EncodeOptions, JsonObject } from "./convert.ts";

/** The four bytes every Protobuf body starts with. */
export const PROTOBUF_PREFIX: Uint8Array = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

/** A decoded Protobuf body. */
export interface DecodedObject {
  readonly apiVersion: string;
  readonly kind: string;
  /** The object as the server's JSON: `kind` and `apiVersion` first, then its fields in Go order. */
  readonly object: JsonObject;
}

/** The envelope of a Protobuf body, before its object is decoded. */
export interface Envelope {
  readonly apiVersion: string;
  readonly kind: string;
  readonly raw: Uint8Array;
}

/** `bytes` as a plain Uint8Array (protobufjs gives Node Buffers). */
function plain(bytes: Uint8Array): Uint8Array {
  return Object.getPrototypeOf(bytes) === Uint8Array.prototype ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Whether `bytes` start with the Protobuf prefix. */
export function hasProtobufPrefix(bytes: Uint8Array): boolean {
  return bytes.length >= PROTOBUF_PREFIX.length && PROTOBUF_PREFIX.every((byte, index) => bytes[index] === byte);
}

/** The message bytes of a JSON object of message type `messageName` (no envelope). */
export function encodeMessage(messageName: string, json: unknown, options?: EncodeOptions): Uint8Array {
  return plain(messageInfo(messageName).type.encode(jsonToMessage(messageName, json, options)).finish());
}

/** Prefix + Unknown around `raw`, as Kubernetes writes it (empty contentEncoding and contentType). */
export function wrapEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  const unknown = messageInfo("Unknown")
    .type.encode({ typeMeta: { apiVersion, kind }, raw, contentEncoding: "", contentType: "" })
    .finish();
  const body = new Uint8Array(PROTOBUF_PREFIX.length + unknown.length);
  body.set(PROTOBUF_PREFIX, 0);
  body.set(unknown, PROTOBUF_PREFIX.length);
  return body;
}

/**
 * The Protobuf body of a JSON object of `apiVersion`/`kind` (a served kind, its `<Kind>List`,
 * Status, DeleteOptions or Eviction). Throws ProtobufEncodeError for a kind without a Protobuf
 * form, a value of the wrong type, or (unless `unknownFields: "drop"`) fields the schema lacks.
 */
export function encodeObject(apiVersion: string, kind: string, object: JsonObject, options?: EncodeOptions): Uint8Array {
  const entry = protobufKind(apiVersion, kind);
  if (entry === undefined) {
    throw new ProtobufEncodeError("unknown-kind", `${kind} in ${apiVersion} has no Protobuf form`);
  }
  return wrapEnvelope(apiVersion, kind, encodeMessage(entry.message, object, options));
}

function decodeChecked(type: protobuf.Type, bytes: Uint8Array, onTruncated: () => ProtobufDecodeError, onMalformed: (why: string) => ProtobufDecodeError): PlainMessage {
  try {
    checkWire(type, bytes);
    return type.decode(bytes) as unknown as PlainMessage;
  } catch (error) {
    if (error instanceof WireError && error.truncated) throw onTruncated();
    if (error instanceof RangeError) throw onTruncated();
    throw onMalformed((error as Error).message);
  }
}

/** The envelope of a Protobuf body; throws ProtobufDecodeError for a wrong prefix or a bad envelope. */
export function decodeEnvelope(bytes: Uint8Array): Envelope {
  if (!hasProtobufPrefix(bytes)) {
    throw new ProtobufDecodeError(
      "wrong-prefix",
      `provided data does not appear to be a protobuf message, expected prefix [${[...PROTOBUF_PREFIX].join(" ")}]`,
    );
  }
  const unknown = decodeChecked(
    messageInfo("Unknown").type,
    bytes.subarray(PROTOBUF_PREFIX.length),
    () => new ProtobufDecodeError("truncated-envelope", "the Protobuf envelope is truncated"),
    (why) => new ProtobufDecodeError("malformed-envelope", `the Protobuf envelope is malformed: ${why}`),
  );
  const typeMeta = (unknown["typeMeta"] ?? {}) as PlainMessage;
  const apiVersion = typeof typeMeta["apiVersion"] === "string" ? typeMeta["apiVersion"] : "";
  const kind = typeof typeMeta["kind"] === "string" ? typeMeta["kind"] : "";
  if (kind === "") throw new ProtobufDecodeError("missing-kind", "Object 'Kind' is missing in the Protobuf envelope");
  const contentEncoding = typeof unknown["contentEncoding"] === "string" ? unknown["contentEncoding"] : "";
  const contentType = typeof unknown["contentType"] === "string" ? unknown["contentType"] : "";
  if (contentEncoding !== "") {
    throw new ProtobufDecodeError("unsupported-content", `unsupported contentEncoding ${JSON.stringify(contentEncoding)} in the Protobuf envelope`);
  }
  if (contentType !== "" && !/^application\/vnd\.[a-z0-9.-]+\.protobuf$/.test(contentType)) {
    throw new ProtobufDecodeError("unsupported-content", `unsupported contentType ${JSON.stringify(contentType)} in the Protobuf envelope`);
  }
  const raw = unknown["raw"] instanceof Uint8Array ? plain(unknown["raw"]) : new Uint8Array(0);
  return { apiVersion, kind, raw };
}

/**
 * A Protobuf body as a JSON object. Throws ProtobufDecodeError for a wrong prefix (doc 1 §2.6: the
 * client must reject it), a truncated or malformed envelope, a kind without a Protobuf form, or a
 * raw object that is not a well-formed message of its kind.
 */
export function decodeObject(bytes: Uint8Array): DecodedObject {
  const { apiVersion, kind, raw } = decodeEnvelope(bytes);
  const entry = protobufKind(apiVersion, kind);
  if (entry === undefined) {
    throw new ProtobufDecodeError("unknown-kind", `no kind "${kind}" is registered for version "${apiVersion}" with a Protobuf form`);
  }
  const message = decodeChecked(
    messageInfo(entry.message).type,
    raw,
    () => new ProtobufDecodeError("malformed-object", `the ${kind} in the Protobuf body is truncated`),
    (why) => new ProtobufDecodeError("malformed-object", `the ${kind} in the Protobuf body is malformed: ${why}`),
  );
  const object: JsonObject = { kind, apiVersion, ...messageToJson(entry.message, message) };
  return { apiVersion, kind, object };
}
