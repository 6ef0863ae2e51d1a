/**
 * Error answers: the Status body a failure comes with (doc 1 §7; Kubernetes' shape, gap
 * doc1/7/not-shown/body-shape), and the server's message of an answer for failure texts.
 */
import { check, checkEqual } from "../../check.ts";
import type { ApiResponse } from "../../client/conformance-client.ts";
import { isRecord, recordOf } from "../../client/json-fields.ts";
import { expectStatus, type StatusBody } from "./status-body.ts";

/** The server's message of a response, for failure texts. */
export function brief(response: ApiResponse): string {
  const message = recordOf(response.json).message;
  return typeof message === "string" ? message : response.text.slice(0, 200);
}

/** The server's message of a response, or the start of its body. */
export function message(response: ApiResponse): string {
  return String(recordOf(response.json).message ?? response.text.slice(0, 200));
}

/**
 * Checks an error answer: the HTTP status, and a Status body as Kubernetes sends it (doc 1 §7:
 * "the body shape of error responses ... not shown"; gap doc1/7/not-shown/body-shape): kind
 * Status, apiVersion v1, status Failure, the reason, a message, and `code` equal to the HTTP status.
 */
export function checkFailure(response: ApiResponse, code: number, reason: string, what: string): StatusBody {
  check(response.status === code, `${what}: expected HTTP ${code} ${reason}, got ${response.status}: ${brief(response)}`);
  const body = response.json;
  check(isRecord(body), `${what}: the ${code} answer has no JSON object body (content-type ${response.headers.get("content-type")}): ${response.text.slice(0, 200)}`);
  checkEqual(body.kind, "Status", `${what}: kind of the error body`);
  checkEqual(body.apiVersion, "v1", `${what}: apiVersion of the error body`);
  checkEqual(body.status, "Failure", `${what}: status of the error body`);
  checkEqual(body.reason, reason, `${what}: reason of the error body`);
  checkEqual(body.code, code, `${what}: code of the error body (must equal the HTTP status)`);
  check(typeof body.message === "string" && body.message !== "", `${what}: the error body has no message: ${response.text.slice(0, 200)}`);
  return expectStatus(body, what);
}
