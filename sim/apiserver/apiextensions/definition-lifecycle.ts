/**
 * CustomResourceDefinitions as kube-apiserver's apiextensions server keeps them, around the object
 * registry (the one write path): a create is validated (definition-validation.ts) and defaulted, and
 * stored with an empty status as the real server answers it (recorded crd-create); then what its
 * naming and establishing controllers do follows at once, in the same call: the status gets
 * NamesAccepted and Established and the accepted names (crd-established), and the types are served
 * (routing/resource-types.ts, whence discovery and OpenAPI). An update re-serves the types. A delete
 * marks the definition with the `customresourcecleanup.apiextensions.k8s.io` finalizer and a
 * Terminating condition (crd-delete), deletes its objects through the registry as the finalizer
 * controller does, and when none is left stops serving the types and removes the definition.
 * Objects kept by finalizers of their own keep the definition Terminating until the last is gone.
 */
import type { StoredObject } from "../../store/stored-object.ts";
import type { ObjectRegistry } from "../registry/object-registry.ts";
import type { ObjectAddress, RegistryContext } from "../registry/registry-context.ts";
import { rfc3339 } from "../registry/object-stamping.ts";
import { storageKey, storagePrefix } from "../registry/stored-resource.ts";
import { failure } from "../responses/api-error.ts";
import { customResourceDefinitionsType, definitionTypes } from "../routing/custom-resources.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { acceptedNames, definitionConditions, initialStatus, terminatingCondition, withDefinitionDefaults, withStorageVersion } from "./definition-status.ts";
import { validateDefinition } from "./definition-validation.ts";

/** The finalizer a definition keeps until its objects are deleted (Kubernetes' name). */
export const CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";

const isDefinitions = (type: ResourceType) => type === customResourceDefinitionsType;

/** `base` with the lifecycle of definitions and the served types that follow them. */
export function withCustomResourceDefinitions(base: ObjectRegistry, context: RegistryContext): ObjectRegistry {
  const establish = (definition: StoredObject): StoredObject => {
    const name = definition.metadata.name;
    const types = definitionTypes(definition);
    context.registry.removeDefinition(name);
    const accepted = context.registry.canAdd(types);
    if (accepted) context.registry.add(types);
    const previous = (definition["status"] ?? {}) as { storedVersions?: string[] };
    const status = {
      ...previous,
      storedVersions: withStorageVersion(previous.storedVersions ?? [], definition),
      conditions: definitionConditions(definition, accepted, context.clock),
      acceptedNames: accepted ? acceptedNames(definition) : (definition["status"] as { acceptedNames?: unknown } | undefined)?.acceptedNames,
    };
    const address = { type: customResourceDefinitionsType, name, subresource: "status" };
    return base.update(address, definition, { ...definition, status } as StoredObject, { dryRun: false });
  };
  /** Deletes the objects of a terminating definition; removes it once none is left. */
  const cleanUp = (definition: StoredObject): void => {
    const types = context.registry.definitionTypes(definition.metadata.name);
    const type = types[0];
    let left = 0;
    if (type !== undefined) {
      for (const object of context.store.list({ prefix: storagePrefix(type, undefined) }).items) {
        const namespace = object.metadata["namespace"] as string | undefined;
        const outcome = base.delete({ type, namespace, name: object.metadata.name }, object, { dryRun: false });
        if (!outcome.removed) left += 1;
      }
    }
    if (left > 0) return;
    context.registry.removeDefinition(definition.metadata.name);
    const key = storageKey(customResourceDefinitionsType, undefined, definition.metadata.name);
    const stored = context.store.get(key);
    if (stored === undefined) return;
    const finalizers = ((stored.metadata["finalizers"] as string[] | undefined) ?? []).filter((finalizer) => finalizer !== CLEANUP_FINALIZER);
    base.update({ type: customResourceDefinitionsType, name: stored.metadata.name }, stored, { ...stored, metadata: { ...stored.metadata, finalizers } }, { dryRun: false });
  };
  /** The definition of a custom type, if it is terminating. */
  const terminatingDefinition = (type: ResourceType): StoredObject | undefined => {
    if (type.custom === undefined) return undefined;
    const definition = context.store.get(storageKey(customResourceDefinitionsType, undefined, type.custom.definition));
    return definition?.metadata["deletionTimestamp"] !== undefined ? definition : undefined;
  };
  return {
    // Whatever else the registry does (server-side apply) passes through unchanged.
    ...base,
    create(address, object, options) {
      if (terminatingDefinition(address.type) !== undefined) {
        // Recorded cr-create-while-terminating.
        throw failure("MethodNotAllowed", "create not allowed while custom resource definition is terminating", { group: address.type.group, kind: address.type.resource });
      }
      if (!isDefinitions(address.type)) return base.create(address, object, options);
      const defaulted = { ...withDefinitionDefaults(object), status: initialStatus(object) };
      validateDefinition(defaulted as unknown as StoredObject);
      const created = base.create(address, defaulted, options);
      if (!options.dryRun) establish(created);
      return created;
    },
    update(address, current, requested, options) {
      if (!isDefinitions(address.type)) {
        const updated = base.update(address, current, requested, options);
        const definition = options.dryRun ? undefined : terminatingDefinition(address.type);
        if (definition !== undefined) cleanUp(definition);
        return updated;
      }
      const next = address.subresource === undefined ? (withDefinitionDefaults(requested) as StoredObject) : requested;
      if (address.subresource === undefined) validateDefinition(next, current);
      const updated = base.update(address, current, next, options);
      if (options.dryRun) return updated;
      const stored = context.store.get(storageKey(customResourceDefinitionsType, undefined, current.metadata.name));
      if (stored === undefined) {
        context.registry.removeDefinition(current.metadata.name);
        return updated;
      }
      if (address.subresource === undefined && stored.metadata["deletionTimestamp"] === undefined) return reestablished(stored, updated);
      return updated;
    },
    delete(address: ObjectAddress, current, options) {
      if (!isDefinitions(address.type) || current.metadata["deletionTimestamp"] !== undefined) return base.delete(address, current, options);
      const finalizers = (current.metadata["finalizers"] as string[] | undefined) ?? [];
      const marked = {
        ...current,
        metadata: { ...current.metadata, finalizers: finalizers.includes(CLEANUP_FINALIZER) ? finalizers : [...finalizers, CLEANUP_FINALIZER], deletionTimestamp: rfc3339(context.clock) },
        status: terminatingCondition(current, context.clock),
      } as StoredObject;
      if (options.dryRun) return { object: marked, removed: false };
      const key = storageKey(customResourceDefinitionsType, undefined, current.metadata.name);
      const answer = context.store.update(key, marked, {});
      cleanUp(answer);
      return { object: answer, removed: false };
    },
  };

  // An update of the spec: the types served again as it now says; the answer is the update's.
  function reestablished(stored: StoredObject, updated: StoredObject): StoredObject {
    establish(stored);
    return updated;
  }
}
