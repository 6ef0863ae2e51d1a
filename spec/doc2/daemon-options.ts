/**
 * Every option of doc 2, for both daemons, as data: name, shorthand, type, the default per daemon,
 * the rule text, deprecation, and the clause id `doc2/<section>/<option>` (e.g.
 * `doc2/2.2/leader-elect-renew-deadline`). An option listed in two sections (say
 * `--orb-api-content-type`, scheduler in §2.3 and controller manager in §8) has one setting per
 * daemon, each citing its own section. Defaults are Go flag text as doc 2 writes it; `null` is doc
 * 2's "none": the type's zero value. Names that differ by dialect (`orb-system` / `kube-system`)
 * take their default from spec/dialects.ts.
 */
import { dialects, type Dialect, type DialectName } from "../dialects.ts";

/** The two daemons of doc 2. */
export const DAEMONS = ["controller-manager", "scheduler"] as const;
/** A daemon of doc 2. */
export type Daemon = (typeof DAEMONS)[number];

/**
 * The value types of doc 2's tables. `level` is klog's `-v` (a base-10 int32), `ip` is pflag's IP,
 * `featureGates` is doc 2's "comma list of key=True|False", `version` is "version[=true]",
 * `vmodule` is "pattern=N,...", `namedCertKeys` is the repeatable `--tls-sni-cert-key`.
 */
export type OptionType =
  | "bool"
  | "string"
  | "strings"
  | "int"
  | "int32"
  | "level"
  | "float"
  | "duration"
  | "ip"
  | "stringToString"
  | "featureGates"
  | "version"
  | "vmodule"
  | "namedCertKeys";

/** A default that differs between the `orb` and `kubernetes` dialects. */
export interface DialectDefault {
  readonly byDialect: Readonly<Record<DialectName, string>>;
}

/** A default as doc 2 writes it (Go flag text), `null` for "none", or one per dialect. */
export type DocDefault = string | null | DialectDefault;

/** What one daemon makes of an option. */
export interface DaemonSetting {
  /** `doc2/<section>/<option>`. */
  readonly clause: string;
  readonly default: DocDefault;
  /** Doc 2's words where its default is not one value ("24 IPv4, 64 IPv6", "runtime default"). */
  readonly defaultNote?: string;
  /** Doc 2's deprecation text, where it deprecates the option for this daemon. */
  readonly deprecated?: string;
  /** Doc 2 says the scheduler ignores the option when `--config` is given. */
  readonly ignoredWithConfig?: boolean;
}

/** One command-line option of doc 2. */
export interface DaemonOption {
  /** The long name, without dashes. */
  readonly name: string;
  readonly shorthand?: string;
  readonly type: OptionType;
  /** Doc 2's rule text. */
  readonly rule: string;
  /** The rule id reported when the value does not parse, where doc 2 states the syntax. */
  readonly syntaxRule?: string;
  readonly daemons: { readonly [D in Daemon]?: DaemonSetting };
}

type SettingWithoutClause = Omit<DaemonSetting, "clause">;
interface Placement extends SettingWithoutClause {
  readonly section: string;
}

function at(section: string, value: DocDefault, extra: Partial<SettingWithoutClause> = {}): Placement {
  return { section, default: value, ...extra };
}

function option(
  name: string,
  type: OptionType,
  rule: string,
  placements: { readonly cm?: Placement; readonly sched?: Placement },
  extra: { readonly shorthand?: string; readonly syntaxRule?: string } = {},
): DaemonOption {
  const setting = ({ section, ...rest }: Placement): DaemonSetting => ({ clause: `doc2/${section}/${name}`, ...rest });
  const daemons: { -readonly [D in Daemon]?: DaemonSetting } = {};
  if (placements.cm !== undefined) daemons["controller-manager"] = setting(placements.cm);
  if (placements.sched !== undefined) daemons.scheduler = setting(placements.sched);
  return { name, type, rule, daemons, ...extra };
}

function both(section: string, value: DocDefault, extra: Partial<SettingWithoutClause> = {}) {
  return { cm: at(section, value, extra), sched: at(section, value, extra) };
}

function cm(section: string, value: DocDefault, extra: Partial<SettingWithoutClause> = {}) {
  return { cm: at(section, value, extra) };
}

function byDialect(pick: (dialect: Dialect) => string): DialectDefault {
  const entries = dialects.map((dialect) => [dialect.name, pick(dialect)] as const);
  return { byDialect: Object.fromEntries(entries) as Record<DialectName, string> };
}

