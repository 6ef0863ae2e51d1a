/**
 * Which pods the taint manager evicts, and when (doc 2 §2.4 `--enable-taint-manager`; Kubernetes'
 * NoExecuteTaintManager): a pod that does not tolerate every NoExecute taint of its node goes at
 * once; one that tolerates them all goes after the smallest tolerationSeconds among the
 * tolerations used (the default ones are 300 s, sim/apiserver/admission/pod-defaults.ts); one
 * whose tolerations used carry no tolerationSeconds stays.
 */
import type { Pod, Taint, Toleration } from "./api-objects.ts";

/** Ms until `pod` is evicted from a node with `taints` (0: at once), or undefined: never. */
export function evictionDelayMs(pod: Pod, taints: readonly Taint[]): number | undefined {
  let delayMs: number | undefined;
  for (const taint of taints) {
    if (taint.effect !== "NoExecute") continue;
    const used = (pod.spec.tolerations ?? []).filter((toleration) => tolerates(toleration, taint));
    if (used.length === 0) return 0;
    for (const toleration of used) {
      if (toleration.tolerationSeconds === undefined) continue;
      const ms = Math.max(0, toleration.tolerationSeconds) * 1000;
      delayMs = delayMs === undefined ? ms : Math.min(delayMs, ms);
    }
  }
  return delayMs;
}

// Kubernetes' Toleration.ToleratesTaint.
function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect !== undefined && toleration.effect !== "" && toleration.effect !== taint.effect) return false;
  if (toleration.key !== undefined && toleration.key !== "" && toleration.key !== taint.key) return false;
  if (toleration.operator === "Exists") return true;
  if ((toleration.key ?? "") === "") return false; // an empty key needs Exists
  return (toleration.value ?? "") === (taint.value ?? "");
}
