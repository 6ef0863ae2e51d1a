/**
 * An object of the API as the cases read it: a JSON object with object metadata (doc 1 §2.2:
 * name, namespace, uid, resourceVersion, creationTimestamp, deletionTimestamp, finalizers,
 * labels, …), each field read where it is used.
 */
import { isRecord, recordOf, type JsonRecord } from "../../client/json-fields.ts";
import { describeJson } from "./json-guards.ts";
import { CaseFailure } from "../../case-outcome.ts";

/** A JSON object with a metadata object. */
export interface ObjectBody extends JsonRecord {
  readonly metadata: JsonRecord;
}

/** Whether `value` is a JSON object with a metadata object. */
export function isObjectBody(value: unknown): value is ObjectBody {
  return isRecord(value) && isRecord(value.metadata);
}

/** Fails unless `value` is an object of the API (a JSON object with a metadata object). */
export function expectObject(value: unknown, what: string): ObjectBody {
  if (!isObjectBody(value)) throw new CaseFailure(`${what}: expected an object with metadata, got ${describeJson(value)}`);
  return value;
}

/** The metadata of `value`, or none: `metadataOf(value).name` reads as `value?.metadata?.name`. */
export function metadataOf(value: unknown): JsonRecord {
  return recordOf(recordOf(value).metadata);
}
