import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { doc3Rules, type Doc3RuleId } from "../../spec/doc3/rules.ts";
import { formatFinding } from "./finding.ts";
import { generateValidNodeAgentConfig, type ShutdownStyle } from "./generate-config.ts";
import { doc3Checks } from "./node-agent-checks.ts";
import { validateNodeAgentConfig, validateNodeAgentConfigText } from "./validate-node-agent-config.ts";

const ORB = "apiVersion: nodeagent.config.orb.io/v1beta1\nkind: NodeAgentConfiguration\n";
const validate = (body: string) => validateNodeAgentConfigText(ORB + body);
const ruleIds = (body: string) => validate(body).findings.map((entry) => entry.ruleId);

describe("validateNodeAgentConfig: examples", () => {
  it("defaults an empty configuration fully, with doc 3's defaults and Go-printed durations", () => {
    const validation = validate("");
    expect(validation.findings).toEqual([]);
    expect(validation.config).toMatchObject({
      enableServer: true,
      syncFrequency: "1m0s",
      port: 10250,
      readOnlyPort: 0,
      nodeStatusUpdateFrequency: "10s",
      nodeStatusReportFrequency: "5m0s",
      nodeLeaseDurationSeconds: 40,
      authentication: { anonymous: { enabled: false }, webhook: { enabled: true, cacheTTL: "2m0s" } },
      authorization: { mode: "Webhook", webhook: { cacheAuthorizedTTL: "5m0s", cacheUnauthorizedTTL: "30s" } },
      containerLogMaxSize: "10Mi",
      logging: { format: "text" },
    });
  });

  it("defaults nodeStatusReportFrequency to an explicit nodeStatusUpdateFrequency (doc 3 §2.4)", () => {
    expect(validate("nodeStatusUpdateFrequency: 20s\n").config!["nodeStatusReportFrequency"]).toBe("20s");
    expect(validate("nodeStatusUpdateFrequency: 20s\nnodeStatusReportFrequency: 1m\n").config!["nodeStatusReportFrequency"]).toBe("1m0s");
  });

  it("defaults zero values of non-pointer fields as the kubelet does, but keeps zero where it means something", () => {
    const config = validate("port: 0\nmaxPods: 0\nreadOnlyPort: 0\nhealthzPort: 0\nregistryPullQPS: 0\npodPidsLimit: -7\n").config!;
    expect(config).toMatchObject({ port: 10250, maxPods: 110, readOnlyPort: 0, healthzPort: 0, registryPullQPS: 0, podPidsLimit: -1 });
  });

  it("reads the kubernetes dialect from apiVersion and kind", () => {
    const validation = validateNodeAgentConfigText("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n");
    expect(validation.dialect).toBe("kubernetes");
    expect(validation.config!["volumePluginDir"]).toBe("/usr/libexec/kubernetes/kubelet-plugins/volume/exec/");
    expect(validateNodeAgentConfigText("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: NodeAgentConfiguration\n").findings.map((entry) => entry.ruleId)).toEqual(["doc3/2/api-version-kind"]);
    expect(validateNodeAgentConfigText("kind: NodeAgentConfiguration\n").findings.map((entry) => entry.path)).toEqual(["apiVersion"]);
  });

  it("reports every error at once, each naming path, value and rule", () => {
    const validation = validate(
      ["port: 70000", "readOnlyPort: -1", "imageGCHighThresholdPercent: 70", "imageGCLowThresholdPercent: 80", "nodeStatusUpdateFrequncy: 1s", "evictionHard: {memory.available: 100Mi, disk.free: 1Gi}", "syncFrequency: 1 minute", ""].join("\n"),
    );
    expect(validation.valid).toBe(false);
    expect(validation.findings.map((entry) => [entry.path, entry.value, entry.ruleId])).toEqual(
      expect.arrayContaining([
        ["port", 70000, "doc3/2.3/port-range"],
        ["readOnlyPort", -1, "doc3/2.3/read-only-port-range"],
        ["imageGCLowThresholdPercent", 80, "doc3/2.6/image-gc-high-above-low"],
        ["nodeStatusUpdateFrequncy", "1s", "doc3/2/unknown-field"],
        ["evictionHard[disk.free]", "1Gi", "doc3/2.7/eviction-signal"],
        ["syncFrequency", "1 minute", "doc3/2/field-type"],
      ]),
    );
    expect(validation.findings).toHaveLength(6);
    expect(validation.findings.find((entry) => entry.ruleId === "doc3/2/unknown-field")!.message).toContain('did you mean "nodeStatusUpdateFrequency"');
  });

  it("rejects files that are not one YAML mapping, and duplicate keys", () => {
    expect(validateNodeAgentConfigText("port: [").findings.map((entry) => entry.ruleId)).toEqual(["doc3/2/file-syntax"]);
    expect(validateNodeAgentConfigText(`${ORB}port: 1\nport: 2\n`).findings.map((entry) => entry.ruleId)).toEqual(["doc3/2/file-syntax"]);
    expect(validateNodeAgentConfigText("- a\n").findings.map((entry) => entry.ruleId)).toEqual(["doc3/2/file-syntax"]);
    expect(validateNodeAgentConfigText(`${ORB}---\n${ORB}`).findings.map((entry) => entry.ruleId)).toEqual(["doc3/2/file-syntax"]);
  });

  it("reads JSON too, and YAML 1.2 booleans only", () => {
    expect(validateNodeAgentConfigText('{"apiVersion": "nodeagent.config.orb.io/v1beta1", "kind": "NodeAgentConfiguration", "port": 10251}').config!["port"]).toBe(10251);
    expect(ruleIds("enableServer: yes\n")).toEqual(["doc3/2/field-type"]);
  });

  it("checks int32 ranges as types, and treats YAML null as unset", () => {
    expect(ruleIds("maxPods: 2147483648\n")).toEqual(["doc3/2/field-type"]);
    expect(validate("maxPods: null\n").config!["maxPods"]).toBe(110);
  });

  it("warns about unknown feature gates with a did-you-mean, and uses Kubernetes 1.26 gate defaults", () => {
    const validation = validate("featureGates: {CPUManagr: true}\n");
    expect(validation.valid).toBe(true);
    expect(validation.findings.map((entry) => [entry.ruleId, entry.severity])).toEqual([["doc3/2.6/feature-gate-known", "warning"]]);
    expect(validation.findings[0]!.message).toContain("did you mean CPUManager?");
    expect(ruleIds("qosReserved: {memory: 50%}\n")).toEqual(["doc3/2.6/qos-reserved-gate"]);
    expect(ruleIds("qosReserved: {memory: 50%}\nfeatureGates: {QOSReserved: true}\n")).toEqual([]);
  });

  it("accepts doc 3's shutdown example shapes and rejects mixing the two styles", () => {
    expect(ruleIds("shutdownGracePeriod: 30s\nshutdownGracePeriodCriticalPods: 10s\n")).toEqual([]);
    expect(ruleIds("shutdownGracePeriodByPodPriority: [{priority: 0, shutdownGracePeriodSeconds: 30}, {priority: 100000, shutdownGracePeriodSeconds: 10}]\n")).toEqual([]);
    expect(ruleIds("shutdownGracePeriod: 30s\nshutdownGracePeriodByPodPriority: [{priority: 0, shutdownGracePeriodSeconds: 30}]\n")).toEqual(["doc3/2.7/shutdown-by-priority-exclusive"]);
  });
});

