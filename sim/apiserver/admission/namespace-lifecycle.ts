/**
 * Kubernetes' NamespaceLifecycle admission, its delete rule: the default, system and public
 * namespaces may not be deleted (403 Forbidden, dry run or not), so a stray `kubectl delete ns
 * default` cannot leave the server without the namespace every client falls back to. The dialect
 * names them (`kube-system` / `orb-system`, …); the node-lease namespace is not protected, as in
 * Kubernetes 1.26. Doc 1 names no such rule; it only says system namespaces exist at start.
 */
import type { Dialect } from "../../../spec/dialects.ts";
import { failure } from "../api-error.ts";
import type { ResourceType } from "../resource-types.ts";

/** Throws 403 Forbidden for a delete of one of the dialect's immortal namespaces. */
export function checkNamespaceDeletable(dialect: Dialect, type: ResourceType, name: string): void {
  if (type.group !== "" || type.resource !== "namespaces") return;
  const { default: defaultNamespace, system, public: publicNamespace } = dialect.namespaces;
  if (name !== defaultNamespace && name !== system && name !== publicNamespace) return;
  throw failure("Forbidden", `namespaces "${name}" is forbidden: this namespace may not be deleted`, { name, kind: "namespaces" });
}
