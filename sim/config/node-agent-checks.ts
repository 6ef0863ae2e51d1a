/**
 * The rules of doc 3 that read more than one field, or need a feature gate, over a defaulted
 * NodeAgentConfiguration. The table is keyed by rule id and covers every rule of doc 3: rules a
 * schema node enforces are marked "schema", rules of the file as a whole "while-reading", and the
 * credential provider's rules "credential-provider" (sim/config/validate-credential-provider-config.ts).
 */
import { nodeAgentFeatureGates, type NodeAgentFeatureGateName } from "../../spec/doc3/feature-gates.ts";
import { doc3Rules, type Doc3RuleId } from "../../spec/doc3/rules.ts";
import { gateEnabled } from "./feature-gates.ts";
import { finding, type Finding } from "./finding.ts";
import { formatGoDuration, parseGoDuration } from "./go-duration.ts";
import { parseQuantity, quantitySign } from "./quantity.ts";
import { isPlainObject } from "./schema-check.ts";
import { cipherSuiteKind } from "./tls-options.ts";

/** What a check reads: the defaulted configuration and the fields as the file gave them. */
export interface NodeAgentCheckInput {
  readonly config: Readonly<Record<string, unknown>>;
  readonly given: Readonly<Record<string, unknown>>;
}

type Check = (input: NodeAgentCheckInput) => Finding[];

const severityOf = new Map<string, "error" | "warning">(doc3Rules.map((rule) => [rule.id, rule.severity]));

function fail(ruleId: Doc3RuleId, path: string, value: unknown, message: string): Finding {
  return finding(severityOf.get(ruleId)!, ruleId, path, value, message);
}

// Typed reads of a defaulted configuration (the structure check guarantees the types).
const num = (config: Readonly<Record<string, unknown>>, name: string): number => (typeof config[name] === "number" ? (config[name] as number) : 0);
const str = (config: Readonly<Record<string, unknown>>, name: string): string => (typeof config[name] === "string" ? (config[name] as string) : "");
const bool = (config: Readonly<Record<string, unknown>>, name: string): boolean => config[name] === true;
const list = (config: Readonly<Record<string, unknown>>, name: string): unknown[] => (Array.isArray(config[name]) ? (config[name] as unknown[]) : []);
const object = (value: unknown): Readonly<Record<string, unknown>> => (isPlainObject(value) ? value : {});
const durationNs = (config: Readonly<Record<string, unknown>>, name: string): bigint => {
  try {
    return typeof config[name] === "string" ? parseGoDuration(config[name] as string) : 0n;
  } catch {
    return 0n;
  }
};

/** Whether the configuration turns the gate on (its featureGates, else Kubernetes 1.26's default). */
export function nodeAgentGate(config: Readonly<Record<string, unknown>>, name: NodeAgentFeatureGateName): boolean {
  const gates = object(config["featureGates"]) as Readonly<Record<string, boolean>>;
  return gateEnabled(gates, name, nodeAgentFeatureGates);
}

function needsGate(ruleId: Doc3RuleId, gate: NodeAgentFeatureGateName, path: string, value: unknown, when: boolean, config: Readonly<Record<string, unknown>>): Finding[] {
  return when && !nodeAgentGate(config, gate) ? [fail(ruleId, path, value, `needs the ${gate} feature gate`)] : [];
}

const NONE_POLICIES = new Set(["none", "None"]);
const ONE_SECOND = 1_000_000_000n;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function taintKeyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf("/");
  const [prefix, name] = slash === -1 ? [undefined, key] : [key.slice(0, slash), key.slice(slash + 1)];
  if (prefix !== undefined && (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) return "key prefix must be a DNS subdomain";
  if (name.length === 0 || name.length > 63 || !QUALIFIED_NAME.test(name)) return "key must be a qualified name (at most 63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric)";
  return undefined;
}

