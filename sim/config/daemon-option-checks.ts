/**
 * One check per rule of doc 2 (spec/doc2/rules.ts) over a daemon's typed, defaulted options. The
 * table is keyed by rule id and must cover every rule: the rules reported while the command line
 * is read are marked "while-parsing".
 */
import { knownControllers } from "../../spec/doc2/controllers.ts";
import { clusterSigning, optionsOf } from "../../spec/doc2/daemon-options.ts";
import { doc2Rules, type Doc2RuleId } from "../../spec/doc2/rules.ts";
import type { DaemonOptions } from "./daemon-options.ts";
import { controllerKnown, parseControllersList } from "./controllers.ts";
import { closestName } from "./did-you-mean.ts";
import { finding, type Finding } from "./finding.ts";
import { formatGoDuration, SECOND_NS } from "./go-duration.ts";
import { parseCidr, parseCidrList } from "./network-syntax.ts";
import { printOptionValue } from "./option-values.ts";
import { cipherSuiteKind, KNOWN_CIPHER_SUITES, TLS_VERSIONS } from "./tls-options.ts";

type Check = (options: DaemonOptions) => Finding[];

const severityOf = new Map<string, "error" | "warning">(doc2Rules.map((rule) => [rule.id, rule.severity]));

// A finding about option `name`, its value as Go prints it.
function fail(ruleId: Doc2RuleId, options: DaemonOptions, name: string, message: string): Finding {
  return finding(severityOf.get(ruleId)!, ruleId, `--${name}`, printOptionValue(options.value(name)), message);
}

const go = formatGoDuration;
const METRIC_LABEL_KEY = /^[a-zA-Z_:][a-zA-Z0-9_:]*,[a-zA-Z_][a-zA-Z0-9_]*$/;
const LEADER_ELECTION_OPTIONS = [
  "leader-elect-lease-duration",
  "leader-elect-renew-deadline",
  "leader-elect-retry-period",
  "leader-elect-resource-lock",
  "leader-elect-resource-name",
  "leader-elect-resource-namespace",
];
const SERVING_OPTIONS = ["cert-dir", "tls-cert-file", "tls-private-key-file", "tls-cipher-suites", "tls-min-version", "tls-sni-cert-key", "http2-max-streams-per-connection"];

function leaderElecting(options: DaemonOptions): boolean {
  return options.bool("leader-elect");
}

// The leader election durations, when all three are positive (the client rules need that).
function positiveLeaderDurations(options: DaemonOptions): { lease: bigint; renew: bigint; retry: bigint } | undefined {
  const lease = options.duration("leader-elect-lease-duration");
  const renew = options.duration("leader-elect-renew-deadline");
  const retry = options.duration("leader-elect-retry-period");
  return lease > 0n && renew > 0n && retry > 0n ? { lease, renew, retry } : undefined;
}

function nonEmpty(options: DaemonOptions, name: string): boolean {
  return options.string(name) !== "";
}

