/**
 * The RBAC objects the server stores, as the RBAC authorizer reads them (rbac-authorizer.ts
 * RbacObjects): the latest state, at each call, as kube-apiserver's informer caches serve its
 * authorizer (there they lag by milliseconds; here a write counts from the next request).
 */
import type { MvccStore } from "../../store/mvcc-store.ts";
import type { ResourceRegistry, ResourceType } from "../routing/resource-types.ts";
import { dialectGroupOf } from "../routing/recorded-types.ts";
import { storageKey, storagePrefix } from "../registry/stored-resource.ts";
import type { Dialect } from "../../../spec/dialects.ts";
import type { RbacObjects, RbacRole } from "./rbac-authorizer.ts";
import type { RbacBinding } from "./rbac-rules.ts";

/** The four RBAC types of `dialect`, as served by `registry`. */
export interface RbacTypes {
  readonly roles: ResourceType;
  readonly rolebindings: ResourceType;
  readonly clusterroles: ResourceType;
  readonly clusterrolebindings: ResourceType;
}

/** The served RBAC types; throws when the registry serves none (a bug: they are recorded types of every dialect). */
export function rbacTypes(registry: ResourceRegistry, dialect: Dialect): RbacTypes {
  const group = dialectGroupOf("rbac.authorization.k8s.io", dialect);
  const find = (resource: string) => {
    const type = registry.find(group, "v1", resource);
    if (type === undefined) throw new Error(`RBAC needs ${group}/v1 ${resource}, which this server does not serve`);
    return type;
  };
  return { roles: find("roles"), rolebindings: find("rolebindings"), clusterroles: find("clusterroles"), clusterrolebindings: find("clusterrolebindings") };
}

/** RbacObjects over the store. */
export function storeRbacObjects(store: MvccStore, types: RbacTypes): RbacObjects {
  const list = (type: ResourceType, namespace?: string) => store.list({ prefix: storagePrefix(type, namespace) }).items as unknown as RbacBinding[];
  const get = (type: ResourceType, namespace: string | undefined, name: string) => store.get(storageKey(type, namespace, name)) as RbacRole | undefined;
  return {
    clusterRoleBindings: () => list(types.clusterrolebindings),
    roleBindings: (namespace) => list(types.rolebindings, namespace),
    clusterRole: (name) => get(types.clusterroles, undefined, name),
    role: (namespace, name) => get(types.roles, namespace, name),
  };
}
