/**
 * The bootstrap policy kube-apiserver writes at start-up with RBAC on (its rbac/bootstrap-roles
 * post-start hook: cluster-admin bound to system:masters, system:discovery, system:basic-user,
 * system:public-info-viewer, admin/edit/view, the controllers' roles, ...), read from what a real
 * kube-apiserver 1.26.4 wrote (rbac-bootstrap-data/README.md), so that `kubectl get clusterroles`
 * lists the same objects and they authorize the same requests.
 */
import { readFileSync } from "node:fs";
import type { Clock } from "../../kernel/clock.ts";
import type { Rng } from "../../kernel/rng.ts";
import type { MvccStore } from "../../store/mvcc-store.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import { rfc3339 } from "../registry/object-stamping.ts";
import { storageKey } from "../registry/stored-resource.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import type { RbacTypes } from "./rbac-store-objects.ts";

/** The recorded bootstrap objects, by plural; metadata without uid, resourceVersion or times. */
export interface RbacBootstrapData {
  readonly gitVersion: string;
  readonly clusterroles: readonly StoredObject[];
  readonly clusterrolebindings: readonly StoredObject[];
  readonly roles: readonly StoredObject[];
  readonly rolebindings: readonly StoredObject[];
}

const DATA_URL = new URL("./rbac-bootstrap-data/kube-apiserver-1.26-rbac-bootstrap.json", import.meta.url);

let cached: RbacBootstrapData | undefined;

/** The recording, read once. */
export function rbacBootstrapData(): RbacBootstrapData {
  cached ??= JSON.parse(readFileSync(DATA_URL, "utf8")) as RbacBootstrapData;
  return cached;
}

/**
 * Creates the bootstrap objects in `store`, each with a fresh uid and the start time, as the real
 * server's hook does. The Roles and RoleBindings live in kube-system and kube-public, which the
 * kubernetes dialect creates at start; the orb dialect's system namespaces have other names, so
 * there they are left out (they grant only controllers of a real control plane).
 */
export function createRbacBootstrapPolicy(store: MvccStore, types: RbacTypes, stamp: { readonly clock: Clock; readonly rng: Rng }, namespaces: ReadonlySet<string>): void {
  const data = rbacBootstrapData();
  const create = (type: ResourceType, object: StoredObject) => {
    const metadata = { ...object.metadata, uid: stamp.rng.uuid(), creationTimestamp: rfc3339(stamp.clock) };
    store.create(storageKey(type, metadata.namespace as string | undefined, metadata.name as string), { ...object, metadata } as StoredObject);
  };
  const inServedNamespace = (object: StoredObject) => namespaces.has(object.metadata.namespace as string);
  for (const object of data.clusterroles) create(types.clusterroles, object);
  for (const object of data.clusterrolebindings) create(types.clusterrolebindings, object);
  for (const object of data.roles.filter(inServedNamespace)) create(types.roles, object);
  for (const object of data.rolebindings.filter(inServedNamespace)) create(types.rolebindings, object);
}
