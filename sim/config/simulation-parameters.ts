/**
 * What the simulation takes from validated configuration: leader election (doc 2 §2.2) and node
 * lifecycle (doc 2 §2.4) parameters from the daemons' flags, node status and lease parameters
 * (doc 3 §2.4) from the node agent configuration; times in milliseconds for the virtual clock.
 * `simulate --controller-manager-flags "…" --node-agent-config FILE` calls these after validation.
 */
import type { DialectName } from "../../spec/dialects.ts";
import type { Daemon } from "../../spec/doc2/daemon-options.ts";
import { parseConfigText } from "./config-file.ts";
import type { DaemonOptions } from "./daemon-options.ts";
import { formatFinding, type Finding } from "./finding.ts";
import { goDurationToMs, parseGoDuration } from "./go-duration.ts";
import { splitFlagLine } from "./go-flags.ts";
import { validateDaemonOptions, type DaemonValidation } from "./validate-daemon-options.ts";
import { isPlainObject } from "./schema-check.ts";
import { validateNodeAgentConfig, validateNodeAgentConfigText, type NodeAgentValidation } from "./validate-node-agent-config.ts";

/** A configuration with errors was handed to the simulation. */
export class InvalidConfigurationError extends Error {
  readonly findings: readonly Finding[];

  /** Lists every error finding in the message. */
  constructor(what: string, findings: readonly Finding[]) {
    const errors = findings.filter((entry) => entry.severity === "error");
    super(`${what} is invalid:\n${errors.map((entry) => `  ${formatFinding(entry)}`).join("\n")}`);
    this.findings = findings;
  }
}

/** Leader election of one daemon (doc 2 §2.2). */
export interface LeaderElectionParameters {
  /** `--leader-elect`; the other fields apply only when it is true. */
  readonly enabled: boolean;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  readonly resourceLock: string;
  readonly resourceName: string;
  readonly resourceNamespace: string;
}

/** The leader election parameters of a controller manager or scheduler. */
export function leaderElectionParameters(options: DaemonOptions): LeaderElectionParameters {
  return {
    enabled: options.bool("leader-elect"),
    leaseDurationMs: goDurationToMs(options.duration("leader-elect-lease-duration")),
    renewDeadlineMs: goDurationToMs(options.duration("leader-elect-renew-deadline")),
    retryPeriodMs: goDurationToMs(options.duration("leader-elect-retry-period")),
    resourceLock: options.string("leader-elect-resource-lock"),
    resourceName: options.string("leader-elect-resource-name"),
    resourceNamespace: options.string("leader-elect-resource-namespace"),
  };
}

/** The node lifecycle controller's parameters (doc 2 §2.4). */
export interface NodeLifecycleParameters {
  readonly nodeMonitorPeriodMs: number;
  readonly nodeMonitorGracePeriodMs: number;
  readonly nodeStartupGracePeriodMs: number;
  /** Nodes per second, healthy zone. */
  readonly nodeEvictionRate: number;
  /** Nodes per second, unhealthy zone in a large cluster. */
  readonly secondaryNodeEvictionRate: number;
  readonly largeClusterSizeThreshold: number;
  readonly unhealthyZoneThreshold: number;
  readonly podEvictionTimeoutMs: number;
  /** `--enable-taint-manager`: NoExecute taints evict pods that do not tolerate them. */
  readonly taintManagerEnabled: boolean;
}

/** The node lifecycle parameters of a controller manager. */
export function nodeLifecycleParameters(options: DaemonOptions): NodeLifecycleParameters {
  requireDaemon(options, "controller-manager");
  return {
    nodeMonitorPeriodMs: goDurationToMs(options.duration("node-monitor-period")),
    nodeMonitorGracePeriodMs: goDurationToMs(options.duration("node-monitor-grace-period")),
    nodeStartupGracePeriodMs: goDurationToMs(options.duration("node-startup-grace-period")),
    nodeEvictionRate: options.number("node-eviction-rate"),
    secondaryNodeEvictionRate: options.number("secondary-node-eviction-rate"),
    largeClusterSizeThreshold: options.number("large-cluster-size-threshold"),
    unhealthyZoneThreshold: options.number("unhealthy-zone-threshold"),
    podEvictionTimeoutMs: goDurationToMs(options.duration("pod-eviction-timeout")),
    taintManagerEnabled: options.bool("enable-taint-manager"),
  };
}

