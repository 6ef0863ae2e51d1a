/**
 * The rules of doc 2 over the daemons' options, each with a stable id, severity and clause.
 * Rules doc 2 leaves to Kubernetes ("not shown") say so and cite the Kubernetes behaviour.
 */
import { clauseOf, docRule, kubernetesRule, type ConfigRule, type DerivationRule } from "./config-rule.ts";

const LEADER_ELECTION_DURATIONS = ["leader-elect-lease-duration", "leader-elect-renew-deadline", "leader-elect-retry-period"];
const SIGNER_FILES = ["orb-apiserver-client", "nodeagent-client", "nodeagent-serving", "legacy-unknown"].flatMap((signer) => [`cluster-signing-${signer}-cert-file`, `cluster-signing-${signer}-key-file`]);
const SERVING = ["bind-address", "cert-dir", "tls-cert-file", "tls-private-key-file", "tls-cipher-suites", "tls-min-version", "tls-sni-cert-key", "http2-max-streams-per-connection"];

/** Every checked rule of doc 2. */
export const doc2Rules = [
  docRule("doc2/1/no-arguments", "error", [], "Both daemons are started as `<daemon> [flags]`: they take no positional arguments.", "cobra: `does not take any arguments`"),
  docRule("doc2/2/unknown-option", "error", [], "Only the options doc 2 lists for the daemon exist.", "pflag: `unknown flag: --x`"),
  docRule("doc2/2/option-value", "error", [], "A value parses as its option's type (bool, int, int32, float, duration, IP, list, map)."),
  kubernetesRule("doc2/2/option-needs-value", "error", [], "An option that is not boolean takes a value.", "pflag: `flag needs an argument`"),
  docRule("doc2/2.1/allow-metric-labels-syntax", "error", ["allow-metric-labels"], "Keys are `<MetricName>,<LabelName>`, values a comma list of allowed label values.", "component-base metrics: metric and label names must match [a-zA-Z_:][a-zA-Z0-9_:]* and [a-zA-Z_][a-zA-Z0-9_]*"),
  docRule("doc2/2.1/feature-gates-syntax", "error", ["feature-gates"], "A comma list of `key=True|False`.", "component-base featuregate: `missing bool value for X`; values are Go booleans"),
  docRule("doc2/2.1/vmodule-syntax", "error", ["vmodule"], "A comma list of `pattern=N` with N a non-negative integer.", "klog: `syntax error: expect comma-separated list of filename=N`"),
  docRule("doc2/2.1/logging-format", "error", ["logging-format"], "Permitted: text.", "Kubernetes 1.26 also accepts json; doc 2 permits only text"),
  docRule("doc2/2.1/show-hidden-metrics-for-version-format", "error", ["show-hidden-metrics-for-version"], "Format `<major>.<minor>`."),
  docRule("doc2/2.1/cert-dir-ignored", "warning", ["cert-dir", "tls-cert-file", "tls-private-key-file"], "--cert-dir is ignored when --tls-cert-file and --tls-private-key-file are given."),
  docRule("doc2/2.1/contention-profiling-needs-profiling", "warning", ["contention-profiling", "profiling"], "Contention profiling works only when profiling is enabled."),
  kubernetesRule("doc2/2.1/http2-max-streams-non-negative", "error", ["http2-max-streams-per-connection"], "--http2-max-streams-per-connection is not negative (0 means the runtime default).", "apiserver SecureServingOptions.Validate rejects a negative value"),
  docRule("doc2/2.2/leader-elect-resource-lock", "error", ["leader-elect-resource-lock"], "One of leases, endpointsleases, configmapsleases."),
  docRule("doc2/2.2/renew-deadline-le-lease-duration", "error", ["leader-elect-renew-deadline", "leader-elect-lease-duration"], "The renew deadline must be less than or equal to the lease duration."),
  kubernetesRule("doc2/2.2/lease-duration-gt-renew-deadline", "warning", ["leader-elect-lease-duration", "leader-elect-renew-deadline"], "Real clients need the lease duration strictly greater than the renew deadline.", "client-go leaderelection.NewLeaderElector: `leaseDuration must be greater than renewDeadline` (an error there; a warning here, since doc 2 allows equality)"),
  kubernetesRule("doc2/2.2/renew-deadline-gt-jittered-retry-period", "warning", ["leader-elect-renew-deadline", "leader-elect-retry-period"], "Real clients need the renew deadline greater than 1.2 × the retry period.", "client-go leaderelection.NewLeaderElector: `renewDeadline must be greater than retryPeriod*JitterFactor` (JitterFactor 1.2)"),
  kubernetesRule("doc2/2.2/leader-election-durations-positive", "error", LEADER_ELECTION_DURATIONS, "With leader election on, the lease duration, renew deadline and retry period are greater than zero.", "component-base ValidateLeaderElectionConfiguration and client-go: `must be greater than zero`"),
  kubernetesRule("doc2/2.2/leader-election-resource-required", "error", ["leader-elect-resource-name", "leader-elect-resource-namespace"], "With leader election on, the lock's name and namespace are not empty.", "component-base ValidateLeaderElectionConfiguration: `resourceName is required`, `resourceNamespace is required`"),
  docRule("doc2/2.2/leader-election-options-need-leader-elect", "warning", ["leader-elect", ...LEADER_ELECTION_DURATIONS, "leader-elect-resource-lock", "leader-elect-resource-name", "leader-elect-resource-namespace"], "The leader election options apply only when leader election is enabled."),
  docRule("doc2/2.3/ignored-with-config", "warning", ["config"], "With --config, the scheduler ignores its deprecated options (orbconfig, orb-api-content-type, lock-object-*, profiling, contention-profiling, orb-api-qps, orb-api-burst)."),
  docRule("doc2/2.3/deprecated-option", "warning", [], "A deprecated option still works but will be removed.", "pflag prints `Flag --x has been deprecated`"),
  docRule("doc2/2.4/cluster-signing-file-exclusivity", "error", ["cluster-signing-cert-file", "cluster-signing-key-file"], "If --cluster-signing-cert-file or --cluster-signing-key-file is set, no more specific --cluster-signing-* file option may be set."),
  kubernetesRule("doc2/2.4/cluster-signing-cert-key-pair", "error", SIGNER_FILES, "A signer's cert file and key file are given together or not at all.", "kube-controller-manager CSRSigningControllerOptions.Validate: `cannot specify key without cert or cert without key`"),
  docRule("doc2/2.4/cluster-cidr-needs-allocate-node-cidrs", "error", ["cluster-cidr", "allocate-node-cidrs"], "--cluster-cidr requires --allocate-node-cidrs.", "kube-controller-manager ignores the CIDR without --allocate-node-cidrs"),
  docRule("doc2/2.4/service-cluster-ip-range-needs-allocate-node-cidrs", "error", ["service-cluster-ip-range", "allocate-node-cidrs"], "--service-cluster-ip-range requires --allocate-node-cidrs.", "kube-controller-manager ignores the range without --allocate-node-cidrs"),
  kubernetesRule("doc2/2.4/cidr-syntax", "error", ["cluster-cidr", "service-cluster-ip-range", "volume-host-cidr-denylist"], "CIDR options hold CIDRs (a comma list of at most one IPv4 and one IPv6 CIDR for dual stack).", "kube-controller-manager nodeipam: net.ParseCIDR errors at start"),
  kubernetesRule("doc2/2.4/node-cidr-mask-size-single-stack", "error", ["node-cidr-mask-size", "cluster-cidr"], "--node-cidr-mask-size is for single-stack clusters; dual stack uses the -ipv4 and -ipv6 variants.", "kube-controller-manager nodeipam: `usage of --node-cidr-mask-size is not allowed with dual-stack clusters`"),
  docRule("doc2/2.4/controllers", "error", ["controllers"], "Each entry is `*` (all default-on controllers), `foo` (enable one) or `-foo` (disable one), naming a known controller.", "kube-controller-manager: `\"foo\" is not in the list of known controllers`"),
  docRule("doc2/2.4/attach-detach-reconcile-period-above-one-second", "error", ["attach-detach-reconcile-sync-period"], "--attach-detach-reconcile-sync-period must exceed one second.", "kube-controller-manager rejects only periods below one second (exactly 1s passes there)"),
  docRule("doc2/2.4/external-cloud-volume-plugin-needs-external", "warning", ["external-cloud-volume-plugin", "cloud-provider"], "--external-cloud-volume-plugin is used only when the cloud provider is external."),
  kubernetesRule("doc2/4/secure-port-range", "error", ["secure-port"], "--secure-port is 0 (HTTPS off) or a port, 1 to 65535.", "apiserver SecureServingOptions.Validate: `must be between 0 and 65535, inclusive. 0 for turning off secure port`"),
  docRule("doc2/4/secure-port-zero-disables-https", "warning", ["secure-port", ...SERVING], "With --secure-port 0 HTTPS is off, so serving options have no effect."),
  docRule("doc2/5/tls-min-version", "error", ["tls-min-version"], "One of VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13."),
  kubernetesRule("doc2/5/tls-cipher-suites", "error", ["tls-cipher-suites"], "Each cipher suite is a name Go's crypto/tls knows.", "cliflag.TLSCipherSuites: `Cipher suite X not supported or doesn't exist`"),
  kubernetesRule("doc2/5/tls-insecure-cipher", "warning", ["tls-cipher-suites"], "An insecure cipher suite is accepted but should not be used.", "apiserver logs `Use of insecure cipher 'X' detected.`"),
  kubernetesRule("doc2/5/tls13-cipher-suites-ignored", "warning", ["tls-cipher-suites", "tls-min-version"], "TLS 1.3 cipher suites are not configurable: with VersionTLS13, --tls-cipher-suites has no effect.", "Go's crypto/tls ignores CipherSuites for TLS 1.3"),
  kubernetesRule("doc2/5/tls-cert-key-pair", "error", ["tls-cert-file", "tls-private-key-file"], "--tls-cert-file and --tls-private-key-file are given together or not at all.", "apiserver: loading a serving pair with one file missing fails at start"),
  docRule("doc2/5/tls-sni-cert-key-syntax", "error", ["tls-sni-cert-key"], "`<cert-path>,<key-path>` with optional `:<domain-patterns>`."),
] as const satisfies readonly ConfigRule[];

