/**
 * The rules of doc 3 over the node agent configuration and the credential provider configuration,
 * each with a stable id, severity and clause. Rules doc 3 does not show ("not shown in doc 3")
 * follow the kubelet and say where: mostly kubelet's ValidateKubeletConfiguration (Kubernetes 1.26).
 * Single-field constraints (ranges, enums, formats) are enforced by the schemas, whose nodes name
 * the rule in `x-rule`; cross-field rules by sim/config/node-agent-checks.ts.
 */
import { clauseOf, docRule, kubernetesRule, type ConfigRule, type DerivationRule } from "../doc2/config-rule.ts";

const KUBELET = "kubelet ValidateKubeletConfiguration";

/** Rules about the file as a whole and the shape of every field. */
const structure = [
  kubernetesRule("doc3/2/file-syntax", "error", [], "The file is YAML or JSON holding one object.", "kubelet: the config file fails to decode"),
  docRule("doc3/2/api-version-kind", "error", ["apiVersion", "kind"], "apiVersion is `<node-agent-config-group>/v1beta1` and kind is the type's name (orb: nodeagent.config.orb.io, NodeAgentConfiguration; kubernetes: kubelet.config.k8s.io, KubeletConfiguration)."),
  docRule("doc3/2/unknown-field", "error", [], "Only the fields doc 3 lists exist.", "the kubelet decodes strictly, then falls back to lenient decoding with a warning; an unknown field is an error here"),
  docRule("doc3/2/field-type", "error", [], "Each field has the type doc 3 gives it (int32 in range, durations and quantities that parse)."),
  docRule("doc3/2/required-field", "error", [], "Fields doc 3 marks required are present (in the credential provider types, and in nested types such as MemoryReservation)."),
];

/** §2.3 serving, files, TLS. */
const serving = [
  docRule("doc3/2.3/port-range", "error", ["port"], "port is 1 to 65535."),
  docRule("doc3/2.3/read-only-port-range", "error", ["readOnlyPort"], "readOnlyPort is 1 to 65535, or 0 to disable it."),
  docRule("doc3/2.3/healthz-port-range", "error", ["healthzPort"], "healthzPort is 1 to 65535, or 0 to disable it."),
  kubernetesRule("doc3/2.3/bind-address-ip", "error", ["address", "healthzBindAddress"], "address and healthzBindAddress are IP addresses.", "not shown in doc 3; the kubelet fails to start on an address net.ParseIP rejects"),
  kubernetesRule("doc3/2.3/tls-min-version", "error", ["tlsMinVersion"], "tlsMinVersion is empty or one of VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13.", "not shown in doc 3; kubelet: cliflag.TLSVersion rejects other names"),
  kubernetesRule("doc3/2.3/tls-cipher-suites", "error", ["tlsCipherSuites"], "Each cipher suite is a name Go's crypto/tls knows.", "not shown in doc 3; kubelet: cliflag.TLSCipherSuites rejects unknown names"),
  kubernetesRule("doc3/2.3/tls-insecure-cipher", "warning", ["tlsCipherSuites"], "An insecure cipher suite is accepted but should not be used.", "the kubelet warns about insecure ciphers"),
  kubernetesRule("doc3/2.3/tls13-cipher-suites-ignored", "warning", ["tlsCipherSuites", "tlsMinVersion"], "With tlsMinVersion VersionTLS13, tlsCipherSuites has no effect.", "kubelet: `TLS 1.3 cipher suites are not configurable, ignoring --tls-cipher-suites`"),
  kubernetesRule("doc3/2.3/tls-cert-key-pair", "error", ["tlsCertFile", "tlsPrivateKeyFile"], "tlsCertFile and tlsPrivateKeyFile are given together or not at all.", "not shown in doc 3; the kubelet fails to load a serving pair with one file missing"),
  docRule("doc3/2.3/server-tls-bootstrap-gate", "error", ["serverTLSBootstrap", "featureGates"], "serverTLSBootstrap needs the RotateKubeletServerCertificate feature gate."),
  docRule("doc3/2.3/contention-profiling-needs-debugging-handlers", "warning", ["enableContentionProfiling", "enableDebuggingHandlers"], "enableContentionProfiling works only if debugging handlers are enabled."),
];