// Sets `path` (dotted) in a copy of `config`, creating objects on the way; undefined deletes.
function set(config: Readonly<Record<string, unknown>>, path: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = path.split(".");
  const copy: Record<string, unknown> = { ...config };
  if (rest.length === 0) {
    if (value === undefined) delete copy[head!];
    else copy[head!] = value;
    return copy;
  }
  const inner = typeof copy[head!] === "object" && copy[head!] !== null ? (copy[head!] as Record<string, unknown>) : {};
  copy[head!] = set(inner, rest.join("."), value);
  return copy;
}

type Mutation = (config: Record<string, unknown>) => Record<string, unknown>;
const apply = (...changes: [string, unknown][]): Mutation => (config) => changes.reduce((current, [path, value]) => set(current, path, value), config);
const gateOff = (gate: string, ...changes: [string, unknown][]): Mutation => apply([`featureGates.${gate}`, false], ...changes);
const NO_SHUTDOWN: [string, unknown][] = [["shutdownGracePeriod", "0s"], ["shutdownGracePeriodCriticalPods", "0s"], ["shutdownGracePeriodByPodPriority", []]];
const TAINT = { key: "example.io/role", value: "edge", effect: "NoSchedule" };

// For each node agent rule: a mutation of a valid configuration that breaks it and nothing else.
const breakers: Partial<Record<Doc3RuleId, Mutation>> = {
  "doc3/2/api-version-kind": apply(["kind", "KubeletConfig"]),
  "doc3/2/unknown-field": apply(["nodeStatusUpdateFrequncy", "10s"]),
  "doc3/2/field-type": apply(["port", "10250"]),
  "doc3/2/required-field": apply(["registerWithTaints", [{ key: "a" }]]),
  "doc3/2.3/port-range": apply(["port", 65536]),
  "doc3/2.3/read-only-port-range": apply(["readOnlyPort", -1]),
  "doc3/2.3/healthz-port-range": apply(["healthzPort", 70000]),
  "doc3/2.3/bind-address-ip": apply(["address", "localhost"]),
  "doc3/2.3/tls-min-version": apply(["tlsMinVersion", "TLS1.2"]),
  "doc3/2.3/tls-cipher-suites": apply(["tlsCipherSuites", ["TLS_BOGUS"]]),
  "doc3/2.3/tls-insecure-cipher": apply(["tlsCipherSuites", ["TLS_RSA_WITH_RC4_128_SHA"]]),
  "doc3/2.3/tls13-cipher-suites-ignored": apply(["tlsMinVersion", "VersionTLS13"], ["tlsCipherSuites", ["TLS_AES_128_GCM_SHA256"]]),
  "doc3/2.3/tls-cert-key-pair": apply(["tlsCertFile", "/etc/n.crt"], ["tlsPrivateKeyFile", ""]),
  "doc3/2.3/server-tls-bootstrap-gate": gateOff("RotateKubeletServerCertificate", ["serverTLSBootstrap", true]),
  "doc3/2.3/contention-profiling-needs-debugging-handlers": apply(["enableContentionProfiling", true], ["enableDebuggingHandlers", false]),
  "doc3/2.4/node-lease-duration-positive": apply(["nodeLeaseDurationSeconds", -40]),
  "doc3/2.4/node-status-max-images-range": apply(["nodeStatusMaxImages", -2]),
  "doc3/2.4/register-with-taints-needs-register-node": apply(["registerNode", false], ["registerWithTaints", [TAINT]]),
  "doc3/2.4/taint-valid": apply(["registerWithTaints", [{ ...TAINT, key: "not a key" }]]),
  "doc3/2.5/authorization-mode": apply(["authorization.mode", "RBAC"]),
  "doc3/2.6/registry-pull-qps-non-negative": apply(["registryPullQPS", -1]),
  "doc3/2.6/registry-burst-non-negative": apply(["registryBurst", -1]),
  "doc3/2.6/registry-burst-needs-pull-qps": apply(["registryPullQPS", 0], ["registryBurst", 20]),
  "doc3/2.6/image-gc-threshold-range": apply(["imageGCHighThresholdPercent", 101]),
  "doc3/2.6/image-gc-high-above-low": apply(["imageGCHighThresholdPercent", 50], ["imageGCLowThresholdPercent", 50]),
  "doc3/2.6/system-cgroups-needs-cgroup-root": apply(["systemCgroups", "/system"], ["cgroupRoot", ""]),
  "doc3/2.6/cgroup-driver": apply(["cgroupDriver", "docker"]),
  "doc3/2.6/cpu-manager-policy": apply(["cpuManagerPolicy", "dynamic"]),
  "doc3/2.6/cpu-manager-gate": gateOff("CPUManager", ["cpuManagerPolicy", "static"], ["cpuManagerPolicyOptions", {}], ["cpuManagerReconcilePeriod", "10s"]),
  "doc3/2.6/cpu-manager-policy-options-gate": gateOff("CPUManagerPolicyOptions", ["cpuManagerPolicyOptions", { "full-pcpus-only": "true" }]),
  "doc3/2.6/memory-manager-policy": apply(["memoryManagerPolicy", "dynamic"]),
  "doc3/2.6/memory-manager-gate": gateOff("MemoryManager", ["memoryManagerPolicy", "Static"]),
  "doc3/2.6/topology-manager-policy": apply(["topologyManagerPolicy", "strict"]),
  "doc3/2.6/topology-manager-policy-gate": gateOff("TopologyManager", ["topologyManagerPolicy", "restricted"], ["topologyManagerScope", "container"]),
  "doc3/2.6/topology-manager-scope": apply(["topologyManagerScope", "node"]),
  "doc3/2.6/topology-manager-scope-gate": gateOff("TopologyManager", ["topologyManagerPolicy", "none"], ["topologyManagerScope", "pod"]),
  "doc3/2.6/qos-reserved-memory-only": apply(["qosReserved", { cpu: "10%" }]),
  "doc3/2.6/qos-reserved-gate": gateOff("QOSReserved", ["qosReserved", { memory: "50%" }]),
  "doc3/2.6/qos-reserved-percentage": apply(["qosReserved", { memory: "150%" }]),
  "doc3/2.6/hairpin-mode": apply(["hairpinMode", "bridge"]),
  "doc3/2.6/cpu-cfs-quota-period-gate": gateOff("CustomCPUCFSQuotaPeriod", ["cpuCFSQuotaPeriod", "50ms"]),
  "doc3/2.6/cpu-cfs-quota-period-range": apply(["cpuCFSQuotaPeriod", "2s"]),
  "doc3/2.6/max-pods-non-negative": apply(["maxPods", -1]),
  "doc3/2.6/pods-per-core-non-negative": apply(["podsPerCore", -1]),
  "doc3/2.6/pods-per-core-le-max-pods": apply(["maxPods", 200], ["podsPerCore", 201]),
  "doc3/2.6/pod-cidr": apply(["podCIDR", "10.0.0.0/33"]),
  "doc3/2.6/cluster-dns-ip": apply(["clusterDNS", ["10.96.0.10", "dns"]]),
  "doc3/2.6/max-open-files-non-negative": apply(["maxOpenFiles", -1]),
  "doc3/2.6/kube-api-qps-non-negative": apply(["kubeAPIQPS", -1]),
  "doc3/2.6/kube-api-burst-non-negative": apply(["kubeAPIBurst", -1]),
  "doc3/2.6/iptables-bit-range": apply(["iptablesMasqueradeBit", 32]),
  "doc3/2.6/iptables-bits-distinct": apply(["iptablesMasqueradeBit", 20], ["iptablesDropBit", 20]),
  "doc3/2.6/memory-swap-behavior": apply(["memorySwap", { swapBehavior: "AllSwap" }]),
  "doc3/2.6/memory-swap-gate": gateOff("NodeSwap", ["memorySwap", { swapBehavior: "LimitedSwap" }]),
  "doc3/2.6/container-log-max-size": apply(["containerLogMaxSize", "-10Mi"]),
  "doc3/2.6/container-log-max-files": apply(["containerLogMaxFiles", 1]),
  "doc3/2.6/change-detection-strategy": apply(["configMapAndSecretChangeDetectionStrategy", "Poll"]),
  "doc3/2.6/system-reserved-resources": apply(["systemReserved", { pid: "100" }]),
  "doc3/2.6/kube-reserved-resources": apply(["kubeReserved", { pid: "100" }]),
  "doc3/2.6/reserved-quantity": apply(["systemReserved", { cpu: "-100m" }]),
  "doc3/2.6/reserved-system-cpus-syntax": apply(["reservedSystemCPUs", "0-a"]),
  "doc3/2.6/reserved-system-cpus-exclusive-cgroups": apply(["reservedSystemCPUs", "0-1"], ["systemReservedCgroup", "/system.slice"]),
  "doc3/2.6/enforce-node-allocatable-values": apply(["enforceNodeAllocatable", ["none", "pods"]]),
  "doc3/2.6/enforce-node-allocatable-needs-cgroups-per-qos": apply(["cgroupsPerQOS", false], ["enforceNodeAllocatable", ["pods"]]),
  "doc3/2.6/enforce-node-allocatable-reserved-cgroup": apply(["enforceNodeAllocatable", ["pods", "kube-reserved"]], ["kubeReservedCgroup", ""]),
  "doc3/2.6/oom-score-adj-range": apply(["oomScoreAdj", 1001]),
  "doc3/2.6/memory-throttling-factor-range": apply(["memoryThrottlingFactor", 1.5]),
  "doc3/2.6/reserved-memory-resource": apply(["reservedMemory", [{ numaNode: 0, limits: { cpu: "1" } }]]),
  "doc3/2.6/reserved-memory-nonzero": apply(["reservedMemory", [{ numaNode: 0, limits: { memory: "0" } }]]),
  "doc3/2.6/reserved-memory-unique": apply(["reservedMemory", [{ numaNode: 0, limits: { memory: "1Gi" } }, { numaNode: 0, limits: { memory: "2Gi" } }]]),
  "doc3/2.6/feature-gate-known": apply(["featureGates.NoSuchGate", true]),
  "doc3/2.7/eviction-signal": apply(["evictionHard", { "disk.available": "1Gi" }]),
  "doc3/2.7/eviction-threshold-value": apply(["evictionHard", { "memory.available": "-1Mi" }]),
  "doc3/2.7/eviction-soft-needs-grace-period": apply(["evictionSoft", { "memory.available": "200Mi" }], ["evictionSoftGracePeriod", {}]),
  "doc3/2.7/eviction-grace-period-value": apply(["evictionSoft", { "memory.available": "200Mi" }], ["evictionSoftGracePeriod", { "memory.available": "-1s" }]),
  "doc3/2.7/eviction-minimum-reclaim-value": apply(["evictionMinimumReclaim", { "memory.available": "-5%" }]),
  "doc3/2.7/shutdown-grace-periods-non-negative": apply(...NO_SHUTDOWN, ["shutdownGracePeriod", "-1s"]),
  "doc3/2.7/shutdown-critical-less-than-total": apply(...NO_SHUTDOWN, ["shutdownGracePeriod", "30s"], ["shutdownGracePeriodCriticalPods", "30s"]),
  "doc3/2.7/shutdown-by-priority-exclusive": apply(...NO_SHUTDOWN, ["shutdownGracePeriod", "30s"], ["shutdownGracePeriodByPodPriority", [{ priority: 0, shutdownGracePeriodSeconds: 10 }]]),
  "doc3/2.7/shutdown-by-priority-gate": gateOff("GracefulNodeShutdown", ...NO_SHUTDOWN, ["shutdownGracePeriodByPodPriority", [{ priority: 0, shutdownGracePeriodSeconds: 10 }]]),
  "doc3/2.7/shutdown-grace-period-gate": gateOff("GracefulNodeShutdown", ...NO_SHUTDOWN, ["shutdownGracePeriod", "30s"]),
  "doc3/2.7/shutdown-by-priority-grace-non-negative": apply(...NO_SHUTDOWN, ["shutdownGracePeriodByPodPriority", [{ priority: 0, shutdownGracePeriodSeconds: -1 }]]),
  "doc3/2.8/logging-format": apply(["logging.format", "xml"], ["logging.vmodule", []]),
  "doc3/2.8/vmodule-text-only": apply(["logging.format", "json"], ["logging.vmodule", [{ filePattern: "server", verbosity: 4 }]]),
  "doc3/2.8/vmodule-pattern": apply(["logging.vmodule", [{ filePattern: "a=b", verbosity: 4 }]]),
  "doc3/2.8/json-options-gate": gateOff("LoggingAlphaOptions", ["logging.options.json", { splitStream: true, infoBufferSize: "0" }]),
  "doc3/2.8/info-buffer-size": apply(["logging.options.json.infoBufferSize", "-1Ki"]),
  "doc3/2.8/flush-frequency-positive": apply(["logging.flushFrequency", -1]),
  "doc3/8/event-record-qps-non-negative": apply(["eventRecordQPS", -1]),
  "doc3/8/event-burst-non-negative": apply(["eventBurst", -1]),
  "doc3/8/event-burst-needs-record-qps": apply(["eventRecordQPS", 0], ["eventBurst", 20]),
};

