/** The answer to a DELETE that removed an object (doc 1 §4.1; deviation delete-response). */
import type { Dialect } from "../../../spec/dialects.ts";
import { check, checkEqual } from "../../check.ts";
import type { ApiResponse } from "../../client/conformance-client.ts";
import { recordOf } from "../../client/json-fields.ts";
import { checkAnswerForm } from "./dialect-answers.ts";
import { metadataOf } from "./object-body.ts";
import { brief } from "./status-answers.ts";
import { detailsOf, isStatus } from "./status-body.ts";

/**
 * Checks the answer to a DELETE that removed an object at once: the object (doc 1 §4.1 "returns
 * the resulting object"), or a Status with status Success naming it (deviation delete-response:
 * Kubernetes, transcript delete-plain). Strict (dialect-answers.ts): each dialect records one
 * answer and real servers agree, so an orb target must send the object and a kubernetes target
 * the Status. Either must name the deleted object.
 */
export function checkRemovedAnswer(dialect: Dialect, response: ApiResponse, kind: string, name: string, uid: unknown, what: string): void {
  check(response.status === 200, `${what}: expected 200, got ${response.status}: ${brief(response)}`);
  const body = response.json;
  checkAnswerForm(dialect, "delete-response", isStatus(body) ? "status-when-removed" : "object", `${what} (kind ${JSON.stringify(recordOf(body).kind)})`);
  if (isStatus(body)) {
    checkEqual(body.status, "Success", `${what}: status of the Status answer (deviation delete-response)`);
    checkEqual(detailsOf(body).name, name, `${what}: details.name of the Status answer`);
    if (detailsOf(body).uid !== undefined) checkEqual(detailsOf(body).uid, uid, `${what}: details.uid of the Status answer`);
    return;
  }
  checkEqual(recordOf(body).kind, kind, `${what}: kind of the answer (the deleted object)`);
  checkEqual(metadataOf(body).name, name, `${what}: metadata.name of the answer`);
  checkEqual(metadataOf(body).uid, uid, `${what}: metadata.uid of the answer`);
}
