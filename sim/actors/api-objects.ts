/**
 * The few fields of Lease, Node and Pod that the control-plane actors read and write (doc 2 §2.2,
 * §2.4; doc 3 §2.4; Kubernetes' coordination/v1 and core/v1 shapes). Objects handed out by a
 * client may be frozen store objects: actors copy, never mutate.
 */

/** Object metadata as the actors use it. */
export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly resourceVersion?: string;
  readonly uid?: string;
  readonly creationTimestamp?: string;
  readonly labels?: Readonly<Record<string, string>>;
}

/** coordination/v1 LeaseSpec: the leader election record (doc 2 §2.2) or a node heartbeat (doc 3 §2.4). */
export interface LeaseSpec {
  readonly holderIdentity?: string;
  readonly leaseDurationSeconds?: number;
  /** MicroTime, RFC 3339 with microseconds. */
  readonly acquireTime?: string;
  readonly renewTime?: string;
  readonly leaseTransitions?: number;
}

/** A Lease. */
export interface Lease {
  readonly metadata: ObjectMeta;
  readonly spec: LeaseSpec;
}

/** A taint; the node lifecycle controller adds NoExecute ones (doc 2 §2.4). */
export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: "NoExecute" | "NoSchedule" | "PreferNoSchedule";
  readonly timeAdded?: string;
}

/** A node condition; only Ready matters here. */
export interface NodeCondition {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly reason?: string;
  readonly message?: string;
  readonly lastHeartbeatTime?: string;
  readonly lastTransitionTime?: string;
}

/** The three values of a condition's status. */
export type ConditionStatus = "True" | "False" | "Unknown";

/** A Node. */
export interface Node {
  readonly metadata: ObjectMeta;
  readonly spec: { readonly taints?: readonly Taint[] };
  readonly status: { readonly conditions?: readonly NodeCondition[] };
}

/** A toleration of a pod. */
export interface Toleration {
  readonly key?: string;
  readonly operator?: "Exists" | "Equal";
  readonly value?: string;
  readonly effect?: string;
  readonly tolerationSeconds?: number;
}

/** A Pod. */
export interface Pod {
  readonly metadata: ObjectMeta;
  readonly spec: {
    readonly nodeName?: string;
    readonly tolerations?: readonly Toleration[];
    readonly containers: readonly { readonly name: string; readonly image: string }[];
  };
}

/** The label holding a node's zone (Kubernetes' well-known topology label). */
export const ZONE_LABEL = "topology.kubernetes.io/zone";

/** A node's Ready condition, if it has one. */
export function readyCondition(node: Node): NodeCondition | undefined {
  // A loop, not find(): called for every node in every monitor pass.
  const conditions = node.status.conditions;
  if (conditions === undefined) return undefined;
  for (const condition of conditions) if (condition.type === "Ready") return condition;
  return undefined;
}

/** A node's zone label ("" when unlabelled, as Kubernetes' zone key). */
export function zoneOf(node: Node): string {
  return node.metadata.labels?.[ZONE_LABEL] ?? "";
}

/** `namespace/name` of a namespaced object. */
export function objectRef(metadata: ObjectMeta): string {
  return `${metadata.namespace ?? ""}/${metadata.name}`;
}
