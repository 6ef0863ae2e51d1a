/**
 * Reads the Protobuf facts a Kubernetes Go binary carries about its API types, so that the
 * embedded server's message tables come from the real server rather than from hand:
 *
 * - every generated.proto of k8s.io/api and k8s.io/apimachinery, as the gzipped
 *   FileDescriptorProto gogo-protobuf's generated code registers (`proto.RegisterFile`): message
 *   and field names, numbers, types, labels, and gogoproto's field options (`nullable=false` is a
 *   Go field that is not a pointer);
 * - every struct tag that has both a `json` and a `protobuf` part (`json:"name,omitempty"
 *   protobuf:"bytes,1,opt,name=name"`): Go keeps tags as strings for reflection, and the json part
 *   is the only record of `omitempty` and `,inline`, which no descriptor holds.
 *
 * Nothing here runs the binary: it is scanned as bytes.
 */
import { readFileSync } from "node:fs";
import { constants, inflateRawSync } from "node:zlib";
import protobuf from "protobufjs";

/** One field of a message descriptor. */
export interface DescriptorField {
  readonly name: string;
  readonly number: number;
  /** FieldDescriptorProto.Label: 1 optional, 3 repeated. */
  readonly label: number;
  /** FieldDescriptorProto.Type: 9 string, 5 int32, 3 int64, 8 bool, 12 bytes, 11 message, ... */
  readonly type: number;
  /** For messages: the fully qualified name with a leading dot. */
  readonly typeName?: string;
  /** gogoproto.nullable = false: the Go field is a value, not a pointer. */
  readonly notNullable: boolean;
}

/** The messages of one generated.proto, by fully qualified name (nested ones as `Outer.Inner`). */
export interface DescriptorFile {
  readonly name: string;
  readonly protoPackage: string;
  readonly messages: ReadonlyMap<string, readonly DescriptorField[]>;
}

/** The json part of the struct tags sharing one protobuf part. */
export interface JsonTag {
  readonly name: string;
  readonly omitempty: boolean;
  readonly inline: boolean;
}

type WireField = readonly [id: number, value: Uint8Array | bigint];

// gzip member header as Go's compress/gzip writes it (no name, no time stamp).
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00]);
const GZIP_HEADER_LENGTH = 10;
// core/v1's descriptor, the largest, is about 70 KB inflated and under 20 KB compressed.
const LONGEST_COMPRESSED = 1 << 20;
const GOGOPROTO_NULLABLE = 65001;

function wireFields(bytes: Uint8Array): WireField[] {
  const reader = protobuf.Reader.create(bytes);
  const out: WireField[] = [];
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    const wireType = tag & 7;
    if (wireType === 2) out.push([tag >>> 3, reader.bytes()]);
    else if (wireType === 0) out.push([tag >>> 3, BigInt(reader.uint64().toString())]);
    else reader.skipType(wireType);
  }
  return out;
}

function text(fields: readonly WireField[], id: number): string | undefined {
  const value = fields.find(([fieldId]) => fieldId === id)?.[1];
  return value instanceof Uint8Array ? Buffer.from(value).toString("utf8") : undefined;
}

function integer(fields: readonly WireField[], id: number): number | undefined {
  const value = fields.find(([fieldId]) => fieldId === id)?.[1];
  return typeof value === "bigint" ? Number(value) : undefined;
}

function children(fields: readonly WireField[], id: number): WireField[][] {
  return fields.filter(([fieldId, value]) => fieldId === id && value instanceof Uint8Array).map(([, value]) => wireFields(value as Uint8Array));
}

function field(fields: readonly WireField[]): DescriptorField {
  const options = children(fields, 8);
  const typeName = text(fields, 6);
  return {
    name: text(fields, 1) ?? "",
    number: integer(fields, 3) ?? 0,
    label: integer(fields, 4) ?? 1,
    type: integer(fields, 5) ?? 0,
    ...(typeName !== undefined && { typeName }),
    notNullable: options.some((option) => option.some(([id, value]) => id === GOGOPROTO_NULLABLE && value === 0n)),
  };
}