/** The id of a doc 2 rule. */
export type Doc2RuleId = (typeof doc2Rules)[number]["id"];

/** The rules of doc 2 that compute effective values rather than reject any. */
export const doc2Derivations: readonly DerivationRule[] = [
  { id: "doc2/2/defaults", clause: clauseOf("doc2/2/defaults"), origin: "doc", fields: [], rule: "An option not given takes its default for the daemon; doc 2's \"none\" is the type's zero value." },
  { id: "doc2/2.3/lock-object-fallback", clause: clauseOf("doc2/2.3/lock-object-fallback"), origin: "kubernetes", fields: ["lock-object-name", "lock-object-namespace"], rule: "Without --config, a given --lock-object-name or --lock-object-namespace stands in for the --leader-elect-resource-* option that is not given.", kubernetes: "kube-scheduler applied the deprecated lock-object flags to the leader election config" },
  { id: "doc2/2.4/controllers-star", clause: clauseOf("doc2/2.4/controllers-star"), origin: "doc", fields: ["controllers"], rule: "`*` enables every default-on controller; `foo` adds one; `-foo` removes one." },
  { id: "doc2/2.4/secondary-eviction-rate-small-cluster", clause: clauseOf("doc2/2.4/secondary-eviction-rate-small-cluster"), origin: "doc", fields: ["large-cluster-size-threshold", "secondary-node-eviction-rate"], rule: "At or below --large-cluster-size-threshold nodes, --secondary-node-eviction-rate is implicitly 0." },
  { id: "doc2/2.4/terminated-pod-gc-disabled", clause: clauseOf("doc2/2.4/terminated-pod-gc-disabled"), origin: "doc", fields: ["terminated-pod-gc-threshold"], rule: "A --terminated-pod-gc-threshold of 0 or less disables the terminated pod collector." },
  { id: "doc2/4/secure-port-zero", clause: clauseOf("doc2/4/secure-port-zero"), origin: "doc", fields: ["secure-port"], rule: "--secure-port 0 turns HTTPS off." },
];
