/**
 * Checks a decoded configuration against a doc 3 schema (spec/doc3/config-schema.ts) in two passes,
 * as the kubelet decodes, defaults, then validates:
 *
 * - `checkStructure` on the file as written: unknown fields (with "did you mean"), JSON and Go
 *   types, required fields, keys of restricted maps. It returns a pruned copy without the values
 *   that failed, so defaulting fills them and later rules do not trip over them again.
 * - `checkValues` on the defaulted configuration: enums, ranges, list sizes and formats, each
 *   reported under the rule its schema node names in `x-rule`.
 */
import type { Severity } from "../../spec/doc2/config-rule.ts";
import type { FieldSchema, JsonType } from "../../spec/doc3/config-schema.ts";
import { closestName } from "./did-you-mean.ts";
import { finding, type Finding } from "./finding.ts";
import { formatChecks } from "./schema-formats.ts";

/** The severity of a rule id. */
export type SeverityOf = (ruleId: string) => Severity;

const FIELD_TYPE = "doc3/2/field-type";
const UNKNOWN_FIELD = "doc3/2/unknown-field";
const REQUIRED_FIELD = "doc3/2/required-field";

const GO_INT_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  "time.Duration": [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** A plain JSON object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a schema node is a map (keys are data), not a struct (keys are field names). */
export function isMapSchema(schema: FieldSchema): boolean {
  return schema["x-key-rule"] !== undefined || typeof schema.additionalProperties === "object";
}

/** The path of a child: `parent.field` for struct fields, `parent[key]` for map keys, `parent[3]` for items. */
export function childPath(parent: string, key: string | number, inMap: boolean): string {
  if (typeof key === "number" || inMap) return `${parent}[${key}]`;
  return parent === "" ? key : `${parent}.${key}`;
}

/** The structural findings of `value` and a copy of it without the values that failed. */
export function checkStructure(value: unknown, schema: FieldSchema, severityOf: SeverityOf, path = ""): { findings: Finding[]; pruned: unknown } {
  const findings: Finding[] = [];
  const pruned = walkStructure(value, schema, path, severityOf, findings);
  return { findings, pruned };
}

// Returns the value with failing parts removed, or undefined when the value itself fails.
function walkStructure(value: unknown, schema: FieldSchema, path: string, severityOf: SeverityOf, findings: Finding[]): unknown {
  const typeProblem = typeMismatch(value, schema);
  if (typeProblem !== undefined) {
    findings.push(finding("error", FIELD_TYPE, path, value, typeProblem));
    return undefined;
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    const items = schema.items;
    return value.flatMap((item, index) => {
      if (item === null) return [];
      const kept = walkStructure(item, items, childPath(path, index, false), severityOf, findings);
      return kept === undefined ? [] : [kept];
    });
  }
  if (isPlainObject(value) && (schema.properties !== undefined || schema.additionalProperties !== undefined)) {
    return walkObject(value, schema, path, severityOf, findings);
  }
  return value;
}

function walkObject(value: Record<string, unknown>, schema: FieldSchema, path: string, severityOf: SeverityOf, findings: Finding[]): Record<string, unknown> {
  const inMap = isMapSchema(schema);
  const properties = schema.properties ?? {};
  const kept: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const childAt = childPath(path, key, inMap);
    if (child === null) continue; // YAML null: the field is unset, as in Go.
    let childSchema = properties[key];
    if (childSchema === undefined) {
      const keyRule = schema["x-key-rule"];
      if (keyRule !== undefined) {
        const close = closestName(key, Object.keys(properties));
        findings.push(finding(severityOf(keyRule), keyRule, childAt, child, `${JSON.stringify(key)} is not one of ${Object.keys(properties).join(", ")}${close === undefined ? "" : ` (did you mean ${close}?)`}`));
      }
      if (typeof schema.additionalProperties === "object") childSchema = schema.additionalProperties;
      else {
        if (keyRule === undefined) findings.push(unknownField(key, childAt, child, properties));
        continue;
      }
    }
    const checked = walkStructure(child, childSchema, childAt, severityOf, findings);
    if (checked !== undefined) kept[key] = checked;
  }
  for (const name of schema.required ?? []) {
    if (value[name] === undefined || value[name] === null) {
      findings.push(finding("error", REQUIRED_FIELD, childPath(path, name, inMap), undefined, `${name} is required`));
    }
  }
  return kept;
}

