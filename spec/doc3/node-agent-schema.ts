/**
 * NodeAgentConfiguration v1beta1 (doc 3 §2.3 to §2.8 and §8) as a JSON Schema, with its nested
 * types: KubeletAuthentication and KubeletAuthorization (§2.5), Taint, MemorySwapConfiguration,
 * MemoryReservation (§2.6), ShutdownGracePeriodByPodPriority (§2.7) and the logging types (§2.8).
 * Each field carries doc 3's type, default, enum and range; where doc 3 shows no default or valid
 * values, Kubernetes 1.26's are used and `x-default-note` or the rule says so. The group and kind
 * are the dialect's: `nodeagent.config.orb.io/v1beta1` NodeAgentConfiguration (orb) or
 * `kubelet.config.k8s.io/v1beta1` KubeletConfiguration (kubernetes).
 */
import { dialectByName, type DialectName } from "../dialects.ts";
import {
  boolField,
  durationField,
  floatField,
  int32Field,
  int64Field,
  listField,
  mapField,
  quantityField,
  restrictedMapField,
  stringField,
  structType,
  type FieldSchema,
} from "./config-schema.ts";
import { nodeAgentFeatureGates } from "./feature-gates.ts";
import { loggingConfigurationSchema } from "./logging-schema.ts";
import { KNOWN_CIPHER_SUITES, TLS_VERSIONS } from "../doc2/tls-names.ts";

/** The version of every doc 3 type. */
export const NODE_AGENT_CONFIG_VERSION = "v1beta1";

/** `<group>/v1beta1` for the dialect. */
export function nodeAgentApiVersion(dialect: DialectName): string {
  return `${dialectByName(dialect).nodeAgentConfig.group}/${NODE_AGENT_CONFIG_VERSION}`;
}

/** The eviction signals the kubelet knows on Linux (not shown in doc 3). */
export const EVICTION_SIGNALS = [
  "memory.available",
  "nodefs.available",
  "nodefs.inodesFree",
  "imagefs.available",
  "imagefs.inodesFree",
  "allocatableMemory.available",
  "pid.available",
] as const;

/** Kubernetes' evictionHard default on Linux (doc 3 shows none). */
export const DEFAULT_EVICTION_HARD = {
  "memory.available": "100Mi",
  "nodefs.available": "10%",
  "nodefs.inodesFree": "5%",
  "imagefs.available": "15%",
} as const;

const K8S_DEFAULT = "not shown in doc 3; Kubernetes 1.26 default";
const S23 = "doc 3 §2.3";
const S24 = "doc 3 §2.4";
const S25 = "doc 3 §2.5";
const S26 = "doc 3 §2.6";
const S27 = "doc 3 §2.7";
const S8 = "doc 3 §8";

const port = (rule: string) => ({ minimum: 0, maximum: 65535, rule });

