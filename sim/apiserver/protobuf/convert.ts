/**
 * JSON objects ↔ Protobuf messages, driven by the message tables, with Go's rules (field-model.ts):
 * `jsonToMessage` gives the plain object protobufjs encodes, filled as gogo-protobuf fills the
 * wire (every non-pointer field written, zero or not; map entries in sorted key order), which is
 * what makes our bytes equal a real server's; `messageToJson` gives the JSON encoding/json would
 * write for the decoded Go struct (zero non-pointer scalars left out unless `keep`, set pointers
 * kept, a zero Time as null, fields in Go struct order).
 *
 * JSON → Protobuf → JSON is the identity for JSON in that canonical form. Other JSON is normalised
 * as a Go server would: `"hostNetwork": false` is dropped, a missing `creationTimestamp` comes back
 * as null, a Time's fraction of a second is dropped.
 */
import { ProtobufDecodeError, ProtobufEncodeError } from "./errors.ts";
import { SCALAR_TYPES, type FieldDef } from "./field-model.ts";
import {
  compareUtf8,
  decodeBase64,
  encodeBase64,
  formatMicroTime,
  formatTime,
  MAX_SECONDS,
  MIN_SECONDS,
  parseRfc3339,
} from "./json-values.ts";
import { KIND_MESSAGES } from "./kinds.ts";
import { messageInfo } from "./schema.ts";
import { ownMember } from "../patch/json-value.ts";