/** §2.4 node status, lease, registration. */
const nodeStatus = [
  docRule("doc3/2.4/node-lease-duration-positive", "error", ["nodeLeaseDurationSeconds"], "nodeLeaseDurationSeconds must be above 0.", `${KUBELET}; 0 itself is defaulted to 40 first`),
  docRule("doc3/2.4/node-status-max-images-range", "error", ["nodeStatusMaxImages"], "nodeStatusMaxImages is greater than -2 (-1 means no cap)."),
  docRule("doc3/2.4/register-with-taints-needs-register-node", "warning", ["registerWithTaints", "registerNode"], "registerWithTaints is used only when registerNode is true."),
  kubernetesRule("doc3/2.4/taint-valid", "error", ["registerWithTaints"], "Each taint has a qualified-name key, a label-value value, an effect of NoSchedule, PreferNoSchedule or NoExecute, and no timeAdded.", `not shown in doc 3; ${KUBELET} (CheckTaintValidation, \`taint.TimeAdded is not supported\`)`),
];

/** §2.5 authentication and authorization. */
const auth = [docRule("doc3/2.5/authorization-mode", "error", ["authorization.mode"], "authorization.mode is AlwaysAllow or Webhook.")];

/** §2.6 containers, images, cgroups, resources. */
const resources = [
  docRule("doc3/2.6/registry-pull-qps-non-negative", "error", ["registryPullQPS"], "registryPullQPS is not negative (0 means no limit)."),
  docRule("doc3/2.6/registry-burst-non-negative", "error", ["registryBurst"], "registryBurst is not negative."),
  docRule("doc3/2.6/registry-burst-needs-pull-qps", "warning", ["registryBurst", "registryPullQPS"], "registryBurst is used only if registryPullQPS is above 0."),
  docRule("doc3/2.6/image-gc-threshold-range", "error", ["imageGCHighThresholdPercent", "imageGCLowThresholdPercent"], "The image GC thresholds are 0 to 100."),
  docRule("doc3/2.6/image-gc-high-above-low", "error", ["imageGCHighThresholdPercent", "imageGCLowThresholdPercent"], "imageGCHighThresholdPercent is greater than imageGCLowThresholdPercent."),
  docRule("doc3/2.6/system-cgroups-needs-cgroup-root", "error", ["systemCgroups", "cgroupRoot"], "cgroupRoot must be set if systemCgroups is not empty."),
  docRule("doc3/2.6/cgroup-driver", "error", ["cgroupDriver"], "cgroupDriver is cgroupfs or systemd."),
  kubernetesRule("doc3/2.6/cpu-manager-policy", "error", ["cpuManagerPolicy"], "cpuManagerPolicy is none or static (doc 3 writes the default None, which is accepted too).", "not shown in doc 3; the kubelet's CPU manager knows the policies none and static"),
  docRule("doc3/2.6/cpu-manager-gate", "error", ["cpuManagerPolicy", "cpuManagerPolicyOptions", "cpuManagerReconcilePeriod", "featureGates"], "cpuManagerPolicy, cpuManagerPolicyOptions and cpuManagerReconcilePeriod other than their defaults need the CPUManager gate."),
  docRule("doc3/2.6/cpu-manager-policy-options-gate", "error", ["cpuManagerPolicyOptions", "featureGates"], "cpuManagerPolicyOptions needs the CPUManagerPolicyOptions gate."),
  kubernetesRule("doc3/2.6/memory-manager-policy", "error", ["memoryManagerPolicy"], "memoryManagerPolicy is None or Static (doc 3 writes the default none, which is accepted too).", "not shown in doc 3; the kubelet's memory manager knows the policies None and Static"),
  docRule("doc3/2.6/memory-manager-gate", "error", ["memoryManagerPolicy", "featureGates"], "memoryManagerPolicy other than none needs the MemoryManager gate."),
  kubernetesRule("doc3/2.6/topology-manager-policy", "error", ["topologyManagerPolicy"], "topologyManagerPolicy is none, best-effort, restricted or single-numa-node.", `not shown in doc 3; ${KUBELET}`),
  docRule("doc3/2.6/topology-manager-policy-gate", "error", ["topologyManagerPolicy", "featureGates"], "topologyManagerPolicy other than none needs the TopologyManager gate."),
  kubernetesRule("doc3/2.6/topology-manager-scope", "error", ["topologyManagerScope"], "topologyManagerScope is container or pod.", `not shown in doc 3; ${KUBELET}`),
  docRule("doc3/2.6/topology-manager-scope-gate", "error", ["topologyManagerScope", "featureGates"], "topologyManagerScope pod needs the TopologyManager gate."),
  docRule("doc3/2.6/qos-reserved-memory-only", "error", ["qosReserved"], "qosReserved reserves only memory."),
  docRule("doc3/2.6/qos-reserved-gate", "error", ["qosReserved", "featureGates"], "qosReserved needs the QOSReserved gate."),
  kubernetesRule("doc3/2.6/qos-reserved-percentage", "error", ["qosReserved"], "A qosReserved value is a percentage from 0% to 100%.", "not shown in doc 3; kubelet ParseQOSReserved"),
  kubernetesRule("doc3/2.6/hairpin-mode", "error", ["hairpinMode"], "hairpinMode is none, hairpin-veth or promiscuous-bridge.", `not shown in doc 3; ${KUBELET}`),
  kubernetesRule("doc3/2.6/cpu-cfs-quota-period-gate", "error", ["cpuCFSQuotaPeriod", "featureGates"], "A cpuCFSQuotaPeriod other than 100ms needs the CustomCPUCFSQuotaPeriod gate.", `not shown in doc 3; ${KUBELET}`),
  kubernetesRule("doc3/2.6/cpu-cfs-quota-period-range", "error", ["cpuCFSQuotaPeriod"], "cpuCFSQuotaPeriod is between 1µs and 1s.", `not shown in doc 3; ${KUBELET}`),
  docRule("doc3/2.6/max-pods-non-negative", "error", ["maxPods"], "maxPods is not negative."),
  docRule("doc3/2.6/pods-per-core-non-negative", "error", ["podsPerCore"], "podsPerCore is not negative (0 means no limit)."),
  docRule("doc3/2.6/pods-per-core-le-max-pods", "error", ["podsPerCore", "maxPods"], "podsPerCore cannot exceed maxPods.", "the kubelet does not check it; it uses min(podsPerCore × cores, maxPods)"),
  kubernetesRule("doc3/2.6/pod-cidr", "error", ["podCIDR"], "podCIDR is empty or a CIDR.", "not shown in doc 3; the kubelet fails to parse it"),
  kubernetesRule("doc3/2.6/cluster-dns-ip", "error", ["clusterDNS"], "Each clusterDNS entry is an IP address.", "not shown in doc 3; the kubelet rejects an entry net.ParseIP cannot read"),
  docRule("doc3/2.6/max-open-files-non-negative", "error", ["maxOpenFiles"], "maxOpenFiles is not negative."),
  kubernetesRule("doc3/2.6/kube-api-qps-non-negative", "error", ["kubeAPIQPS"], "kubeAPIQPS is not negative.", `not shown in doc 3; ${KUBELET}`),
  docRule("doc3/2.6/kube-api-burst-non-negative", "error", ["kubeAPIBurst"], "kubeAPIBurst is not negative."),
  docRule("doc3/2.6/iptables-bit-range", "error", ["iptablesMasqueradeBit", "iptablesDropBit"], "iptablesMasqueradeBit and iptablesDropBit are 0 to 31."),
  docRule("doc3/2.6/iptables-bits-distinct", "error", ["iptablesMasqueradeBit", "iptablesDropBit"], "The masquerade and drop fwmark bits differ.", "the kubelet does not check it"),
  docRule("doc3/2.6/memory-swap-behavior", "error", ["memorySwap.swapBehavior"], "swapBehavior is \"\", LimitedSwap or UnlimitedSwap."),
  kubernetesRule("doc3/2.6/memory-swap-gate", "error", ["memorySwap.swapBehavior", "featureGates"], "Setting memorySwap.swapBehavior needs the NodeSwap gate.", `not shown in doc 3; ${KUBELET}`),
  kubernetesRule("doc3/2.6/container-log-max-size", "error", ["containerLogMaxSize"], "containerLogMaxSize is a non-negative quantity.", "not shown in doc 3; the kubelet fails to parse it"),
  kubernetesRule("doc3/2.6/container-log-max-files", "error", ["containerLogMaxFiles"], "containerLogMaxFiles is greater than 1.", "not shown in doc 3; kubelet container log manager: `invalid MaxFiles, must be > 1`"),
  kubernetesRule("doc3/2.6/change-detection-strategy", "error", ["configMapAndSecretChangeDetectionStrategy"], "configMapAndSecretChangeDetectionStrategy is Get, Cache or Watch.", "not shown in doc 3; the kubelet knows these three"),
  docRule("doc3/2.6/system-reserved-resources", "error", ["systemReserved"], "systemReserved reserves only cpu and memory.", "Kubernetes also accepts ephemeral-storage and pid"),
  docRule("doc3/2.6/kube-reserved-resources", "error", ["kubeReserved"], "kubeReserved reserves cpu, memory and local storage of the root file system (ephemeral-storage).", "Kubernetes also accepts pid"),
  kubernetesRule("doc3/2.6/reserved-quantity", "error", ["systemReserved", "kubeReserved"], "Reserved amounts are non-negative quantities.", "not shown in doc 3; kubelet ParseResourceList: `cannot be negative`"),
  kubernetesRule("doc3/2.6/reserved-system-cpus-syntax", "error", ["reservedSystemCPUs"], "reservedSystemCPUs is a CPU list such as 0-3,7.", `not shown in doc 3; ${KUBELET} (cpuset.Parse)`),
  docRule("doc3/2.6/reserved-system-cpus-exclusive-cgroups", "error", ["reservedSystemCPUs", "systemReservedCgroup", "kubeReservedCgroup"], "reservedSystemCPUs does not support systemReservedCgroup or kubeReservedCgroup."),
  kubernetesRule("doc3/2.6/enforce-node-allocatable-values", "error", ["enforceNodeAllocatable"], "enforceNodeAllocatable holds pods, system-reserved, kube-reserved, or none alone.", `not shown in doc 3; ${KUBELET}`),
  kubernetesRule("doc3/2.6/enforce-node-allocatable-needs-cgroups-per-qos", "error", ["enforceNodeAllocatable", "cgroupsPerQOS"], "enforceNodeAllocatable needs cgroupsPerQOS.", `not shown in doc 3; ${KUBELET}`),
  kubernetesRule("doc3/2.6/enforce-node-allocatable-reserved-cgroup", "error", ["enforceNodeAllocatable", "systemReservedCgroup", "kubeReservedCgroup"], "Enforcing system-reserved or kube-reserved needs systemReservedCgroup or kubeReservedCgroup.", `not shown in doc 3; ${KUBELET}`),
  docRule("doc3/2.6/oom-score-adj-range", "error", ["oomScoreAdj"], "oomScoreAdj is -1000 to 1000."),
  kubernetesRule("doc3/2.6/memory-throttling-factor-range", "error", ["memoryThrottlingFactor"], "memoryThrottlingFactor is greater than 0 and at most 1.", `not shown in doc 3; ${KUBELET}`),
  kubernetesRule("doc3/2.6/reserved-memory-resource", "error", ["reservedMemory"], "reservedMemory limits name only memory or hugepages-<size>.", `not shown in doc 3; ${KUBELET}`),
  kubernetesRule("doc3/2.6/reserved-memory-nonzero", "error", ["reservedMemory"], "A reservedMemory limit is a quantity above zero.", `not shown in doc 3; ${KUBELET}`),
  kubernetesRule("doc3/2.6/reserved-memory-unique", "error", ["reservedMemory"], "A NUMA node reserves each resource once.", `not shown in doc 3; ${KUBELET}`),
  kubernetesRule("doc3/2.6/feature-gate-known", "warning", ["featureGates"], "featureGates names gates the harness knows.", "the kubelet refuses an unrecognized gate; the harness knows only the gates doc 3's fields need, so it warns"),
];