function serving(dialect: DialectName): Record<string, FieldSchema> {
  void dialect;
  return {
    enableServer: boolField(S23, "Enables the secured server. The insecure port is set by readOnlyPort.", { default: true, docRequired: true }),
    staticPodPath: stringField(S23, "Directory of static pods, or one static pod file.", { default: "" }),
    syncFrequency: durationField(S23, "Maximum period between syncs of running containers and config.", { default: "1m", zeroIsUnset: true }),
    fileCheckFrequency: durationField(S23, "Interval for checking config files.", { default: "20s", zeroIsUnset: true }),
    httpCheckFrequency: durationField(S23, "Interval for checking the URL for new data.", { default: "20s", zeroIsUnset: true }),
    staticPodURL: stringField(S23, "URL of static pods.", { default: "" }),
    staticPodURLHeader: mapField(S23, "HTTP headers for that URL.", { type: "array", items: { type: "string" } }),
    address: stringField(S23, "Serving IP.", { default: "0.0.0.0", zeroIsUnset: true, format: "ip", rule: "doc3/2.3/bind-address-ip" }),
    port: int32Field(S23, "1 to 65535.", { default: 10250, zeroIsUnset: true, minimum: 1, maximum: 65535, rule: "doc3/2.3/port-range" }),
    readOnlyPort: int32Field(S23, "Unauthenticated read-only port. 1 to 65535. 0 disables it.", { default: 0, ...port("doc3/2.3/read-only-port-range") }),
    tlsCertFile: stringField(S23, "x509 certificate. If the cert and key are not given, a self-signed pair is generated and saved to the directory of the --cert-dir flag.", { default: "" }),
    tlsPrivateKeyFile: stringField(S23, "Matching key.", { default: "" }),
    tlsCipherSuites: listField(S23, "Allowed cipher suites.", stringField(S23, "A cipher suite name.", { enum: KNOWN_CIPHER_SUITES, rule: "doc3/2.3/tls-cipher-suites" })),
    tlsMinVersion: stringField(S23, "Minimum TLS version.", { default: "", enum: ["", ...TLS_VERSIONS], rule: "doc3/2.3/tls-min-version" }),
    rotateCertificates: boolField(S23, "Client certificate rotation through the certificates API. Needs an approver.", { default: false }),
    serverTLSBootstrap: boolField(S23, "Requests the serving certificate through the certificates API instead of self-signing. Needs an approver. Needs the RotateKubeletServerCertificate feature gate.", { default: false }),
    enableDebuggingHandlers: boolField(S23, "Endpoints for logs, exec, attach, portforward.", { default: true }),
    enableContentionProfiling: boolField(S23, "Only if debugging handlers are enabled.", { default: false }),
    healthzPort: int32Field(S23, "Local health port, 1 to 65535. 0 disables it.", { default: 10248, ...port("doc3/2.3/healthz-port-range") }),
    healthzBindAddress: stringField(S23, "Health server IP.", { default: "127.0.0.1", zeroIsUnset: true, format: "ip", rule: "doc3/2.3/bind-address-ip" }),
    enableSystemLogHandler: boolField(S23, "System logs at host:port/logs/.", { default: true }),
    enableProfilingHandler: boolField(S23, "Profiling at host:port/debug/pprof/.", { default: true }),
    enableDebugFlagsHandler: boolField(S23, "Flags at host:port/debug/flags/v.", { default: true }),
  };
}

/** core/v1 Taint, as registerWithTaints holds it. */
export const taintSchema: FieldSchema = structType(
  S24,
  "core/v1 Taint.",
  {
    key: stringField(S24, "The taint key (a qualified name)."),
    value: stringField(S24, "The taint value (a label value)."),
    effect: stringField(S24, "NoSchedule, PreferNoSchedule or NoExecute.", { enum: ["NoSchedule", "PreferNoSchedule", "NoExecute"], rule: "doc3/2.4/taint-valid" }),
    timeAdded: stringField(S24, "Not supported in the configuration."),
  },
  ["key", "effect"],
);

function nodeStatus(): Record<string, FieldSchema> {
  return {
    nodeStatusUpdateFrequency: durationField(S24, "How often node status is computed. Without the node lease feature, also how often it is posted.", { default: "10s", zeroIsUnset: true }),
    nodeStatusReportFrequency: durationField(S24, "Posting interval when status is unchanged. If nodeStatusUpdateFrequency is set explicitly, this default becomes that value.", { default: "5m", zeroIsUnset: true }),
    nodeLeaseDurationSeconds: int32Field(S24, "Duration set on the node's Lease. Must be above 0. The lease is renewed every 10s.", { default: 40, zeroIsUnset: true, minimum: 1, rule: "doc3/2.4/node-lease-duration-positive" }),
    nodeStatusMaxImages: int32Field(S24, "Cap on Node.status.images. Greater than -2. -1 means no cap. 0 means none reported.", { default: 50, minimum: -1, rule: "doc3/2.4/node-status-max-images-range" }),
    providerID: stringField(S24, "Unique instance ID for an external provider.", { default: "" }),
    registerNode: boolField(S24, "Automatic registration with the API server.", { default: true }),
    registerWithTaints: listField(S24, "Taints added at first registration. Only when registerNode is true.", taintSchema),
  };
}

/** KubeletAuthentication (doc 3 §2.5). */
export const authenticationSchema: FieldSchema = structType(S25, "KubeletAuthentication: how requests to the server are authenticated.", {
  x509: structType(S25, "KubeletX509Authentication.", {
    clientCAFile: stringField(S25, "A client certificate signed by a CA in this PEM bundle is authenticated with the CommonName as username and the Organization as groups."),
  }),
  webhook: structType(S25, "KubeletWebhookAuthentication.", {
    enabled: boolField(S25, "Bearer tokens checked through the tokenreviews API.", { default: true }),
    cacheTTL: durationField(S25, "Cache time of webhook answers.", { default: "2m", zeroIsUnset: true }),
  }),
  anonymous: structType(S25, "KubeletAnonymousAuthentication.", {
    enabled: boolField(S25, "Requests not rejected by another method are treated as anonymous.", { default: false }),
  }),
});