const IGNORED_WITH_CONFIG = "Deprecated. Ignored with --config.";
const SCHEDULER_DEPRECATED = { deprecated: "In the scheduler it is deprecated and ignored when --config is given.", ignoredWithConfig: true };
const NODE_AGENT_PLUGIN_DIR = byDialect((d) =>
  d.name === "orb" ? "/usr/libexec/orb/nodeagent-plugins/volume/exec/" : "/usr/libexec/kubernetes/kubelet-plugins/volume/exec/",
);

// §2.1 Options in both daemons.
const common = [
  option("allow-metric-labels", "stringToString", "Map from <MetricName>,<LabelName> to a comma list of allowed values.", both("2.1", "[]"), { syntaxRule: "doc2/2.1/allow-metric-labels-syntax" }),
  option("bind-address", "ip", "IP to listen on for --secure-port. Blank, 0.0.0.0 or :: means all interfaces.", both("2.1", "0.0.0.0")),
  option("cert-dir", "string", "Directory of TLS certs. Ignored if --tls-cert-file and --tls-private-key-file are given.", both("2.1", null)),
  option("disabled-metrics", "strings", "Fully qualified metric names to disable. Takes precedence over showing hidden metrics.", both("2.1", null)),
  option("feature-gates", "featureGates", "Gates for alpha or experimental features.", both("2.1", null), { syntaxRule: "doc2/2.1/feature-gates-syntax" }),
  option("help", "bool", "Prints help.", both("2.1", "false"), { shorthand: "h" }),
  option("http2-max-streams-per-connection", "int", "Stream limit given to clients per HTTP/2 connection. 0 means the runtime default.", both("2.1", null)),
  option("log-flush-frequency", "duration", "Maximum time between log flushes.", both("2.1", "5s")),
  option("logging-format", "string", "Permitted: text.", both("2.1", "text")),
  option("master", "string", "API server address. Overrides the kubeconfig-style file value.", both("2.1", null)),
  option("permit-address-sharing", "bool", "Binds with SO_REUSEADDR.", both("2.1", "false")),
  option("permit-port-sharing", "bool", "Binds with SO_REUSEPORT. More than one instance may bind one address and port.", both("2.1", "false")),
  option("show-hidden-metrics-for-version", "string", "Format <major>.<minor>. Only the previous minor version is meaningful.", both("2.1", null)),
  option("v", "level", "Log verbosity level.", both("2.1", null), { shorthand: "v" }),
  option("version", "version", "Prints version and exits.", both("2.1", "false")),
  option("vmodule", "vmodule", "File-filtered log levels (text format only).", both("2.1", null), { syntaxRule: "doc2/2.1/vmodule-syntax" }),
  option("cloudx-container-registry-config", "string", "Path to a container registry configuration file.", both("2.1", null)),
  option("profiling", "bool", "Enables profiling at host:port/debug/pprof/. In the scheduler it is deprecated and ignored when --config is given.", {
    cm: at("2.1", "true"),
    sched: at("2.1", "true", SCHEDULER_DEPRECATED),
  }),
  option("contention-profiling", "bool", "Lock contention profiling, when profiling is enabled. In the scheduler it is deprecated and ignored when --config is given.", {
    cm: at("2.1", null),
    sched: at("2.1", "true", SCHEDULER_DEPRECATED),
  }),
];

// §2.2 Leader election (both daemons). "The leader election options apply only when leader election is enabled."
const leaderElection = [
  option("leader-elect", "bool", "Gain leadership before the main loop.", both("2.2", "true")),
  option("leader-elect-lease-duration", "duration", "How long non-leaders wait after a renewal before trying to take over.", both("2.2", "15s")),
  option("leader-elect-renew-deadline", "duration", "Interval between renewal attempts by the leader. Must be less than or equal to the lease duration.", both("2.2", "10s")),
  option("leader-elect-retry-period", "duration", "Wait between acquire or renew attempts.", both("2.2", "2s")),
  option("leader-elect-resource-lock", "string", "One of leases, endpointsleases, configmapsleases.", both("2.2", "leases")),
  option("leader-elect-resource-name", "string", "Name of the lock object.", {
    cm: at("2.2", byDialect((d) => d.leaderElection.controllerManager)),
    sched: at("2.2", byDialect((d) => d.leaderElection.scheduler)),
  }),
  option("leader-elect-resource-namespace", "string", "Namespace of the lock object.", both("2.2", byDialect((d) => d.namespaces.system))),
];

