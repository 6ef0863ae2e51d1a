/** Reads of one object: there (200, and its body), or not there (404). */
import type { CaseContext } from "../../case-context.ts";
import { check } from "../../check.ts";
import type { ApiResponse } from "../../client/conformance-client.ts";
import { expectObject, metadataOf, type ObjectBody } from "./object-body.ts";
import { brief } from "./status-answers.ts";

/** GETs `path`, checks 200, returns the object. */
export async function getObject(context: CaseContext, path: string, what: string): Promise<ObjectBody> {
  const response = await context.client.get(path);
  check(response.status === 200, `${what}: GET ${path} expected 200, got ${response.status}: ${brief(response)}`);
  return expectObject(response.json, `${what}: GET ${path}`);
}

/** Checks a GET answered 404 NotFound (the object does not exist). */
export async function checkGone(context: CaseContext, path: string, what: string): Promise<void> {
  const response = await context.client.get(path);
  check(response.status === 404, `${what}: GET ${path} expected 404 NotFound, got ${response.status}${response.status === 200 ? ` (deletionTimestamp ${metadataOf(response.json).deletionTimestamp}, finalizers ${JSON.stringify(metadataOf(response.json).finalizers)})` : `: ${brief(response)}`}`);
}

/** Fails unless `response` is 404 NotFound: the dry-run object was not persisted. */
export function checkAbsent(response: ApiResponse, what: string): void {
  check(response.status === 404, `${what}: expected 404 (nothing persisted), got ${response.status}: ${response.text.slice(0, 200)}`);
}
