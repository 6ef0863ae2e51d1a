/** Creating an object (doc 1 §2.2, §2.7, §4.4): stamp, default, admit, store. */
import { StoreError } from "../../store/errors.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import { checkNamespaceAcceptsCreate } from "../admission/namespace-lifecycle.ts";
import { admit } from "../admission/admission-chain.ts";
import { alreadyExists, fromStoreError, invalid, invalidValue } from "../responses/api-error.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { nameKindForResource, validateGenerateName } from "../validation/object-names.ts";
import { metadataOf, stampNewObject } from "./object-stamping.ts";
import { withUpdateEntry } from "./managed-fields-tracking.ts";
import type { CollectionAddress, CreateOptions, RegistryContext } from "./registry-context.ts";
import { storageKey } from "./stored-resource.ts";
import { prepareForCreate } from "./type-strategy.ts";

/**
 * Stamps, defaults, admits and stores a new object; in a dry run (doc 1 §2.7, §4.4.2–3) it stops
 * before the store: generated values are filled, nothing is persisted. Returns what is stored.
 */
export function createObject(context: RegistryContext, address: CollectionAddress, object: Record<string, unknown>, options: CreateOptions): StoredObject {
  const { type, namespace } = address;
  const defaulted = prepareForCreate(type, stampNewObject(type, object, namespace, context.clock, context.rng));
  checkGenerateName(type, defaulted.metadata.name, metadataOf(object)["generateName"]);
  if (type.namespaced) checkNamespaceAcceptsCreate(context, namespace!, type.resource, defaulted.metadata.name);
  const admitted = admit(context, type, defaulted, undefined, options.dryRun);
  const stamped =
    context.trackManagedFields && options.fieldManager !== undefined
      ? withUpdateEntry(context, address, undefined, admitted, metadataOf(object)["managedFields"], options.fieldManager)
      : admitted;
  const key = storageKey(type, namespace, stamped.metadata.name);
  if (options.dryRun) {
    if (context.store.get(key) !== undefined) throw alreadyExists(type, key.name);
    return stamped;
  }
  try {
    return context.store.create(key, stamped);
  } catch (error) {
    if (error instanceof StoreError) throw fromStoreError(error, type, key.name, (revision) => context.store.formatRevision(revision));
    throw error;
  }
}

/**
 * A generateName is validated as a name prefix even when the name made from it is valid (a prefix
 * over 253 characters is cut to 58): 422 on field metadata.generateName (kube-apiserver 1.26.4,
 * recorded 2026-11-25; found by comparing with `fuzz --target http`, where such objects were stored).
 */
function checkGenerateName(type: ResourceType, name: string, generateName: unknown): void {
  if (typeof generateName !== "string" || generateName === "") return;
  const problems = validateGenerateName(nameKindForResource(type.resource), generateName);
  if (problems.length > 0) {
    throw invalid(type.kind, name, problems.map((problem) => invalidValue("metadata.generateName", generateName, problem)), type.group === "" ? undefined : type.group);
  }
}