/** KubeletAuthorization (doc 3 §2.5). */
export const authorizationSchema: FieldSchema = structType(S25, "KubeletAuthorization: how requests are authorized.", {
  mode: stringField(S25, "KubeletAuthorizationMode: AlwaysAllow or Webhook.", { default: "Webhook", zeroIsUnset: true, enum: ["AlwaysAllow", "Webhook"], rule: "doc3/2.5/authorization-mode" }),
  webhook: structType(S25, "KubeletWebhookAuthorization.", {
    cacheAuthorizedTTL: durationField(S25, "Cache of authorized answers.", { default: "5m", zeroIsUnset: true }),
    cacheUnauthorizedTTL: durationField(S25, "Cache of unauthorized answers.", { default: "30s", zeroIsUnset: true }),
  }),
});

/** MemoryReservation (doc 3 §2.6). */
export const memoryReservationSchema: FieldSchema = structType(
  S26,
  "MemoryReservation: memory reserved on one NUMA node for the memory manager.",
  {
    numaNode: int32Field(S26, "The NUMA node."),
    limits: mapField(S26, "core/v1.ResourceList: resource name to quantity.", quantityField(S26, "A quantity.")),
  },
  ["numaNode", "limits"],
);

/** ShutdownGracePeriodByPodPriority (doc 3 §2.7). */
export const shutdownGracePeriodByPodPrioritySchema: FieldSchema = structType(
  S27,
  "Grace for one pod priority range: from priority up to the next higher entry.",
  {
    priority: int32Field(S27, "The lowest priority of the range."),
    shutdownGracePeriodSeconds: int64Field(S27, "Grace period in seconds.", { minimum: 0, rule: "doc3/2.7/shutdown-by-priority-grace-non-negative" }),
  },
  ["priority", "shutdownGracePeriodSeconds"],
);

const reservedQuantity = (clause: string) => ({ ...quantityField(clause, "A quantity.", { rule: "doc3/2.6/reserved-quantity" }), format: "non-negative-quantity" });