/** §2.7 eviction and shutdown. */
const eviction = [
  kubernetesRule("doc3/2.7/eviction-signal", "error", ["evictionHard", "evictionSoft", "evictionSoftGracePeriod", "evictionMinimumReclaim"], "Eviction maps are keyed by known signals: memory.available, nodefs.available, nodefs.inodesFree, imagefs.available, imagefs.inodesFree, allocatableMemory.available, pid.available.", "not shown in doc 3; kubelet eviction ParseThresholdConfig: `unsupported eviction signal`"),
  kubernetesRule("doc3/2.7/eviction-threshold-value", "error", ["evictionHard", "evictionSoft"], "A threshold is a positive quantity or a percentage from 0% to 100%.", "not shown in doc 3; kubelet eviction ParseThresholdConfig"),
  kubernetesRule("doc3/2.7/eviction-soft-needs-grace-period", "error", ["evictionSoft", "evictionSoftGracePeriod"], "Each soft threshold has a grace period.", "not shown in doc 3; kubelet: `grace period must be specified for the soft eviction threshold`"),
  kubernetesRule("doc3/2.7/eviction-grace-period-value", "error", ["evictionSoftGracePeriod"], "A soft eviction grace period is a non-negative duration.", "not shown in doc 3; kubelet eviction parseGracePeriods"),
  kubernetesRule("doc3/2.7/eviction-minimum-reclaim-value", "error", ["evictionMinimumReclaim"], "A minimum reclaim is a non-negative quantity or percentage.", "not shown in doc 3; kubelet eviction parseMinimumReclaims"),
  kubernetesRule("doc3/2.7/shutdown-grace-periods-non-negative", "error", ["shutdownGracePeriod", "shutdownGracePeriodCriticalPods"], "shutdownGracePeriod and shutdownGracePeriodCriticalPods are not negative.", `not shown in doc 3; ${KUBELET}`),
  docRule("doc3/2.7/shutdown-critical-less-than-total", "error", ["shutdownGracePeriodCriticalPods", "shutdownGracePeriod"], "shutdownGracePeriodCriticalPods, when set, is less than shutdownGracePeriod.", "Kubernetes allows equality (critical ≤ total)"),
  docRule("doc3/2.7/shutdown-by-priority-exclusive", "error", ["shutdownGracePeriodByPodPriority", "shutdownGracePeriod", "shutdownGracePeriodCriticalPods"], "shutdownGracePeriodByPodPriority must be empty if shutdownGracePeriod or shutdownGracePeriodCriticalPods is set."),
  docRule("doc3/2.7/shutdown-by-priority-gate", "error", ["shutdownGracePeriodByPodPriority", "featureGates"], "shutdownGracePeriodByPodPriority needs the GracefulNodeShutdown gate.", "Kubernetes 1.26 checks GracefulNodeShutdownBasedOnPodPriority"),
  kubernetesRule("doc3/2.7/shutdown-grace-period-gate", "error", ["shutdownGracePeriod", "shutdownGracePeriodCriticalPods", "featureGates"], "shutdownGracePeriod or shutdownGracePeriodCriticalPods above 0 needs the GracefulNodeShutdown gate.", `not shown in doc 3; ${KUBELET}`),
  kubernetesRule("doc3/2.7/shutdown-by-priority-grace-non-negative", "error", ["shutdownGracePeriodByPodPriority"], "shutdownGracePeriodSeconds of each priority range is not negative.", "not shown in doc 3; a negative grace period has no meaning (the kubelet waits at most the largest)"),
];

