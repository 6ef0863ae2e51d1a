/**
 * The registry seam of the planted defects (defects.ts): the defects that break a rule of writes
 * wrap the registry, so the registry itself has no trace of them.
 */
import type { ApplyingRegistry } from "../registry/object-registry.ts";
import type { DefectName } from "./defects.ts";
import type { ResourceType } from "../routing/resource-types.ts";

/** `registry` with the write defects among `defects` planted (the same registry when there are none). */
export function withPlantedRegistryDefects(registry: ApplyingRegistry, defects: ReadonlySet<DefectName>): ApplyingRegistry {
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
  if (defects.has("apply-ignores-conflicts")) {
    const inner = planted;
    // Planted defect "apply-ignores-conflicts" (sim/apiserver/defects/defects.ts): every apply is forced.
    planted = { ...inner, apply: (address, current, configuration, options) => inner.apply(address, current, configuration, { ...options, force: true }) };
  }
  if (defects.has("managed-fields-not-updated")) {
    const inner = planted;
    // Planted defect "managed-fields-not-updated" (sim/apiserver/defects/defects.ts): writes other than apply name no manager, so none is recorded.
    planted = {
      ...inner,
      create: (address, object, options) => inner.create(address, object, { ...options, fieldManager: undefined }),
      update: (address, current, requested, options) => inner.update(address, current, requested, { ...options, fieldManager: undefined }),
    };
  }
  if (defects.has("custom-resource-schema-ignored")) {
    const inner = planted;
    // Planted defect "custom-resource-schema-ignored" (sim/apiserver/defects/defects.ts): the writes see a custom type without its schema.
    const schemaless = <A extends { readonly type: ResourceType }>(address: A): A =>
      address.type.custom?.schema === undefined ? address : { ...address, type: { ...address.type, custom: { ...address.type.custom, schema: undefined } } };
    planted = {
      ...inner,
      create: (address, object, options) => inner.create(schemaless(address), object, options),
      update: (address, current, requested, options) => inner.update(schemaless(address), current, requested, options),
      apply: (address, current, configuration, options) => inner.apply(schemaless(address), current, configuration, options),
    };
  }
  return planted;
}