function taintProblems(input: NodeAgentCheckInput): Finding[] {
  return list(input.config, "registerWithTaints").flatMap((taint, index) => {
    const path = `registerWithTaints[${index}]`;
    const entry = object(taint);
    const problems: string[] = [];
    const keyProblem = taintKeyProblem(typeof entry["key"] === "string" ? entry["key"] : "");
    if (keyProblem !== undefined) problems.push(keyProblem);
    const value = typeof entry["value"] === "string" ? entry["value"] : "";
    if (value !== "" && (value.length > 63 || !QUALIFIED_NAME.test(value))) problems.push("value must be a label value");
    if (entry["timeAdded"] !== undefined) problems.push("taint.TimeAdded is not supported");
    return problems.map((problem) => fail("doc3/2.4/taint-valid", path, taint, problem));
  });
}

function reservedMemoryProblems(input: NodeAgentCheckInput): { resource: Finding[]; nonzero: Finding[]; unique: Finding[] } {
  const found = { resource: [] as Finding[], nonzero: [] as Finding[], unique: [] as Finding[] };
  const seen = new Set<string>();
  list(input.config, "reservedMemory").forEach((reservation, index) => {
    const entry = object(reservation);
    for (const [resource, amount] of Object.entries(object(entry["limits"]))) {
      const path = `reservedMemory[${index}].limits[${resource}]`;
      if (resource !== "memory" && !/^hugepages-.+/.test(resource)) {
        found.resource.push(fail("doc3/2.6/reserved-memory-resource", path, amount, `only memory and hugepages-<size> may be reserved per NUMA node`));
      }
      if (typeof amount === "string" && quantitySign(parseQuantity(amount)) <= 0) {
        found.nonzero.push(fail("doc3/2.6/reserved-memory-nonzero", path, amount, "reserved memory must be above zero"));
      }
      const key = `${String(entry["numaNode"])}/${resource}`;
      if (seen.has(key)) found.unique.push(fail("doc3/2.6/reserved-memory-unique", path, amount, `NUMA node ${String(entry["numaNode"])} reserves ${resource} twice`));
      seen.add(key);
    }
  });
  return found;
}

function shutdownPeriods(config: Readonly<Record<string, unknown>>): { total: bigint; critical: bigint } {
  return { total: durationNs(config, "shutdownGracePeriod"), critical: durationNs(config, "shutdownGracePeriodCriticalPods") };
}

