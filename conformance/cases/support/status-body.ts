/**
 * The Status body an error (and some successes) come with (doc 1 §7; Kubernetes' shape, gap
 * doc1/7/not-shown/body-shape): kind Status, status, code, reason, message, and details naming the
 * object and, for Invalid, the causes.
 */
import { isRecord, recordOf, type JsonRecord } from "../../client/json-fields.ts";
import { CaseFailure } from "../../case-outcome.ts";
import { arrayOrEmpty, describeJson, expectRecord } from "./json-guards.ts";

/** A JSON object of kind Status; its other fields are read where they are checked. */
export interface StatusBody extends JsonRecord {
  readonly kind: "Status";
}

/** Whether `value` is a Status. */
export function isStatus(value: unknown): value is StatusBody {
  return isRecord(value) && value.kind === "Status";
}

/** Fails unless `value` is a Status. */
export function expectStatus(value: unknown, what: string): StatusBody {
  if (!isStatus(value)) throw new CaseFailure(`${what}: expected a Status, got ${describeJson(value)}`);
  return value;
}

/** The details of a Status, or none: `detailsOf(status).name` reads as `status?.details?.name`. */
export function detailsOf(status: unknown): JsonRecord {
  return recordOf(recordOf(status).details);
}

/** The causes in a Status's details (none when there are none), each a JSON object. */
export function causesOf(status: unknown, what: string): JsonRecord[] {
  return arrayOrEmpty(detailsOf(status).causes, `${what}: details.causes of the Status`).map((cause, index) => expectRecord(cause, `${what}: details.causes[${index}] of the Status`));
}
