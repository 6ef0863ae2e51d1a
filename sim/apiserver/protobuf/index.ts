/**
 * The Protobuf representation (doc 1 §2.6, issue #4): what the rest of the server imports.
 * - envelope.ts: bodies ↔ JSON objects (`encodeObject`, `decodeObject`);
 * - watch-frames.ts: `;stream=watch` frames (`encodeWatchEvent`, `WatchFrameReader`, `readWatchEvents`);
 * - kinds.ts: which kinds have a Protobuf form (`supportsProtobuf`; custom resources do not);
 * - errors.ts: `ProtobufDecodeError` (answer 400), `ProtobufEncodeError`.
 */
export type { EncodeOptions, JsonObject } from "./convert.ts";
export {
  decodeEnvelope,
  decodeObject,
  encodeMessage,
  encodeObject,
  hasProtobufPrefix,
  PROTOBUF_PREFIX,
  wrapEnvelope,
  type DecodedObject,
  type Envelope,
} from "./envelope.ts";
export { ProtobufDecodeError, ProtobufEncodeError, type ProtobufDecodeErrorCode, type ProtobufEncodeErrorCode } from "./errors.ts";
export { protobufKind, protobufKinds, supportsProtobuf, type ProtobufKind } from "./kinds.ts";
export {
  decodeWatchEvent,
  DEFAULT_MAX_FRAME_BYTES,
  encodeWatchEvent,
  encodeWatchFrame,
  readWatchEvents,
  WatchFrameReader,
  type DecodedWatchEvent,
} from "./watch-frames.ts";
