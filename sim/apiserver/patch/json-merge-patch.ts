/**
 * JSON merge patch (RFC 7386), the body of a PATCH with Content-Type
 * `application/merge-patch+json` (doc1/1/verbs/update-not-patch, doc1/4.1/modify/returns-object;
 * the patch formats themselves are Kubernetes behaviour, not shown in doc 1).
 *
 * Strategic merge patch (`application/strategic-merge-patch+json`) is served with this function
 * too. For the built-in kinds the server stores (ConfigMap, Secret, Lease, ...) Kubernetes' strategic
 * merge differs from RFC 7386 only in lists with merge keys and in `$patch`/`$retainKeys`
 * directives; transcript patch-strategic shows a map-only strategic patch answering exactly as a
 * merge patch would. Treating the two the same is a simplification of the harness.
 */

/** A JSON value as JSON.parse produces it. */
import { cloneJson, isJsonObject, setMember, type JsonValue } from "./json-value.ts";
export type { JsonValue } from "./json-value.ts";

/**
 * `target` with `patch` merged in, per RFC 7386 §2: an object patch merges member by member
 * (a null member deletes, an object member merges recursively, anything else replaces); any
 * other patch replaces the target outright. Neither argument is modified; the result shares no
 * structure with them.
 */
export function applyMergePatch(target: unknown, patch: unknown): JsonValue {
  if (!isJsonObject(patch)) return cloneJson(patch);
  const result: { [member: string]: JsonValue } = isJsonObject(target) ? (cloneJson(target) as { [member: string]: JsonValue }) : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else setMember(result, name, applyMergePatch(Object.hasOwn(result, name) ? result[name] : undefined, value));
  }
  return result;
}

/**
 * Whether `patch` is a merge patch document a Kubernetes server accepts: a JSON object. Kubernetes
 * answers a `null` or scalar body with 400 BadRequest "Invalid JSON Patch"; an array body turns the
 * whole object into an array, which cannot decode as the kind (its status is not recorded in the
 * reference transcripts; a 400 is the safe answer).
 */
export function isMergePatchDocument(patch: unknown): patch is { [member: string]: JsonValue } {
  return isJsonObject(patch);
}

