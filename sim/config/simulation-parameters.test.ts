import { describe, expect, it } from "vitest";
import { daemonOptionsForSimulation, InvalidConfigurationError, leaderElectionParameters, nodeAgentConfigForSimulation, nodeAgentParameters, nodeLifecycleParameters, zoneEvictionRate, zoneUnhealthy } from "./simulation-parameters.ts";
import { validateDaemonOptions } from "./validate-daemon-options.ts";
import { validateNodeAgentConfigText } from "./validate-node-agent-config.ts";

describe("leaderElectionParameters (doc 2 §2.2)", () => {
  it("gives doc 2's defaults in milliseconds, with the daemon's own lock name", () => {
    expect(leaderElectionParameters(validateDaemonOptions("controller-manager", []).options)).toEqual({
      enabled: true,
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      resourceLock: "leases",
      resourceName: "orb-controller-manager",
      resourceNamespace: "orb-system",
    });
    expect(leaderElectionParameters(validateDaemonOptions("scheduler", [], "kubernetes").options)).toMatchObject({ resourceName: "kube-scheduler", resourceNamespace: "kube-system" });
  });

  it("takes them from a flag line, as simulate --controller-manager-flags does", () => {
    const { options } = daemonOptionsForSimulation("controller-manager", "--leader-elect-lease-duration=1m --leader-elect-renew-deadline '45s' --leader-elect-retry-period=1.5s");
    expect(leaderElectionParameters(options)).toMatchObject({ leaseDurationMs: 60_000, renewDeadlineMs: 45_000, retryPeriodMs: 1_500 });
  });

  it("refuses an invalid flag line, listing the errors", () => {
    expect(() => daemonOptionsForSimulation("controller-manager", "--leader-elect-renew-deadline=20s")).toThrow(InvalidConfigurationError);
    expect(() => daemonOptionsForSimulation("controller-manager", "--leader-elect-renew-deadline=20s")).toThrow(/renew-deadline-le-lease-duration/);
  });
});

describe("nodeLifecycleParameters (doc 2 §2.4)", () => {
  it("gives doc 2's defaults in milliseconds", () => {
    expect(nodeLifecycleParameters(validateDaemonOptions("controller-manager", []).options)).toEqual({
      nodeMonitorPeriodMs: 5_000,
      nodeMonitorGracePeriodMs: 40_000,
      nodeStartupGracePeriodMs: 60_000,
      nodeEvictionRate: 0.1,
      secondaryNodeEvictionRate: 0.01,
      largeClusterSizeThreshold: 50,
      unhealthyZoneThreshold: 0.55,
      podEvictionTimeoutMs: 300_000,
      taintManagerEnabled: true,
    });
  });

  it("belongs to the controller manager only", () => {
    expect(() => nodeLifecycleParameters(validateDaemonOptions("scheduler", []).options)).toThrow(TypeError);
  });

  it("evicts at the primary rate in a healthy zone, and at the secondary rate only above the large-cluster threshold", () => {
    const parameters = nodeLifecycleParameters(validateDaemonOptions("controller-manager", ["--large-cluster-size-threshold=10"]).options);
    expect(zoneEvictionRate(parameters, { healthy: true, nodeCount: 5 })).toBe(0.1);
    expect(zoneEvictionRate(parameters, { healthy: false, nodeCount: 10 })).toBe(0);
    expect(zoneEvictionRate(parameters, { healthy: false, nodeCount: 11 })).toBe(0.01);
  });

  it("calls a zone unhealthy at the threshold fraction with at least 3 nodes not Ready", () => {
    const parameters = nodeLifecycleParameters(validateDaemonOptions("controller-manager", []).options);
    expect(zoneUnhealthy(parameters, 2, 0)).toBe(false);
    expect(zoneUnhealthy(parameters, 3, 2)).toBe(true);
    expect(zoneUnhealthy(parameters, 3, 3)).toBe(false);
  });
});

describe("nodeAgentParameters (doc 3 §2.4)", () => {
  it("takes status and lease timing from the defaulted configuration", () => {
    const validation = validateNodeAgentConfigText("apiVersion: nodeagent.config.orb.io/v1beta1\nkind: NodeAgentConfiguration\nnodeStatusUpdateFrequency: 20s\nnodeLeaseDurationSeconds: 60\n");
    expect(nodeAgentParameters(validation)).toEqual({ nodeStatusUpdateFrequencyMs: 20_000, nodeStatusReportFrequencyMs: 20_000, nodeLeaseDurationSeconds: 60, nodeLeaseRenewIntervalMs: 10_000 });
  });

  it("renews at a quarter of the lease duration in the kubernetes dialect", () => {
    const validation = validateNodeAgentConfigText("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeLeaseDurationSeconds: 60\n");
    expect(nodeAgentParameters(validation)).toMatchObject({ nodeStatusReportFrequencyMs: 300_000, nodeLeaseRenewIntervalMs: 15_000 });
  });

  it("refuses an invalid configuration", () => {
    expect(() => nodeAgentParameters(validateNodeAgentConfigText("apiVersion: nodeagent.config.orb.io/v1beta1\nkind: NodeAgentConfiguration\nnodeLeaseDurationSeconds: -1\n"))).toThrow(InvalidConfigurationError);
  });
});

describe("nodeAgentConfigForSimulation (simulate --node-agent-config)", () => {
  const header = "apiVersion: nodeagent.config.orb.io/v1beta1\nkind: NodeAgentConfiguration\n";

  it("validates the file; fields given as overrides replace the file's before defaulting", () => {
    const file = `${header}nodeStatusUpdateFrequency: 20s\nnodeLeaseDurationSeconds: 60\n`;
    expect(nodeAgentParameters(nodeAgentConfigForSimulation(file))).toMatchObject({ nodeStatusUpdateFrequencyMs: 20_000, nodeStatusReportFrequencyMs: 20_000, nodeLeaseDurationSeconds: 60 });
    // The explicit override, not the file's value, defaults nodeStatusReportFrequency (doc 3 §2.4).
    const overridden = nodeAgentParameters(nodeAgentConfigForSimulation(file, { nodeStatusUpdateFrequency: "5s" }));
    expect(overridden).toMatchObject({ nodeStatusUpdateFrequencyMs: 5_000, nodeStatusReportFrequencyMs: 5_000, nodeLeaseDurationSeconds: 60 });
  });

  it("refuses an invalid file with every error, and a file that does not parse", () => {
    const bad = () => nodeAgentConfigForSimulation(`${header}nodeLeaseDurationSeconds: -5\nnodeLeaseDurationSecond: 5\noomScoreAdj: 5000\n`);
    expect(bad).toThrow(InvalidConfigurationError);
    const message = (() => {
      try {
        bad();
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/unknown field "nodeLeaseDurationSecond" \(did you mean "nodeLeaseDurationSeconds"\?\)/);
    expect(message).toMatch(/doc3\/2.4\/node-lease-duration-positive: nodeLeaseDurationSeconds=-5/);
    expect(message).toMatch(/doc3\/2.6\/oom-score-adj-range: oomScoreAdj=5000/);
    expect(() => nodeAgentConfigForSimulation("a: [1,")).toThrow(/doc3\/2\/file-syntax/);
    expect(() => nodeAgentConfigForSimulation(`${header}nodeLeaseDurationSeconds: 40\n`, { nodeLeaseDurationSeconds: -1 })).toThrow(/node-lease-duration-positive/);
  });
});