/**
 * Whether a zone is unhealthy (doc 2 §2.4 `--unhealthy-zone-threshold`): at least the threshold's
 * fraction of its Nodes are not Ready, and at least 3 of them (Kubernetes: more than 2).
 */
export function zoneUnhealthy(parameters: NodeLifecycleParameters, notReadyNodes: number, readyNodes: number): boolean {
  const total = notReadyNodes + readyNodes;
  return notReadyNodes >= 3 && total > 0 && notReadyNodes / total >= parameters.unhealthyZoneThreshold;
}

/**
 * Nodes per second evicted in a zone (doc 2 §2.4): the primary rate when the zone is healthy; the
 * secondary rate when it is not, which is implicitly 0 at or below `--large-cluster-size-threshold`
 * nodes (derivation doc2/2.4/secondary-eviction-rate-small-cluster).
 */
export function zoneEvictionRate(parameters: NodeLifecycleParameters, zone: { readonly healthy: boolean; readonly nodeCount: number }): number {
  if (zone.healthy) return parameters.nodeEvictionRate;
  return zone.nodeCount > parameters.largeClusterSizeThreshold ? parameters.secondaryNodeEvictionRate : 0;
}

/** The node agent's status and lease parameters (doc 3 §2.4). */
export interface NodeAgentParameters {
  readonly nodeStatusUpdateFrequencyMs: number;
  readonly nodeStatusReportFrequencyMs: number;
  readonly nodeLeaseDurationSeconds: number;
  /**
   * How often the node lease is renewed (derivation doc3/2.4/node-lease-renew-interval): every 10s
   * per doc 3; Kubernetes renews at a quarter of the lease duration (10s for the default 40s).
   */
  readonly nodeLeaseRenewIntervalMs: number;
}

/** The node agent parameters of a valid configuration; throws InvalidConfigurationError otherwise. */
export function nodeAgentParameters(validation: NodeAgentValidation): NodeAgentParameters {
  if (!validation.valid || validation.config === undefined) throw new InvalidConfigurationError("the node agent configuration", validation.findings);
  const config = validation.config;
  const durationMs = (name: string) => goDurationToMs(parseGoDuration(config[name] as string));
  const leaseSeconds = config["nodeLeaseDurationSeconds"] as number;
  return {
    nodeStatusUpdateFrequencyMs: durationMs("nodeStatusUpdateFrequency"),
    nodeStatusReportFrequencyMs: durationMs("nodeStatusReportFrequency"),
    nodeLeaseDurationSeconds: leaseSeconds,
    nodeLeaseRenewIntervalMs: leaseRenewIntervalMs(validation.dialect, leaseSeconds),
  };
}

function leaseRenewIntervalMs(dialect: DialectName, leaseSeconds: number): number {
  return dialect === "orb" ? 10_000 : leaseSeconds * 250;
}

/**
 * Validates one string of a daemon's flags (as `simulate --controller-manager-flags "…"` takes
 * them, split like a shell would) and returns the validation; throws InvalidConfigurationError
 * when there are errors.
 */
export function daemonOptionsForSimulation(daemon: Daemon, flagLine: string, dialect: DialectName = "orb"): DaemonValidation {
  const validation = validateDaemonOptions(daemon, splitFlagLine(flagLine), dialect);
  if (!validation.valid) throw new InvalidConfigurationError(`the ${daemon} command line`, validation.findings);
  return validation;
}

/**
 * Validates the text of a node agent configuration file (as `simulate --node-agent-config FILE`
 * takes it) and returns the validation; throws InvalidConfigurationError when there are errors.
 * `overrides` (top-level fields given some other way) replace the file's fields before defaulting,
 * so an explicit nodeStatusUpdateFrequency still defaults nodeStatusReportFrequency (doc 3 §2.4).
 */
export function nodeAgentConfigForSimulation(text: string, overrides: Readonly<Record<string, unknown>> = {}): NodeAgentValidation {
  const parsed = parseConfigText(text);
  const document = parsed.ok && isPlainObject(parsed.value) ? { ...parsed.value, ...overrides } : undefined;
  // A file that does not parse, or is not a mapping, gets validation's own finding for it.
  const validation = document === undefined ? validateNodeAgentConfigText(text) : validateNodeAgentConfig(document);
  if (!validation.valid) throw new InvalidConfigurationError("the node agent configuration", validation.findings);
  return validation;
}

function requireDaemon(options: DaemonOptions, daemon: Daemon): void {
  if (options.daemon !== daemon) throw new TypeError(`these are ${options.daemon} options, not ${daemon} options`);
}