function unknownField(key: string, path: string, value: unknown, properties: Readonly<Record<string, FieldSchema>>): Finding {
  const close = closestName(key, Object.keys(properties));
  return finding("error", UNKNOWN_FIELD, path, value, `unknown field ${JSON.stringify(key)}${close === undefined ? "" : ` (did you mean ${JSON.stringify(close)}?)`}`);
}

function jsonTypeOf(value: unknown): JsonType | "null" | "other" {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "string" || typeof value === "boolean" || typeof value === "object") return typeof value as JsonType;
  return "other";
}

// A message when `value` is not of the node's JSON type, Go integer range or Go string type.
function typeMismatch(value: unknown, schema: FieldSchema): string | undefined {
  if (schema.type === undefined) return undefined;
  const allowed: readonly JsonType[] = typeof schema.type === "string" ? [schema.type] : schema.type;
  const actual = jsonTypeOf(value);
  const fits = allowed.some((type) => type === actual || (type === "number" && actual === "integer"));
  if (!fits) return `expected ${allowed.join(" or ")}, got ${actual}`;
  const goType = schema["x-go-type"];
  if (typeof value === "number" && goType !== undefined && GO_INT_RANGES[goType] !== undefined) {
    const [low, high] = GO_INT_RANGES[goType]!;
    if (value < low || value > high) return `out of range for ${goType === "int64" || goType === "time.Duration" ? "an integer this harness holds exactly (±2^53)" : goType}`;
  }
  if (schema.format !== undefined && typeof value === "string") {
    const verdict = formatChecks[schema.format]?.(value, goType);
    if (verdict?.kind === "type") return `not a ${goType ?? schema.format}: ${verdict.message}`;
  }
  return undefined;
}

/** The value findings of a (defaulted) configuration: enums, ranges, list sizes and formats. */
export function checkValues(value: unknown, schema: FieldSchema, severityOf: SeverityOf, path = ""): Finding[] {
  const findings: Finding[] = [];
  walkValues(value, schema, path, severityOf, findings);
  return findings;
}

function walkValues(value: unknown, schema: FieldSchema, path: string, severityOf: SeverityOf, findings: Finding[]): void {
  const rule = schema["x-rule"] ?? FIELD_TYPE;
  const problem = valueProblem(value, schema);
  if (problem !== undefined) findings.push(finding(severityOf(rule), rule, path, value, problem));
  if (Array.isArray(value) && schema.items !== undefined) {
    value.forEach((item, index) => walkValues(item, schema.items!, childPath(path, index, false), severityOf, findings));
  }
  if (isPlainObject(value)) {
    const inMap = isMapSchema(schema);
    for (const [key, child] of Object.entries(value)) {
      const childSchema = schema.properties?.[key] ?? (typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined);
      if (childSchema !== undefined) walkValues(child, childSchema, childPath(path, key, inMap), severityOf, findings);
    }
  }
}

function valueProblem(value: unknown, schema: FieldSchema): string | undefined {
  if (schema.enum !== undefined && !schema.enum.includes(value)) {
    const names = schema.enum.map((entry) => JSON.stringify(entry));
    const close = typeof value === "string" ? closestName(value, schema.enum.filter((entry): entry is string => typeof entry === "string" && entry !== "")) : undefined;
    // A long list (cipher suites) is named by its size; the suggestion does the pointing.
    const allowed = names.length > 8 ? `one of the ${names.length} known values` : `one of ${names.join(", ")}`;
    return `must be ${allowed}${close === undefined ? "" : ` (did you mean ${JSON.stringify(close)}?)`}`;
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return rangeText(schema);
    if (schema.maximum !== undefined && value > schema.maximum) return rangeText(schema);
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return rangeText(schema);
  }
  if (Array.isArray(value) && schema.minItems !== undefined && value.length < schema.minItems) {
    return `needs at least ${schema.minItems} item${schema.minItems === 1 ? "" : "s"}`;
  }
  if (schema.format !== undefined && (typeof value === "string" || typeof value === "number")) {
    const verdict = formatChecks[schema.format]?.(value, schema["x-go-type"]);
    if (verdict?.kind === "value") return verdict.message;
  }
  return undefined;
}

function rangeText(schema: FieldSchema): string {
  const low = schema.exclusiveMinimum !== undefined ? `greater than ${schema.exclusiveMinimum}` : schema.minimum !== undefined ? `at least ${schema.minimum}` : undefined;
  const high = schema.maximum !== undefined ? `at most ${schema.maximum}` : undefined;
  return `must be ${[low, high].filter((part) => part !== undefined).join(" and ")}`;
}