// §2.3 Scheduler-only options (and the controller manager's own rows of the same names, §2.4 and §8).
const schedulerOnly = [
  option("config", "string", "Path to the configuration file.", { sched: at("2.3", null) }),
  option("write-config-to", "string", "Writes the configuration values to this file and exits.", { sched: at("2.3", null) }),
  option("orbconfig", "string", "File with authorization and master location (the kubeconfig-style file). Scheduler: deprecated, ignored with --config.", {
    cm: at("2.4", null),
    sched: at("2.3", null, { deprecated: IGNORED_WITH_CONFIG, ignoredWithConfig: true }),
  }),
  option("orb-api-content-type", "string", "Content type of requests to the API server. Scheduler: deprecated, ignored with --config.", {
    cm: at("8", byDialect((d) => d.protobufMediaType)),
    sched: at("2.3", byDialect((d) => d.protobufMediaType), { deprecated: IGNORED_WITH_CONFIG, ignoredWithConfig: true }),
  }),
  option("lock-object-name", "string", "Deprecated in favor of --leader-elect-resource-name. Ignored with --config.", {
    sched: at("2.3", byDialect((d) => d.leaderElection.scheduler), { deprecated: "Deprecated in favor of --leader-elect-resource-name. Ignored with --config.", ignoredWithConfig: true }),
  }),
  option("lock-object-namespace", "string", "Deprecated in favor of --leader-elect-resource-namespace. Ignored with --config.", {
    sched: at("2.3", byDialect((d) => d.namespaces.system), { deprecated: "Deprecated in favor of --leader-elect-resource-namespace. Ignored with --config.", ignoredWithConfig: true }),
  }),
  option("pod-max-in-unschedulable-pods-duration", "duration", "Longest a pod stays in the unschedulable set before it moves to the backoff queue or the active queue.", {
    sched: at("2.3", "5m0s", { deprecated: "Deprecated, to be removed in 1.26." }),
  }),
];

const SIGNING_EXCLUSIVITY = "Excludes the general --cluster-signing-{cert,key}-file.";

function signerPair(signer: string, signerName: string): DaemonOption[] {
  const rule = `CA cert and key for signer ${signerName}. ${SIGNING_EXCLUSIVITY}`;
  return [
    option(`cluster-signing-${signer}-cert-file`, "string", rule, cm("2.4", null)),
    option(`cluster-signing-${signer}-key-file`, "string", rule, cm("2.4", null)),
  ];
}