function addMessages(message: readonly WireField[], prefix: string, into: Map<string, DescriptorField[]>): void {
  const fullName = `${prefix}.${text(message, 1)}`;
  into.set(fullName, children(message, 2).map(field));
  for (const nested of children(message, 3)) addMessages(nested, fullName, into);
}

function descriptorAt(binary: Buffer, offset: number): DescriptorFile | undefined {
  let inflated: Buffer;
  try {
    const start = offset + GZIP_HEADER_LENGTH;
    inflated = inflateRawSync(binary.subarray(start, start + LONGEST_COMPRESSED), { finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    return undefined;
  }
  let top: WireField[];
  try {
    top = wireFields(inflated);
  } catch {
    return undefined;
  }
  const name = text(top, 1);
  const protoPackage = text(top, 2);
  if (name === undefined || protoPackage === undefined || !name.endsWith("/generated.proto")) return undefined;
  const messages = new Map<string, DescriptorField[]>();
  for (const message of children(top, 4)) addMessages(message, protoPackage, messages);
  return { name, protoPackage, messages };
}

/** Every generated.proto descriptor in the binary, by Protobuf package. */
export function readDescriptors(binary: Buffer): Map<string, DescriptorFile> {
  const files = new Map<string, DescriptorFile>();
  for (let offset = binary.indexOf(GZIP_HEADER); offset >= 0; offset = binary.indexOf(GZIP_HEADER, offset + 1)) {
    const file = descriptorAt(binary, offset);
    if (file !== undefined && !files.has(file.protoPackage)) files.set(file.protoPackage, file);
  }
  return files;
}

// A Go struct tag: `key:"value"` pairs separated by single spaces. In the binary a tag follows its
// field's name and a length byte, which may be a letter: keys are matched by how they end.
const TAG_PATTERN = /[A-Za-z]+:"[^"]*"(?: [A-Za-z]+:"[^"]*")*/g;
const PAIR_PATTERN = /([A-Za-z]+):"([^"]*)"/g;
// The protobuf part: wire type, number, label, then `name=...` (absent on some embedded structs).
const PROTOBUF_PART = /^[a-z0-9]+,(\d+),(?:opt|rep|req)(?:,name=([A-Za-z0-9_]+))?/;

/** The tag's json and protobuf parts, when it has both. */
function tagParts(tag: string): { json: string; protobuf: string } | undefined {
  let json: string | undefined;
  let protobufPart: string | undefined;
  for (const [, key = "", value = ""] of tag.matchAll(PAIR_PATTERN)) {
    if (key.endsWith("json")) json ??= value;
    else if (key.endsWith("protobuf")) protobufPart ??= value;
  }
  return json !== undefined && protobufPart !== undefined ? { json, protobuf: protobufPart } : undefined;
}

/**
 * The json parts of the struct tags, by `number name` of their protobuf part (`number *` where it
 * names no field). One key may have several (two structs with a field `name = 1`, one with
 * omitempty and one without): the caller decides what an ambiguous key means.
 */
export function readJsonTags(binary: Buffer): Map<string, JsonTag[]> {
  const tags = new Map<string, JsonTag[]>();
  for (const [tagText] of binary.toString("latin1").matchAll(TAG_PATTERN)) {
    const parts = tagParts(tagText);
    const protobufMatch = parts === undefined ? null : PROTOBUF_PART.exec(parts.protobuf);
    if (parts === undefined || protobufMatch === null) continue;
    const [jsonName = "", ...options] = parts.json.split(",");
    const tag: JsonTag = { name: jsonName, omitempty: options.includes("omitempty"), inline: options.includes("inline") };
    const key = `${protobufMatch[1]} ${protobufMatch[2] ?? "*"}`;
    const known = tags.get(key) ?? [];
    if (!known.some((other) => other.name === tag.name && other.omitempty === tag.omitempty && other.inline === tag.inline)) known.push(tag);
    tags.set(key, known);
  }
  return tags;
}

/** Both, from the binary at `path`. */
export function readGoBinaryProtobuf(path: string): { descriptors: Map<string, DescriptorFile>; jsonTags: Map<string, JsonTag[]> } {
  const binary = readFileSync(path);
  return { descriptors: readDescriptors(binary), jsonTags: readJsonTags(binary) };
}
