/**
 * Watch in Protobuf, `application/vnd.kubernetes.protobuf;stream=watch`, framed as Kubernetes
 * frames it (and as transcript watch-protobuf shows): each event is a 4-byte big-endian length,
 * then a meta/v1 WatchEvent {1: type, 2: object RawExtension {1: raw}} written without prefix or
 * envelope, whose raw is the object's full Protobuf body (prefix + Unknown envelope).
 */
import type { EncodeOptions, JsonObject, PlainMessage } from "./convert.ts";
import { decodeObject, encodeObject } from "./envelope.ts";
import { ProtobufDecodeError } from "./errors.ts";
import { messageInfo } from "./schema.ts";
import { checkWire, WireError } from "./wire-check.ts";

/** One watch event read from a stream. */
export interface DecodedWatchEvent {
  /** ADDED, MODIFIED, DELETED, BOOKMARK or ERROR. */
  readonly type: string;
  readonly apiVersion: string;
  readonly kind: string;
  /** The object as JSON, `kind` and `apiVersion` included (a Status for ERROR). */
  readonly object: JsonObject;
}

/** Frames above this size are refused by default (a stream that is not one would otherwise buffer without end). */
export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** A frame: the 4-byte big-endian length of `payload`, then `payload`. */
export function frame(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + payload.length);
  new DataView(out.buffer).setUint32(0, payload.length, false);
  out.set(payload, 4);
  return out;
}

/** The frame of a watch event whose object is already a Protobuf body (prefix + envelope). */
export function encodeWatchFrame(type: string, objectBody: Uint8Array): Uint8Array {
  return frame(messageInfo("WatchEvent").type.encode({ type, object: { raw: objectBody } }).finish());
}

/**
 * The frame of one watch event: `type` (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR) and the JSON
 * object of `apiVersion`/`kind` (a Status for ERROR). Throws ProtobufEncodeError as encodeObject.
 */
export function encodeWatchEvent(type: string, apiVersion: string, kind: string, object: JsonObject, options?: EncodeOptions): Uint8Array {
  return encodeWatchFrame(type, encodeObject(apiVersion, kind, object, options));
}

/** One frame's payload (a WatchEvent) as an event; throws ProtobufDecodeError. */
export function decodeWatchEvent(payload: Uint8Array): DecodedWatchEvent {
  const type = messageInfo("WatchEvent").type;
  let event: PlainMessage;
  try {
    checkWire(type, payload);
    event = type.decode(payload) as unknown as PlainMessage;
  } catch (error) {
    const truncated = (error instanceof WireError && error.truncated) || error instanceof RangeError;
    throw new ProtobufDecodeError("bad-frame", `a watch frame is ${truncated ? "truncated" : "malformed"}: ${(error as Error).message}`);
  }
  const raw = ((event["object"] ?? {}) as PlainMessage)["raw"];
  if (!(raw instanceof Uint8Array)) throw new ProtobufDecodeError("bad-frame", "a watch event without an object");
  const decoded = decodeObject(raw);
  return { type: typeof event["type"] === "string" ? event["type"] : "", ...decoded };
}

/**
 * Reads watch events from the bytes of a `;stream=watch` response as they arrive, in chunks cut
 * anywhere. `push` returns the events completed by a chunk; `end` throws when the stream stopped
 * inside a frame.
 */
export class WatchFrameReader {
  private pending: Uint8Array = new Uint8Array(0);

  constructor(private readonly maxFrameBytes: number = DEFAULT_MAX_FRAME_BYTES) {}

  /** Bytes received that do not yet make a whole frame. */
  get bufferedBytes(): number {
    return this.pending.length;
  }

  push(chunk: Uint8Array): DecodedWatchEvent[] {
    if (chunk.length > 0) {
      const joined = new Uint8Array(this.pending.length + chunk.length);
      joined.set(this.pending, 0);
      joined.set(chunk, this.pending.length);
      this.pending = joined;
    }
    const events: DecodedWatchEvent[] = [];
    let offset = 0;
    while (this.pending.length - offset >= 4) {
      const length = new DataView(this.pending.buffer, this.pending.byteOffset + offset, 4).getUint32(0, false);
      if (length > this.maxFrameBytes) {
        throw new ProtobufDecodeError("bad-frame", `a watch frame of ${length} bytes is over the limit of ${this.maxFrameBytes}`);
      }
      if (this.pending.length - offset - 4 < length) break;
      events.push(decodeWatchEvent(this.pending.subarray(offset + 4, offset + 4 + length)));
      offset += 4 + length;
    }
    this.pending = this.pending.slice(offset);
    return events;
  }

  /** The stream ended: throws if it ended inside a frame. */
  end(): void {
    if (this.pending.length > 0) {
      throw new ProtobufDecodeError("bad-frame", `the watch stream ended inside a frame (${this.pending.length} bytes left)`);
    }
  }
}

/** The events of a `;stream=watch` byte stream, one at a time. */
export async function* readWatchEvents(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  maxFrameBytes: number = DEFAULT_MAX_FRAME_BYTES,
): AsyncGenerator<DecodedWatchEvent> {
  const reader = new WatchFrameReader(maxFrameBytes);
  for await (const chunk of chunks) yield* reader.push(chunk);
  reader.end();
}
