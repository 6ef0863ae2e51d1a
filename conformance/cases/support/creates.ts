/** Creates: the status a create answers with (deviation create-status), and the created object. */
import type { CaseContext } from "../../case-context.ts";
import { check } from "../../check.ts";
import type { ApiResponse } from "../../client/conformance-client.ts";
import { expectObject, type ObjectBody } from "./object-body.ts";
import { brief } from "./status-answers.ts";

/**
 * Deviation create-status: a create answers 201 (Kubernetes) or 200 (doc 1 §4.1 shows it once).
 * Tolerant for every dialect: an interpretation, doc 1 shows 200 in one example and states no rule.
 */
export const CREATED = [200, 201];

/**
 * Checks a successful create: 201 Created, or 200 (deviation create-status: doc 1 §4.1 shows 200
 * for one create, Kubernetes answers 201), with the created object. Returns the object. Tolerant
 * for every dialect: the entry is an interpretation (doc 1 shows 200 once, in an example, and
 * states no rule), so 201 cannot fail an orb server, nor 200 a server that follows the example.
 */
export function checkCreated(response: ApiResponse, what: string): ObjectBody {
  check(response.status === 201 || response.status === 200, `${what}: expected 201 Created (or 200, deviation create-status), got ${response.status}: ${brief(response)}`);
  check(typeof response.json === "object" && response.json !== null, `${what}: the create answered no JSON object: ${response.text.slice(0, 200)}`);
  return expectObject(response.json, `${what}: the created object`);
}

/** POSTs `body` to `path` and checks the create succeeded; returns the created object. */
export async function create(context: CaseContext, path: string, body: Record<string, unknown>, what: string): Promise<ObjectBody> {
  return checkCreated(await context.client.post(path, body), what);
}
