/**
 * Applies a PATCH body of any of the three patch types (doc 1 §1) to an object, with Kubernetes'
 * answers for a patch that is malformed (400), too large (413) or cannot apply (422).
 */
import { badRequest, failure } from "../responses/api-error.ts";
import type { PatchKind } from "../request/request-body.ts";
import { applyJsonPatch, JsonPatchError } from "./json-patch.ts";
import { applyMergePatch } from "./json-merge-patch.ts";
import { applyStrategicMergePatch, StrategicMergePatchError, type JsonObject } from "./strategic-merge-patch.ts";

/** `document` with `patch` applied; `typeKind` names the type whose merge keys a strategic patch uses. */
export function applyPatch(kind: PatchKind, typeKind: string, document: Record<string, unknown>, patch: unknown): Record<string, unknown> {
  let result: unknown;
  if (kind === "strategic") {
    // A kind without merge keys (a custom resource) fails inside with Kubernetes' 415.
    if (patch === null || typeof patch !== "object" || Array.isArray(patch)) throw badRequest("Invalid JSON Patch");
    try {
      result = applyStrategicMergePatch(typeKind, document as JsonObject, patch as JsonObject);
    } catch (error) {
      if (!(error instanceof StrategicMergePatchError)) throw error;
      throw failure(error.reason, error.statusMessage, error.code === 422 ? {} : undefined);
    }
  } else if (kind === "merge") {
    // Kubernetes' answer to a merge patch that is not an object.
    if (patch === null || typeof patch !== "object" || Array.isArray(patch)) throw badRequest("Invalid JSON Patch");
    result = applyMergePatch(document, patch);
  } else {
    try {
      result = applyJsonPatch(document, patch);
    } catch (error) {
      if (!(error instanceof JsonPatchError)) throw error;
      // Malformed: 400; too many operations: 413; cannot apply: 422 with Kubernetes' bare message (transcript patch-json-bad-test).
      throw failure(error.reason, error.statusMessage, error.code === 422 ? {} : undefined);
    }
  }
  if (result === null || typeof result !== "object" || Array.isArray(result)) throw badRequest("the patched object is not a JSON object");
  return result as Record<string, unknown>;
}
