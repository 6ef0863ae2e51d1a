/** Media types (doc 1 §4.3, §9.2): the ones the cases ask for and send, and the Content-Type of an answer. */
import type { CaseContext } from "../../case-context.ts";
import { check } from "../../check.ts";
import type { ApiResponse } from "../../client/conformance-client.ts";

export const JSON_TYPE = "application/json";

/** The media type of a Content-Type header, lowercased, parameters dropped ("" when absent). */
export function mediaTypeOf(header: string | null): string {
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
}

/** The Accept value asking for a Table of meta version `version` (doc 1 §4.3, §9.2). */
export function tableAccept(context: CaseContext, version = "v1"): string {
  return `application/json;as=Table;g=${context.dialect.metaGroup};v=${version}`;
}

/** Fails unless the response's Content-Type names `expected` (doc 1 §4.3: set when the requested format is supported). */
export function checkContentType(response: Pick<ApiResponse, "headers">, expected: string, what: string): void {
  const header = response.headers.get("content-type");
  check(mediaTypeOf(header) === expected.toLowerCase(), `${what}: Content-Type should be ${expected} (the representation served), got ${JSON.stringify(header)}`);
}

/** The media type of a merge patch (RFC 7386). */
export const MERGE_PATCH = "application/merge-patch+json";