/** §2.8 logging. */
const logging = [
  kubernetesRule("doc3/2.8/logging-format", "error", ["logging.format"], "logging.format is text (default) or json.", "not shown in doc 3; component-base logs: the registered formats"),
  docRule("doc3/2.8/vmodule-text-only", "error", ["logging.vmodule", "logging.format"], "logging.vmodule works with the text format only."),
  kubernetesRule("doc3/2.8/vmodule-pattern", "error", ["logging.vmodule"], "A vmodule filePattern is not empty and holds no `=` or `,`.", "not shown in doc 3; component-base logs validation"),
  kubernetesRule("doc3/2.8/json-options-gate", "error", ["logging.options.json", "featureGates"], "splitStream and a non-zero infoBufferSize are experimental and need the LoggingAlphaOptions gate.", "not shown in doc 3; component-base logs validation: `Feature LoggingAlphaOptions is disabled`"),
  kubernetesRule("doc3/2.8/info-buffer-size", "error", ["logging.options.json.infoBufferSize"], "infoBufferSize is a non-negative quantity.", "not shown in doc 3; a buffer cannot be negative"),
  kubernetesRule("doc3/2.8/flush-frequency-positive", "error", ["logging.flushFrequency"], "flushFrequency is above 0.", "not shown in doc 3; component-base logs validation: `Must be greater than zero`"),
];

