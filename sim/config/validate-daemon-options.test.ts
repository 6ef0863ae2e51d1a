import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { optionsOf, type Daemon, type OptionType } from "../../spec/doc2/daemon-options.ts";
import { doc2Rules, type Doc2RuleId } from "../../spec/doc2/rules.ts";
import { SECURE_CIPHER_SUITES } from "../../spec/doc2/tls-names.ts";
import { enabledControllers } from "./controllers.ts";
import { doc2Checks } from "./daemon-option-checks.ts";
import { formatFinding } from "./finding.ts";
import { formatGoDuration } from "./go-duration.ts";
import { validateDaemonOptions } from "./validate-daemon-options.ts";

const ids = (args: readonly string[], daemon: Daemon = "controller-manager") => validateDaemonOptions(daemon, args).findings.map((entry) => entry.ruleId);

describe("validateDaemonOptions: examples", () => {
  it("reports a renew deadline above the lease duration, naming option, value and rule", () => {
    const validation = validateDaemonOptions("controller-manager", ["--leader-elect-renew-deadline=20s"]);
    expect(validation.valid).toBe(false);
    expect(validation.findings).toEqual([
      expect.objectContaining({ path: "--leader-elect-renew-deadline", value: "20s", ruleId: "doc2/2.2/renew-deadline-le-lease-duration", severity: "error" }),
    ]);
    expect(formatFinding(validation.findings[0]!)).toContain("20s exceeds the lease duration 15s");
  });

  it("accepts the defaults of both daemons with no finding", () => {
    expect(validateDaemonOptions("controller-manager", []).findings).toEqual([]);
    expect(validateDaemonOptions("scheduler", []).findings).toEqual([]);
    expect(validateDaemonOptions("scheduler", [], "kubernetes").options.string("leader-elect-resource-namespace")).toBe("kube-system");
  });

  it("names an unknown flag with a did-you-mean, or the daemon it belongs to", () => {
    const findings = validateDaemonOptions("controller-manager", ["--leader-elect-lease-duraton=20s", "--config=x"]).findings;
    expect(findings.map((entry) => entry.message)).toEqual([
      "unknown flag --leader-elect-lease-duraton (did you mean --leader-elect-lease-duration?)",
      "unknown flag --config (a scheduler option, not a controller-manager one)",
    ]);
    expect(findings.map((entry) => entry.value)).toEqual(["20s", "x"]);
  });

  it("reports every problem at once", () => {
    const found = ids(["stray", "--node-monitor-period=soon", "--secure-port=70000", "--controllers=*,nodelifecycl", "--attach-detach-reconcile-sync-period=500ms", "--log-flush-frequency"]);
    expect(found.sort()).toEqual(
      [
        "doc2/1/no-arguments",
        "doc2/2/option-value",
        "doc2/4/secure-port-range",
        "doc2/2.4/controllers",
        "doc2/2.4/attach-detach-reconcile-period-above-one-second",
        "doc2/2/option-needs-value",
      ].sort(),
    );
  });

  it("takes the last value of a repeated scalar flag and every value of a repeated list", () => {
    const options = validateDaemonOptions("controller-manager", ["-v", "2", "--v=4", "--controllers=*", "--controllers=-route,bootstrapsigner"]).options;
    expect(options.number("v")).toBe(4);
    expect(options.strings("controllers")).toEqual(["*", "-route", "bootstrapsigner"]);
    const enabled = enabledControllers(options.strings("controllers"));
    expect(enabled).toContain("bootstrapsigner");
    expect(enabled).not.toContain("route");
    expect(enabled).not.toContain("tokencleaner");
  });

  it("lets the scheduler's deprecated --lock-object-name stand in for --leader-elect-resource-name, unless --config is given", () => {
    expect(validateDaemonOptions("scheduler", ["--lock-object-name=s1"]).options.string("leader-elect-resource-name")).toBe("s1");
    expect(validateDaemonOptions("scheduler", ["--lock-object-name=s1", "--leader-elect-resource-name=s2"]).options.string("leader-elect-resource-name")).toBe("s2");
    expect(validateDaemonOptions("scheduler", ["--config=c", "--lock-object-name=s1"]).options.string("leader-elect-resource-name")).toBe("orb-scheduler");
  });

  it("separates the doc's rule (error) from the stricter client rule (warning) at equality", () => {
    const equal = validateDaemonOptions("scheduler", ["--leader-elect-lease-duration=10s", "--leader-elect-renew-deadline=10s"]);
    expect(equal.valid).toBe(true);
    expect(equal.findings.map((entry) => [entry.ruleId, entry.severity])).toEqual([["doc2/2.2/lease-duration-gt-renew-deadline", "warning"]]);
  });

  it("checks no leader election option when leader election is off, but warns that they do nothing", () => {
    expect(ids(["--leader-elect=false", "--leader-elect-renew-deadline=1m"])).toEqual(["doc2/2.2/leader-election-options-need-leader-elect"]);
  });

  it("reads --secure-port 0 as HTTPS off", () => {
    expect(ids(["--secure-port", "0"])).toEqual([]);
    expect(ids(["--secure-port=0", "--tls-cert-file=/a", "--tls-private-key-file=/b"], "scheduler")).toEqual([
      "doc2/4/secure-port-zero-disables-https",
      "doc2/4/secure-port-zero-disables-https",
    ]);
  });
});

