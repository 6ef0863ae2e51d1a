/**
 * Whether a namespace can take new objects: it must exist (404, transcript
 * create-missing-namespace) and not be terminating (403, transcript create-in-terminating).
 */
import { failure, notFound } from "./api-error.ts";
import type { ServerContext } from "./server-context.ts";
import { storageKey } from "./stored-resource.ts";

/** Throws unless `namespace` exists and is not being deleted. */
export function checkNamespaceAcceptsCreate(context: ServerContext, namespace: string, resource: string, name: string): void {
  const type = context.registry.find("", "v1", "namespaces")!;
  const object = context.store.get(storageKey(type, undefined, namespace));
  if (object === undefined) throw notFound(type, namespace);
  if (object.metadata["deletionTimestamp"] !== undefined) {
    throw failure("Forbidden", `${resource} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, {
      name,
      kind: resource,
      causes: [{ reason: "NamespaceTerminating", message: `namespace ${namespace} is being terminated`, field: "metadata.namespace" }],
    });
  }
}
