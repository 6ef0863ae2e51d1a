/**
 * The binary envelope (doc 1 §2.6), parsed with a wire reader of its own (prefix, the four fields
 * of Unknown, TypeMeta's two fields), so the suite does not only trust the server's own encoder
 * through its own decoder; the object inside `raw` is decoded with sim/apiserver/protobuf, the
 * schema the harness keeps for the served kinds. That decoder rejects any other prefix, as doc 1
 * §2.6 asks of a client ("must reject the response"). Also the frames of a binary watch.
 */
import { decodeObject, ProtobufDecodeError, type JsonObject } from "../../../sim/apiserver/protobuf/index.ts";
import { CaseFailure } from "../../case-outcome.ts";
import { check, checkEqual } from "../../check.ts";

/** The four bytes every Protobuf body starts with (doc 1 §2.6). */
export const ENVELOPE_PREFIX: readonly number[] = [0x6b, 0x38, 0x73, 0x00];

function hex(bytes: ArrayLike<number>): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join(" ");
}

/** One field of a Protobuf message: its number, wire type and value (a varint, or the bytes of a length-delimited field). */
interface WireField {
  readonly field: number;
  readonly wireType: number;
  readonly value: number | Uint8Array;
}

/** The fields of a Protobuf message, in order; throws CaseFailure on bytes that are not one. */
export function wireFields(bytes: Uint8Array, what: string): WireField[] {
  const fields: WireField[] = [];
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (let shift = 0; shift < 64; shift += 7) {
      if (at >= bytes.length) throw new CaseFailure(`${what}: the message ends inside a varint at byte ${at}`);
      const byte = bytes[at++]!;
      value += (byte & 0x7f) * scale;
      scale *= 128;
      if ((byte & 0x80) === 0) return value;
    }
    throw new CaseFailure(`${what}: a varint longer than 10 bytes at byte ${at}`);
  };
  while (at < bytes.length) {
    const start = at;
    const tag = varint();
    const field = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (field === 0) throw new CaseFailure(`${what}: field number 0 at byte ${start}: not a Protobuf message`);
    switch (wireType) {
      case 0:
        fields.push({ field, wireType, value: varint() });
        break;
      case 1:
      case 5: {
        const size = wireType === 1 ? 8 : 4;
        if (at + size > bytes.length) throw new CaseFailure(`${what}: field ${field} is truncated`);
        fields.push({ field, wireType, value: bytes.subarray(at, at + size) });
        at += size;
        break;
      }
      case 2: {
        const length = varint();
        if (at + length > bytes.length) throw new CaseFailure(`${what}: field ${field} claims ${length} bytes, ${bytes.length - at} remain`);
        fields.push({ field, wireType, value: bytes.subarray(at, at + length) });
        at += length;
        break;
      }
      default:
        throw new CaseFailure(`${what}: wire type ${wireType} (field ${field}) at byte ${start}: not a Protobuf message`);
    }
  }
  return fields;
}