/** A message as protobufjs takes it for encoding and gives it back decoded. */
export type PlainMessage = Record<string, unknown>;

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** What to do with JSON fields the schema does not cover. */
export interface EncodeOptions {
  /** "error" (the default): refuse the object, naming the fields; "drop": leave them out. */
  readonly unknownFields?: "error" | "drop";
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Sets `key` as an own enumerable property, also when it is `__proto__`. */
function setOwn(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function child(path: string, name: string): string {
  return path === "" ? name : `${path}.${name}`;
}

// ---------------------------------------------------------------------------------------------
// JSON → message

class Encoder {
  readonly unknown: string[] = [];

  message(typeName: string, json: unknown, path: string): PlainMessage {
    if (!isObject(json)) throw invalid(path, `an object (${typeName})`, json);
    const out: PlainMessage = {};
    const consumed = new Set<string>();
    this.fill(typeName, json, out, consumed, path);
    if (KIND_MESSAGES.has(typeName)) consumed.add("kind").add("apiVersion");
    for (const key of Object.keys(json)) {
      if (!consumed.has(key)) this.unknown.push(child(path, key));
    }
    return out;
  }

  private fill(typeName: string, json: JsonObject, out: PlainMessage, consumed: Set<string>, path: string): void {
    for (const field of messageInfo(typeName).fields) {
      if (field.inline) {
        const inner: PlainMessage = {};
        this.fill(field.type, json, inner, consumed, path);
        out[field.name] = inner;
        continue;
      }
      consumed.add(field.name);
      const value = ownMember(json, field.name);
      const present = value !== undefined && value !== null;
      const at = child(path, field.name);
      if (field.rule === "repeated") {
        if (!present) continue;
        if (!Array.isArray(value)) throw invalid(at, "a list", value);
        if (value.length > 0) out[field.name] = value.map((item, index) => this.value(field.type, item, `${at}[${index}]`));
      } else if (field.rule === "map") {
        if (!present) continue;
        if (!isObject(value)) throw invalid(at, "an object (a map)", value);
        const keys = Object.keys(value).sort(compareUtf8);
        if (keys.length > 0) {
          out[field.name] = keys.map((key) => ({ key, value: this.value(field.type, value[key], `${at}[${JSON.stringify(key)}]`) }));
        }
      } else if (field.ptr) {
        if (present) out[field.name] = this.value(field.type, value, at);
      } else {
        // A non-pointer field: Go always writes it, its zero value when the JSON has none.
        out[field.name] = this.value(field.type, present ? value : undefined, at);
      }
    }
  }

  /** The Protobuf value of `json` (undefined or null: the zero value) for a field of `type`. */
  value(type: string, json: unknown, path: string): unknown {
    const zero = json === undefined || json === null;
    switch (type) {
      case "string":
        if (zero) return "";
        if (typeof json !== "string") throw invalid(path, "a string", json);
        return json;
      case "int32":
      case "int64": {
        if (zero) return 0;
        if (typeof json !== "number" || !Number.isInteger(json)) throw invalid(path, "an integer", json);
        if (type === "int32" && (json < INT32_MIN || json > INT32_MAX)) throw invalid(path, "a 32-bit integer", json);
        return json;
      }
      case "bool":
        if (zero) return false;
        if (typeof json !== "boolean") throw invalid(path, "a boolean", json);
        return json;
      case "bytes": {
        if (zero) return new Uint8Array(0);
        const bytes = typeof json === "string" ? decodeBase64(json) : undefined;
        if (bytes === undefined) throw invalid(path, "base64 text", json);
        return bytes;
      }
      case "Time":
      case "MicroTime": {
        if (zero) return {}; // Go's zero Time is an empty message.
        const parsed = typeof json === "string" ? parseRfc3339(json) : undefined;
        if (parsed === undefined || parsed.seconds < MIN_SECONDS || parsed.seconds > MAX_SECONDS) {
          throw invalid(path, "an RFC 3339 time between years 1 and 9999", json);
        }
        // Time keeps whole seconds (and writes nanos 0); MicroTime keeps microseconds.
        const nanos = type === "Time" ? 0 : Math.floor(parsed.nanos / 1000) * 1000;
        return { seconds: parsed.seconds, nanos };
      }
      case "IntOrString":
        if (zero) return { type: 0, intVal: 0, strVal: "" };
        if (typeof json === "string") return { type: 1, intVal: 0, strVal: json };
        if (typeof json === "number" && Number.isInteger(json) && json >= INT32_MIN && json <= INT32_MAX) {
          return { type: 0, intVal: json, strVal: "" };
        }
        throw invalid(path, "a 32-bit integer or a string", json);
      case "Quantity":
        if (zero) return { string: "0" };
        if (typeof json === "string") return { string: json };
        if (typeof json === "number" && Number.isFinite(json)) return { string: String(json) };
        throw invalid(path, "a quantity", json);
      case "ExtraValue": {
        if (zero) return {};
        if (!Array.isArray(json)) throw invalid(path, "a list of strings", json);
        return { items: json.map((item, index) => this.value("string", item, `${path}[${index}]`)) };
      }
      case "FieldsV1":
      case "RawExtension": {
        const raw = zero ? undefined : new TextEncoder().encode(JSON.stringify(json));
        const name = type === "FieldsV1" ? "Raw" : "raw";
        return raw === undefined ? {} : { [name]: raw };
      }
      default:
        return this.message(type, zero ? {} : json, path);
    }
  }
}

/**
 * Finds what `jsonToMessage` would throw for a value of the wrong type, without building the
 * message: it walks only the values the JSON has, in the same field order, so the first error is
 * the same one. Checking every create and update body this way costs a fraction of filling every
 * non-pointer field of a Pod with its zero value (issue #20).
 */
class ValueChecker {
  private readonly leaves = new Encoder();

  message(typeName: string, json: unknown, path: string): void {
    if (!isObject(json)) throw invalid(path, `an object (${typeName})`, json);
    this.fields(typeName, json, path);
  }

  private fields(typeName: string, json: JsonObject, path: string): void {
    for (const field of messageInfo(typeName).fields) {
      if (field.inline) {
        this.fields(field.type, json, path);
        continue;
      }
      const value = ownMember(json, field.name);
      if (value === undefined || value === null) continue;
      const at = child(path, field.name);
      if (field.rule === "repeated") {
        if (!Array.isArray(value)) throw invalid(at, "a list", value);
        value.forEach((item, index) => this.value(field.type, item, `${at}[${index}]`));
      } else if (field.rule === "map") {
        if (!isObject(value)) throw invalid(at, "an object (a map)", value);
        for (const key of Object.keys(value).sort(compareUtf8)) this.value(field.type, value[key], `${at}[${JSON.stringify(key)}]`);
      } else {
        this.value(field.type, value, at);
      }
    }
  }

  private value(type: string, json: unknown, path: string): void {
    if (json === undefined || json === null) return;
    // Raw JSON takes any value; every other type but a message is the encoder's own check.
    if (type === "FieldsV1" || type === "RawExtension") return;
    if (SCALAR_TYPES.has(type) || LEAF_MESSAGE_TYPES.has(type)) this.leaves.value(type, json, path);
    else this.message(type, json, path);
  }
}

// The types Encoder.value converts itself rather than as a message of the tables.
const LEAF_MESSAGE_TYPES: ReadonlySet<string> = new Set(["Time", "MicroTime", "IntOrString", "Quantity", "ExtraValue"]);

/** The error `jsonToMessage(typeName, json, { unknownFields: "drop" })` would throw, or undefined. */
export function messageValueError(typeName: string, json: unknown): ProtobufEncodeError | undefined {
  try {
    new ValueChecker().message(typeName, json, "");
    return undefined;
  } catch (error) {
    if (error instanceof ProtobufEncodeError) return error;
    throw error;
  }
}

function invalid(path: string, expected: string, value: unknown): ProtobufEncodeError {
  const shown = value === undefined ? "nothing" : JSON.stringify(value)?.slice(0, 60) ?? String(value);
  return new ProtobufEncodeError("invalid-value", `${path === "" ? "the object" : path}: expected ${expected}, got ${shown}`, [path]);
}

/**
 * The message of type `typeName` (short name, e.g. "ConfigMap") for a JSON object, as the plain
 * object protobufjs encodes. Throws ProtobufEncodeError for values of the wrong type and, unless
 * `unknownFields: "drop"`, for fields the schema does not cover.
 */
export function jsonToMessage(typeName: string, json: unknown, options: EncodeOptions = {}): PlainMessage {
  const encoder = new Encoder();
  const message = encoder.message(typeName, json, "");
  if (encoder.unknown.length > 0 && (options.unknownFields ?? "error") === "error") {
    throw new ProtobufEncodeError(
      "unknown-field",
      `${typeName} has fields the Protobuf schema does not cover: ${encoder.unknown.join(", ")}`,
      encoder.unknown,
    );
  }
  return message;
}

// ---------------------------------------------------------------------------------------------
// message → JSON

function malformed(message: string): ProtobufDecodeError {
  return new ProtobufDecodeError("malformed-object", message);
}

/** A decoded int64 (a Long when protobufjs has long.js) as a number. */
function toNumber(value: unknown): number {
  if (typeof value === "number") return value;
  if (value !== null && typeof value === "object" && "toNumber" in value && typeof value.toNumber === "function") {
    return (value as { toNumber(): number }).toNumber();
  }
  return Number(value);
}

function isZeroScalar(type: string, value: unknown): boolean {
  switch (type) {
    case "string":
      return value === "";
    case "bool":
      return value === false;
    case "bytes":
      return (value as Uint8Array).length === 0;
    default:
      return toNumber(value) === 0;
  }
}

function scalarDefault(type: string): unknown {
  switch (type) {
    case "string":
      return "";
    case "bool":
      return false;
    case "bytes":
      return new Uint8Array(0);
    default:
      return 0;
  }
}

function scalarJson(type: string, value: unknown): unknown {
  switch (type) {
    case "int32":
    case "int64":
      return toNumber(value);
    case "bytes":
      return encodeBase64(value as Uint8Array);
    default:
      return value;
  }
}

/** A Time/MicroTime message as JSON: null for Go's zero time (an empty message, or year 1). */
function timeJson(type: "Time" | "MicroTime", message: PlainMessage | undefined): string | null {
  if (message === undefined) return null;
  const hasSeconds = Object.hasOwn(message, "seconds");
  const hasNanos = Object.hasOwn(message, "nanos");
  if (!hasSeconds && !hasNanos) return null;
  const seconds = hasSeconds ? toNumber(message["seconds"]) : 0;
  // Go's Time unmarshalling drops the nanoseconds; MicroTime keeps them.
  const nanos = type === "MicroTime" && hasNanos ? toNumber(message["nanos"]) : 0;
  if (seconds === MIN_SECONDS && nanos === 0) return null;
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS || nanos < 0 || nanos > 999_999_999) {
    throw malformed(`a ${type} out of range: ${seconds}s ${nanos}ns`);
  }
  return type === "Time" ? formatTime(seconds) : formatMicroTime(seconds, nanos);
}

function rawJson(bytes: unknown, what: string): unknown {
  if (!(bytes instanceof Uint8Array)) return null;
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as unknown;
  } catch {
    throw malformed(`${what} is not JSON`);
  }
}

