/**
 * The typed values of doc 2's options: how each type parses (as pflag, klog and component-base
 * parse it), how repeated occurrences combine, what "none" means for it, and how Go prints it.
 */
import type { OptionType } from "../../spec/doc2/daemon-options.ts";
import { parseFeatureGates } from "./feature-gates.ts";
import { formatGoDuration, parseGoDuration } from "./go-duration.ts";
import { parseGoBool, parseGoCsvRecord, parseGoFloat, parseGoInt } from "./go-scalars.ts";
import { isIpAddress } from "./network-syntax.ts";
import { parseNamedCertKey, type NamedCertKey } from "./tls-options.ts";

/** One klog `--vmodule` entry. */
export interface VmoduleEntry {
  readonly pattern: string;
  readonly level: number;
}

/** A parsed option value, tagged with its type. */
export type OptionValue =
  | { readonly type: "bool"; readonly value: boolean }
  | { readonly type: "string" | "ip"; readonly value: string }
  | { readonly type: "strings"; readonly value: readonly string[] }
  | { readonly type: "int" | "int32" | "level" | "float"; readonly value: number }
  | { readonly type: "duration"; readonly value: bigint }
  | { readonly type: "stringToString"; readonly value: ReadonlyMap<string, string> }
  | { readonly type: "featureGates"; readonly value: ReadonlyMap<string, boolean> }
  | { readonly type: "version"; readonly value: "true" | "false" | "raw" }
  | { readonly type: "vmodule"; readonly value: readonly VmoduleEntry[] }
  | { readonly type: "namedCertKeys"; readonly value: readonly NamedCertKey[] };

/** A value that does not parse as its option's type; the message says why, as Go would. */
export class OptionValueError extends Error {}

/**
 * Parses one occurrence of an option. `previous` is the value from earlier occurrences on the same
 * command line, if any: lists append, maps merge, everything else is replaced (pflag semantics).
 */
export function parseOptionValue(type: OptionType, text: string, previous?: OptionValue): OptionValue {
  try {
    return parseTyped(type, text, previous);
  } catch (error) {
    if (error instanceof OptionValueError) throw error;
    throw new OptionValueError(error instanceof Error ? error.message : String(error));
  }
}

function parseTyped(type: OptionType, text: string, previous?: OptionValue): OptionValue {
  switch (type) {
    case "bool":
      return { type, value: parseGoBool(text) };
    case "string":
      return { type, value: text };
    case "ip":
      return { type, value: parseIpFlag(text) };
    case "strings":
      return { type, value: [...(previous?.type === "strings" ? previous.value : []), ...parseGoCsvRecord(text)] };
    case "int":
      return { type, value: safeNumber(parseGoInt(text, 64), text) };
    case "int32":
      return { type, value: Number(parseGoInt(text, 32)) };
    case "level":
      return { type, value: parseLevel(text) };
    case "float":
      return { type, value: parseGoFloat(text) };
    case "duration":
      return { type, value: parseGoDuration(text) };
    case "stringToString":
      return { type, value: new Map([...(previous?.type === "stringToString" ? previous.value : []), ...parseStringToString(text)]) };
    case "featureGates":
      return { type, value: new Map([...(previous?.type === "featureGates" ? previous.value : []), ...parseFeatureGates(text)]) };
    case "version":
      return { type, value: text === "raw" ? "raw" : parseGoBool(text) ? "true" : "false" };
    case "vmodule":
      return { type, value: parseVmodule(text) };
    case "namedCertKeys":
      return { type, value: [...(previous?.type === "namedCertKeys" ? previous.value : []), parseNamedCertKey(text)] };
  }
}

// pflag's IP type trims and parses with net.ParseIP; doc 2 §2.1 also allows a blank --bind-address.
function parseIpFlag(text: string): string {
  const trimmed = text.trim();
  if (trimmed !== "" && !isIpAddress(trimmed)) throw new OptionValueError(`failed to parse IP: ${JSON.stringify(text)}`);
  return trimmed;
}