function resources(dialect: DialectName): Record<string, FieldSchema> {
  const names = dialectByName(dialect);
  const nonNegative = (rule: string) => ({ minimum: 0, rule });
  return {
    registryPullQPS: int32Field(S26, "Registry pulls per second. Not negative. 0 means no limit.", { default: 5, ...nonNegative("doc3/2.6/registry-pull-qps-non-negative") }),
    registryBurst: int32Field(S26, "Burst size. Not negative. Used only if registryPullQPS is above 0.", { default: 10, zeroIsUnset: true, ...nonNegative("doc3/2.6/registry-burst-non-negative") }),
    serializeImagePulls: boolField(S26, "Pull images one at a time.", { default: true }),
    imageMinimumGCAge: durationField(S26, "Minimum age of an unused image before collection.", { default: "2m", zeroIsUnset: true }),
    imageGCHighThresholdPercent: int32Field(S26, "Disk usage percent above which image GC always runs. 0 to 100. Greater than the low threshold.", { default: 85, minimum: 0, maximum: 100, rule: "doc3/2.6/image-gc-threshold-range" }),
    imageGCLowThresholdPercent: int32Field(S26, "Percent below which GC never runs. 0 to 100. Less than the high threshold.", { default: 80, minimum: 0, maximum: 100, rule: "doc3/2.6/image-gc-threshold-range" }),
    volumeStatsAggPeriod: durationField(S26, "Volume usage calculation period.", { default: "1m", zeroIsUnset: true }),
    kubeletCgroups: stringField(S26, "Absolute cgroup name for the agent.", { default: "" }),
    systemCgroups: stringField(S26, "Absolute cgroup for non-kernel processes not in a container. cgroupRoot must be set if this is not empty.", { default: "" }),
    cgroupRoot: stringField(S26, "Root cgroup for pods."),
    cgroupsPerQOS: boolField(S26, "QoS-based cgroup hierarchy.", { default: true }),
    cgroupDriver: stringField(S26, "cgroupfs or systemd.", { default: "cgroupfs", zeroIsUnset: true, enum: ["cgroupfs", "systemd"], rule: "doc3/2.6/cgroup-driver" }),
    // Doc 3 writes the default `None`; the kubelet's CPU policies are `none` and `static`.
    cpuManagerPolicy: stringField(S26, "Needs the CPUManager gate.", { default: dialect === "orb" ? "None" : "none", zeroIsUnset: true, enum: ["none", "None", "static"], rule: "doc3/2.6/cpu-manager-policy" }),
    cpuManagerPolicyOptions: mapField(S26, "Needs the CPUManager and CPUManagerPolicyOptions gates.", { type: "string" }),
    cpuManagerReconcilePeriod: durationField(S26, "Needs the CPUManager gate.", { default: "10s", zeroIsUnset: true }),
    // Doc 3 writes the default `none`; the kubelet's memory policies are `None` and `Static`.
    memoryManagerPolicy: stringField(S26, "Needs the MemoryManager gate.", { default: dialect === "orb" ? "none" : "None", zeroIsUnset: true, enum: ["None", "none", "Static"], rule: "doc3/2.6/memory-manager-policy" }),
    topologyManagerPolicy: stringField(S26, "Other than none needs the TopologyManager gate.", { default: "none", zeroIsUnset: true, enum: ["none", "best-effort", "restricted", "single-numa-node"], rule: "doc3/2.6/topology-manager-policy" }),
    topologyManagerScope: stringField(S26, "pod needs the TopologyManager gate.", { default: "container", zeroIsUnset: true, enum: ["container", "pod"], rule: "doc3/2.6/topology-manager-scope" }),
    qosReserved: restrictedMapField(S26, "Resource to percentage reserved for the guaranteed tier. Only memory. Needs the QOSReserved gate.", ["memory"], stringField(S26, "A percentage.", { format: "percentage", rule: "doc3/2.6/qos-reserved-percentage" }), "doc3/2.6/qos-reserved-memory-only"),
    runtimeRequestTimeout: durationField(S26, "Timeout of runtime requests other than pull, logs, exec, attach.", { default: "2m", zeroIsUnset: true }),
    hairpinMode: stringField(S26, "How the container bridge handles hairpin packets.", { default: "promiscuous-bridge", zeroIsUnset: true, defaultNote: K8S_DEFAULT, enum: ["none", "hairpin-veth", "promiscuous-bridge"], rule: "doc3/2.6/hairpin-mode" }),
    cpuCFSQuota: boolField(S26, "CPU CFS quota enforcement for containers with CPU limits.", { default: true }),
    cpuCFSQuotaPeriod: durationField(S26, "CFS quota period.", { default: "100ms", defaultNote: K8S_DEFAULT }),
    maxPods: int32Field(S26, "Non-negative.", { default: 110, zeroIsUnset: true, ...nonNegative("doc3/2.6/max-pods-non-negative") }),
    podsPerCore: int32Field(S26, "Non-negative. 0 means no limit. Cannot exceed maxPods.", { default: 0, ...nonNegative("doc3/2.6/pods-per-core-non-negative") }),
    podCIDR: stringField(S26, "Pod IP CIDR, standalone mode only.", { default: "", format: "cidr-or-empty", rule: "doc3/2.6/pod-cidr" }),
    podPidsLimit: int64Field(S26, "Maximum PIDs in a pod.", { default: -1 }),
    resolvConf: stringField(S26, "Resolver file. Empty disables DNS lookups.", { default: "/etc/resolv.conf" }),
    clusterDomain: stringField(S26, "DNS domain. If set, containers search it.", { default: "" }),
    clusterDNS: listField(S26, "Cluster DNS server IPs.", stringField(S26, "An IP address.", { format: "ip", rule: "doc3/2.6/cluster-dns-ip" })),
    runOnce: boolField(S26, "Check the API server once for pods, run them and exit.", { default: false }),
    maxOpenFiles: int64Field(S26, "Non-negative.", { default: 1_000_000, zeroIsUnset: true, ...nonNegative("doc3/2.6/max-open-files-non-negative") }),
    contentType: stringField(S26, "Content type of requests to the API server.", { default: names.protobufMediaType, zeroIsUnset: true }),
    kubeAPIQPS: int32Field(S26, "Client QPS to the API server.", { default: 5, ...nonNegative("doc3/2.6/kube-api-qps-non-negative") }),
    kubeAPIBurst: int32Field(S26, "Client burst. Not negative.", { default: 10, zeroIsUnset: true, ...nonNegative("doc3/2.6/kube-api-burst-non-negative") }),
    enableControllerAttachDetach: boolField(S26, "Attach and detach by the controller, not the agent. Must be true for CSI volumes.", { default: true }),
    protectKernelDefaults: boolField(S26, "If true, error when kernel flags differ from expectations. Otherwise the agent tries to set them.", { default: false }),
    makeIPTablesUtilChains: boolField(S26, "Ensure utility iptables rules exist.", { default: true }),
    iptablesMasqueradeBit: int32Field(S26, "Fwmark bit for SNAT. 0 to 31. Must differ from other mark bits. Must match the service proxy setting.", { default: 14, minimum: 0, maximum: 31, rule: "doc3/2.6/iptables-bit-range" }),
    iptablesDropBit: int32Field(S26, "Fwmark bit for dropping. 0 to 31. Must differ from other mark bits.", { default: 15, minimum: 0, maximum: 31, rule: "doc3/2.6/iptables-bit-range" }),
    featureGates: {
      ...mapField(S26, "Feature name to enabled flag. Changes built-in defaults piecemeal.", { type: "boolean" }),
      properties: Object.fromEntries(nodeAgentFeatureGates.map((gate) => [gate.name, { type: "boolean" } satisfies FieldSchema])),
      "x-key-rule": "doc3/2.6/feature-gate-known",
    },
    failSwapOn: boolField(S26, "Fail to start if swap is on.", { default: true }),
    memorySwap: structType(S26, "MemorySwapConfiguration.", {
      swapBehavior: stringField(S26, "\"\", LimitedSwap (memory plus swap cannot exceed the pod memory limit) or UnlimitedSwap (up to the allocatable limit).", { enum: ["", "LimitedSwap", "UnlimitedSwap"], rule: "doc3/2.6/memory-swap-behavior" }),
    }),
    containerLogMaxSize: { ...stringField(S26, "Size at which a container log is rotated.", { default: "10Mi", zeroIsUnset: true, rule: "doc3/2.6/container-log-max-size" }), format: "non-negative-quantity" },
    containerLogMaxFiles: int32Field(S26, "Maximum log files per container.", { default: 5, minimum: 2, rule: "doc3/2.6/container-log-max-files" }),
    configMapAndSecretChangeDetectionStrategy: stringField(S26, "Mode of the ConfigMap and Secret managers.", { default: "Watch", zeroIsUnset: true, enum: ["Get", "Cache", "Watch"], rule: "doc3/2.6/change-detection-strategy" }),
    systemReserved: restrictedMapField(S26, "Resources reserved for non-cluster components. Only cpu and memory.", ["cpu", "memory"], reservedQuantity(S26), "doc3/2.6/system-reserved-resources"),
    kubeReserved: restrictedMapField(S26, "Reserved for cluster system components: cpu, memory, local storage of the root file system.", ["cpu", "memory", "ephemeral-storage"], reservedQuantity(S26), "doc3/2.6/kube-reserved-resources"),
    reservedSystemCPUs: stringField(S26, "Static CPU list reserved for host and system threads. Does not support systemReservedCgroup or kubeReservedCgroup.", { docRequired: true, format: "cpuset", rule: "doc3/2.6/reserved-system-cpus-syntax" }),
    systemReservedCgroup: stringField(S26, "Absolute name of the top-level cgroup enforcing systemReserved."),
    kubeReservedCgroup: stringField(S26, "Same, for kubeReserved."),
    enforceNodeAllocatable: listField(S26, "Node Allocatable enforcements to perform.", stringField(S26, "An enforcement.", { enum: ["pods", "system-reserved", "kube-reserved", "none"], rule: "doc3/2.6/enforce-node-allocatable-values" }), { default: ["pods"], defaultNote: K8S_DEFAULT }),
    allowedUnsafeSysctls: listField(S26, "Allowed unsafe sysctls or patterns.", { type: "string" }),
    volumePluginDir: stringField(S26, "Directory of third-party volume plugins.", {
      default: dialect === "orb" ? "/usr/libexec/orb/nodeagent-plugins/volume/exec/" : "/usr/libexec/kubernetes/kubelet-plugins/volume/exec/",
      zeroIsUnset: true,
    }),
    kernelMemcgNotification: boolField(S26, "Use kernel memcg notification for memory eviction thresholds instead of polling.", { default: false }),
    oomScoreAdj: int32Field(S26, "Range -1000 to 1000.", { default: -999, minimum: -1000, maximum: 1000, rule: "doc3/2.6/oom-score-adj-range" }),
    streamingConnectionIdleTimeout: durationField(S26, "Idle time before a streaming connection is closed.", { default: "4h", zeroIsUnset: true }),
    seccompDefault: boolField(S26, "Enables the runtime default seccomp profile.", { default: false, defaultNote: K8S_DEFAULT }),
    memoryThrottlingFactor: floatField(S26, "Multiplies the memory limit or allocatable memory to set the cgroup v2 memory.high. Lower means heavier reclaim.", { default: 0.8, exclusiveMinimum: 0, maximum: 1, rule: "doc3/2.6/memory-throttling-factor-range" }),
    reservedMemory: listField(S26, "Memory reserved per NUMA node for the memory manager.", memoryReservationSchema),
    logging: { ...loggingConfigurationSchema, "x-doc-required": true },
  };
}

