/**
 * The registry seam of the planted defects (defects.ts): the defects that break a rule of writes
 * wrap the registry, so the registry itself has no trace of them.
 */
import type { ObjectRegistry } from "../registry/object-registry.ts";
import type { DefectName } from "./defects.ts";

/** `registry` with the write defects among `defects` planted (the same registry when there are none). */
export function withPlantedRegistryDefects(registry: ObjectRegistry, defects: ReadonlySet<DefectName>): ObjectRegistry {
  let planted = registry;
  if (defects.has("dry-run-persists")) {
    const inner = planted;
    // Planted defect "dry-run-persists" (sim/apiserver/defects/defects.ts): a dry-run create is stored like any other.
    planted = { ...inner, create: (address, object) => inner.create(address, object, { dryRun: false }) };
  }
  if (defects.has("stale-update-accepted")) {
    const inner = planted;
    // Planted defect "stale-update-accepted" (sim/apiserver/defects/defects.ts): the resourceVersion the writer read is not compared.
    planted = { ...inner, update: (address, current, requested, options) => inner.update(address, current, requested, { ...options, expectedRevision: undefined }) };
  }
  if (defects.has("finalizers-ignored-on-delete")) {
    const inner = planted;
    // Planted defect "finalizers-ignored-on-delete" (sim/apiserver/defects/defects.ts): objects with finalizers go at once too (namespaces still wait for their controller).
    planted = {
      ...inner,
      delete: (address, current, options) => {
        const finalizers = (current.metadata["finalizers"] as unknown[] | undefined) ?? [];
        if (finalizers.length === 0 || address.type.kind === "Namespace") return inner.delete(address, current, options);
        const outcome = inner.delete(address, { ...current, metadata: { ...current.metadata, finalizers: [] } }, options);
        return options.dryRun ? { object: current, removed: outcome.removed } : outcome;
      },
    };
  }
  return planted;
}