// §2.4 Controller-manager-only options.
const controllerManagerOnly = [
  option("allocate-node-cidrs", "bool", "Allocate Pod CIDRs and set them on the cloud provider.", cm("2.4", null)),
  option("cidr-allocator-type", "string", "Allocator type.", cm("2.4", "RangeAllocator")),
  option("cluster-cidr", "string", "Pod CIDR range. Requires --allocate-node-cidrs.", cm("2.4", null)),
  option("service-cluster-ip-range", "string", "Service CIDR range. Requires --allocate-node-cidrs.", cm("2.4", null)),
  option("node-cidr-mask-size", "int32", "Node CIDR mask size.", cm("2.4", null, { defaultNote: "24 IPv4, 64 IPv6" })),
  option("node-cidr-mask-size-ipv4", "int32", "Dual-stack IPv4 mask.", cm("2.4", "24")),
  option("node-cidr-mask-size-ipv6", "int32", "Dual-stack IPv6 mask.", cm("2.4", "64")),
  option("configure-cloud-routes", "bool", "Configure allocated CIDRs on the cloud provider.", cm("2.4", "true")),
  option("cloud-config", "string", "Cloud provider config path.", cm("2.4", null)),
  option("cloud-provider", "string", "Cloud provider. Empty means none.", cm("2.4", null)),
  option("external-cloud-volume-plugin", "string", "Only when the provider is external.", cm("2.4", null)),
  option("cluster-name", "string", "Instance prefix of the cluster.", cm("2.4", byDialect((d) => d.clusterName))),
  option("cluster-signing-cert-file", "string", "PEM CA cert for cluster-scoped certificates. If set, no more specific --cluster-signing-* option may be set.", cm("2.4", null)),
  option("cluster-signing-key-file", "string", "PEM RSA or ECDSA private key for signing. Same exclusivity.", cm("2.4", null)),
  option("cluster-signing-duration", "duration", "Maximum lifetime of signed certificates. A request may ask for less with spec.expirationSeconds.", cm("2.4", "8760h0m0s")),
  ...signerPair("orb-apiserver-client", "orb.io/api-client"),
  ...signerPair("nodeagent-client", "orb.io/api-client-nodeagent"),
  ...signerPair("nodeagent-serving", "orb.io/nodeagent-serving"),
  ...signerPair("legacy-unknown", "orb.io/legacy-unknown"),
  option("controllers", "strings", "* enables all default-on controllers. foo enables one. -foo disables one.", cm("2.4", "*")),
  option("controller-start-interval", "duration", "Interval between starting controller managers.", cm("2.4", null)),
  option("attach-detach-reconcile-sync-period", "duration", "Must exceed one second. A longer time may let volumes mismatch pods.", cm("2.4", "1m0s")),
  option("disable-attach-detach-reconcile-sync", "bool", "Disables that sync.", cm("2.4", "false")),
  option("enable-dynamic-provisioning", "bool", "Dynamic volume provisioning.", cm("2.4", "true")),
  option("enable-garbage-collector", "bool", "Generic garbage collector. Must agree with the API server flag.", cm("2.4", "true")),
  option("enable-hostpath-provisioner", "bool", "Host-path volume provisioning without a cloud provider. Testing only.", cm("2.4", "false")),
  option("enable-leader-migration", "bool", "Controller leader migration.", cm("2.4", "false")),
  option("leader-migration-config", "string", "Config file of type LeaderMigrationConfiguration, group controllermanager.config.<domain>, version v1alpha1.", cm("2.4", null)),
  option("enable-taint-manager", "bool", "Beta. Enables NoExecute taints and evicts Pods that do not tolerate them.", cm("2.4", "true")),
  option("endpoint-updates-batch-period", "duration", "Delays pod-change processing to batch endpoint updates.", cm("2.4", null)),
  option("endpointslice-updates-batch-period", "duration", "Same, for endpoint slices.", cm("2.4", null)),
  option("mirroring-endpointslice-updates-batch-period", "duration", "Same, for the slice mirroring controller.", cm("2.4", null)),
  option("flex-volume-plugin-dir", "string", "Directory searched for third-party volume plugins.", cm("2.4", NODE_AGENT_PLUGIN_DIR)),
  option("horizontal-pod-autoscaler-cpu-initialization-period", "duration", "Period after pod start when CPU samples may be skipped.", cm("2.4", "5m0s")),
  option("horizontal-pod-autoscaler-downscale-stabilization", "duration", "Look-back period. No scale-down below any recommendation made in it.", cm("2.4", "5m0s")),
  option("horizontal-pod-autoscaler-initial-readiness-delay", "duration", "Period after pod start when readiness changes count as initial readiness.", cm("2.4", "30s")),
  option("horizontal-pod-autoscaler-sync-period", "duration", "Sync period for pod counts.", cm("2.4", "15s")),
  option("horizontal-pod-autoscaler-tolerance", "float", "Minimum change from 1.0 in the desired-to-actual ratio before scaling.", cm("2.4", "0.1")),
  option("large-cluster-size-threshold", "int32", "Node count from which the cluster counts as large for eviction. At or below it, --secondary-node-eviction-rate is implicitly 0.", cm("2.4", "50")),
  // Also listed in §8 ("See 2.4").
  option("max-endpoints-per-slice", "int32", "Maximum endpoints per slice.", cm("2.4", "100")),
  option("mirroring-max-endpoints-per-subset", "int32", "Maximum endpoints per slice for the mirroring controller.", cm("2.4", "1000")),
  option("min-resync-period", "duration", "Reflector resync is random between this and twice this.", cm("2.4", "12h0m0s")),
  option("namespace-sync-period", "duration", "Namespace life-cycle sync.", cm("2.4", "5m0s")),
  option("node-eviction-rate", "float", "Nodes per second whose pods are deleted on failure when the zone is healthy.", cm("2.4", "0.1")),
  option("secondary-node-eviction-rate", "float", "Same, when the zone is unhealthy.", cm("2.4", "0.01")),
  option("node-monitor-grace-period", "duration", "Time a running Node may be unresponsive before it is marked unhealthy.", cm("2.4", "40s")),
  option("node-monitor-period", "duration", "Sync period of node status.", cm("2.4", "5s")),
  option("node-startup-grace-period", "duration", "Same, for a starting Node.", cm("2.4", "1m0s")),
  option("pod-eviction-timeout", "duration", "Grace period for deleting pods on failed nodes.", cm("2.4", "5m0s")),
  option("unhealthy-zone-threshold", "float", "Fraction of not-Ready Nodes (minimum 3) that makes a zone unhealthy.", cm("2.4", "0.55")),
  option("pv-recycler-increment-timeout-nfs", "int32", "Seconds added per Gi to ActiveDeadlineSeconds of an NFS scrubber pod.", cm("2.4", "30")),
  option("pv-recycler-minimum-timeout-hostpath", "int32", "Minimum ActiveDeadlineSeconds for a host-path recycler pod (development only).", cm("2.4", "60")),
  option("pv-recycler-minimum-timeout-nfs", "int32", "Minimum ActiveDeadlineSeconds for an NFS recycler pod.", cm("2.4", "300")),
  option("pv-recycler-pod-template-filepath-hostpath", "string", "Pod template file (development only).", cm("2.4", null)),
  option("pv-recycler-pod-template-filepath-nfs", "string", "Pod template file for NFS recycling.", cm("2.4", null)),
  option("pv-recycler-timeout-increment-hostpath", "int32", "Seconds added per Gi for a host-path scrubber pod.", cm("2.4", "30")),
  option("pvclaimbinder-sync-period", "duration", "Sync of volumes and claims.", cm("2.4", "15s")),
  option("resource-quota-sync-period", "duration", "Sync of quota usage.", cm("2.4", "5m0s")),
  option("root-ca-file", "string", "Root CA included in a service account's token secret. PEM bundle.", cm("2.4", null)),
  option("route-reconciliation-period", "duration", "Reconcile of cloud routes for Nodes.", cm("2.4", "10s")),
  option("service-account-private-key-file", "string", "PEM RSA or ECDSA key that signs service account tokens.", cm("2.4", null)),
  // Also listed in §8 ("See 2.4").
  option("terminated-pod-gc-threshold", "int32", "Terminated pods allowed before their collector deletes them. 0 or less disables it.", cm("2.4", "12500")),
  option("use-service-account-credentials", "bool", "One service account credential per controller.", cm("2.4", "false")),
  option("volume-host-allow-local-loopback", "bool", "If false, deny loopback IPs as well as the denylist.", cm("2.4", "true")),
  option("volume-host-cidr-denylist", "strings", "CIDR ranges that volume plugins avoid.", cm("2.4", null)),
];