/** The fields of the envelope's `Unknown` message (doc 1 §2.6), each undefined when absent. */
export interface EnvelopeFields {
  readonly typeMeta: { readonly apiVersion: string | undefined; readonly kind: string | undefined } | undefined;
  readonly raw: Uint8Array | undefined;
  readonly contentEncoding: string | undefined;
  readonly contentType: string | undefined;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function stringField(field: WireField, what: string): string {
  check(field.value instanceof Uint8Array, `${what}: field ${field.field} should be a string (wire type 2), has wire type ${field.wireType}`);
  try {
    return utf8.decode(field.value);
  } catch {
    throw new CaseFailure(`${what}: field ${field.field} is not UTF-8 text`);
  }
}

/**
 * Reads a Protobuf body: the prefix 0x6b 0x38 0x73 0x00, then `Unknown` {1 typeMeta {1 apiVersion,
 * 2 kind}, 2 raw, 3 contentEncoding, 4 contentType}, every field length-delimited and optional.
 * A body with another prefix fails the case: a client must reject it (doc 1 §2.6).
 */
export function readEnvelope(bytes: Uint8Array, what: string): EnvelopeFields {
  const prefix = bytes.subarray(0, ENVELOPE_PREFIX.length);
  check(
    prefix.length === ENVELOPE_PREFIX.length && ENVELOPE_PREFIX.every((byte, index) => prefix[index] === byte),
    `${what}: a Protobuf body must start with the bytes ${hex(ENVELOPE_PREFIX)}, this one starts with ${hex(prefix)} (${bytes.length} bytes in all); a client must reject it`,
  );
  let typeMeta: EnvelopeFields["typeMeta"];
  let raw: Uint8Array | undefined;
  let contentEncoding: string | undefined;
  let contentType: string | undefined;
  for (const field of wireFields(bytes.subarray(ENVELOPE_PREFIX.length), `${what} (the Unknown message after the prefix)`)) {
    check(field.field >= 1 && field.field <= 4, `${what}: the Unknown message has field ${field.field}; it has only 1 typeMeta, 2 raw, 3 contentEncoding, 4 contentType`);
    check(field.wireType === 2, `${what}: field ${field.field} of Unknown should be length-delimited (wire type 2), has wire type ${field.wireType}`);
    const value = field.value as Uint8Array;
    if (field.field === 1) {
      let apiVersion: string | undefined;
      let kind: string | undefined;
      for (const inner of wireFields(value, `${what} (typeMeta)`)) {
        check(inner.field === 1 || inner.field === 2, `${what}: TypeMeta has field ${inner.field}; it has only 1 apiVersion and 2 kind`);
        if (inner.field === 1) apiVersion = stringField(inner, `${what}: typeMeta.apiVersion`);
        else kind = stringField(inner, `${what}: typeMeta.kind`);
      }
      typeMeta = { apiVersion, kind };
    } else if (field.field === 2) raw = value;
    else if (field.field === 3) contentEncoding = stringField(field, `${what}: contentEncoding`);
    else contentType = stringField(field, `${what}: contentType`);
  }
  return { typeMeta, raw, contentEncoding, contentType };
}

/**
 * Checks a Protobuf body of `apiVersion`/`kind` and returns its object as JSON: the prefix, the
 * envelope, typeMeta naming the kind, raw present, contentEncoding unspecified or empty (no
 * encoding), contentType unspecified, empty or the binary media type, and raw a well-formed
 * message of the kind (decoded with the harness's schema, which also rejects any other prefix).
 */
export function checkProtobufObject(bytes: Uint8Array, expected: { readonly apiVersion: string; readonly kind: string }, binaryMediaType: string, what: string): JsonObject {
  const envelope = readEnvelope(bytes, what);
  check(envelope.typeMeta !== undefined, `${what}: the envelope has no typeMeta (field 1), so the kind and apiVersion of the object are not carried`);
  checkEqual(envelope.typeMeta.apiVersion, expected.apiVersion, `${what}: typeMeta.apiVersion`);
  checkEqual(envelope.typeMeta.kind, expected.kind, `${what}: typeMeta.kind`);
  check(envelope.raw !== undefined && envelope.raw.length > 0, `${what}: the envelope has no raw (field 2): the serialized object is missing`);
  check(envelope.contentEncoding === undefined || envelope.contentEncoding === "", `${what}: contentEncoding is ${JSON.stringify(envelope.contentEncoding)}; the served object is not encoded, so it must be unspecified`);
  check(
    envelope.contentType === undefined || envelope.contentType === "" || envelope.contentType.toLowerCase() === binaryMediaType.toLowerCase(),
    `${what}: contentType is ${JSON.stringify(envelope.contentType)}; raw is in the binary media type, so it must be unspecified or ${binaryMediaType}`,
  );
  try {
    const decoded = decodeObject(bytes);
    return decoded.object;
  } catch (error) {
    if (error instanceof ProtobufDecodeError) throw new CaseFailure(`${what}: raw is not the complete serialized ${expected.kind}: ${error.message}`);
    throw error;
  }
}

/** The first place two JSON values differ, as `path: a vs b`, or undefined when they are equal. */
export function firstDifference(a: unknown, b: unknown, path = ""): string | undefined {
  if (Object.is(a, b)) return undefined;
  const show = (value: unknown) => (value === undefined ? "absent" : JSON.stringify(value)?.slice(0, 120));
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    return `${path || "(root)"}: ${show(a)} vs ${show(b)}`;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let index = 0; index < Math.max(a.length, b.length); index++) {
      const found = firstDifference(a[index], b[index], `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
    const found = firstDifference(left[key], right[key], path === "" ? key : `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Fails unless the object decoded from the binary form is the JSON answer's object. */
export function checkSameObject(fromProtobuf: unknown, fromJson: unknown, what: string): void {
  const difference = firstDifference(fromProtobuf, fromJson);
  check(difference === undefined, `${what}: the object decoded from the Protobuf answer differs from the JSON answer at ${difference} (Protobuf vs JSON)`);
}

/** One event of a `;stream=watch` body: its type and the Protobuf body of its object. */
export interface ProtobufWatchFrame {
  readonly type: string;
  readonly object: Uint8Array;
}

/**
 * Splits a binary watch body into its events: each a 4-byte big-endian length, then a WatchEvent
 * {1 type, 2 object {1 raw}}, raw being an object's whole Protobuf body (transcript watch-protobuf).
 */
export function protobufWatchFrames(bytes: Uint8Array, what: string): ProtobufWatchFrame[] {
  const frames: ProtobufWatchFrame[] = [];
  let at = 0;
  while (at < bytes.length) {
    check(at + 4 <= bytes.length, `${what}: the stream ends inside the length of frame ${frames.length + 1}`);
    const length = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, false);
    check(at + 4 + length <= bytes.length, `${what}: frame ${frames.length + 1} claims ${length} bytes, ${bytes.length - at - 4} remain`);
    const payload = bytes.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    let type: string | undefined;
    let object: Uint8Array | undefined;
    for (const field of wireFields(payload, `${what} (frame ${frames.length + 1})`)) {
      if (field.field === 1) type = stringField(field, `${what}: frame ${frames.length + 1} type`);
      if (field.field === 2 && field.value instanceof Uint8Array) {
        for (const inner of wireFields(field.value, `${what} (frame ${frames.length + 1} object)`)) {
          if (inner.field === 1 && inner.value instanceof Uint8Array) object = inner.value;
        }
      }
    }
    check(type !== undefined && object !== undefined, `${what}: frame ${frames.length + 1} is not a watch event with a type and an object`);
    frames.push({ type, object });
  }
  return frames;
}