function safeNumber(value: bigint, text: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new OptionValueError(`${JSON.stringify(text)} is beyond 2^53, which this harness cannot hold exactly`);
  }
  return Number(value);
}

// klog's Level: strconv.ParseInt(value, 10, 32), base 10 only.
function parseLevel(text: string): number {
  if (!/^[+-]?[0-9]+$/.test(text)) throw new OptionValueError(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
  return Number(parseGoInt(text.replace(/^([+-]?)0+(?=[0-9])/, "$1"), 32));
}

/**
 * pflag's stringToString: with one `=` the whole text is one pair (so `m,l=a,b` is key `m,l`, value
 * `a,b`, as `--allow-metric-labels` needs); with more it is a CSV record of `key=value` pairs.
 */
export function parseStringToString(text: string): Map<string, string> {
  const equalsCount = text.split("=").length - 1;
  if (equalsCount === 0) throw new OptionValueError(`${text} must be formatted as key=value`);
  const pairs = equalsCount === 1 ? [text.replace(/^"+|"+$/g, "")] : parseGoCsvRecord(text);
  const map = new Map<string, string>();
  for (const pair of pairs) {
    const equals = pair.indexOf("=");
    if (equals === -1) throw new OptionValueError(`${pair} must be formatted as key=value`);
    map.set(pair.slice(0, equals), pair.slice(equals + 1));
  }
  return map;
}

// klog's moduleSpec.Set: `pattern=N` items, empty items skipped, N a non-negative int32, 0 dropped.
function parseVmodule(text: string): VmoduleEntry[] {
  const entries: VmoduleEntry[] = [];
  for (const item of text.split(",")) {
    if (item === "") continue;
    const parts = item.split("=");
    if (parts.length !== 2 || parts[0] === "" || parts[1] === "") {
      throw new OptionValueError("syntax error: expect comma-separated list of filename=N");
    }
    if (!/^[+-]?[0-9]+$/.test(parts[1]!)) throw new OptionValueError("syntax error: expect comma-separated list of filename=N");
    const level = Number(parts[1]);
    if (level < 0) throw new OptionValueError("negative value for vmodule level");
    if (level > 2 ** 31 - 1) throw new OptionValueError("syntax error: expect comma-separated list of filename=N");
    if (level > 0) entries.push({ pattern: parts[0]!, level });
  }
  return entries;
}

/** The value of doc 2's "none" for each type: Go's zero value. */
export function zeroValue(type: OptionType): OptionValue {
  switch (type) {
    case "bool":
      return { type, value: false };
    case "string":
    case "ip":
      return { type, value: "" };
    case "strings":
      return { type, value: [] };
    case "int":
    case "int32":
    case "level":
    case "float":
      return { type, value: 0 };
    case "duration":
      return { type, value: 0n };
    case "stringToString":
      return { type, value: new Map() };
    case "featureGates":
      return { type, value: new Map() };
    case "version":
      return { type, value: "false" };
    case "vmodule":
      return { type, value: [] };
    case "namedCertKeys":
      return { type, value: [] };
  }
}

/** A default as doc 2 writes it, parsed: `null` is the zero value and `[]` an empty list or map. */
export function defaultOptionValue(type: OptionType, text: string | null): OptionValue {
  if (text === null || text === "[]") return zeroValue(type);
  return parseOptionValue(type, text);
}

/** The value as Go prints it, for the defaulted configuration: durations as `1m0s`, lists as arrays. */
export function printOptionValue(option: OptionValue): unknown {
  switch (option.type) {
    case "duration":
      return formatGoDuration(option.value);
    case "stringToString":
    case "featureGates":
      return Object.fromEntries([...option.value].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    case "vmodule":
      return option.value.map((entry) => `${entry.pattern}=${entry.level}`).join(",");
    case "namedCertKeys":
      return option.value.map((entry) => `${entry.certFile},${entry.keyFile}${entry.names.length > 0 ? `:${entry.names.join(",")}` : ""}`);
    default:
      return option.value;
  }
}