/** The check of every doc 2 rule, by id. */
export const doc2Checks: Record<Doc2RuleId, Check | "while-parsing"> = {
  "doc2/1/no-arguments": "while-parsing",
  "doc2/2/unknown-option": "while-parsing",
  "doc2/2/option-value": "while-parsing",
  "doc2/2/option-needs-value": "while-parsing",
  "doc2/2.1/feature-gates-syntax": "while-parsing",
  "doc2/2.1/vmodule-syntax": "while-parsing",
  "doc2/5/tls-sni-cert-key-syntax": "while-parsing",
  "doc2/2.1/allow-metric-labels-syntax": (options) => {
    const labels = options.value("allow-metric-labels");
    if (labels.type !== "stringToString") return [];
    return [...labels.value.keys()]
      .filter((key) => !METRIC_LABEL_KEY.test(key))
      .map((key) => fail("doc2/2.1/allow-metric-labels-syntax", options, "allow-metric-labels", `key ${JSON.stringify(key)} is not <MetricName>,<LabelName>`));
  },
  "doc2/2.1/logging-format": (options) =>
    options.string("logging-format") === "text" ? [] : [fail("doc2/2.1/logging-format", options, "logging-format", "the only permitted logging format is text")],
  "doc2/2.1/show-hidden-metrics-for-version-format": (options) => {
    const version = options.string("show-hidden-metrics-for-version");
    return version === "" || /^[0-9]+\.[0-9]+$/.test(version)
      ? []
      : [fail("doc2/2.1/show-hidden-metrics-for-version-format", options, "show-hidden-metrics-for-version", "the format is <major>.<minor>, e.g. 1.25")];
  },
  "doc2/2.1/cert-dir-ignored": (options) =>
    options.isExplicit("cert-dir") && nonEmpty(options, "tls-cert-file") && nonEmpty(options, "tls-private-key-file")
      ? [fail("doc2/2.1/cert-dir-ignored", options, "cert-dir", "ignored: --tls-cert-file and --tls-private-key-file are given")]
      : [],
  "doc2/2.1/contention-profiling-needs-profiling": (options) =>
    options.isExplicit("contention-profiling") && options.bool("contention-profiling") && !options.bool("profiling")
      ? [fail("doc2/2.1/contention-profiling-needs-profiling", options, "contention-profiling", "has no effect: --profiling is false")]
      : [],
  "doc2/2.1/http2-max-streams-non-negative": (options) =>
    options.number("http2-max-streams-per-connection") < 0
      ? [fail("doc2/2.1/http2-max-streams-non-negative", options, "http2-max-streams-per-connection", "must not be negative (0 means the runtime default)")]
      : [],
  "doc2/2.2/leader-elect-resource-lock": (options) =>
    leaderElecting(options) && !["leases", "endpointsleases", "configmapsleases"].includes(options.string("leader-elect-resource-lock"))
      ? [fail("doc2/2.2/leader-elect-resource-lock", options, "leader-elect-resource-lock", "must be one of leases, endpointsleases, configmapsleases")]
      : [],
  "doc2/2.2/renew-deadline-le-lease-duration": (options) => {
    const durations = positiveLeaderDurations(options);
    if (!leaderElecting(options) || durations === undefined || durations.renew <= durations.lease) return [];
    return [fail("doc2/2.2/renew-deadline-le-lease-duration", options, "leader-elect-renew-deadline", `renew deadline ${go(durations.renew)} exceeds the lease duration ${go(durations.lease)}; it must be less than or equal to it`)];
  },
  "doc2/2.2/lease-duration-gt-renew-deadline": (options) => {
    const durations = positiveLeaderDurations(options);
    if (!leaderElecting(options) || durations === undefined || durations.renew !== durations.lease) return [];
    return [fail("doc2/2.2/lease-duration-gt-renew-deadline", options, "leader-elect-lease-duration", `lease duration ${go(durations.lease)} equals the renew deadline; doc 2 allows it, but real clients refuse to start (leaseDuration must be greater than renewDeadline)`)];
  },
  "doc2/2.2/renew-deadline-gt-jittered-retry-period": (options) => {
    const durations = positiveLeaderDurations(options);
    // client-go compares against time.Duration(1.2 * float64(retryPeriod)); 5·renew ≤ 6·retry is the same test, exactly.
    if (!leaderElecting(options) || durations === undefined || durations.renew * 5n > durations.retry * 6n) return [];
    return [fail("doc2/2.2/renew-deadline-gt-jittered-retry-period", options, "leader-elect-renew-deadline", `renew deadline ${go(durations.renew)} is not greater than 1.2 × the retry period ${go(durations.retry)}; real clients refuse to start`)];
  },
  "doc2/2.2/leader-election-durations-positive": (options) =>
    !leaderElecting(options)
      ? []
      : ["leader-elect-lease-duration", "leader-elect-renew-deadline", "leader-elect-retry-period"]
          .filter((name) => options.duration(name) <= 0n)
          .map((name) => fail("doc2/2.2/leader-election-durations-positive", options, name, "must be greater than zero")),
  "doc2/2.2/leader-election-resource-required": (options) =>
    !leaderElecting(options)
      ? []
      : ["leader-elect-resource-name", "leader-elect-resource-namespace"]
          .filter((name) => options.string(name) === "")
          .map((name) => fail("doc2/2.2/leader-election-resource-required", options, name, "the lock object needs a name and a namespace")),
  "doc2/2.2/leader-election-options-need-leader-elect": (options) =>
    leaderElecting(options)
      ? []
      : LEADER_ELECTION_OPTIONS.filter((name) => options.isExplicit(name)).map((name) =>
          fail("doc2/2.2/leader-election-options-need-leader-elect", options, name, "has no effect: leader election is disabled (--leader-elect=false)"),
        ),
  "doc2/2.3/ignored-with-config": (options) =>
    ignoredWithConfig(options).map((name) => fail("doc2/2.3/ignored-with-config", options, name, "deprecated, and ignored because --config is given")),
  "doc2/2.3/deprecated-option": (options) => {
    const ignored = new Set(ignoredWithConfig(options));
    const settings = optionsOf(options.daemon);
    return options
      .explicitNames()
      .filter((name) => !ignored.has(name) && settings.get(name)?.daemons[options.daemon]?.deprecated !== undefined)
      .map((name) => fail("doc2/2.3/deprecated-option", options, name, settings.get(name)!.daemons[options.daemon]!.deprecated!));
  },
  "doc2/2.4/cluster-signing-file-exclusivity": (options) => {
    if (!clusterSigning.general.some((name) => nonEmpty(options, name))) return [];
    const specific = clusterSigning.signers.flat().filter((name) => nonEmpty(options, name));
    return specific.map((name) =>
      fail("doc2/2.4/cluster-signing-file-exclusivity", options, name, "cannot be set together with --cluster-signing-cert-file or --cluster-signing-key-file"),
    );
  },
  "doc2/2.4/cluster-signing-cert-key-pair": (options) =>
    clusterSigning.signers
      .filter(([cert, key]) => nonEmpty(options, cert) !== nonEmpty(options, key))
      .map(([cert, key]) => {
        const [given, missing] = nonEmpty(options, cert) ? [cert, key] : [key, cert];
        return fail("doc2/2.4/cluster-signing-cert-key-pair", options, given, `needs --${missing} too: a signer's cert and key are given together`);
      }),
  "doc2/2.4/cluster-cidr-needs-allocate-node-cidrs": (options) => needsAllocateNodeCidrs(options, "cluster-cidr", "doc2/2.4/cluster-cidr-needs-allocate-node-cidrs"),
  "doc2/2.4/service-cluster-ip-range-needs-allocate-node-cidrs": (options) =>
    needsAllocateNodeCidrs(options, "service-cluster-ip-range", "doc2/2.4/service-cluster-ip-range-needs-allocate-node-cidrs"),
  "doc2/2.4/cidr-syntax": (options) => {
    const findings: Finding[] = [];
    for (const name of ["cluster-cidr", "service-cluster-ip-range"]) {
      const parsed = nonEmpty(options, name) ? parseCidrList(options.string(name)) : { cidrs: [] };
      if ("error" in parsed) findings.push(fail("doc2/2.4/cidr-syntax", options, name, parsed.error));
    }
    for (const entry of options.strings("volume-host-cidr-denylist")) {
      if (parseCidr(entry.trim()) === undefined) findings.push(fail("doc2/2.4/cidr-syntax", options, "volume-host-cidr-denylist", `${JSON.stringify(entry)} is not a CIDR`));
    }
    return findings;
  },
  "doc2/2.4/node-cidr-mask-size-single-stack": (options) => {
    if (!options.isExplicit("node-cidr-mask-size") || !nonEmpty(options, "cluster-cidr")) return [];
    const parsed = parseCidrList(options.string("cluster-cidr"));
    return "cidrs" in parsed && parsed.cidrs.length === 2
      ? [fail("doc2/2.4/node-cidr-mask-size-single-stack", options, "node-cidr-mask-size", "not allowed with a dual-stack --cluster-cidr; use --node-cidr-mask-size-ipv4 and --node-cidr-mask-size-ipv6")]
      : [];
  },
  "doc2/2.4/controllers": (options) =>
    parseControllersList(options.strings("controllers")).flatMap((entry) => {
      if (entry.kind === "invalid") return [fail("doc2/2.4/controllers", options, "controllers", `${JSON.stringify(entry.text)} is not *, a controller name, or -name`)];
      if (entry.kind === "all" || controllerKnown(entry.name)) return [];
      return [fail("doc2/2.4/controllers", options, "controllers", `${JSON.stringify(entry.name)} is not in the list of known controllers${controllerHint(entry.name)}`)];
    }),
  "doc2/2.4/attach-detach-reconcile-period-above-one-second": (options) =>
    options.duration("attach-detach-reconcile-sync-period") <= SECOND_NS
      ? [fail("doc2/2.4/attach-detach-reconcile-period-above-one-second", options, "attach-detach-reconcile-sync-period", "must exceed one second")]
      : [],
  "doc2/2.4/external-cloud-volume-plugin-needs-external": (options) =>
    nonEmpty(options, "external-cloud-volume-plugin") && options.string("cloud-provider") !== "external"
      ? [fail("doc2/2.4/external-cloud-volume-plugin-needs-external", options, "external-cloud-volume-plugin", `used only when --cloud-provider is external, not ${JSON.stringify(options.string("cloud-provider"))}`)]
      : [],
  "doc2/4/secure-port-range": (options) => {
    const port = options.number("secure-port");
    return port < 0 || port > 65535 ? [fail("doc2/4/secure-port-range", options, "secure-port", "must be between 0 and 65535, inclusive (0 turns HTTPS off)")] : [];
  },
  "doc2/4/secure-port-zero-disables-https": (options) =>
    options.number("secure-port") !== 0
      ? []
      : SERVING_OPTIONS.filter((name) => options.isExplicit(name)).map((name) =>
          fail("doc2/4/secure-port-zero-disables-https", options, name, "has no effect: --secure-port 0 turns HTTPS off"),
        ),
  "doc2/5/tls-min-version": (options) => {
    const version = options.string("tls-min-version");
    if (version === "" || (TLS_VERSIONS as readonly string[]).includes(version)) return [];
    const close = closestName(version, TLS_VERSIONS);
    return [fail("doc2/5/tls-min-version", options, "tls-min-version", `must be one of ${TLS_VERSIONS.join(", ")}${close === undefined ? "" : ` (did you mean ${close}?)`}`)];
  },
  "doc2/5/tls-cipher-suites": (options) =>
    options
      .strings("tls-cipher-suites")
      .filter((name) => cipherSuiteKind(name) === "unknown")
      .map((name) => {
        const close = closestName(name, KNOWN_CIPHER_SUITES);
        return fail("doc2/5/tls-cipher-suites", options, "tls-cipher-suites", `cipher suite ${name} not supported or doesn't exist${close === undefined ? "" : ` (did you mean ${close}?)`}`);
      }),
  "doc2/5/tls-insecure-cipher": (options) =>
    options
      .strings("tls-cipher-suites")
      .filter((name) => cipherSuiteKind(name) === "insecure")
      .map((name) => fail("doc2/5/tls-insecure-cipher", options, "tls-cipher-suites", `use of insecure cipher ${name}`)),
  "doc2/5/tls13-cipher-suites-ignored": (options) =>
    options.string("tls-min-version") === "VersionTLS13" && options.strings("tls-cipher-suites").length > 0
      ? [fail("doc2/5/tls13-cipher-suites-ignored", options, "tls-cipher-suites", "has no effect: TLS 1.3 cipher suites are not configurable")]
      : [],
  "doc2/5/tls-cert-key-pair": (options) => {
    if (nonEmpty(options, "tls-cert-file") === nonEmpty(options, "tls-private-key-file")) return [];
    const [given, missing] = nonEmpty(options, "tls-cert-file") ? ["tls-cert-file", "tls-private-key-file"] : ["tls-private-key-file", "tls-cert-file"];
    return [fail("doc2/5/tls-cert-key-pair", options, given, `needs --${missing} too`)];
  },
};

