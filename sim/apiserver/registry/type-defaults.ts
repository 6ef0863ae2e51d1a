/**
 * Defaults the server applies to new objects of some types, as Kubernetes does (doc 1 §2.7 counts
 * them among generated values): namespaces get their name label, the `kubernetes` finalizer and
 * phase Active (transcript namespace-create); deployments start at generation 1; the recorded
 * built-in types get what recorded-type-defaults.ts lists.
 */
import type { StoredObject } from "../../store/stored-object.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { recordedTypeTracksGeneration, withRecordedTypeDefaults } from "./recorded-type-defaults.ts";

/** Types whose metadata.generation counts changes to spec (issue #3: bumped on spec changes). */
export function tracksGeneration(type: ResourceType): boolean {
  if (type.recorded === true) return recordedTypeTracksGeneration(type);
  // Custom resources and their definitions count generations (recorded: apiextensions/recorded, cr-after-scale).
  return type.kind === "Deployment" || type.custom !== undefined || type.kind === "CustomResourceDefinition";
}

/** The finalizer namespaces carry until their contents are gone (doc 1 §3, Kubernetes' name). */
export const NAMESPACE_FINALIZER = "kubernetes";

/** `object` with the defaults of its type applied. */
export function withCreateDefaults(type: ResourceType, object: StoredObject): StoredObject {
  if (type.recorded === true) return withRecordedTypeDefaults(type, object);
  if (type.kind === "Namespace") {
    const spec = (object["spec"] ?? {}) as Record<string, unknown>;
    return {
      ...object,
      metadata: {
        ...object.metadata,
        labels: { ...(object.metadata["labels"] as Record<string, string> | undefined), "kubernetes.io/metadata.name": object.metadata.name },
      },
      spec: { ...spec, finalizers: spec["finalizers"] ?? [NAMESPACE_FINALIZER] },
      status: { phase: "Active" },
    };
  }
  if (tracksGeneration(type)) return { ...object, metadata: { ...object.metadata, generation: 1 } };
  return object;
}