const generated = fc
  .record({ seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }), dialect: fc.constantFrom("orb" as const, "kubernetes" as const), shutdown: fc.constantFrom<ShutdownStyle>("grace-periods", "by-pod-priority") })
  .map(({ seed, dialect, shutdown }) => generateValidNodeAgentConfig(seed, dialect, shutdown));

describe("validateNodeAgentConfig: properties", () => {
  it("covers every node agent rule with a mutation (the file-level and credential provider rules are tested elsewhere)", () => {
    const elsewhere = Object.entries(doc3Checks).filter(([, check]) => check === "credential-provider").map(([id]) => id);
    const expected = doc3Rules.map((rule) => rule.id).filter((id) => id !== "doc3/2/file-syntax" && !elsewhere.includes(id));
    expect(Object.keys(breakers).sort()).toEqual(expected.sort());
  });

  it("every configuration json-schema-faker generates from the (constrained) schema validates", () => {
    fc.assert(
      fc.property(generated, (config) => {
        expect(validateNodeAgentConfig(config).findings.map(formatFinding)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it("a valid configuration mutated to break one rule fails with exactly that rule's id, for every rule", () => {
    for (const [ruleId, mutate] of Object.entries(breakers) as [Doc3RuleId, Mutation][]) {
      fc.assert(
        fc.property(generated, (config) => {
          const mutated = mutate(config);
          const found = new Set(validateNodeAgentConfig(mutated).findings.map((entry) => entry.ruleId));
          expect([...found], `${ruleId} in ${JSON.stringify(mutated)}`).toEqual([ruleId]);
        }),
        { numRuns: 5 },
      );
    }
  });
});
