/**
 * The shape of the message tables the Protobuf schema is built from (recorded-messages.ts reads
 * them as recorded from kube-apiserver): each message is its fields in the order of the Go struct
 * (which is the order of Kubernetes' generated.proto and of the JSON a Go server writes), with the
 * field numbers of k8s.io/api and k8s.io/apimachinery, and the two Go facts that decide both
 * encodings: whether the Go field is a pointer, and whether its JSON tag has `omitempty`.
 *
 * How those facts drive the codecs (convert.ts), as gogo-protobuf and encoding/json do in Go:
 * - a non-pointer scalar is always written to Protobuf (also when zero); in JSON it is left out
 *   when zero unless `keep` (no omitempty);
 * - a pointer (`ptr`) is written to Protobuf only when set, and to JSON whenever set (even zero);
 * - a non-pointer struct is always written to both (an empty message; `{}` in JSON; a zero Time
 *   is an empty message and JSON `null`);
 * - repeated and map fields are written when non-empty; an empty one is `null` in JSON when `keep`;
 * - `inline` is a Go embedded struct (`json:",inline"`): its own Protobuf field, but its JSON
 *   fields sit in the parent object.
 */

/** Protobuf scalar types used by the tables. */
export type ScalarType = "string" | "int32" | "int64" | "bool" | "bytes";

/** Messages with a JSON form of their own (not an object of their fields); convert.ts handles each. */
export type SpecialType = "Time" | "MicroTime" | "IntOrString" | "Quantity" | "FieldsV1" | "RawExtension" | "ExtraValue";

export const SCALAR_TYPES: ReadonlySet<string> = new Set<ScalarType>(["string", "int32", "int64", "bool", "bytes"]);

/** One field of a message. */
export interface FieldDef {
  /** The JSON name (for `inline`, the Protobuf name); also the protobufjs field's name, which no wire byte carries. */
  readonly name: string;
  /** The Protobuf field number. */
  readonly id: number;
  /** A scalar type or the key of a message (schema.ts: its short name where unique). */
  readonly type: string;
  /** repeated field; a `map` is a map from string keys to `type`, on the wire repeated entries {1: key, 2: value}. */
  readonly rule?: "repeated" | "map";
  /** The Go field is a pointer (or the JSON has no zero value to omit). */
  readonly ptr?: boolean;
  /** The JSON tag has no omitempty: a zero scalar is written, an absent pointer/list/map is `null`. */
  readonly keep?: boolean;
  /** A Go embedded struct whose JSON fields are inlined into the parent. */
  readonly inline?: boolean;
  /** An empty list is `[]` in JSON (list `items`, which a server always sends non-nil). */
  readonly emptyArray?: boolean;
}

/** One message: its fields in Go struct order. */
export type MessageDef = readonly FieldDef[];

/** A Protobuf package and its messages. */
export interface PackageDef {
  /** The Protobuf package, e.g. `k8s.io.api.core.v1`. */
  readonly protoPackage: string;
  readonly messages: Readonly<Record<string, MessageDef>>;
}

const FLAGS = ["ptr", "keep", "rep", "map", "inline", "emptyArray"] as const;
export type FieldFlag = (typeof FLAGS)[number];

/** Whether `flag` is one `f` takes (recorded data is checked as it is read). */
export function isFieldFlag(flag: string): flag is FieldFlag {
  return (FLAGS as readonly string[]).includes(flag);
}

/**
 * A field: `f("labels", 11, "string", "map")`. Flags: ptr, keep, rep (repeated), map, inline,
 * emptyArray.
 */
export function f(name: string, id: number, type: string, ...flags: FieldFlag[]): FieldDef {
  const has = (flag: FieldFlag) => flags.includes(flag);
  return {
    name,
    id,
    type,
    ...(has("rep") && { rule: "repeated" as const }),
    ...(has("map") && { rule: "map" as const }),
    ...(has("ptr") && { ptr: true }),
    ...(has("keep") && { keep: true }),
    ...(has("inline") && { inline: true }),
    ...(has("emptyArray") && { emptyArray: true }),
  };
}