// The scheduler's options that --config makes it ignore, among those given (doc 2 §2.3).
function ignoredWithConfig(options: DaemonOptions): string[] {
  if (options.daemon !== "scheduler" || !options.isExplicit("config") || options.string("config") === "") return [];
  const settings = optionsOf("scheduler");
  return options.explicitNames().filter((name) => settings.get(name)?.daemons.scheduler?.ignoredWithConfig === true);
}

function needsAllocateNodeCidrs(options: DaemonOptions, name: string, ruleId: Doc2RuleId): Finding[] {
  return nonEmpty(options, name) && !options.bool("allocate-node-cidrs")
    ? [fail(ruleId, options, name, "requires --allocate-node-cidrs")]
    : [];
}

function controllerHint(name: string): string {
  const close = closestName(name, knownControllerNames());
  return close === undefined ? "" : ` (did you mean ${close}?)`;
}

function knownControllerNames(): string[] {
  return knownControllers.map((controller) => controller.name);
}

/** Runs every check of doc 2 over `options` (daemon options of one daemon that exist for it). */
export function checkDaemonOptions(options: DaemonOptions): Finding[] {
  const own = optionsOf(options.daemon);
  const findings: Finding[] = [];
  for (const rule of doc2Rules) {
    const check = doc2Checks[rule.id];
    if (check === "while-parsing" || check === undefined) continue;
    // A rule about options the daemon does not have (the controller manager's CIDRs in the scheduler) does not apply.
    if (rule.fields.length > 0 && !rule.fields.every((field) => own.has(field))) continue;
    findings.push(...check(options));
  }
  return findings;
}
