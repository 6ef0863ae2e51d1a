/**
 * The health checks each endpoint runs, per dialect, in the order a verbose body lists them
 * (doc 1 §4.5.4; transcripts health-healthz-verbose, health-livez-verbose, health-readyz-verbose).
 *
 * Kubernetes' lists are copied from the transcripts name for name. The orb lists keep Kubernetes'
 * order but hold only the names doc 1 §4.5.4 gives: ping, log, the persistence check
 * (`dialect.health.persistenceCheck`), the five post-start hooks it names, autoregister-completion
 * and, on readyz only, the dialect's readiness-only checks (`shutdown`).
 */
import type { Dialect, DialectName } from "../../../spec/dialects.ts";

/** The three health endpoints (doc 1 §4.1, §4.5). */
export type HealthEndpoint = "healthz" | "livez" | "readyz";

/** Every health endpoint, in the order doc 1 §4.5 lists them. */
export const healthEndpoints: readonly HealthEndpoint[] = ["healthz", "livez", "readyz"];

/** One check an endpoint runs. */
export interface HealthCheck {
  /** The name between `[+]` and `ok` in verbose output, and the path below the endpoint (doc 1 §4.5). */
  readonly name: string;
  /**
   * A check of the start-up sequence (post-start hooks and autoregister-completion): during
   * `--livez-grace-period` a failure of one of these does not fail /livez (Kubernetes'
   * AddBootSequenceHealthChecks). Other checks (ping, log, the store) count from the start.
   */
  readonly bootSequence: boolean;
  /** Runs on /readyz only (`dialect.health.readinessOnlyChecks`). */
  readonly readinessOnly: boolean;
}

// Kubernetes 1.26, in the transcripts' order. "@store" stands for the dialect's persistence check.
const KUBERNETES_CHECKS: readonly string[] = [
  "ping",
  "log",
  "@store",
  "@readiness:etcd-readiness",
  "@readiness:informer-sync",
  "poststarthook/start-kube-apiserver-admission-initializer",
  "poststarthook/generic-apiserver-start-informers",
  "poststarthook/priority-and-fairness-config-consumer",
  "poststarthook/priority-and-fairness-filter",
  "poststarthook/storage-object-count-tracker-hook",
  "poststarthook/start-apiextensions-informers",
  "poststarthook/start-apiextensions-controllers",
  "poststarthook/crd-informer-synced",
  "poststarthook/bootstrap-controller",
  "poststarthook/rbac/bootstrap-roles",
  "poststarthook/scheduling/bootstrap-system-priority-classes",
  "poststarthook/priority-and-fairness-config-producer",
  "poststarthook/start-cluster-authentication-info-controller",
  "poststarthook/start-kube-apiserver-identity-lease-controller",
  "poststarthook/start-kube-apiserver-identity-lease-garbage-collector",
  "poststarthook/start-legacy-token-tracking-controller",
  "poststarthook/start-kube-aggregator-informers",
  "poststarthook/apiservice-registration-controller",
  "poststarthook/apiservice-status-available-controller",
  "poststarthook/apiservice-wait-for-first-sync",
  "poststarthook/kube-apiserver-autoregistration",
  "autoregister-completion",
  "poststarthook/apiservice-openapi-controller",
  "poststarthook/apiservice-openapiv3-controller",
  "@readiness:shutdown",
];

// Doc 1 §4.5.4's names, in Kubernetes' relative order.
const ORB_CHECKS: readonly string[] = [
  "ping",
  "log",
  "@store",
  "poststarthook/generic-apiserver-start-informers",
  "poststarthook/crd-informer-synced",
  "poststarthook/bootstrap-controller",
  "poststarthook/rbac/bootstrap-roles",
  "poststarthook/scheduling/bootstrap-system-priority-classes",
  "autoregister-completion",
  "@readiness:shutdown",
];

const CHECK_LISTS: Readonly<Record<DialectName, readonly string[]>> = { orb: ORB_CHECKS, kubernetes: KUBERNETES_CHECKS };

const READINESS_PREFIX = "@readiness:";

function isBootSequence(name: string): boolean {
  return name.startsWith("poststarthook/") || name === "autoregister-completion";
}

function allChecks(dialect: Dialect): readonly HealthCheck[] {
  return CHECK_LISTS[dialect.name].map((entry) => {
    if (entry === "@store") return { name: dialect.health.persistenceCheck, bootSequence: false, readinessOnly: false };
    if (entry.startsWith(READINESS_PREFIX)) {
      return { name: entry.slice(READINESS_PREFIX.length), bootSequence: false, readinessOnly: true };
    }
    return { name: entry, bootSequence: isBootSequence(entry), readinessOnly: false };
  });
}

/** The checks `endpoint` runs in `dialect`, in verbose-output order. /healthz and /livez run the same list. */
export function healthChecks(dialect: Dialect, endpoint: HealthEndpoint): readonly HealthCheck[] {
  const checks = allChecks(dialect);
  return endpoint === "readyz" ? checks : checks.filter((check) => !check.readinessOnly);
}

/** The check named `name` on `endpoint`, or undefined (a single-check path naming it is a 404). */
export function findHealthCheck(dialect: Dialect, endpoint: HealthEndpoint, name: string): HealthCheck | undefined {
  return healthChecks(dialect, endpoint).find((check) => check.name === name);
}

/** Every check name of the dialect on any endpoint, in /readyz order (the names `--fail-check` takes). */
export function healthCheckNames(dialect: Dialect): readonly string[] {
  return allChecks(dialect).map((check) => check.name);
}