// A valid value for an option of no special rule, written as pflag reads it.
const token = fc.stringMatching(/^[a-z0-9/._-]{1,12}$/);

function plainValue(type: OptionType): fc.Arbitrary<string> | undefined {
  switch (type) {
    case "string":
      return token;
    case "strings":
      return fc.array(token, { minLength: 1, maxLength: 3 }).map((items) => items.join(","));
    case "int":
    case "int32":
    case "level":
      return fc.nat({ max: 1000 }).map(String);
    case "float":
      return fc.double({ min: 0, max: 10, noNaN: true }).map(String);
    case "duration":
      return fc.oneof(
        fc.bigInt({ min: 0n, max: 48n * 3600n * 1_000_000_000n }).map(formatGoDuration),
        fc.nat({ max: 100_000 }).map((ms) => `${ms}ms`),
      );
    default:
      return undefined;
  }
}

// Options the generic generator leaves alone: they have rules, and get their own generators below.
const SPECIAL = new Set([
  "help", "version", "config", "bind-address", "cert-dir", "feature-gates", "vmodule", "allow-metric-labels", "logging-format",
  "show-hidden-metrics-for-version", "http2-max-streams-per-connection", "profiling", "contention-profiling", "secure-port",
  "leader-elect", "leader-elect-lease-duration", "leader-elect-renew-deadline", "leader-elect-retry-period", "leader-elect-resource-lock",
  "leader-elect-resource-name", "leader-elect-resource-namespace", "allocate-node-cidrs", "cluster-cidr", "service-cluster-ip-range",
  "node-cidr-mask-size", "controllers", "attach-detach-reconcile-sync-period", "cloud-provider", "external-cloud-volume-plugin",
  "volume-host-cidr-denylist", "tls-cert-file", "tls-private-key-file", "tls-cipher-suites", "tls-min-version", "tls-sni-cert-key",
]);

const flag = (name: string, value: string) => fc.constantFrom(`--${name}=${value}`, `--${name} ${value}`).map((text) => text.split(" "));
const maybe = (arb: fc.Arbitrary<string[]>) => fc.option(arb, { nil: [] as string[] });

const leaderElection = fc
  .record({ retryMs: fc.integer({ min: 100, max: 2000 }), renewExtra: fc.integer({ min: 1, max: 20_000 }), leaseExtra: fc.integer({ min: 1, max: 20_000 }), lock: fc.constantFrom("leases", "endpointsleases", "configmapsleases") })
  .map(({ retryMs, renewExtra, leaseExtra, lock }) => {
    const renewMs = Math.ceil(retryMs * 1.2) + renewExtra;
    return ["--leader-elect", `--leader-elect-retry-period=${retryMs}ms`, `--leader-elect-renew-deadline=${renewMs}ms`, `--leader-elect-lease-duration=${renewMs + leaseExtra}ms`, `--leader-elect-resource-lock=${lock}`];
  });