// §4 Endpoints: the one option named in prose.
const endpoints = [
  option("secure-port", "int", "Port of HTTPS. 0 turns HTTPS off.", { cm: at("4", "10257"), sched: at("4", "10259") }),
];

// §5 Authentication (both daemons serve HTTPS with authentication and authorization, §1).
const authentication = [
  option("authentication-kubeconfig", "string", "File for the core server, with rights to create tokenreviews. Optional. If empty, every token request is anonymous and no client CA is looked up.", both("5", null)),
  option("authentication-skip-lookup", "bool", "If false, that file is used to look up missing authentication configuration.", both("5", "false")),
  option("authentication-token-webhook-cache-ttl", "duration", "Cache time for token webhook answers.", both("5", "10s")),
  option("authentication-tolerate-lookup-failure", "bool", "If true, a failed lookup is not fatal, and requests may all be anonymous.", { cm: at("5", null), sched: at("5", "true") }),
  option("authorization-always-allow-paths", "strings", "Paths authorized without contacting the core server.", both("5", "/healthz,/readyz,/livez")),
  option("authorization-kubeconfig", "string", "File with rights to create subjectaccessreviews. Optional. If empty, all requests not skipped are forbidden.", both("5", null)),
  option("authorization-webhook-cache-authorized-ttl", "duration", "Cache of authorized answers.", both("5", "10s")),
  option("authorization-webhook-cache-unauthorized-ttl", "duration", "Cache of unauthorized answers.", both("5", "10s")),
  option("client-ca-file", "string", "A client certificate signed by these authorities is authenticated as the certificate CommonName.", both("5", null)),
  option("requestheader-allowed-names", "strings", "Certificate common names that may give usernames in headers. If empty, any certificate verified by the request-header CA is allowed.", both("5", null)),
  option("requestheader-client-ca-file", "string", "Root bundle verifying client certificates before header usernames are trusted.", both("5", null)),
  option("requestheader-extra-headers-prefix", "strings", "Header prefixes inspected.", both("5", "x-remote-extra-")),
  option("requestheader-group-headers", "strings", "Headers inspected for groups.", both("5", "x-remote-group")),
  option("requestheader-username-headers", "strings", "Headers inspected for usernames.", both("5", "x-remote-user")),
  option("tls-cert-file", "string", "Default x509 certificate (CA cert concatenated after). If HTTPS is on and no cert or key is given, a self-signed pair is generated and saved to --cert-dir.", both("5", null)),
  option("tls-private-key-file", "string", "Matching private key.", both("5", null)),
  option("tls-cipher-suites", "strings", "Allowed cipher suites.", both("5", null, { defaultNote: "runtime default" })),
  option("tls-min-version", "string", "One of VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13.", both("5", null)),
  option("tls-sni-cert-key", "namedCertKeys", "Pair <cert-path>,<key-path> with optional :<domain-patterns> (wildcard prefixes allowed). May repeat. Non-wildcard matches win over wildcard. Explicit patterns win over names taken from the certificate.", both("5", null), { syntaxRule: "doc2/5/tls-sni-cert-key-syntax" }),
];

