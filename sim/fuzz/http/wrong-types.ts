/**
 * Wrong JSON types at any field of any served kind (issue #14: "wrong types in every field of
 * every served kind"). The Go types come from the Protobuf message tables of the embedded server
 * (sim/apiserver/protobuf/), which mirror k8s.io/api field by field; a path is drawn through them
 * (`spec.template.spec.containers[0].ports[0].containerPort`) and the value there is replaced by
 * one of a JSON type Go cannot decode into it.
 */
import fc from "fast-check";
import { SCALAR_TYPES, type FieldDef } from "../../apiserver/protobuf/field-model.ts";
import { messageInfo } from "../../apiserver/protobuf/schema.ts";

/** A place in an object: field names and list indexes. */
export type FieldPath = readonly (string | number)[];

/** A wrong value at a path. `raw` is JSON text put in as written (numbers JSON.stringify cannot write). */
export interface WrongValue {
  readonly path: FieldPath;
  /** The Go type the path holds, in words, for the intent line. */
  readonly expected: string;
  readonly value: unknown;
}

/** Marks a raw JSON number inside a value; `withRawNumbers` writes it unquoted. */
const RAW = "\u0000raw:";

/** JSON text of `value` with raw numbers written as they are. */
export function withRawNumbers(json: string): string {
  return json.replace(/"\\u0000raw:([^"]*)"/g, "$1");
}

// The JSON form of each Go type that is not a plain object of its fields (convert.ts).
const SPECIAL_JSON: Readonly<Record<string, "string" | "number-or-string" | "object" | "any" | "string-list">> = {
  Time: "string",
  MicroTime: "string",
  Quantity: "string",
  IntOrString: "number-or-string",
  FieldsV1: "object",
  RawExtension: "any",
  ExtraValue: "string-list",
};

type JsonShape = "string" | "integer" | "boolean" | "object" | "array" | "map" | "number-or-string" | "any" | "string-list";

/** The JSON shape a field's value has. */
function shapeOf(field: FieldDef): JsonShape {
  if (field.rule === "repeated") return "array";
  if (field.rule === "map") return "map";
  return elementShape(field.type);
}

function elementShape(type: string): JsonShape {
  if (type === "string" || type === "bytes") return "string";
  if (type === "int32" || type === "int64") return "integer";
  if (type === "bool") return "boolean";
  return SPECIAL_JSON[type] ?? "object";
}

/** The JSON fields of a message: inline messages' fields sit in their parent. */
function jsonFields(message: string): FieldDef[] {
  const fields: FieldDef[] = [];
  for (const field of messageInfo(message).fields) {
    if (field.inline === true) fields.push(...jsonFields(field.type));
    else fields.push(field);
  }
  return fields;
}

function isMessage(type: string): boolean {
  return !SCALAR_TYPES.has(type) && SPECIAL_JSON[type] === undefined;
}

/**
 * Walks `choices` down from `message`: each number picks a field (modulo the count), and the walk
 * stops at the last number or at a field with no fields of its own. Lists are entered at index 0,
 * maps at key "k".
 */
export function fieldPathFor(message: string, choices: readonly number[]): { path: FieldPath; shape: JsonShape; type: string } {
  const path: (string | number)[] = [];
  let current = message;
  for (let index = 0; ; index++) {
    const fields = jsonFields(current).filter((field) => field.name !== "kind" && field.name !== "apiVersion");
    const field = fields[choices[index]! % fields.length]!;
    path.push(field.name);
    const last = index === choices.length - 1;
    if (last || !isMessage(field.type)) return { path, shape: shapeOf(field), type: field.rule === undefined ? field.type : `${field.rule} of ${field.type}` };
    if (field.rule === "repeated") path.push(0);
    if (field.rule === "map") path.push("k");
    current = field.type;
  }
}

/** Values of every JSON type but `shape`'s (null is left out: Go decodes it into anything). */
function wrongValuesFor(shape: JsonShape): unknown[] {
  const all: Record<string, unknown[]> = {
    string: ["x", "", "\u00e9\u0000"],
    integer: [7, -1, 1.5, `${RAW}1e400`, `${RAW}9223372036854775808`, `${RAW}-0`],
    boolean: [true],
    object: [{}, { k: 1 }],
    array: [[], ["x"], [1, 2]],
  };
  const wrongKinds: Record<JsonShape, string[]> = {
    string: ["integer", "boolean", "object", "array"],
    integer: ["string", "boolean", "object", "array"],
    boolean: ["string", "integer", "object", "array"],
    object: ["string", "integer", "boolean", "array"],
    array: ["string", "integer", "boolean", "object"],
    map: ["string", "integer", "boolean", "array"],
    "number-or-string": ["boolean", "object", "array"],
    "string-list": ["string", "integer", "object"],
    any: ["integer"],
  };
  const values = wrongKinds[shape].flatMap((kind) => all[kind]!);
  // Integers get non-integers too: a fraction, and numbers out of int64's range.
  if (shape === "integer") values.push(1.5, `${RAW}1e400`, `${RAW}9223372036854775808`, "7");
  return values;
}

/** A wrong value somewhere in an object of Go type `message`. */
export function wrongValueArbitrary(message: string): fc.Arbitrary<WrongValue> {
  return fc
    .tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 7 }), fc.nat())
    .map(([choices, pick]) => {
      const { path, shape, type } = fieldPathFor(message, choices);
      const values = wrongValuesFor(shape);
      return { path, expected: type, value: values[pick % values.length] };
    });
}

/** A copy of `object` with `value` at `path`, creating the objects and lists on the way. */
export function withValueAt(object: Record<string, unknown>, path: FieldPath, value: unknown): Record<string, unknown> {
  const copy = structuredClone(object);
  let node: any = copy;
  for (let index = 0; index < path.length - 1; index++) {
    const key = path[index]!;
    const nextIsIndex = typeof path[index + 1] === "number";
    const existing = node[key];
    if (existing === null || typeof existing !== "object" || Array.isArray(existing) !== nextIsIndex) node[key] = nextIsIndex ? [] : {};
    if (nextIsIndex && node[key].length === 0) node[key].push({});
    node = node[key];
  }
  node[path[path.length - 1]!] = value;
  return copy;
}

/** `spec.containers[0].image` */
export function formatFieldPath(path: FieldPath): string {
  return path.map((part, index) => (typeof part === "number" ? `[${part}]` : index === 0 ? part : `.${part}`)).join("");
}