const serving = fc
  .record({
    port: fc.integer({ min: 1, max: 65535 }),
    bind: fc.constantFrom("0.0.0.0", "::", "127.0.0.1", "10.1.2.3"),
    pair: fc.boolean(),
    ciphers: fc.subarray([...SECURE_CIPHER_SUITES], { maxLength: 3 }),
    sni: fc.array(fc.constantFrom("a.crt,a.key", "b.crt,b.key:*.example.io,example.io"), { maxLength: 2 }),
  })
  .map(({ port, bind, pair, ciphers, sni }) => [
    `--secure-port=${port}`,
    `--bind-address=${bind}`,
    `--tls-min-version=VersionTLS12`,
    ...(pair ? ["--tls-cert-file=/etc/s.crt", "--tls-private-key-file=/etc/s.key"] : ["--cert-dir=/var/certs"]),
    ...(ciphers.length > 0 ? [`--tls-cipher-suites=${ciphers.join(",")}`] : []),
    ...sni.map((value) => `--tls-sni-cert-key=${value}`),
  ]);

const common = fc.tuple(
  maybe(serving),
  maybe(leaderElection),
  maybe(fc.constant(["--feature-gates=A=true,B=false", "--vmodule=foo=2", "--allow-metric-labels=metric_a,label_b=x,y", "--logging-format=text", "--show-hidden-metrics-for-version=1.25", "--http2-max-streams-per-connection=100"])),
);

const controllerManagerOnly = fc.tuple(
  maybe(fc.constantFrom(["--allocate-node-cidrs", "--cluster-cidr=10.0.0.0/16", "--service-cluster-ip-range=10.96.0.0/12", "--node-cidr-mask-size=24"], ["--allocate-node-cidrs=true", "--cluster-cidr=10.0.0.0/16,fd00::/48"])),
  maybe(fc.constantFrom(["--cluster-signing-cert-file=/ca.crt", "--cluster-signing-key-file=/ca.key"], ["--cluster-signing-nodeagent-serving-cert-file=/s.crt", "--cluster-signing-nodeagent-serving-key-file=/s.key"])),
  maybe(fc.subarray(["*", "-route", "bootstrapsigner", "nodelifecycle"], { minLength: 1 }).map((entries) => [`--controllers=${entries.join(",")}`])),
  maybe(fc.integer({ min: 1001, max: 600_000 }).map((ms) => [`--attach-detach-reconcile-sync-period=${ms}ms`])),
  maybe(fc.constant(["--cloud-provider=external", "--external-cloud-volume-plugin=gce"])),
  maybe(fc.constant(["--volume-host-cidr-denylist=10.0.0.0/8,fd00::/8"])),
);

const validArgsCache = new Map<Daemon, fc.Arbitrary<string[]>>();

// Any valid command line of `daemon`: each plain option maybe given, the rule-bearing ones consistently.
function validArgs(daemon: Daemon): fc.Arbitrary<string[]> {
  const cached = validArgsCache.get(daemon);
  if (cached !== undefined) return cached;
  const built = buildValidArgs(daemon);
  validArgsCache.set(daemon, built);
  return built;
}

function buildValidArgs(daemon: Daemon): fc.Arbitrary<string[]> {
  const plain = [...optionsOf(daemon)]
    .filter(([name, entry]) => !SPECIAL.has(name) && !/^cluster-signing-.*-file$/.test(name) && entry.daemons[daemon]?.deprecated === undefined)
    .flatMap(([name, entry]) => {
      if (entry.type === "bool") return [maybe(fc.constantFrom([`--${name}`], [`--${name}=false`], [`--${name}=true`]))];
      const value = plainValue(entry.type);
      return value === undefined ? [] : [maybe(value.chain((text) => flag(name, text)))];
    });
  const own = daemon === "controller-manager" ? controllerManagerOnly : fc.constant([] as string[][]);
  return fc.tuple(fc.tuple(...plain), common, own).map(([a, b, c]) => [...a.flat(), ...b.flat(), ...(c as string[][]).flat()]);
}

const LEADER = (lease: string, renew: string, retry: string) => ["--leader-elect=true", `--leader-elect-lease-duration=${lease}`, `--leader-elect-renew-deadline=${renew}`, `--leader-elect-retry-period=${retry}`];

