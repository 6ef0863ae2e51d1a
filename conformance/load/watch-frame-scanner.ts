/**
 * Reads a Protobuf watch stream (`application/vnd.kubernetes.protobuf;stream=watch`, framed as
 * sim/apiserver/protobuf/watch-frames.ts describes) without decoding its objects: a load run
 * receives millions of events, and a full decode of each would make the client the bottleneck.
 * Each frame is one event; the scanner walks just the fields on the way to the event's type and
 * its object's resourceVersion:
 *   WatchEvent {1: type, 2: RawExtension {1: raw = "k8s\0" + Unknown {2: raw = object {1: ObjectMeta {6: resourceVersion}}}}}
 * Every built-in object has its ObjectMeta at field 1, as Kubernetes' generated.proto declares.
 */
import protobuf from "protobufjs";
import type { ScannedEvent } from "./watch-line-scanner.ts";

const PREFIX_BYTES = 4;
const LENGTH_BYTES = 4;

/** Splits a stream's chunks into frames and scans each. */
export class WatchFrameScanner {
  private pending: Buffer = Buffer.alloc(0);

  /** The events completed by this chunk, in order. */
  push(chunk: Buffer): ScannedEvent[] {
    const bytes = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const events: ScannedEvent[] = [];
    let at = 0;
    while (bytes.length - at >= LENGTH_BYTES) {
      const end = at + LENGTH_BYTES + bytes.readUInt32BE(at);
      if (end > bytes.length) break;
      events.push(scanFrame(bytes.subarray(at + LENGTH_BYTES, end)));
      at = end;
    }
    this.pending = Buffer.from(bytes.subarray(at));
    return events;
  }
}

/**
 * Counts the frames of a stream as its chunks arrive, keeping only where the current frame ends:
 * what the digesting watchers do for each of a thousand streams.
 */
export class WatchFrameCounter {
  /** Bytes of the current frame's length read so far, and its length once all four are. */
  private lengthBytesRead = 0;
  private length = 0;
  /** Bytes of the current frame's payload still to come. */
  private remaining = 0;

  /** Frames completed by this chunk. */
  push(chunk: Buffer): number {
    let frames = 0;
    let at = 0;
    while (at < chunk.length) {
      if (this.remaining > 0) {
        const taken = Math.min(this.remaining, chunk.length - at);
        this.remaining -= taken;
        at += taken;
        if (this.remaining === 0) frames++;
        continue;
      }
      this.length = this.length * 256 + chunk[at]!;
      this.lengthBytesRead++;
      at++;
      if (this.lengthBytesRead < LENGTH_BYTES) continue;
      this.remaining = this.length;
      this.lengthBytesRead = 0;
      this.length = 0;
      if (this.remaining === 0) frames++;
    }
    return frames;
  }
}

/** The type and resourceVersion of one frame's payload; "?" for a field not found. */
export function scanFrame(payload: Buffer): ScannedEvent {
  const type = field(payload, 1);
  const extension = field(payload, 2);
  const raw = extension === undefined ? undefined : field(extension, 1);
  const unknown = raw === undefined || raw.length < PREFIX_BYTES ? undefined : raw.subarray(PREFIX_BYTES);
  const object = unknown === undefined ? undefined : field(unknown, 2);
  const metadata = object === undefined ? undefined : field(object, 1);
  const resourceVersion = metadata === undefined ? undefined : field(metadata, 6);
  return { type: type?.toString("utf8") ?? "?", resourceVersion: resourceVersion?.toString("utf8") ?? "?" };
}

/** The bytes of the first length-delimited field `number` of `message`, or undefined (absent or malformed). */
function field(message: Buffer, number: number): Buffer | undefined {
  const reader = protobuf.Reader.create(message);
  try {
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if (tag >>> 3 !== number || (tag & 7) !== 2) {
        reader.skipType(tag & 7);
        continue;
      }
      const length = reader.uint32();
      if (reader.pos + length > reader.len) return undefined;
      return message.subarray(reader.pos, reader.pos + length);
    }
  } catch {
    // protobufjs' Reader throws a RangeError when a varint or a length runs past the end.
  }
  return undefined;
}
