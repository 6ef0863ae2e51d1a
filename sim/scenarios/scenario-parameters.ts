/**
 * Parameters of the control-plane scenarios, defaulted from spec/ through the validated
 * configuration of sim/config (doc 2 flags, doc 3 node agent configuration) and overridable with
 * the same flags and fields, plus the one default that depends on the Kubernetes version.
 */
import type { DialectName } from "../../spec/dialects.ts";
import type { Daemon } from "../../spec/doc2/daemon-options.ts";
import { nodeAgentApiVersion } from "../../spec/doc3/node-agent-schema.ts";
import {
  daemonOptionsForSimulation,
  InvalidConfigurationError,
  leaderElectionParameters,
  nodeAgentParameters,
  nodeLifecycleParameters,
  type LeaderElectionParameters,
  type NodeAgentParameters,
  type NodeLifecycleParameters,
} from "../config/simulation-parameters.ts";
import { validateNodeAgentConfig } from "../config/validate-node-agent-config.ts";
import { dialectByName } from "../../spec/dialects.ts";

/** The Kubernetes version the kubernetes dialect models by default (that of the recorded reference, 1.26). */
export const DEFAULT_KUBERNETES_VERSION = "1.26";

/**
 * `--node-monitor-grace-period`'s default: 40 s per doc 2 §2.4; kube-controller-manager raised it to
 * 50 s in 1.32 (so that it exceeds the node lease duration of 40 s plus a renewal's jitter).
 */
export function defaultNodeMonitorGracePeriodMs(dialect: DialectName, kubernetesVersion: string = DEFAULT_KUBERNETES_VERSION): number {
  if (dialect === "orb") return 40_000;
  const match = /^v?(\d+)\.(\d+)/.exec(kubernetesVersion);
  if (match === null) throw new RangeError(`kubernetes version must look like 1.32, got ${JSON.stringify(kubernetesVersion)}`);
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 1 || (major === 1 && minor >= 32) ? 50_000 : 40_000;
}

/** Leader election parameters of `daemon`: doc 2 defaults, overridden by `flags` (`--leader-elect-…=…`). */
export function electionParameters(daemon: Daemon, dialect: DialectName, flags: readonly string[] = []): LeaderElectionParameters {
  return leaderElectionParameters(daemonOptionsForSimulation(daemon, flags.join(" "), dialect).options);
}

/** Node lifecycle parameters: doc 2 defaults, the version's grace period unless a flag sets it, then `flags`. */
export function lifecycleParameters(dialect: DialectName, kubernetesVersion: string | undefined, flags: readonly string[] = []): NodeLifecycleParameters {
  const parameters = nodeLifecycleParameters(daemonOptionsForSimulation("controller-manager", flags.join(" "), dialect).options);
  if (flags.some((flag) => flag.startsWith("--node-monitor-grace-period"))) return parameters;
  return { ...parameters, nodeMonitorGracePeriodMs: defaultNodeMonitorGracePeriodMs(dialect, kubernetesVersion) };
}

/** Node agent parameters: doc 3 defaults, overridden by configuration `fields` (e.g. nodeStatusUpdateFrequency). */
export function agentParameters(dialect: DialectName, fields: Readonly<Record<string, unknown>> = {}): NodeAgentParameters {
  const validation = validateNodeAgentConfig({ apiVersion: nodeAgentApiVersion(dialect), kind: dialectByName(dialect).nodeAgentConfig.kind, ...fields });
  if (!validation.valid) throw new InvalidConfigurationError("the node agent configuration", validation.findings);
  return nodeAgentParameters(validation);
}