// For each rule: the daemons it applies to and flags that, appended to a valid command line, break it and nothing else.
const breakers: Record<Doc2RuleId, { readonly daemons: readonly Daemon[]; readonly args: readonly string[] }> = {
  "doc2/1/no-arguments": { daemons: ["controller-manager", "scheduler"], args: ["stray"] },
  "doc2/2/unknown-option": { daemons: ["controller-manager", "scheduler"], args: ["--no-such-option=1"] },
  "doc2/2/option-value": { daemons: ["controller-manager", "scheduler"], args: ["--log-flush-frequency=soon"] },
  "doc2/2/option-needs-value": { daemons: ["controller-manager", "scheduler"], args: ["--log-flush-frequency"] },
  "doc2/2.1/allow-metric-labels-syntax": { daemons: ["controller-manager", "scheduler"], args: ["--allow-metric-labels=nolabel=x"] },
  "doc2/2.1/feature-gates-syntax": { daemons: ["controller-manager", "scheduler"], args: ["--feature-gates=A"] },
  "doc2/2.1/vmodule-syntax": { daemons: ["controller-manager", "scheduler"], args: ["--vmodule=foo"] },
  "doc2/2.1/logging-format": { daemons: ["controller-manager", "scheduler"], args: ["--logging-format=json"] },
  "doc2/2.1/show-hidden-metrics-for-version-format": { daemons: ["controller-manager", "scheduler"], args: ["--show-hidden-metrics-for-version=1"] },
  "doc2/2.1/cert-dir-ignored": { daemons: ["controller-manager", "scheduler"], args: ["--cert-dir=/c", "--tls-cert-file=/a.crt", "--tls-private-key-file=/a.key"] },
  "doc2/2.1/contention-profiling-needs-profiling": { daemons: ["controller-manager"], args: ["--profiling=false", "--contention-profiling"] },
  "doc2/2.1/http2-max-streams-non-negative": { daemons: ["controller-manager", "scheduler"], args: ["--http2-max-streams-per-connection=-1"] },
  "doc2/2.2/leader-elect-resource-lock": { daemons: ["controller-manager", "scheduler"], args: ["--leader-elect", "--leader-elect-resource-lock=bogus"] },
  "doc2/2.2/renew-deadline-le-lease-duration": { daemons: ["controller-manager", "scheduler"], args: LEADER("10s", "20s", "1s") },
  "doc2/2.2/lease-duration-gt-renew-deadline": { daemons: ["controller-manager", "scheduler"], args: LEADER("10s", "10s", "1s") },
  "doc2/2.2/renew-deadline-gt-jittered-retry-period": { daemons: ["controller-manager", "scheduler"], args: LEADER("20s", "10s", "9s") },
  "doc2/2.2/leader-election-durations-positive": { daemons: ["controller-manager", "scheduler"], args: LEADER("15s", "10s", "0s") },
  "doc2/2.2/leader-election-resource-required": { daemons: ["controller-manager", "scheduler"], args: ["--leader-elect", "--leader-elect-resource-namespace="] },
  "doc2/2.2/leader-election-options-need-leader-elect": { daemons: ["controller-manager", "scheduler"], args: ["--leader-elect=false", "--leader-elect-retry-period=3s"] },
  "doc2/2.3/ignored-with-config": { daemons: ["scheduler"], args: ["--config=/etc/scheduler.yaml", "--lock-object-namespace=x"] },
  "doc2/2.3/deprecated-option": { daemons: ["scheduler"], args: ["--pod-max-in-unschedulable-pods-duration=1m"] },
  "doc2/2.4/cluster-signing-file-exclusivity": { daemons: ["controller-manager"], args: ["--cluster-signing-cert-file=/ca.crt", "--cluster-signing-legacy-unknown-cert-file=/l.crt", "--cluster-signing-legacy-unknown-key-file=/l.key"] },
  "doc2/2.4/cluster-signing-cert-key-pair": { daemons: ["controller-manager"], args: ["--cluster-signing-cert-file=", "--cluster-signing-key-file=", "--cluster-signing-legacy-unknown-cert-file=/l.crt", "--cluster-signing-legacy-unknown-key-file="] },
  "doc2/2.4/cluster-cidr-needs-allocate-node-cidrs": { daemons: ["controller-manager"], args: ["--allocate-node-cidrs=false", "--service-cluster-ip-range=", "--cluster-cidr=10.0.0.0/16"] },
  "doc2/2.4/service-cluster-ip-range-needs-allocate-node-cidrs": { daemons: ["controller-manager"], args: ["--allocate-node-cidrs=false", "--cluster-cidr=", "--service-cluster-ip-range=10.96.0.0/12"] },
  "doc2/2.4/cidr-syntax": { daemons: ["controller-manager"], args: ["--allocate-node-cidrs", "--cluster-cidr=10.0.0.0/33"] },
  "doc2/2.4/node-cidr-mask-size-single-stack": { daemons: ["controller-manager"], args: ["--allocate-node-cidrs", "--cluster-cidr=10.0.0.0/16,fd00::/48", "--node-cidr-mask-size=24"] },
  "doc2/2.4/controllers": { daemons: ["controller-manager"], args: ["--controllers=nodelifecycl"] },
  "doc2/2.4/attach-detach-reconcile-period-above-one-second": { daemons: ["controller-manager"], args: ["--attach-detach-reconcile-sync-period=1s"] },
  "doc2/2.4/external-cloud-volume-plugin-needs-external": { daemons: ["controller-manager"], args: ["--cloud-provider=gce", "--external-cloud-volume-plugin=x"] },
  "doc2/4/secure-port-range": { daemons: ["controller-manager", "scheduler"], args: ["--secure-port=65536"] },
  "doc2/4/secure-port-zero-disables-https": { daemons: ["controller-manager", "scheduler"], args: ["--secure-port=0", "--tls-min-version=VersionTLS12"] },
  "doc2/5/tls-min-version": { daemons: ["controller-manager", "scheduler"], args: ["--tls-min-version=TLS12"] },
  "doc2/5/tls-cipher-suites": { daemons: ["controller-manager", "scheduler"], args: ["--tls-cipher-suites=TLS_BOGUS"] },
  "doc2/5/tls-insecure-cipher": { daemons: ["controller-manager", "scheduler"], args: ["--tls-cipher-suites=TLS_RSA_WITH_RC4_128_SHA"] },
  "doc2/5/tls13-cipher-suites-ignored": { daemons: ["controller-manager", "scheduler"], args: ["--tls-min-version=VersionTLS13", "--tls-cipher-suites=TLS_AES_128_GCM_SHA256"] },
  "doc2/5/tls-cert-key-pair": { daemons: ["controller-manager", "scheduler"], args: ["--tls-cert-file=/a.crt", "--tls-private-key-file="] },
  "doc2/5/tls-sni-cert-key-syntax": { daemons: ["controller-manager", "scheduler"], args: ["--tls-sni-cert-key=only.crt"] },
};

