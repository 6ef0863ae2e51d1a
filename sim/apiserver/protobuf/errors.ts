/**
 * The errors of the Protobuf codecs. A decode error is the client's fault: the server answers 400
 * (Kubernetes answers a body it cannot decode with BadRequest; a kind without a Protobuf form is
 * refused earlier, with 415, see kinds.ts `supportsProtobuf`). An encode error is the server's:
 * an object it holds that the schema cannot carry.
 */

/** Why a Protobuf body could not be decoded. */
export type ProtobufDecodeErrorCode =
  /** The body does not start with 0x6b 0x38 0x73 0x00 (doc 1 §2.6: the client must reject it). */
  | "wrong-prefix"
  /** The `Unknown` envelope ends inside a field. */
  | "truncated-envelope"
  /** The envelope is not a well-formed `Unknown` message. */
  | "malformed-envelope"
  /** The envelope has no kind. */
  | "missing-kind"
  /** apiVersion/kind has no Protobuf form here. */
  | "unknown-kind"
  /** A contentEncoding or a contentType other than Protobuf. */
  | "unsupported-content"
  /** `raw` is not a well-formed message of the kind (truncated, wrong wire types, bad values). */
  | "malformed-object"
  /** A `;stream=watch` stream that ends inside a frame, or a frame over the size limit. */
  | "bad-frame";

/** A Protobuf body that cannot be decoded. */
export class ProtobufDecodeError extends Error {
  override readonly name = "ProtobufDecodeError";
  constructor(
    readonly code: ProtobufDecodeErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** The HTTP status a server answers a request body with this error with. */
  get httpStatus(): 400 {
    return 400;
  }
}

/** Why an object could not be encoded. */
export type ProtobufEncodeErrorCode =
  /** apiVersion/kind has no Protobuf form (custom resources are JSON only). */
  | "unknown-kind"
  /** The object has fields the schema does not cover (with `unknownFields: "error"`). */
  | "unknown-field"
  /** A value of the wrong JSON type, or not in range (an int32 over 2^31, a bad timestamp…). */
  | "invalid-value";

/** A JSON object that cannot be written as Protobuf. */
export class ProtobufEncodeError extends Error {
  override readonly name = "ProtobufEncodeError";
  constructor(
    readonly code: ProtobufEncodeErrorCode,
    message: string,
    /** JSON paths of the offending fields (`spec.volumes[0].gcePersistentDisk`). */
    readonly paths: readonly string[] = [],
  ) {
    super(message);
  }
}