function evictionMap(description: string, values: FieldSchema): FieldSchema {
  return restrictedMapField(S27, description, EVICTION_SIGNALS, values, "doc3/2.7/eviction-signal");
}

function eviction(): Record<string, FieldSchema> {
  const threshold = stringField(S27, "A quantity or a percentage.", { format: "eviction-threshold", rule: "doc3/2.7/eviction-threshold-value" });
  return {
    evictionHard: { ...evictionMap("Signal name to quantity. Hard thresholds.", threshold), default: DEFAULT_EVICTION_HARD, "x-default-note": K8S_DEFAULT },
    evictionSoft: evictionMap("Soft thresholds.", threshold),
    evictionSoftGracePeriod: evictionMap("Grace period per soft signal.", stringField(S27, "A duration.", { format: "non-negative-go-duration", rule: "doc3/2.7/eviction-grace-period-value" })),
    evictionPressureTransitionPeriod: durationField(S27, "Wait before leaving a pressure condition.", { default: "5m", zeroIsUnset: true }),
    evictionMaxPodGracePeriod: int32Field(S27, "Seconds. Overrides the grace period of pods in a soft eviction. It may raise the grace period above the pod's own value.", { default: 0 }),
    evictionMinimumReclaim: evictionMap("Minimum amount per signal to reclaim during an eviction.", stringField(S27, "A quantity or a percentage.", { format: "eviction-reclaim", rule: "doc3/2.7/eviction-minimum-reclaim-value" })),
    shutdownGracePeriod: { ...durationField(S27, "Total delay and grace time for pod termination at node shutdown.", { default: "0s", rule: "doc3/2.7/shutdown-grace-periods-non-negative" }), format: "non-negative-go-duration" },
    shutdownGracePeriodCriticalPods: { ...durationField(S27, "Part of that time for critical pods. Less than shutdownGracePeriod.", { default: "0s", rule: "doc3/2.7/shutdown-grace-periods-non-negative" }), format: "non-negative-go-duration" },
    shutdownGracePeriodByPodPriority: listField(S27, "Grace per pod priority range. Needs the GracefulNodeShutdown gate. Must be empty if either of the two fields above is set.", shutdownGracePeriodByPodPrioritySchema),
  };
}