describe("validateDaemonOptions: properties", () => {
  it("every rule of doc 2 has a check (or is checked while reading) and a breaker below", () => {
    expect(Object.keys(doc2Checks).sort()).toEqual(doc2Rules.map((rule) => rule.id).sort());
    expect(Object.keys(breakers).sort()).toEqual(doc2Rules.map((rule) => rule.id).sort());
  });

  for (const daemon of ["controller-manager", "scheduler"] as const) {
    it(`every generated valid ${daemon} command line validates with no finding`, () => {
      fc.assert(
        fc.property(validArgs(daemon), (args) => {
          const findings = validateDaemonOptions(daemon, args).findings;
          expect(findings.map(formatFinding)).toEqual([]);
        }),
        { numRuns: 150 },
      );
    });
  }

  it("a valid command line with one rule broken fails with exactly that rule's id, for every rule and daemon", () => {
    for (const [ruleId, { daemons, args }] of Object.entries(breakers)) {
      for (const daemon of daemons) {
        fc.assert(
          fc.property(validArgs(daemon), (base) => {
            const found = new Set(validateDaemonOptions(daemon, [...base, ...args]).findings.map((entry) => entry.ruleId));
            expect([...found], `${daemon} ${[...base, ...args].join(" ")}`).toEqual([ruleId]);
          }),
          { numRuns: 6 },
        );
      }
    }
  });
});