/** The JSON of a value of `type`; `value` undefined is a non-pointer field absent from the wire. */
function valueJson(type: string, value: unknown): unknown {
  switch (type) {
    case "string":
    case "int32":
    case "int64":
    case "bool":
    case "bytes":
      return scalarJson(type, value ?? scalarDefault(type));
    case "Time":
    case "MicroTime":
      return timeJson(type, value as PlainMessage | undefined);
    case "IntOrString": {
      const message = (value ?? {}) as PlainMessage;
      return toNumber(message["type"] ?? 0) === 1 ? (message["strVal"] ?? "") : toNumber(message["intVal"] ?? 0);
    }
    case "Quantity": {
      const text = (value as PlainMessage | undefined)?.["string"];
      return typeof text === "string" && text !== "" ? text : "0";
    }
    case "ExtraValue":
      return (((value as PlainMessage | undefined)?.["items"] ?? []) as unknown[]).map((item) => item ?? "");
    case "FieldsV1":
      return rawJson((value as PlainMessage | undefined)?.["Raw"], "fieldsV1");
    case "RawExtension":
      return rawJson((value as PlainMessage | undefined)?.["raw"], "a raw extension");
    default:
      return messageToJson(type, (value ?? {}) as PlainMessage);
  }
}

function fillJson(typeName: string, message: PlainMessage, out: JsonObject): void {
  for (const field of messageInfo(typeName).fields) {
    const present = Object.hasOwn(message, field.name);
    const value = present ? message[field.name] : undefined;
    if (field.inline) {
      fillJson(field.type, (value ?? {}) as PlainMessage, out);
      continue;
    }
    if (field.rule === "repeated") {
      const items = (value ?? []) as unknown[];
      if (items.length > 0) out[field.name] = items.map((item) => valueJson(field.type, item));
      else if (field.keep) out[field.name] = field.emptyArray ? [] : null;
    } else if (field.rule === "map") {
      const map = mapJson(field, (value ?? []) as PlainMessage[]);
      if (map !== undefined) out[field.name] = map;
    } else if (field.ptr) {
      if (present) out[field.name] = valueJson(field.type, value);
      else if (field.keep) out[field.name] = null;
    } else if (SCALAR_TYPES.has(field.type)) {
      const scalar = value ?? scalarDefault(field.type);
      if (field.keep || !isZeroScalar(field.type, scalar)) out[field.name] = scalarJson(field.type, scalar);
    } else {
      // A non-pointer struct: encoding/json always writes it (omitempty does not apply to structs).
      out[field.name] = valueJson(field.type, value);
    }
  }
}

function mapJson(field: FieldDef, entries: readonly PlainMessage[]): JsonObject | null | undefined {
  if (entries.length === 0) return field.keep ? null : undefined;
  const out: JsonObject = {};
  for (const entry of entries) {
    const key = Object.hasOwn(entry, "key") ? String(entry["key"]) : "";
    setOwn(out, key, valueJson(field.type, Object.hasOwn(entry, "value") ? entry["value"] : undefined));
  }
  return out;
}

/**
 * The JSON of a decoded message of type `typeName` (short name), fields in Go struct order.
 * Throws ProtobufDecodeError("malformed-object") for values JSON cannot carry (a Time out of range,
 * fieldsV1 that is not JSON).
 */
export function messageToJson(typeName: string, message: PlainMessage): JsonObject {
  const out: JsonObject = {};
  fillJson(typeName, message, out);
  return out;
}
