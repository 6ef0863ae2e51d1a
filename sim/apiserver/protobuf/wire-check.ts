/**
 * A structural check of Protobuf bytes against a message type before protobufjs decodes them:
 * protobufjs reads a known field with the reader its type calls for whatever the wire type says,
 * so a varint where a string belongs would decode to garbage. Go's generated code rejects it
 * ("wrong wireType"); this does the same, recursively, and tells a truncated message (a field
 * running past the end) from a malformed one. Unknown fields are skipped, as Go and protobufjs do.
 */
import protobuf from "protobufjs";

/** Bytes that are not a well-formed message of the expected type. */
export class WireError extends Error {
  constructor(
    message: string,
    /** True when the bytes end inside a field. */
    readonly truncated: boolean,
  ) {
    super(message);
  }
}

const VARINT_TYPES: ReadonlySet<string> = new Set(["int32", "int64", "uint32", "uint64", "sint32", "sint64", "bool", "enum"]);
const LENGTH_TYPES: ReadonlySet<string> = new Set(["string", "bytes"]);

/** Throws WireError unless `bytes` are a well-formed message of `type` (checked through nested messages). */
export function checkWire(type: protobuf.Type, bytes: Uint8Array): void {
  try {
    walk(type, bytes, type.name);
  } catch (error) {
    if (error instanceof WireError) throw error;
    // protobufjs' Reader throws a RangeError when a varint or a length runs past the end.
    if (error instanceof RangeError) throw new WireError(`${type.name}: truncated (${error.message})`, true);
    throw new WireError(`${type.name}: ${(error as Error).message}`, false);
  }
}

function walk(type: protobuf.Type, bytes: Uint8Array, path: string): void {
  const reader = protobuf.Reader.create(bytes);
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    const id = tag >>> 3;
    const wireType = tag & 7;
    if (id === 0) throw new WireError(`${path}: field number 0`, false);
    const field = type.fieldsById[id];
    if (field === undefined) {
      reader.skipType(wireType);
      continue;
    }
    const at = `${path}.${field.name}`;
    if (field.resolvedType instanceof protobuf.Type) {
      if (wireType !== 2) throw new WireError(`${at}: wire type ${wireType}, expected 2 (message)`, false);
      const length = reader.uint32();
      const end = reader.pos + length;
      if (end > reader.len) throw new WireError(`${at}: truncated (${length} bytes announced, ${reader.len - reader.pos} left)`, true);
      walk(field.resolvedType, bytes.subarray(reader.pos, end), at);
      reader.pos = end;
    } else if (LENGTH_TYPES.has(field.type)) {
      if (wireType !== 2) throw new WireError(`${at}: wire type ${wireType}, expected 2 (${field.type})`, false);
      reader.skipType(2);
    } else if (VARINT_TYPES.has(field.type)) {
      // A repeated varint may come packed (wire type 2): Go and protobufjs read both forms.
      if (wireType !== 0 && !(wireType === 2 && field.repeated)) {
        throw new WireError(`${at}: wire type ${wireType}, expected 0 (${field.type})`, false);
      }
      reader.skipType(wireType);
    } else {
      reader.skipType(wireType);
    }
  }
}