function limits(): Record<string, FieldSchema> {
  return {
    eventRecordQPS: int32Field(S8, "Default 5; 0 means no limit; not negative.", { default: 5, minimum: 0, rule: "doc3/8/event-record-qps-non-negative" }),
    eventBurst: int32Field(S8, "Default 10; used only when eventRecordQPS is above 0.", { default: 10, zeroIsUnset: true, minimum: 0, rule: "doc3/8/event-burst-non-negative" }),
  };
}

/** The NodeAgentConfiguration schema in `dialect` (its apiVersion, kind and dialect-named defaults). */
export function nodeAgentConfigurationSchema(dialect: DialectName): FieldSchema {
  const names = dialectByName(dialect).nodeAgentConfig;
  return structType(
    "doc 3 §2",
    `${names.kind} ${NODE_AGENT_CONFIG_VERSION}: the node agent's configuration file.`,
    {
      apiVersion: { type: "string", const: nodeAgentApiVersion(dialect), "x-rule": "doc3/2/api-version-kind", "x-clause": "doc 3 §2" },
      kind: { type: "string", const: names.kind, "x-rule": "doc3/2/api-version-kind", "x-clause": "doc 3 §2" },
      ...serving(dialect),
      ...nodeStatus(),
      authentication: authenticationSchema,
      authorization: authorizationSchema,
      ...resources(dialect),
      ...eviction(),
      ...limits(),
    },
    ["apiVersion", "kind"],
  );
}
