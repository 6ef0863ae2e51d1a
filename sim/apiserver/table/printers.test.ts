import { describe, expect, it } from "vitest";
import { dialects } from "../../../spec/dialects.ts";
import { loadReferenceTranscripts, transcriptById, transcriptJson } from "../../../spec/reference-transcripts.ts";
import { resourceTypes } from "../routing/resource-types.ts";
import { defaultColumns, eventColumns } from "./columns.ts";
import {
  labelSelectorString,
  printConfigMap,
  printDeployment,
  printEvent,
  printLease,
  printNamespace,
  printNode,
  printPod,
  printSecret,
  printService,
  tablePrinterFor,
  type ApiObject,
} from "./printers.ts";

const NOW = Date.UTC(2026, 10, 21, 13, 0, 0);
const clock = { nowMs: () => NOW };
const ago = (ms: number): string => new Date(NOW - ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const MINUTE = 60_000;

function pod(status: Record<string, unknown>, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): ApiObject {
  return {
    metadata: { name: "p", namespace: "ns", creationTimestamp: ago(30 * MINUTE), ...metadata },
    spec: { containers: [{ name: "a" }, { name: "b" }], ...spec },
    status,
  };
}

const running = { running: { startedAt: ago(MINUTE) } };

describe("printPod", () => {
  it("prints a running pod: ready containers, IP, node", () => {
    const row = printPod(
      pod({
        phase: "Running",
        podIP: "10.0.0.5",
        podIPs: [{ ip: "10.0.0.5" }],
        conditions: [{ type: "Ready", status: "True" }],
        containerStatuses: [
          { name: "a", ready: true, restartCount: 0, state: running },
          { name: "b", ready: true, restartCount: 0, state: running },
        ],
      }, { nodeName: "node-1" }),
      clock,
    );
    expect(row).toEqual({ cells: ["p", "2/2", "Running", "0", "30m", "10.0.0.5", "node-1", "<none>", "<none>"] });
  });

  it("counts restarts and says when the last one was", () => {
    const row = printPod(
      pod({
        phase: "Running",
        containerStatuses: [
          { name: "a", ready: true, restartCount: 2, state: running, lastState: { terminated: { exitCode: 1, finishedAt: ago(7 * MINUTE) } } },
          { name: "b", ready: false, restartCount: 1, state: { waiting: { reason: "CrashLoopBackOff" } }, lastState: { terminated: { exitCode: 1, finishedAt: ago(5 * MINUTE) } } },
        ],
      }),
      clock,
    );
    expect(row.cells.slice(1, 4)).toEqual(["1/2", "CrashLoopBackOff", "3 (5m ago)"]);
  });

  it("shows init containers' progress and failures", () => {
    const spec = { initContainers: [{ name: "i1" }, { name: "i2" }] };
    const init = (...statuses: Array<Record<string, unknown>>) => printPod(pod({ phase: "Pending", initContainerStatuses: statuses }, spec), clock).cells[2];
    expect(init({ state: { terminated: { exitCode: 0 } } }, { state: running })).toBe("Init:1/2");
    expect(init({ state: { waiting: { reason: "PodInitializing" } } })).toBe("Init:0/2");
    expect(init({ state: { waiting: { reason: "ErrImagePull" } } })).toBe("Init:ErrImagePull");
    expect(init({ state: { terminated: { exitCode: 3 } } })).toBe("Init:ExitCode:3");
    expect(init({ state: { terminated: { exitCode: 137, signal: 9 } } })).toBe("Init:Signal:9");
    expect(init({ state: { terminated: { exitCode: 1, reason: "Error" } } })).toBe("Init:Error");
    expect(init({ state: { terminated: { exitCode: 0 } } }, { state: { terminated: { exitCode: 0 } } })).toBe("Pending");
  });

  it("reports terminated containers and completed pods", () => {
    const exited = printPod(pod({ phase: "Running", containerStatuses: [{ state: { terminated: { exitCode: 2 } } }] }), clock);
    expect(exited.cells[2]).toBe("ExitCode:2");
    const completedButRunning = (conditions: unknown[]) =>
      printPod(pod({ phase: "Running", conditions, containerStatuses: [{ state: { terminated: { exitCode: 0, reason: "Completed" } } }, { ready: true, state: running }] }), clock)
        .cells[2];
    expect(completedButRunning([{ type: "Ready", status: "True" }])).toBe("Running");
    expect(completedButRunning([])).toBe("NotReady");
    expect(printPod(pod({ phase: "Succeeded" }), clock).conditions).toEqual([
      { type: "Completed", status: "True", reason: "Succeeded", message: "The pod has completed successfully." },
    ]);
    expect(printPod(pod({ phase: "Failed" }), clock).conditions).toEqual([{ type: "Completed", status: "True", reason: "Failed", message: "The pod failed." }]);
  });

  it("shows the pod's reason, scheduling gates, and deletion", () => {
    expect(printPod(pod({ phase: "Failed", reason: "Evicted" }), clock).cells[2]).toBe("Evicted");
    expect(printPod(pod({ phase: "Pending", conditions: [{ type: "PodScheduled", status: "False", reason: "SchedulingGated" }] }), clock).cells[2]).toBe("SchedulingGated");
    expect(printPod(pod({ phase: "Running" }, {}, { deletionTimestamp: ago(0) }), clock).cells[2]).toBe("Terminating");
    expect(printPod(pod({ phase: "Running", reason: "NodeLost" }, {}, { deletionTimestamp: ago(0) }), clock).cells[2]).toBe("Unknown");
  });

  it("counts readiness gates whose condition is True, and prefers podIPs", () => {
    const row = printPod(
      pod(
        { phase: "Running", podIP: "10.0.0.9", podIPs: [{ ip: "fd00::9" }, { ip: "10.0.0.9" }], nominatedNodeName: "n2", conditions: [{ type: "g1", status: "True" }, { type: "g2", status: "False" }] },
        { readinessGates: [{ conditionType: "g1" }, { conditionType: "g2" }, { conditionType: "g3" }] },
      ),
      clock,
    );
    expect(row.cells.slice(5)).toEqual(["fd00::9", "<none>", "n2", "1/3"]);
  });
});

describe("printNode", () => {
  it("prints status, roles, version, addresses and node info", () => {
    const node: ApiObject = {
      metadata: {
        name: "n",
        creationTimestamp: ago(3 * 24 * 60 * MINUTE),
        labels: { "node-role.kubernetes.io/control-plane": "", "node-role.kubernetes.io/": "x", "kubernetes.io/role": "worker", "node-role.kubernetes.io/master": "" },
      },
      spec: { unschedulable: true },
      status: {
        conditions: [{ type: "MemoryPressure", status: "False" }, { type: "Ready", status: "True" }],
        addresses: [{ type: "Hostname", address: "n" }, { type: "InternalIP", address: "10.1.0.1" }, { type: "ExternalIP", address: "34.1.2.3" }],
        nodeInfo: { kubeletVersion: "v1.26.4", osImage: "Debian", kernelVersion: "6.1", containerRuntimeVersion: "containerd://1.7.0" },
      },
    };
    expect(printNode(node, clock).cells).toEqual([
      "n", "Ready,SchedulingDisabled", "control-plane,master,worker", "3d", "v1.26.4", "10.1.0.1", "34.1.2.3", "Debian", "6.1", "containerd://1.7.0",
    ]);
    expect(printNode({ metadata: { name: "m" }, status: { conditions: [{ type: "Ready", status: "Unknown" }] } }, clock).cells.slice(1, 4)).toEqual([
      "NotReady", "<none>", "<unknown>",
    ]);
  });
});

describe("printService", () => {
  const service = (spec: Record<string, unknown>, status: Record<string, unknown> = {}) =>
    printService({ metadata: { name: "s", creationTimestamp: ago(90_000) }, spec, status }, clock).cells;

  it("prints the Service of transcript service-create", () => {
    const created = transcriptJson(transcriptById(loadReferenceTranscripts(), "service-create")) as ApiObject;
    const at = { nowMs: () => Date.UTC(2026, 10, 21, 12, 54, 56, 500) };
    expect(printService(created, at).cells).toEqual(["svc", "NodePort", "10.0.0.72", "<none>", "80:31099/TCP", "0s", "<none>"]);
  });

  it("prints each type's external address", () => {
    expect(service({ clusterIP: "10.0.0.1", clusterIPs: ["10.0.0.1"], externalIPs: ["1.2.3.4", "5.6.7.8"], selector: { tier: "web", app: "x" }, ports: [{ port: 53, protocol: "UDP" }, { port: 80 }] })).toEqual([
      "s", "ClusterIP", "10.0.0.1", "1.2.3.4,5.6.7.8", "53/UDP,80/TCP", "90s", "app=x,tier=web",
    ]);
    expect(service({ type: "LoadBalancer", clusterIPs: ["10.0.0.2"] })[3]).toBe("<pending>");
    expect(service({ type: "LoadBalancer" }, { loadBalancer: { ingress: [{ ip: "9.9.9.9" }, { hostname: "lb.example" }, { ip: "1.1.1.1" }] } })[3]).toBe("1.1.1.1,9.9.9.9,lb.example");
    expect(service({ type: "LoadBalancer", externalIPs: ["7.7.7.7"] }, { loadBalancer: { ingress: [{ ip: "9.9.9.9" }] } })[3]).toBe("9.9.9.9,7.7.7.7");
    expect(service({ type: "ExternalName", externalName: "db.example" }).slice(1, 5)).toEqual(["ExternalName", "<none>", "db.example", "<none>"]);
    expect(service({ clusterIP: "None", clusterIPs: ["None"] })[2]).toBe("None");
  });
});

describe("other printers", () => {
  it("prints configmaps, secrets, namespaces and leases", () => {
    const meta = { name: "x", creationTimestamp: ago(5 * MINUTE) };
    expect(printConfigMap({ metadata: meta, data: { a: "1", b: "2" }, binaryData: { c: "AA==" } }, clock).cells).toEqual(["x", 3, "5m"]);
    expect(printSecret({ metadata: meta, data: { a: "MQ==" }, stringData: { a: "1", b: "2" } }, clock).cells).toEqual(["x", "Opaque", 2, "5m"]);
    expect(printSecret({ metadata: meta, type: "kubernetes.io/tls" }, clock).cells).toEqual(["x", "kubernetes.io/tls", 0, "5m"]);
    expect(printNamespace({ metadata: meta, status: { phase: "Terminating" } }, clock).cells).toEqual(["x", "Terminating", "5m"]);
    expect(printLease({ metadata: meta, spec: {} }, clock).cells).toEqual(["x", "", "5m"]);
  });

  it("prints core events, and events of the events API (series, reporting controller)", () => {
    const core: ApiObject = {
      metadata: { name: "p.1", creationTimestamp: ago(MINUTE) },
      involvedObject: { kind: "Pod", name: "p", fieldPath: "spec.containers{a}" },
      reason: "Pulled",
      message: " pulled \n",
      source: { component: "kubelet", host: "node-1" },
      firstTimestamp: ago(10 * MINUTE),
      lastTimestamp: ago(MINUTE),
      count: 3,
      type: "Normal",
    };
    expect(printEvent(core, clock).cells).toEqual(["60s", "Normal", "Pulled", "pod/p", "spec.containers{a}", "kubelet, node-1", "pulled", "10m", 3, "p.1"]);
    const modern: ApiObject = {
      metadata: { name: "e.2" },
      involvedObject: { kind: "Node" },
      eventTime: "2026-11-21T12:58:00.000000Z",
      series: { count: 4, lastObservedTime: "2026-11-21T12:59:30.000000Z" },
      reportingComponent: "ctrl",
      reportingInstance: "ctrl-1",
      type: "Warning",
    };
    expect(printEvent(modern, clock).cells).toEqual(["30s", "Warning", "", "node", "", "ctrl, ctrl-1", "", "2m", 4, "e.2"]);
    expect(printEvent({ metadata: { name: "e" }, involvedObject: {} }, clock).cells).toEqual(["<unknown>", "", "", "", "", "", "", "<unknown>", 1, "e"]);
    expect(eventColumns.map((column) => column.name)).toEqual(["Last Seen", "Type", "Reason", "Object", "Subobject", "Source", "Message", "First Seen", "Count", "Name"]);
  });

  it("prints deployments with their selector", () => {
    const deployment: ApiObject = {
      metadata: { name: "d", creationTimestamp: ago(2 * MINUTE) },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: "x" }, matchExpressions: [{ key: "tier", operator: "In", values: ["web", "api"] }, { key: "env", operator: "DoesNotExist" }] },
        template: { spec: { containers: [{ name: "a", image: "img/a:1" }, { name: "b", image: "img/b:2" }] } },
      },
      status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    };
    expect(printDeployment(deployment, clock).cells).toEqual(["d", "2/3", 3, 2, "2m", "a,b", "img/a:1,img/b:2", "app=x,!env,tier in (api,web)"]);
    expect(printDeployment({ metadata: { name: "e" }, spec: {} }, clock).cells.slice(0, 4)).toEqual(["e", "0/1", 0, 0]);
  });

  it("writes label selectors as labels.Selector.String does", () => {
    expect(labelSelectorString(undefined)).toBe("");
    expect(labelSelectorString({})).toBe("");
    expect(labelSelectorString({ matchExpressions: [{ key: "a", operator: "NotIn", values: ["z", "y"] }, { key: "b", operator: "Exists" }] })).toBe("a notin (y,z),b");
    expect(labelSelectorString({ matchExpressions: [{ key: "a", operator: "Near" }] })).toBe("<invalid>");
  });
});

describe("tablePrinterFor", () => {
  it("gives every stored type its Kubernetes columns, in both dialects", () => {
    for (const dialect of dialects) {
      for (const type of resourceTypes(dialect).filter((candidate) => candidate.virtual !== true)) {
        // Roles, ClusterRoles and LimitRanges have no printer in Kubernetes either: the default table, as recorded (recorded-types.test.ts).
        const printsDefault = type.recorded === true && ["roles", "clusterroles", "limitranges"].includes(type.resource);
        expect(tablePrinterFor(type, dialect).isDefault, `${dialect.name} ${type.resource}`).toBe(printsDefault);
      }
    }
  });

  it("gives other types the default table", () => {
    const printer = tablePrinterFor({ group: "example.io", resource: "widgets" }, dialects[0]!);
    expect(printer.columns).toBe(defaultColumns);
    expect(printer.print({ metadata: { name: "w" } }, clock).cells).toEqual(["w", "0001-01-01T00:00:00Z"]);
  });
});
