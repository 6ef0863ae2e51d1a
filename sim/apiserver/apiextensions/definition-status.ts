/**
 * A definition's defaults and status as kube-apiserver 1.26.4 writes them (recorded in
 * recorded/kube-apiserver-1.26-crds.json): on create, `spec.names.singular` and `listKind` filled
 * in, `spec.conversion` None, and the status `{conditions: null, acceptedNames: {plural: "",
 * kind: ""}, storedVersions: [<storage>]}` (crd-create); then the naming controller's
 * NamesAccepted (NoConflicts, "no conflicts found") and the establishing controller's Established
 * (InitialNamesAccepted, "the initial names have been accepted"), with the accepted names
 * (crd-established); on delete, Terminating (InstanceDeletionPending, crd-delete).
 */
import type { Clock } from "../../kernel/clock.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import { rfc3339 } from "../registry/object-stamping.ts";

type Json = Record<string, any>;

/** `object` (a definition being written) with the defaults the server fills in. */
export function withDefinitionDefaults(object: Record<string, unknown>): Record<string, unknown> {
  const spec: Json = { ...(object["spec"] as Json | undefined) };
  const names: Json = { ...spec["names"] };
  if (typeof names["kind"] === "string") {
    names["singular"] ??= names["kind"].toLowerCase();
    names["listKind"] ??= `${names["kind"]}List`;
  }
  spec["names"] = names;
  spec["conversion"] ??= { strategy: "None" };
  return { ...object, spec };
}

/** The status a new definition is stored with, before its controllers have looked at it (recorded crd-create). */
export function initialStatus(object: Record<string, unknown>): Json {
  return { conditions: null, acceptedNames: { plural: "", kind: "" }, storedVersions: withStorageVersion([], object) };
}

/** `stored` with the definition's storage version added, as kube-apiserver records every version ever stored. */
export function withStorageVersion(stored: readonly string[], definition: Record<string, unknown>): string[] {
  const versions: Json[] = Array.isArray((definition["spec"] as Json | undefined)?.["versions"]) ? (definition["spec"] as Json)["versions"] : [];
  const storage = versions.find((version) => version?.storage === true)?.name;
  return storage === undefined || stored.includes(storage) ? [...stored] : [...stored, storage];
}

/** The names a definition's served types answer to (its spec's names, defaulted). */
export function acceptedNames(definition: StoredObject): Json {
  return { ...((definition["spec"] as Json | undefined)?.["names"] ?? {}) };
}

/** NamesAccepted and Established, kept as they were when already true (their transition times too). */
export function definitionConditions(definition: StoredObject, accepted: boolean, clock: Clock): Json[] {
  const now = rfc3339(clock);
  const previous: Json[] = ((definition["status"] as Json | undefined)?.["conditions"] as Json[] | null) ?? [];
  const condition = (type: string, status: string, reason: string, message: string): Json => {
    const before = previous.find((entry) => entry["type"] === type);
    return { type, status, lastTransitionTime: before?.["status"] === status ? before["lastTransitionTime"] : now, reason, message };
  };
  if (!accepted) {
    const plural = (definition["spec"] as Json | undefined)?.["names"]?.["plural"];
    return [
      condition("NamesAccepted", "False", "NameConflict", `"${plural}" is already in use`),
      condition("Established", "False", "NotAccepted", "not all names are accepted"),
    ];
  }
  return [
    condition("NamesAccepted", "True", "NoConflicts", "no conflicts found"),
    condition("Established", "True", "InitialNamesAccepted", "the initial names have been accepted"),
  ];
}

/** The status of a definition marked for deletion: its conditions and Terminating. */
export function terminatingCondition(definition: StoredObject, clock: Clock): Json {
  const status: Json = { ...(definition["status"] as Json | undefined) };
  const conditions: Json[] = ((status["conditions"] as Json[] | null) ?? []).filter((entry) => entry["type"] !== "Terminating");
  conditions.push({ type: "Terminating", status: "True", lastTransitionTime: rfc3339(clock), reason: "InstanceDeletionPending", message: "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon" });
  return { ...status, conditions };
}