const concurrency = (name: string, value: string, rule: string) => option(name, "int32", rule, cm("8", value));

// §8 Limits. The concurrent-* options are the controller manager's (doc 2 does not say; only it has these controllers).
const limits = [
  option("orb-api-qps", "float", "Client rate to the API server.", { cm: at("8", "20"), sched: at("8", "50", { deprecated: "Deprecated in the scheduler.", ignoredWithConfig: true }) }),
  option("orb-api-burst", "int32", "Client burst to the API server.", { cm: at("8", "30"), sched: at("8", "100", { deprecated: "Deprecated in the scheduler.", ignoredWithConfig: true }) }),
  concurrency("concurrent-deployment-syncs", "5", "Concurrent deployment syncs."),
  concurrency("concurrent-endpoint-syncs", "5", "Concurrent endpoint syncs."),
  concurrency("concurrent-ephemeralvolume-syncs", "5", "Concurrent ephemeral volume syncs."),
  concurrency("concurrent-gc-syncs", "20", "Garbage collector workers."),
  concurrency("concurrent-namespace-syncs", "10", "Concurrent namespace syncs."),
  concurrency("concurrent-rc-syncs", "5", "Concurrent replication controller syncs."),
  concurrency("concurrent-replicaset-syncs", "5", "Concurrent replica set syncs."),
  concurrency("concurrent-resource-quota-syncs", "5", "Concurrent quota syncs."),
  concurrency("concurrent-service-endpoint-syncs", "5", "Concurrent service endpoint syncs."),
  concurrency("concurrent-service-syncs", "1", "Concurrent service syncs."),
  concurrency("concurrent-serviceaccount-token-syncs", "5", "Concurrent token syncs."),
  concurrency("concurrent-statefulset-syncs", "5", "Concurrent stateful set syncs."),
  concurrency("concurrent-ttl-after-finished-syncs", "5", "Concurrent TTL-after-finished workers."),
  concurrency("mirroring-concurrent-service-endpoint-syncs", "5", "Concurrent syncs of the slice mirroring controller."),
];

/** Every option of doc 2, in the document's order. */
export const daemonOptions: readonly DaemonOption[] = [
  ...common,
  ...leaderElection,
  ...schedulerOnly,
  ...controllerManagerOnly,
  ...endpoints,
  ...authentication,
  ...limits,
];

/** The options one daemon accepts, by long name. */
export function optionsOf(daemon: Daemon): ReadonlyMap<string, DaemonOption> {
  return new Map(daemonOptions.filter((entry) => entry.daemons[daemon] !== undefined).map((entry) => [entry.name, entry]));
}

/** The default text of `entry` for `daemon` in `dialect`, or null for doc 2's "none". */
export function defaultText(entry: DaemonOption, daemon: Daemon, dialect: DialectName): string | null {
  const value = entry.daemons[daemon]?.default ?? null;
  return value === null || typeof value === "string" ? value : value.byDialect[dialect];
}

/** The general and per-signer `--cluster-signing-*-file` options (doc 2 §2.4 exclusivity). */
export const clusterSigning = {
  general: ["cluster-signing-cert-file", "cluster-signing-key-file"],
  signers: [
    ["cluster-signing-orb-apiserver-client-cert-file", "cluster-signing-orb-apiserver-client-key-file"],
    ["cluster-signing-nodeagent-client-cert-file", "cluster-signing-nodeagent-client-key-file"],
    ["cluster-signing-nodeagent-serving-cert-file", "cluster-signing-nodeagent-serving-key-file"],
    ["cluster-signing-legacy-unknown-cert-file", "cluster-signing-legacy-unknown-key-file"],
  ],
} as const;
