/**
 * The data rules of ConfigMaps and Secrets, as kube-apiserver 1.26 validates them (doc 1 does not
 * show them). Messages, fields and order recorded from a kube-apiserver 1.26.4
 * (spec/reference/kube-apiserver-1.26/transcripts-metadata-validation.jsonl, transcripts
 * configmap-* and secret-*).
 */
import type { StatusCause } from "../../../spec/doc1/errors.ts";
import { maxConfigDataBytes } from "../../../spec/doc1/limits.ts";
import { maxLengthError, maxSubdomainLength, regexError, invalidValueMessage } from "./object-names.ts";
import { byteLength } from "./label-syntax.ts";

const CONFIG_KEY_PATTERN = "[-._a-zA-Z0-9]+";
const CONFIG_KEY_REGEX = new RegExp(`^${CONFIG_KEY_PATTERN}$`);
const CONFIG_KEY_MISMATCH = regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_KEY_PATTERN, [
  "key.name",
  "KEY_NAME",
  "key-name",
]);

/**
 * Kubernetes' IsConfigMapKey: at most 253 characters of `[-._a-zA-Z0-9]`, and not `.`, `..` or
 * anything starting with `..` (a key is a file name in a volume; transcript configmap-data-key-dot).
 */
export function configKeyProblems(key: string): string[] {
  const problems: string[] = [];
  if (byteLength(key) > maxSubdomainLength) problems.push(maxLengthError(maxSubdomainLength));
  if (!CONFIG_KEY_REGEX.test(key)) problems.push(CONFIG_KEY_MISMATCH);
  if (key === ".") problems.push("must not be '.'");
  else if (key === "..") problems.push("must not be '..'");
  else if (key.startsWith("..")) problems.push("must not start with '..'");
  return problems;
}

type Json = Readonly<Record<string, unknown>>;

function stringMap(value: unknown): Array<[string, string]> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [];
  return Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string");
}

/** The bytes a base64 value (binaryData, Secret data) decodes to, as Go's []byte holds them. */
function decodedLength(base64: string): number {
  return Buffer.from(base64, "base64").length;
}

function keyCauses(field: string, key: string): StatusCause[] {
  return configKeyProblems(key).map((problem) => ({ reason: "FieldValueInvalid", message: invalidValueMessage(key, problem), field: `${field}[${key}]` }));
}

function tooLong(field: string): StatusCause {
  return { reason: "FieldValueTooLong", message: `Too long: must have at most ${maxConfigDataBytes} bytes`, field };
}

/**
 * ValidateConfigMap: data keys (with "duplicate of key present in binaryData" for a key in both;
 * the binaryData side reports nothing, transcript configmap-data-binary-duplicate), binaryData
 * keys, then at most 1 MiB of values in all, reported on the field Kubernetes prints as `[]`
 * (transcript configmap-size-over).
 */
export function configMapDataCauses(configMap: Json): StatusCause[] {
  const data = stringMap(configMap["data"]);
  const binaryData = stringMap(configMap["binaryData"]);
  const binaryKeys = new Set(binaryData.map(([key]) => key));
  const causes: StatusCause[] = [];
  let total = 0;
  for (const [key, value] of data) {
    causes.push(...keyCauses("data", key));
    if (binaryKeys.has(key)) causes.push({ reason: "FieldValueInvalid", message: invalidValueMessage(key, "duplicate of key present in binaryData"), field: `data[${key}]` });
    total += byteLength(value);
  }
  for (const [key, value] of binaryData) {
    causes.push(...keyCauses("binaryData", key));
    total += decodedLength(value);
  }
  if (total > maxConfigDataBytes) causes.push(tooLong("[]"));
  return causes;
}

/**
 * ValidateSecret's data rules. Kubernetes merges stringData into data before validating, so a bad
 * stringData key is reported on `data[key]` (transcript secret-stringdata-bad-key); the total of
 * the decoded values may be at most 1 MiB (transcript secret-size-over, field `data`).
 */
export function secretDataCauses(secret: Json): StatusCause[] {
  const merged = new Map<string, number>();
  for (const [key, value] of stringMap(secret["data"])) merged.set(key, decodedLength(value));
  for (const [key, value] of stringMap(secret["stringData"])) merged.set(key, byteLength(value));
  const causes = [...merged.keys()].flatMap((key) => keyCauses("data", key));
  const total = [...merged.values()].reduce((sum, length) => sum + length, 0);
  if (total > maxConfigDataBytes) causes.push(tooLong("data"));
  return causes;
}

/** The data causes of a kind that has data rules; empty for the others. */
export function dataCauses(kind: string, object: Json): StatusCause[] {
  if (kind === "ConfigMap") return configMapDataCauses(object);
  if (kind === "Secret") return secretDataCauses(object);
  return [];
}
