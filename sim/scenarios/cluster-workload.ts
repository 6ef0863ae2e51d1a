/**
 * The cluster a node-eviction scenario simulates: node names and zones, and the pods bound to them
 * before the run (as if a scheduler had placed them), with a mix of tolerations:
 * - every 20th pod tolerates the node-controller taints for 0 s: evicted at once (doc 2 §2.4,
 *   "pods that do not tolerate the taint"; the DefaultTolerationSeconds admission gives every pod
 *   a toleration, so 0 s is how a pod opts out);
 * - every 20th (offset 1) tolerates them forever, as DaemonSet pods do;
 * - the rest keep the default 300 s tolerations (sim/apiserver/admission/pod-defaults.ts).
 */
import type { Dialect } from "../../spec/dialects.ts";
import type { Pod, Toleration } from "../actors/api-objects.ts";
import type { StoreApi } from "../actors/store-api.ts";

/** Zone `index`'s name: zone-a, zone-b, … */
export function zoneName(index: number): string {
  return `zone-${String.fromCharCode(97 + (index % 26))}${index >= 26 ? Math.floor(index / 26) : ""}`;
}

/** Node `index`'s name (no padding, so fault targets read `node-3` whatever the cluster's size). */
export function nodeName(index: number): string {
  return `node-${index}`;
}

/** The nodes of a cluster of `nodes` nodes spread round-robin over `zones` zones. */
export function clusterNodes(nodes: number, zones: number): { name: string; zone: string }[] {
  return Array.from({ length: nodes }, (_, index) => ({ name: nodeName(index), zone: zoneName(index % zones) }));
}

/** Creates `pods` pods round-robin on `nodes`, through `api` (setup, outside virtual time). */
export function createWorkload(api: StoreApi, dialect: Dialect, nodes: readonly { name: string }[], pods: number): void {
  for (let index = 0; index < pods; index++) {
    const node = nodes[index % nodes.length]!;
    api.createPod(workloadPod(dialect, index, node.name));
  }
}

function workloadPod(dialect: Dialect, index: number, nodeName: string): Pod {
  const tolerations = index % 20 === 0 ? controllerTaintTolerations(dialect, 0) : index % 20 === 1 ? controllerTaintTolerations(dialect, undefined) : [];
  return {
    metadata: { name: `pod-${index}`, namespace: dialect.namespaces.default },
    spec: { nodeName, containers: [{ name: "app", image: "registry.example/app:1" }], ...(tolerations.length > 0 && { tolerations }) },
  };
}

function controllerTaintTolerations(dialect: Dialect, seconds: number | undefined): Toleration[] {
  return [dialect.taints.notReady, dialect.taints.unreachable].map((key) => ({
    key,
    operator: "Exists" as const,
    effect: "NoExecute",
    ...(seconds !== undefined && { tolerationSeconds: seconds }),
  }));
}