/** §8 limits. */
const limits = [
  docRule("doc3/8/event-record-qps-non-negative", "error", ["eventRecordQPS"], "eventRecordQPS is not negative (0 means no limit)."),
  kubernetesRule("doc3/8/event-burst-non-negative", "error", ["eventBurst"], "eventBurst is not negative.", `not shown in doc 3; ${KUBELET}`),
  docRule("doc3/8/event-burst-needs-record-qps", "warning", ["eventBurst", "eventRecordQPS"], "eventBurst is used only when eventRecordQPS is above 0."),
];

/** §2.1 and §2.2 credential providers. */
const credentialProviders = [
  docRule("doc3/2.1/providers-required", "error", ["providers"], "providers is required: at least one plugin.", "kubelet: `at least 1 item in plugins is required`"),
  kubernetesRule("doc3/2.1/provider-names-unique", "error", ["providers"], "No two providers have the same name.", "not shown in doc 3; kubelet rejects duplicate provider names (newer releases)"),
  kubernetesRule("doc3/2.2/provider-name", "error", ["providers[].name"], "name is an executable's file name: not empty, no `/`, no spaces, not `.` or `..`.", "not shown in doc 3; kubelet validateCredentialProviderConfig"),
  docRule("doc3/2.2/match-images-required", "error", ["providers[].matchImages"], "matchImages is required: at least one pattern.", "kubelet: `at least 1 item in matchImages is required`"),
  docRule("doc3/2.2/match-image-syntax", "error", ["providers[].matchImages"], "A pattern holds a registry domain, an optional port and an optional path; globs only in the domain.", "kubelet: `match image is invalid` when the pattern is not a schemeless URL; the kubelet does not check the globs, and a malformed one (`reg[.io`) never matches there: the harness reports it"),
  kubernetesRule("doc3/2.2/default-cache-duration", "error", ["providers[].defaultCacheDuration"], "defaultCacheDuration is not negative.", "not shown in doc 3; kubelet: `must be greater than or equal to 0`"),
  kubernetesRule("doc3/2.2/exec-api-version", "error", ["providers[].apiVersion"], "apiVersion is a version of the credential provider exec API.", "not shown in doc 3; kubelet: credentialprovider.kubelet.k8s.io/v1alpha1, v1beta1 or v1"),
];

