/**
 * Fields of a parsed JSON body, whose shape the server decides: the client parses a body to
 * `unknown`, and these read it as optional chaining would (`value?.a?.b`), giving undefined where
 * a step is missing or of another kind, never a TypeError. What a case expects of a body, and the
 * failure when it comes otherwise, is in conformance/cases/support/.
 */

/** A JSON object whose fields are not checked yet. */
export type JsonRecord = { readonly [key: string]: unknown };

/** The view of anything that is not a JSON object: no fields (no prototype either, so no inherited names). */
const NO_FIELDS: JsonRecord = Object.freeze(Object.create(null) as JsonRecord);

/** Whether `value` is a JSON object (not null, not an array). */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` if it is a JSON object, else one without fields: `recordOf(value).kind` reads as `value?.kind`. */
export function recordOf(value: unknown): JsonRecord {
  return isRecord(value) ? value : NO_FIELDS;
}

/**
 * The value at `path` (field names, and indexes into arrays), or undefined where a step is missing
 * or of another kind: `fieldAt(value, "spec", "ports", 0)` reads as `value?.spec?.ports?.[0]`.
 */
export function fieldAt(value: unknown, ...path: ReadonlyArray<string | number>): unknown {
  let at = value;
  for (const step of path) {
    if (typeof step === "number") at = Array.isArray(at) ? (at as readonly unknown[])[step] : undefined;
    else at = isRecord(at) ? at[step] : undefined;
  }
  return at;
}
