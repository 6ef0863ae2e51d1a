/**
 * The built-in admission chain (doc 1 §4.4.2: admission runs in a dry run too, and validating
 * plugins see the mutated object): mutating first (defaults, allocations), then validating.
 */
import type { StoredObject } from "../../store/stored-object.ts";
import type { RegistryContext } from "../registry/registry-context.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { storagePrefix } from "../registry/stored-resource.ts";
import { validateObject } from "./object-validation.ts";
import { checkNamespaceDeletable } from "./namespace-lifecycle.ts";
import { withDeploymentDefaults } from "./deployment-defaults.ts";
import { withPodDefaults } from "./pod-defaults.ts";
import { checkPodServiceAccount } from "./service-account-admission.ts";
import { allocationsInUse, withServiceDefaults, type Ipv4Range } from "./service-allocation.ts";
import { checkDryRunAllowed, type SideEffectPlugin } from "./side-effect-plugins.ts";

/** How admission is configured. */
export interface AdmissionConfig {
  /** Where Service cluster IPs come from (`--service-cluster-ip-range`). */
  readonly serviceRange: Ipv4Range;
  /** Plugins declared with or without side effects (doc 1 §4.4.5). */
  readonly sideEffectPlugins: readonly SideEffectPlugin[];
  /** Refuse a new Pod whose ServiceAccount does not exist (service-account-admission.ts; ApiServerOptions.defaultServiceAccounts). */
  readonly serviceAccountLookup?: boolean;
}

/** Runs the chain on a write of `next` over `current` (undefined for a create); returns what to store. */
export function admit(context: RegistryContext, type: ResourceType, next: StoredObject, current: StoredObject | undefined, dry: boolean): StoredObject {
  if (dry) checkDryRunAllowed(context.admission.sideEffectPlugins, type.resource);
  const mutated = mutate(context, type, next, current, dry);
  validateObject(type, mutated, current);
  return mutated;
}

/**
 * For deletes, which run no object admission here: the immortal namespaces stay (NamespaceLifecycle),
 * and a dry run still may not reach a plugin with side effects.
 */
export function admitDelete(context: RegistryContext, type: ResourceType, name: string, dry: boolean): void {
  checkNamespaceDeletable(context.dialect, type, name);
  if (dry) checkDryRunAllowed(context.admission.sideEffectPlugins, type.resource);
}

function mutate(context: RegistryContext, type: ResourceType, next: StoredObject, current: StoredObject | undefined, dry: boolean): StoredObject {
  switch (type.kind) {
    case "Pod": {
      if (current !== undefined) return next;
      const defaulted = withPodDefaults(next, context.dialect);
      if (context.admission.serviceAccountLookup === true) checkPodServiceAccount(context, defaulted);
      return defaulted;
    }
    case "Deployment":
      // Defaulting, not admission: it runs on every write, as decoding does in kube-apiserver.
      return withDeploymentDefaults(next);
    case "Service": {
      // Cluster IPs and node ports are cluster-wide, so every namespace's services count.
      const services = context.store.list({ prefix: storagePrefix(type, undefined) }).items;
      const inUse = allocationsInUse(services, current === undefined ? undefined : next.metadata.name);
      return withServiceDefaults(next, current, inUse, context.admission.serviceRange, context.rng, dry);
    }
    default:
      return next;
  }
}
