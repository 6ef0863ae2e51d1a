/**
 * The controllers `--controllers` may name (doc 2 §2.4: `*`, `foo`, `-foo`). Doc 2 does not list
 * them; these are kube-controller-manager 1.26's, with the two it leaves off under `*`
 * (bootstrapsigner, tokencleaner). Doc 1 §1 names replication, endpoints, namespace and
 * service-account controllers among them.
 */

/** One controller of the controller manager. */
export interface KnownController {
  readonly name: string;
  /** Whether `*` enables it. */
  readonly enabledByDefault: boolean;
}

const on = (name: string): KnownController => ({ name, enabledByDefault: true });
const off = (name: string): KnownController => ({ name, enabledByDefault: false });

/** The controllers of kube-controller-manager 1.26 (uncertain at the margins: gated alpha controllers are left out). */
export const knownControllers: readonly KnownController[] = [
  on("attachdetach"),
  off("bootstrapsigner"),
  on("cloud-node-lifecycle"),
  on("clusterrole-aggregation"),
  on("cronjob"),
  on("csrapproving"),
  on("csrcleaner"),
  on("csrsigning"),
  on("daemonset"),
  on("deployment"),
  on("disruption"),
  on("endpoint"),
  on("endpointslice"),
  on("endpointslicemirroring"),
  on("ephemeral-volume"),
  on("garbagecollector"),
  on("horizontalpodautoscaling"),
  on("job"),
  on("namespace"),
  on("nodeipam"),
  on("nodelifecycle"),
  on("persistentvolume-binder"),
  on("persistentvolume-expander"),
  on("podgc"),
  on("pv-protection"),
  on("pvc-protection"),
  on("replicaset"),
  on("replicationcontroller"),
  on("resourcequota"),
  on("root-ca-cert-publisher"),
  on("route"),
  on("service"),
  on("serviceaccount"),
  on("serviceaccount-token"),
  on("statefulset"),
  off("tokencleaner"),
  on("ttl"),
  on("ttl-after-finished"),
];
