/**
 * The values the server sets on objects (doc 1 §2.2, §2.7): the name from generateName, uid,
 * creationTimestamp, namespace from the path; and the values an update may not change.
 */
import type { Clock } from "../../kernel/clock.ts";
import type { Rng } from "../../kernel/rng.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import { badRequest, invalid, invalidValue } from "../responses/api-error.ts";
import { nameFromGenerateName, validateName } from "../validation/object-names.ts";
import type { ResourceType } from "../routing/resource-types.ts";

/** RFC 3339 at whole seconds, as Kubernetes writes timestamps. */
export function rfc3339(clock: Clock): string {
  const second = Math.floor(clock.nowMs() / 1000);
  // Every write stamps a time or two, and the text changes once a second: formatting it each time was 1% of a create.
  if (second !== lastStamp.second) lastStamp = { second, text: new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, "Z") };
  return lastStamp.text;
}

let lastStamp = { second: Number.NaN, text: "" };

/** The metadata of a request object, checked to be an object. */
export function metadataOf(object: Record<string, unknown>): Record<string, unknown> {
  const metadata = object["metadata"] ?? {};
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) throw badRequest("metadata must be an object");
  return metadata as Record<string, unknown>;
}

/** Checks that the body names this type (transcript create-wrong-kind: 400 for a Secret sent to configmaps). */
export function checkKind(type: ResourceType, object: Record<string, unknown>): void {
  const kind = object["kind"];
  if (kind !== undefined && kind !== type.kind) {
    const version = typeof object["apiVersion"] === "string" ? object["apiVersion"] : type.version;
    throw badRequest(`${String(kind)} in version "${version}" cannot be handled as a ${type.kind}: the kind does not match the resource`);
  }
}

/** The namespace of the object: the path's; a different one in the body is 400 (transcript create-namespace-mismatch). */
export function checkNamespace(type: ResourceType, metadata: Record<string, unknown>, pathNamespace: string | undefined): void {
  if (!type.namespaced) return;
  const bodyNamespace = metadata["namespace"];
  if (bodyNamespace !== undefined && bodyNamespace !== "" && bodyNamespace !== pathNamespace) {
    throw badRequest("the namespace of the provided object does not match the namespace sent on the request");
  }
}

/** The 422 for a name that breaks the type's rule (transcript create-invalid-name). */
export function checkName(type: ResourceType, name: string): void {
  const problems = validateName(type.nameRule, name);
  if (problems.length > 0) throw invalid(type.kind, name, problems.map((problem) => invalidValue("metadata.name", name, problem)));
}

/**
 * A new object's stored form: generated name, namespace, uid and creationTimestamp set; fields
 * only the server may set dropped.
 */
export function stampNewObject(
  type: ResourceType,
  object: Record<string, unknown>,
  namespace: string | undefined,
  clock: Clock,
  rng: Rng,
): StoredObject {
  const metadata = { ...metadataOf(object) };
  let name = typeof metadata["name"] === "string" ? metadata["name"] : "";
  const generateName = metadata["generateName"];
  if (name === "" && typeof generateName === "string" && generateName !== "") {
    name = nameFromGenerateName(generateName, rng.nameSuffix(5));
  }
  if (name === "") {
    throw invalid(type.kind, "", [{ reason: "FieldValueRequired", message: "Required value: name or generateName is required", field: "metadata.name" }]);
  }
  checkName(type, name);
  for (const serverField of ["resourceVersion", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"]) delete metadata[serverField];
  const stamped: Record<string, unknown> = {
    name,
    ...(typeof generateName === "string" && generateName !== "" && { generateName }),
    ...(type.namespaced && { namespace }),
    uid: rng.uuid(),
    creationTimestamp: rfc3339(clock),
  };
  const { kind: _kind, apiVersion: _apiVersion, metadata: _metadata, ...fields } = object;
  return { metadata: { ...metadata, ...stamped } as StoredObject["metadata"], ...fields };
}

// The metadata an update cannot change: always the stored object's (absent there, absent).
const CARRIED_OVER_METADATA = ["name", "namespace", "uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "generateName"];

/** An update's stored form: identity and lifecycle fields carried over from the current object. */
export function carryOverMetadata(current: StoredObject, next: StoredObject): StoredObject {
  // The stored metadata itself (a writer that kept the object it read): nothing to carry over; the
  // store replaces its resourceVersion.
  if (next.metadata === current.metadata) return next;
  const metadata: Record<string, unknown> = { ...next.metadata };
  for (const field of CARRIED_OVER_METADATA) {
    const value = current.metadata[field];
    if (value !== undefined) metadata[field] = value;
    else if (field in metadata) delete metadata[field]; // only when present: a delete can slow the object down
  }
  if ("resourceVersion" in metadata) delete metadata["resourceVersion"];
  return { ...next, metadata: metadata as StoredObject["metadata"] };
}
