/**
 * The two configurations of a real control plane worth testing, because real clusters run both
 * (shared kube-assets README, "Two profiles"):
 * - `default`: kube-apiserver's defaults, watch cache on and etcd compacted every 5 minutes, so a
 *   watch from an old version is served from the cache and 410 appears only once the cache no
 *   longer holds it;
 * - `fast-expiry`: watch cache off and etcd compacted every 10 s, so continue tokens and old
 *   versions expire within 10–20 s and a future-version read answers 504 at once.
 */

/** A profile's name, as `--kube-profile` takes it. */
export type KubeProfileName = "default" | "fast-expiry";

/** What a profile sets and what follows from it. */
export interface KubeProfile {
  readonly name: KubeProfileName;
  /** Flags added to kube-apiserver's command line. */
  readonly apiserverFlags: readonly string[];
  /** `--etcd-compaction-interval`: versions survive between one and two of these. */
  readonly compactionIntervalMs: number;
  readonly watchCache: boolean;
}

/** The profiles by name. */
export const KUBE_PROFILES: Readonly<Record<KubeProfileName, KubeProfile>> = {
  default: { name: "default", apiserverFlags: [], compactionIntervalMs: 5 * 60_000, watchCache: true },
  "fast-expiry": { name: "fast-expiry", apiserverFlags: ["--watch-cache=false", "--etcd-compaction-interval=10s"], compactionIntervalMs: 10_000, watchCache: false },
};

/** The profile called `name`, or undefined. */
export function kubeProfileByName(name: string): KubeProfile | undefined {
  return Object.hasOwn(KUBE_PROFILES, name) ? KUBE_PROFILES[name as KubeProfileName] : undefined;
}