/** Every checked rule of doc 3. */
export const doc3Rules = [
  ...structure,
  ...serving,
  ...nodeStatus,
  ...auth,
  ...resources,
  ...eviction,
  ...logging,
  ...limits,
  ...credentialProviders,
] as const satisfies readonly ConfigRule[];

/** The rules of doc 3 that compute values (defaults) rather than reject any. */
export const doc3Derivations: readonly DerivationRule[] = [
  { id: "doc3/2/defaults", clause: clauseOf("doc3/2/defaults"), origin: "doc", fields: [], rule: "A field not given takes doc 3's default (Kubernetes 1.26's where doc 3 shows none); where the kubelet's Go field is not a pointer, the zero value is replaced too." },
  { id: "doc3/2.4/node-status-report-frequency-default", clause: clauseOf("doc3/2.4/node-status-report-frequency-default"), origin: "doc", fields: ["nodeStatusReportFrequency", "nodeStatusUpdateFrequency"], rule: "If nodeStatusUpdateFrequency is set explicitly, nodeStatusReportFrequency defaults to it; otherwise to 5m." },
  { id: "doc3/2.6/pod-pids-limit-negative", clause: clauseOf("doc3/2.6/pod-pids-limit-negative"), origin: "kubernetes", fields: ["podPidsLimit"], rule: "A negative podPidsLimit means no limit and is defaulted to -1.", kubernetes: "kubelet SetDefaults_KubeletConfiguration" },
  { id: "doc3/2.4/node-lease-renew-interval", clause: clauseOf("doc3/2.4/node-lease-renew-interval"), origin: "doc", fields: ["nodeLeaseDurationSeconds"], rule: "The node lease is renewed every 10s (Kubernetes: a quarter of nodeLeaseDurationSeconds, 10s for the default 40)." },
];

/** The id of a doc 3 rule. */
export type Doc3RuleId = (typeof doc3Rules)[number]["id"];