/** The check of every doc 3 rule, by id. */
export const doc3Checks: Record<Doc3RuleId, Check | "schema" | "while-reading" | "credential-provider"> = {
  "doc3/2/file-syntax": "while-reading",
  "doc3/2/api-version-kind": "while-reading",
  "doc3/2/unknown-field": "schema",
  "doc3/2/field-type": "schema",
  "doc3/2/required-field": "schema",
  "doc3/2.3/port-range": "schema",
  "doc3/2.3/read-only-port-range": "schema",
  "doc3/2.3/healthz-port-range": "schema",
  "doc3/2.3/bind-address-ip": "schema",
  "doc3/2.3/tls-min-version": "schema",
  "doc3/2.3/tls-cipher-suites": "schema",
  "doc3/2.3/tls-insecure-cipher": ({ config }) =>
    list(config, "tlsCipherSuites")
      .filter((name) => typeof name === "string" && cipherSuiteKind(name) === "insecure")
      .map((name) => fail("doc3/2.3/tls-insecure-cipher", "tlsCipherSuites", name, `use of insecure cipher ${String(name)}`)),
  "doc3/2.3/tls13-cipher-suites-ignored": ({ config }) =>
    str(config, "tlsMinVersion") === "VersionTLS13" && list(config, "tlsCipherSuites").length > 0
      ? [fail("doc3/2.3/tls13-cipher-suites-ignored", "tlsCipherSuites", config["tlsCipherSuites"], "has no effect: TLS 1.3 cipher suites are not configurable")]
      : [],
  "doc3/2.3/tls-cert-key-pair": ({ config }) => {
    const cert = str(config, "tlsCertFile") !== "";
    if (cert === (str(config, "tlsPrivateKeyFile") !== "")) return [];
    const [given, missing] = cert ? ["tlsCertFile", "tlsPrivateKeyFile"] : ["tlsPrivateKeyFile", "tlsCertFile"];
    return [fail("doc3/2.3/tls-cert-key-pair", given, config[given], `needs ${missing} too`)];
  },
  "doc3/2.3/server-tls-bootstrap-gate": ({ config }) =>
    needsGate("doc3/2.3/server-tls-bootstrap-gate", "RotateKubeletServerCertificate", "serverTLSBootstrap", true, bool(config, "serverTLSBootstrap"), config),
  "doc3/2.3/contention-profiling-needs-debugging-handlers": ({ config }) =>
    bool(config, "enableContentionProfiling") && !bool(config, "enableDebuggingHandlers")
      ? [fail("doc3/2.3/contention-profiling-needs-debugging-handlers", "enableContentionProfiling", true, "has no effect: enableDebuggingHandlers is false")]
      : [],
  "doc3/2.4/node-lease-duration-positive": "schema",
  "doc3/2.4/node-status-max-images-range": "schema",
  "doc3/2.4/register-with-taints-needs-register-node": ({ config }) =>
    list(config, "registerWithTaints").length > 0 && !bool(config, "registerNode")
      ? [fail("doc3/2.4/register-with-taints-needs-register-node", "registerWithTaints", config["registerWithTaints"], "has no effect: registerNode is false")]
      : [],
  "doc3/2.4/taint-valid": taintProblems,
  "doc3/2.5/authorization-mode": "schema",
  "doc3/2.6/registry-pull-qps-non-negative": "schema",
  "doc3/2.6/registry-burst-non-negative": "schema",
  "doc3/2.6/registry-burst-needs-pull-qps": ({ config, given }) =>
    given["registryBurst"] !== undefined && num(config, "registryPullQPS") === 0
      ? [fail("doc3/2.6/registry-burst-needs-pull-qps", "registryBurst", config["registryBurst"], "has no effect: registryPullQPS is 0 (no limit)")]
      : [],
  "doc3/2.6/image-gc-threshold-range": "schema",
  "doc3/2.6/image-gc-high-above-low": ({ config }) => {
    const high = num(config, "imageGCHighThresholdPercent");
    const low = num(config, "imageGCLowThresholdPercent");
    return high > low ? [] : [fail("doc3/2.6/image-gc-high-above-low", "imageGCLowThresholdPercent", low, `must be less than imageGCHighThresholdPercent (${high})`)];
  },
  "doc3/2.6/system-cgroups-needs-cgroup-root": ({ config }) =>
    str(config, "systemCgroups") !== "" && str(config, "cgroupRoot") === ""
      ? [fail("doc3/2.6/system-cgroups-needs-cgroup-root", "systemCgroups", config["systemCgroups"], "cgroupRoot must be set when systemCgroups is set")]
      : [],
  "doc3/2.6/cgroup-driver": "schema",
  "doc3/2.6/cpu-manager-policy": "schema",
  "doc3/2.6/cpu-manager-gate": ({ config }) => [
    ...needsGate("doc3/2.6/cpu-manager-gate", "CPUManager", "cpuManagerPolicy", config["cpuManagerPolicy"], !NONE_POLICIES.has(str(config, "cpuManagerPolicy")), config),
    ...needsGate("doc3/2.6/cpu-manager-gate", "CPUManager", "cpuManagerPolicyOptions", config["cpuManagerPolicyOptions"], Object.keys(object(config["cpuManagerPolicyOptions"])).length > 0, config),
    ...needsGate("doc3/2.6/cpu-manager-gate", "CPUManager", "cpuManagerReconcilePeriod", config["cpuManagerReconcilePeriod"], durationNs(config, "cpuManagerReconcilePeriod") !== 10n * ONE_SECOND, config),
  ],
  "doc3/2.6/cpu-manager-policy-options-gate": ({ config }) =>
    needsGate("doc3/2.6/cpu-manager-policy-options-gate", "CPUManagerPolicyOptions", "cpuManagerPolicyOptions", config["cpuManagerPolicyOptions"], Object.keys(object(config["cpuManagerPolicyOptions"])).length > 0, config),
  "doc3/2.6/memory-manager-policy": "schema",
  "doc3/2.6/memory-manager-gate": ({ config }) =>
    needsGate("doc3/2.6/memory-manager-gate", "MemoryManager", "memoryManagerPolicy", config["memoryManagerPolicy"], !NONE_POLICIES.has(str(config, "memoryManagerPolicy")), config),
  "doc3/2.6/topology-manager-policy": "schema",
  "doc3/2.6/topology-manager-policy-gate": ({ config }) =>
    needsGate("doc3/2.6/topology-manager-policy-gate", "TopologyManager", "topologyManagerPolicy", config["topologyManagerPolicy"], str(config, "topologyManagerPolicy") !== "none", config),
  "doc3/2.6/topology-manager-scope": "schema",
  "doc3/2.6/topology-manager-scope-gate": ({ config }) =>
    needsGate("doc3/2.6/topology-manager-scope-gate", "TopologyManager", "topologyManagerScope", config["topologyManagerScope"], str(config, "topologyManagerScope") === "pod", config),
  "doc3/2.6/qos-reserved-memory-only": "schema",
  "doc3/2.6/qos-reserved-gate": ({ config }) =>
    needsGate("doc3/2.6/qos-reserved-gate", "QOSReserved", "qosReserved", config["qosReserved"], Object.keys(object(config["qosReserved"])).length > 0, config),
  "doc3/2.6/qos-reserved-percentage": "schema",
  "doc3/2.6/hairpin-mode": "schema",
  "doc3/2.6/cpu-cfs-quota-period-gate": ({ config }) =>
    needsGate("doc3/2.6/cpu-cfs-quota-period-gate", "CustomCPUCFSQuotaPeriod", "cpuCFSQuotaPeriod", config["cpuCFSQuotaPeriod"], durationNs(config, "cpuCFSQuotaPeriod") !== 100_000_000n, config),
  "doc3/2.6/cpu-cfs-quota-period-range": ({ config }) => {
    const period = durationNs(config, "cpuCFSQuotaPeriod");
    if (!nodeAgentGate(config, "CustomCPUCFSQuotaPeriod") || (period >= 1_000n && period <= ONE_SECOND)) return [];
    return [fail("doc3/2.6/cpu-cfs-quota-period-range", "cpuCFSQuotaPeriod", config["cpuCFSQuotaPeriod"], "must be between 1µs and 1s, inclusive")];
  },
  "doc3/2.6/max-pods-non-negative": "schema",
  "doc3/2.6/pods-per-core-non-negative": "schema",
  // Only between meaningful values: a negative one breaks its own non-negative rule.
  "doc3/2.6/pods-per-core-le-max-pods": ({ config }) =>
    num(config, "maxPods") >= 0 && num(config, "podsPerCore") > num(config, "maxPods")
      ? [fail("doc3/2.6/pods-per-core-le-max-pods", "podsPerCore", config["podsPerCore"], `cannot exceed maxPods (${num(config, "maxPods")})`)]
      : [],
  "doc3/2.6/pod-cidr": "schema",
  "doc3/2.6/cluster-dns-ip": "schema",
  "doc3/2.6/max-open-files-non-negative": "schema",
  "doc3/2.6/kube-api-qps-non-negative": "schema",
  "doc3/2.6/kube-api-burst-non-negative": "schema",
  "doc3/2.6/iptables-bit-range": "schema",
  "doc3/2.6/iptables-bits-distinct": ({ config }) =>
    num(config, "iptablesMasqueradeBit") === num(config, "iptablesDropBit")
      ? [fail("doc3/2.6/iptables-bits-distinct", "iptablesDropBit", config["iptablesDropBit"], "must differ from iptablesMasqueradeBit")]
      : [],
  "doc3/2.6/memory-swap-behavior": "schema",
  "doc3/2.6/memory-swap-gate": ({ config }) => {
    const behavior = object(config["memorySwap"])["swapBehavior"];
    return needsGate("doc3/2.6/memory-swap-gate", "NodeSwap", "memorySwap.swapBehavior", behavior, typeof behavior === "string" && behavior !== "", config);
  },
  "doc3/2.6/container-log-max-size": "schema",
  "doc3/2.6/container-log-max-files": "schema",
  "doc3/2.6/change-detection-strategy": "schema",
  "doc3/2.6/system-reserved-resources": "schema",
  "doc3/2.6/kube-reserved-resources": "schema",
  "doc3/2.6/reserved-quantity": "schema",
  "doc3/2.6/reserved-system-cpus-syntax": "schema",
  "doc3/2.6/reserved-system-cpus-exclusive-cgroups": ({ config }) =>
    str(config, "reservedSystemCPUs") !== "" && (str(config, "systemReservedCgroup") !== "" || str(config, "kubeReservedCgroup") !== "")
      ? [fail("doc3/2.6/reserved-system-cpus-exclusive-cgroups", "reservedSystemCPUs", config["reservedSystemCPUs"], "can't be used with systemReservedCgroup or kubeReservedCgroup")]
      : [],
  "doc3/2.6/enforce-node-allocatable-values": ({ config }) => {
    const values = list(config, "enforceNodeAllocatable");
    return values.includes("none") && values.length > 1
      ? [fail("doc3/2.6/enforce-node-allocatable-values", "enforceNodeAllocatable", values, "may not contain additional enforcements when none is given")]
      : [];
  },
  "doc3/2.6/enforce-node-allocatable-needs-cgroups-per-qos": ({ config }) =>
    list(config, "enforceNodeAllocatable").length > 0 && !bool(config, "cgroupsPerQOS")
      ? [fail("doc3/2.6/enforce-node-allocatable-needs-cgroups-per-qos", "enforceNodeAllocatable", config["enforceNodeAllocatable"], "not supported unless cgroupsPerQOS is true")]
      : [],
  "doc3/2.6/enforce-node-allocatable-reserved-cgroup": ({ config }) => {
    const values = list(config, "enforceNodeAllocatable");
    const pairs = [
      ["system-reserved", "systemReservedCgroup"],
      ["kube-reserved", "kubeReservedCgroup"],
    ] as const;
    return pairs
      .filter(([enforcement, cgroup]) => values.includes(enforcement) && str(config, cgroup) === "")
      .map(([enforcement, cgroup]) => fail("doc3/2.6/enforce-node-allocatable-reserved-cgroup", "enforceNodeAllocatable", values, `${cgroup} must be set when ${enforcement} is enforced`));
  },
  "doc3/2.6/oom-score-adj-range": "schema",
  "doc3/2.6/memory-throttling-factor-range": "schema",
  "doc3/2.6/reserved-memory-resource": (input) => reservedMemoryProblems(input).resource,
  "doc3/2.6/reserved-memory-nonzero": (input) => reservedMemoryProblems(input).nonzero,
  "doc3/2.6/reserved-memory-unique": (input) => reservedMemoryProblems(input).unique,
  "doc3/2.6/feature-gate-known": "schema",
  "doc3/2.7/eviction-signal": "schema",
  "doc3/2.7/eviction-threshold-value": "schema",
  "doc3/2.7/eviction-soft-needs-grace-period": ({ config }) => {
    const grace = object(config["evictionSoftGracePeriod"]);
    return Object.keys(object(config["evictionSoft"]))
      .filter((signal) => grace[signal] === undefined)
      .map((signal) => fail("doc3/2.7/eviction-soft-needs-grace-period", `evictionSoft[${signal}]`, object(config["evictionSoft"])[signal], `grace period must be specified in evictionSoftGracePeriod[${signal}]`));
  },
  "doc3/2.7/eviction-grace-period-value": "schema",
  "doc3/2.7/eviction-minimum-reclaim-value": "schema",
  "doc3/2.7/shutdown-grace-periods-non-negative": "schema",
  "doc3/2.7/shutdown-critical-less-than-total": ({ config }) => {
    const { total, critical } = shutdownPeriods(config);
    return critical > 0n && critical >= total
      ? [fail("doc3/2.7/shutdown-critical-less-than-total", "shutdownGracePeriodCriticalPods", config["shutdownGracePeriodCriticalPods"], `must be less than shutdownGracePeriod (${formatGoDuration(total)})`)]
      : [];
  },
  "doc3/2.7/shutdown-by-priority-exclusive": ({ config }) => {
    const { total, critical } = shutdownPeriods(config);
    return list(config, "shutdownGracePeriodByPodPriority").length > 0 && (total > 0n || critical > 0n)
      ? [fail("doc3/2.7/shutdown-by-priority-exclusive", "shutdownGracePeriodByPodPriority", config["shutdownGracePeriodByPodPriority"], "must be empty when shutdownGracePeriod or shutdownGracePeriodCriticalPods is set")]
      : [];
  },
  "doc3/2.7/shutdown-by-priority-gate": ({ config }) =>
    needsGate("doc3/2.7/shutdown-by-priority-gate", "GracefulNodeShutdown", "shutdownGracePeriodByPodPriority", config["shutdownGracePeriodByPodPriority"], list(config, "shutdownGracePeriodByPodPriority").length > 0, config),
  "doc3/2.7/shutdown-grace-period-gate": ({ config }) => {
    const { total, critical } = shutdownPeriods(config);
    return needsGate("doc3/2.7/shutdown-grace-period-gate", "GracefulNodeShutdown", "shutdownGracePeriod", config["shutdownGracePeriod"], total > 0n || critical > 0n, config);
  },
  "doc3/2.7/shutdown-by-priority-grace-non-negative": "schema",
  "doc3/2.8/logging-format": "schema",
  "doc3/2.8/vmodule-text-only": ({ config }) => {
    const logging = object(config["logging"]);
    return Array.isArray(logging["vmodule"]) && logging["vmodule"].length > 0 && logging["format"] !== "text"
      ? [fail("doc3/2.8/vmodule-text-only", "logging.vmodule", logging["vmodule"], `only supported for the text log format, not ${String(logging["format"])}`)]
      : [];
  },
  "doc3/2.8/vmodule-pattern": ({ config }) => {
    const items = object(config["logging"])["vmodule"];
    return (Array.isArray(items) ? items : []).flatMap((item, index) => {
      const pattern = object(item)["filePattern"];
      if (typeof pattern === "string" && pattern !== "" && !/[=,]/.test(pattern)) return [];
      return [fail("doc3/2.8/vmodule-pattern", `logging.vmodule[${index}].filePattern`, pattern, "must be a non-empty file pattern without '=' or ','")];
    });
  },
  "doc3/2.8/json-options-gate": ({ config }) => {
    const json = object(object(object(config["logging"])["options"])["json"]);
    const buffer = typeof json["infoBufferSize"] === "string" ? quantitySign(parseQuantity(json["infoBufferSize"])) !== 0 : false;
    return needsGate("doc3/2.8/json-options-gate", "LoggingAlphaOptions", "logging.options.json", json, json["splitStream"] === true || buffer, config);
  },
  "doc3/2.8/info-buffer-size": "schema",
  "doc3/2.8/flush-frequency-positive": "schema",
  "doc3/8/event-record-qps-non-negative": "schema",
  "doc3/8/event-burst-non-negative": "schema",
  "doc3/8/event-burst-needs-record-qps": ({ config, given }) =>
    given["eventBurst"] !== undefined && num(config, "eventRecordQPS") === 0
      ? [fail("doc3/8/event-burst-needs-record-qps", "eventBurst", config["eventBurst"], "has no effect: eventRecordQPS is 0 (no limit)")]
      : [],
  "doc3/2.1/providers-required": "credential-provider",
  "doc3/2.1/provider-names-unique": "credential-provider",
  "doc3/2.2/provider-name": "credential-provider",
  "doc3/2.2/match-images-required": "credential-provider",
  "doc3/2.2/match-image-syntax": "credential-provider",
  "doc3/2.2/default-cache-duration": "credential-provider",
  "doc3/2.2/exec-api-version": "credential-provider",
};

/** Runs every cross-field check of doc 3 over a defaulted node agent configuration. */
export function checkNodeAgentConfig(input: NodeAgentCheckInput): Finding[] {
  return Object.values(doc3Checks).flatMap((check) => (typeof check === "function" ? check(input) : []));
}
