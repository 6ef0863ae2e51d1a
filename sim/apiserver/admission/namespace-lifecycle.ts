/**
 * Kubernetes' NamespaceLifecycle admission. Its create rule: a namespace takes new objects only
 * while it exists (404, transcript create-missing-namespace) and is not terminating (403,
 * transcript create-in-terminating). Its delete rule: the default, system and public
 * namespaces may not be deleted (403 Forbidden, dry run or not), so a stray `kubectl delete ns
 * default` cannot leave the server without the namespace every client falls back to. The dialect
 * names them (`kube-system` / `orb-system`, …); the node-lease namespace is not protected, as in
 * Kubernetes 1.26. Doc 1 names no such rule; it only says system namespaces exist at start.
 */
import type { Dialect } from "../../../spec/dialects.ts";
import { failure, notFound } from "../responses/api-error.ts";
import { storageKey } from "../registry/stored-resource.ts";
import type { ServerContext } from "../server-context.ts";
import type { ResourceType } from "../routing/resource-types.ts";

/** Throws 403 Forbidden for a delete of one of the dialect's immortal namespaces. */
export function checkNamespaceDeletable(dialect: Dialect, type: ResourceType, name: string): void {
  if (type.group !== "" || type.resource !== "namespaces") return;
  const { default: defaultNamespace, system, public: publicNamespace } = dialect.namespaces;
  if (name !== defaultNamespace && name !== system && name !== publicNamespace) return;
  throw failure("Forbidden", `namespaces "${name}" is forbidden: this namespace may not be deleted`, { name, kind: "namespaces" });
}

/** Throws unless `namespace` exists and is not being deleted. */
export function checkNamespaceAcceptsCreate(context: Pick<ServerContext, "registry" | "store">, namespace: string, resource: string, name: string): void {
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
