/**
 * `;stream=watch` framing: events out as length-prefixed frames, and back from a byte stream cut
 * anywhere, with the stream's errors (a cut frame at the end, an oversized frame, a bad object).
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "./envelope.ts";
import { ProtobufDecodeError } from "./errors.ts";
import { decodeWatchEvent, encodeWatchEvent, encodeWatchFrame, frame, readWatchEvents, WatchFrameReader, type DecodedWatchEvent } from "./watch-frames.ts";

const cm = (name: string, resourceVersion: string, value: string): JsonObject => ({
  kind: "ConfigMap",
  apiVersion: "v1",
  metadata: { name, namespace: "default", resourceVersion, creationTimestamp: "2026-11-21T12:00:00Z" },
  data: { key: value },
});

const expiredStatus: JsonObject = {
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message: "too old resource version: 205 (262)",
  reason: "Expired",
  code: 410,
};

const events: Array<{ type: string; object: JsonObject }> = [
  { type: "ADDED", object: cm("a", "10", "1") },
  { type: "MODIFIED", object: cm("a", "11", "2") },
  // A bookmark carries only a resourceVersion (and Go's zero creationTimestamp).
  { type: "BOOKMARK", object: { kind: "ConfigMap", apiVersion: "v1", metadata: { resourceVersion: "12", creationTimestamp: null } } },
  { type: "DELETED", object: cm("a", "13", "2") },
  { type: "ERROR", object: expiredStatus },
];

function stream(): Uint8Array {
  return Buffer.concat(events.map((event) => encodeWatchEvent(event.type, String(event.object["apiVersion"]), String(event.object["kind"]), event.object)));
}

const simplified = (decoded: readonly DecodedWatchEvent[]) => decoded.map((event) => ({ type: event.type, object: event.object }));

describe("watch frames", () => {
  it("are a 4-byte big-endian length, then WatchEvent {1: type, 2: {1: the object's full Protobuf body}}", () => {
    const bytes = encodeWatchEvent("ADDED", "v1", "ConfigMap", cm("a", "1", "x"));
    const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, false);
    expect(length).toBe(bytes.length - 4);
    // 0x0a 0x05 "ADDED", then 0x12 <len> 0x0a <len> "k8s\0" …
    expect([...bytes.subarray(4, 11)]).toEqual([0x0a, 0x05, ...Buffer.from("ADDED")]);
    expect(bytes[11]).toBe(0x12);
    expect(Buffer.from(bytes).indexOf(Buffer.from([0x6b, 0x38, 0x73, 0x00]))).toBeGreaterThan(11);
    expect(frame(Uint8Array.of(1, 2, 3))).toEqual(Uint8Array.of(0, 0, 0, 3, 1, 2, 3));
  });

  it("read back from one chunk: every event type, the ERROR event's Status included", () => {
    const reader = new WatchFrameReader();
    expect(simplified(reader.push(stream()))).toEqual(events);
    expect(reader.bufferedBytes).toBe(0);
    reader.end();
  });

  it("read back whatever the chunking: split at every byte, and byte by byte", () => {
    const bytes = stream();
    for (let cut = 0; cut <= bytes.length; cut++) {
      const reader = new WatchFrameReader();
      const read = [...reader.push(bytes.subarray(0, cut)), ...reader.push(bytes.subarray(cut))];
      reader.end();
      expect(simplified(read)).toEqual(events);
    }
    const reader = new WatchFrameReader();
    const read: DecodedWatchEvent[] = [];
    for (const byte of bytes) read.push(...reader.push(Uint8Array.of(byte)));
    expect(simplified(read)).toEqual(events);
  });

  it("reads an async byte stream", async () => {
    const bytes = stream();
    async function* chunks() {
      for (let offset = 0; offset < bytes.length; offset += 7) yield bytes.subarray(offset, offset + 7);
    }
    const read: DecodedWatchEvent[] = [];
    for await (const event of readWatchEvents(chunks())) read.push(event);
    expect(simplified(read)).toEqual(events);
    expect(read[4]).toMatchObject({ type: "ERROR", apiVersion: "v1", kind: "Status" });
  });

  it("refuses a stream that ends inside a frame, an oversized frame, and a frame whose object lacks the prefix", async () => {
    const bytes = stream();
    const reader = new WatchFrameReader();
    reader.push(bytes.subarray(0, bytes.length - 1));
    expect(() => reader.end()).toThrow(ProtobufDecodeError);
    await expect(async () => {
      for await (const _event of readWatchEvents([bytes.subarray(0, 3)])) void _event;
    }).rejects.toMatchObject({ code: "bad-frame" });

    expect(() => new WatchFrameReader(100).push(Uint8Array.of(0, 0, 1, 0))).toThrow(/over the limit/);

    // An object without the "k8s\0" prefix inside the event is rejected like any other body.
    const bad = encodeWatchFrame("ADDED", new TextEncoder().encode('{"kind":"ConfigMap"}'));
    expect(() => new WatchFrameReader().push(bad)).toThrow(expect.objectContaining({ code: "wrong-prefix" }));
    // A payload that is not a WatchEvent.
    expect(() => decodeWatchEvent(Uint8Array.of(0x0a, 0x09, 0x41))).toThrow(expect.objectContaining({ code: "bad-frame" }));
    expect(() => decodeWatchEvent(Uint8Array.of(0x0a, 0x01, 0x41))).toThrow(/without an object/);
  });
});
