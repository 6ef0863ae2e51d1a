/**
 * What a case expects of a JSON value a server sent: an object, an array, a string. On another
 * shape the case fails (CaseFailure, as a failed check does) with a message naming what was
 * expected and what came, rather than with a TypeError deeper in the case.
 */
import { CaseFailure } from "../../case-outcome.ts";
import { isRecord, type JsonRecord } from "../../client/json-fields.ts";

/** A JSON value for a failure message: its JSON text, cut at 200 characters, or "nothing". */
export function describeJson(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Fails unless `value` is a JSON object. */
export function expectRecord(value: unknown, what: string): JsonRecord {
  if (!isRecord(value)) throw new CaseFailure(`${what}: expected a JSON object, got ${describeJson(value)}`);
  return value;
}

/** Fails unless `value` is an array. */
export function expectArray(value: unknown, what: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new CaseFailure(`${what}: expected an array, got ${describeJson(value)}`);
  return value as readonly unknown[];
}

/** `value ?? []`: an array, or none when the value is absent or null; fails on anything else. */
export function arrayOrEmpty(value: unknown, what: string): readonly unknown[] {
  return value === undefined || value === null ? [] : expectArray(value, what);
}

/** Fails unless `value` is a string. */
export function expectString(value: unknown, what: string): string {
  if (typeof value !== "string") throw new CaseFailure(`${what}: expected a string, got ${describeJson(value)}`);
  return value;
}
