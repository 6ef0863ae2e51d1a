/**
 * Row printers: the cells of one object's Table row, computed as the printers of kube-apiserver
 * 1.26 (k8s.io/kubernetes/pkg/printers/internalversion) compute them, in their wide form (the
 * server always prints every column). Objects arrive as stored JSON (the v1 form); where the
 * printers read the internal form, the conversion and decode-time defaults Kubernetes applies are
 * reproduced (a Secret without type is Opaque, a Service without type is ClusterIP, a Deployment
 * without replicas wants 1, a Pod's podIP stands in for podIPs).
 *
 * Ages come from the caller's clock (see human-duration.ts).
 */
import type { Dialect } from "../../../spec/dialects.ts";
import type { Clock } from "../../kernel/clock.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import {
  configMapColumns,
  defaultColumns,
  deploymentColumns,
  eventColumns,
  leaseColumns,
  namespaceColumns,
  nodeColumns,
  podColumns,
  scaleColumns,
  secretColumns,
  serviceColumns,
  type TableColumnDefinition,
} from "./columns.ts";
import { ageSince, formatTimestamp, humanDuration, parseTimestamp } from "./human-duration.ts";
import { recordedTablePrinter } from "./recorded-printers.ts";
import { has, integer, list, record, text } from "../untyped-json.ts";

/** One cell: Kubernetes sends strings, and integers for counts (transcript table-configmaps: Data is 1). */
export type TableCell = string | number | boolean | null;

/** meta/v1 TableRowCondition: pods that ran to completion are marked Completed. */
export interface TableRowCondition {
  readonly type: "Completed";
  readonly status: "True";
  readonly reason: string;
  readonly message: string;
}

/** The printed part of a row: its cells, and conditions where the printer sets them. */
export interface PrintedRow {
  readonly cells: readonly TableCell[];
  readonly conditions?: readonly TableRowCondition[];
}

/** An API object as stored and served (the v1 JSON form). */
export type ApiObject = Readonly<Record<string, unknown>>;

/** The columns of a type and how to print one object as a row. */
export interface TablePrinter {
  readonly columns: readonly TableColumnDefinition[];
  /** Whether this is Kubernetes' default table (Name, Created At): its empty lists have `rows: null`. */
  readonly isDefault: boolean;
  print(object: ApiObject, clock: Pick<Clock, "nowMs">): PrintedRow;
}

type Now = Pick<Clock, "nowMs">;

function metadataOf(object: ApiObject): Readonly<Record<string, unknown>> {
  return record(object["metadata"]);
}

function nameOf(object: ApiObject): string {
  return text(metadataOf(object)["name"]);
}

function ageOf(object: ApiObject, clock: Now): string {
  return ageSince(metadataOf(object)["creationTimestamp"], clock);
}

function keyCount(value: unknown): number {
  return Object.keys(record(value)).length;
}

/** Go's sort order of strings (bytewise; UTF-16 order agrees for the label keys and roles here). */
function sorted(values: Iterable<string>): string[] {
  return [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** labels.FormatLabels: "k=v" pairs sorted by key, or "<none>". */
function formatLabels(value: unknown): string {
  const labels = record(value);
  const keys = sorted(Object.keys(labels));
  if (keys.length === 0) return "<none>";
  return keys.map((key) => `${key}=${text(labels[key])}`).join(",");
}

/** metav1.LabelSelectorAsSelector(selector).String(), or "<invalid>" when it does not convert. */
export function labelSelectorString(value: unknown): string {
  if (!has(value)) return ""; // labels.Nothing()
  const selector = record(value);
  const matchLabels = record(selector["matchLabels"]);
  const expressions = list(selector["matchExpressions"]);
  const requirements: Array<{ key: string; text: string }> = [];
  for (const key of Object.keys(matchLabels)) requirements.push({ key, text: `${key}=${text(matchLabels[key])}` });
  for (const entry of expressions) {
    const expression = record(entry);
    const key = text(expression["key"]);
    const values = sorted(list(expression["values"]).map(text));
    switch (expression["operator"]) {
      case "In":
      case "NotIn":
        if (values.length === 0) return "<invalid>";
        requirements.push({ key, text: `${key} ${expression["operator"] === "In" ? "in" : "notin"} (${values.join(",")})` });
        break;
      case "Exists":
        requirements.push({ key, text: key });
        break;
      case "DoesNotExist":
        requirements.push({ key, text: `!${key}` });
        break;
      default:
        return "<invalid>";
    }
  }
  // selector.Add sorts the requirements by key.
  return requirements
    .map((requirement, index) => ({ ...requirement, index }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index))
    .map((requirement) => requirement.text)
    .join(",");
}

// --- printers ---------------------------------------------------------------------------------

const podSucceeded: readonly TableRowCondition[] = [{ type: "Completed", status: "True", reason: "Succeeded", message: "The pod has completed successfully." }];
const podFailed: readonly TableRowCondition[] = [{ type: "Completed", status: "True", reason: "Failed", message: "The pod failed." }];

/** An earlier-than test on optional times, an absent time being Go's zero time. */
function before(a: number | undefined, b: number | undefined): boolean {
  return (a ?? Number.NEGATIVE_INFINITY) < (b ?? Number.NEGATIVE_INFINITY);
}

/** printPod: Ready, Status (the reason kubectl shows), Restarts, Age, IP, Node, Nominated Node, Readiness Gates. */
export function printPod(pod: ApiObject, clock: Now): PrintedRow {
  const spec = record(pod["spec"]);
  const status = record(pod["status"]);
  const metadata = metadataOf(pod);
  let restarts = 0;
  const totalContainers = list(spec["containers"]).length;
  let readyContainers = 0;
  let lastRestartDate: number | undefined;

  let reason = text(status["phase"]);
  if (text(status["reason"]) !== "") reason = text(status["reason"]);
  for (const entry of list(status["conditions"])) {
    const condition = record(entry);
    if (condition["type"] === "PodScheduled" && condition["reason"] === "SchedulingGated") reason = "SchedulingGated";
  }

  const conditions = status["phase"] === "Succeeded" ? podSucceeded : status["phase"] === "Failed" ? podFailed : undefined;

  const noteLastTermination = (container: Readonly<Record<string, unknown>>): void => {
    const terminated = record(container["lastState"])["terminated"];
    if (has(terminated)) {
      const finishedAt = parseTimestamp(record(terminated)["finishedAt"]);
      if (before(lastRestartDate, finishedAt)) lastRestartDate = finishedAt;
    }
  };

  let initializing = false;
  const initStatuses = list(status["initContainerStatuses"]);
  for (let i = 0; i < initStatuses.length; i++) {
    const container = record(initStatuses[i]);
    restarts += integer(container["restartCount"]);
    noteLastTermination(container);
    const state = record(container["state"]);
    const terminated = has(state["terminated"]) ? record(state["terminated"]) : undefined;
    const waiting = has(state["waiting"]) ? record(state["waiting"]) : undefined;
    if (terminated !== undefined && integer(terminated["exitCode"]) === 0) continue;
    if (terminated !== undefined) {
      // initialization failed
      if (text(terminated["reason"]) === "") {
        reason = integer(terminated["signal"]) !== 0 ? `Init:Signal:${integer(terminated["signal"])}` : `Init:ExitCode:${integer(terminated["exitCode"])}`;
      } else {
        reason = `Init:${text(terminated["reason"])}`;
      }
    } else if (waiting !== undefined && text(waiting["reason"]) !== "" && waiting["reason"] !== "PodInitializing") {
      reason = `Init:${text(waiting["reason"])}`;
    } else {
      reason = `Init:${i}/${list(spec["initContainers"]).length}`;
    }
    initializing = true;
    break;
  }

  if (!initializing) {
    restarts = 0;
    let hasRunning = false;
    const statuses = list(status["containerStatuses"]);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const container = record(statuses[i]);
      restarts += integer(container["restartCount"]);
      noteLastTermination(container);
      const state = record(container["state"]);
      const terminated = has(state["terminated"]) ? record(state["terminated"]) : undefined;
      const waiting = has(state["waiting"]) ? record(state["waiting"]) : undefined;
      if (waiting !== undefined && text(waiting["reason"]) !== "") {
        reason = text(waiting["reason"]);
      } else if (terminated !== undefined && text(terminated["reason"]) !== "") {
        reason = text(terminated["reason"]);
      } else if (terminated !== undefined) {
        reason = integer(terminated["signal"]) !== 0 ? `Signal:${integer(terminated["signal"])}` : `ExitCode:${integer(terminated["exitCode"])}`;
      } else if (container["ready"] === true && has(state["running"])) {
        hasRunning = true;
        readyContainers++;
      }
    }
    // A pod whose containers report Completed but one still runs is Running (or NotReady).
    if (reason === "Completed" && hasRunning) {
      const ready = list(status["conditions"]).some((entry) => record(entry)["type"] === "Ready" && record(entry)["status"] === "True");
      reason = ready ? "Running" : "NotReady";
    }
  }

  if (has(metadata["deletionTimestamp"]) && status["reason"] === "NodeLost") {
    reason = "Unknown";
  } else if (has(metadata["deletionTimestamp"])) {
    reason = "Terminating";
  }

  const restartsCell = lastRestartDate === undefined ? String(restarts) : `${restarts} (${humanDuration(clock.nowMs() - lastRestartDate)} ago)`;

  const podIPs = list(status["podIPs"]);
  const podIP = podIPs.length > 0 ? text(record(podIPs[0])["ip"]) : text(status["podIP"]);
  const readinessGates = list(spec["readinessGates"]);
  let gates = "<none>";
  if (readinessGates.length > 0) {
    let trueConditions = 0;
    for (const gate of readinessGates) {
      const conditionType = record(gate)["conditionType"];
      const condition = list(status["conditions"]).map(record).find((entry) => entry["type"] === conditionType);
      if (condition !== undefined && condition["status"] === "True") trueConditions++;
    }
    gates = `${trueConditions}/${readinessGates.length}`;
  }
  const cells: TableCell[] = [
    nameOf(pod),
    `${readyContainers}/${totalContainers}`,
    reason,
    restartsCell,
    ageOf(pod, clock),
    podIP === "" ? "<none>" : podIP,
    text(spec["nodeName"]) === "" ? "<none>" : text(spec["nodeName"]),
    text(status["nominatedNodeName"]) === "" ? "<none>" : text(status["nominatedNodeName"]),
    gates,
  ];
  return conditions === undefined ? { cells } : { cells, conditions };
}

// The role labels the node printer reads (Kubernetes' names in both dialects: dialects.ts names no other).
const NODE_ROLE_PREFIX = "node-role.kubernetes.io/";
const NODE_ROLE_LABEL = "kubernetes.io/role";

/** printNode: Status (Ready/NotReady/Unknown, SchedulingDisabled), Roles, Age, Version, addresses, node info. */
export function printNode(node: ApiObject, clock: Now): PrintedRow {
  const spec = record(node["spec"]);
  const status = record(node["status"]);
  const conditions = new Map<unknown, Readonly<Record<string, unknown>>>();
  for (const entry of list(status["conditions"])) conditions.set(record(entry)["type"], record(entry));
  const states: string[] = [];
  const ready = conditions.get("Ready");
  if (ready !== undefined) states.push(ready["status"] === "True" ? "Ready" : "NotReady");
  if (states.length === 0) states.push("Unknown");
  if (spec["unschedulable"] === true) states.push("SchedulingDisabled");

  const roles = new Set<string>();
  const labels = record(metadataOf(node)["labels"]);
  for (const [key, value] of Object.entries(labels)) {
    if (key.startsWith(NODE_ROLE_PREFIX)) {
      const role = key.slice(NODE_ROLE_PREFIX.length);
      if (role !== "") roles.add(role);
    } else if (key === NODE_ROLE_LABEL && text(value) !== "") {
      roles.add(text(value));
    }
  }
  const roleText = sorted(roles).join(",");

  const nodeInfo = record(status["nodeInfo"]);
  const address = (type: string): string => {
    const found = list(status["addresses"]).map(record).find((entry) => entry["type"] === type);
    return found === undefined ? "<none>" : text(found["address"]);
  };
  const orUnknown = (value: unknown): string => (text(value) === "" ? "<unknown>" : text(value));
  return {
    cells: [
      nameOf(node),
      states.join(","),
      roleText === "" ? "<none>" : roleText,
      ageOf(node, clock),
      text(nodeInfo["kubeletVersion"]),
      address("InternalIP"),
      address("ExternalIP"),
      orUnknown(nodeInfo["osImage"]),
      orUnknown(nodeInfo["kernelVersion"]),
      orUnknown(nodeInfo["containerRuntimeVersion"]),
    ],
  };
}

/** printNamespace: Status is the phase. */
export function printNamespace(namespace: ApiObject, clock: Now): PrintedRow {
  return { cells: [nameOf(namespace), text(record(namespace["status"])["phase"]), ageOf(namespace, clock)] };
}

/** printConfigMap: Data counts the keys of data and binaryData (an integer cell). */
export function printConfigMap(configMap: ApiObject, clock: Now): PrintedRow {
  return { cells: [nameOf(configMap), keyCount(configMap["data"]) + keyCount(configMap["binaryData"]), ageOf(configMap, clock)] };
}

/** printSecret: Type (Opaque when unset, as decoding defaults it), Data (key count: stringData is merged into data). */
export function printSecret(secret: ApiObject, clock: Now): PrintedRow {
  const keys = new Set([...Object.keys(record(secret["data"])), ...Object.keys(record(secret["stringData"]))]);
  const type = text(secret["type"]) === "" ? "Opaque" : text(secret["type"]);
  return { cells: [nameOf(secret), type, keys.size, ageOf(secret, clock)] };
}

/** printService: Type, Cluster-IP, External-IP, Port(s), Age, Selector. */
export function printService(service: ApiObject, clock: Now): PrintedRow {
  const spec = record(service["spec"]);
  const type = text(spec["type"]) === "" ? "ClusterIP" : text(spec["type"]);
  const clusterIPs = list(spec["clusterIPs"]).map(text);
  const clusterIP = clusterIPs[0] ?? (text(spec["clusterIP"]) === "" ? undefined : text(spec["clusterIP"]));
  const ports = list(spec["ports"])
    .map(record)
    .map((port) => {
      const protocol = text(port["protocol"]) === "" ? "TCP" : text(port["protocol"]);
      const nodePort = integer(port["nodePort"]);
      return nodePort > 0 ? `${integer(port["port"])}:${nodePort}/${protocol}` : `${integer(port["port"])}/${protocol}`;
    })
    .join(",");
  return {
    cells: [
      nameOf(service),
      type,
      clusterIP ?? "<none>",
      serviceExternalIP(type, spec, record(service["status"])),
      ports === "" ? "<none>" : ports,
      ageOf(service, clock),
      formatLabels(spec["selector"]),
    ],
  };
}

/** getServiceExternalIP in its wide form (load-balancer addresses not clipped). */
function serviceExternalIP(type: string, spec: Readonly<Record<string, unknown>>, status: Readonly<Record<string, unknown>>): string {
  const externalIPs = list(spec["externalIPs"]).map(text);
  switch (type) {
    case "ClusterIP":
    case "NodePort":
      return externalIPs.length > 0 ? externalIPs.join(",") : "<none>";
    case "LoadBalancer": {
      const ingress = new Set<string>();
      for (const entry of list(record(status["loadBalancer"])["ingress"])) {
        const point = record(entry);
        if (text(point["ip"]) !== "") ingress.add(text(point["ip"]));
        else if (text(point["hostname"]) !== "") ingress.add(text(point["hostname"]));
      }
      const lbIPs = sorted(ingress).join(",");
      if (externalIPs.length > 0) return [...(lbIPs === "" ? [] : lbIPs.split(",")), ...externalIPs].join(",");
      return lbIPs === "" ? "<pending>" : lbIPs;
    }
    case "ExternalName":
      return text(spec["externalName"]);
    default:
      return "<unknown>";
  }
}

/** printEvent (wide): Last Seen, Type, Reason, Object, Subobject, Source, Message, First Seen, Count, Name. */
export function printEvent(event: ApiObject, clock: Now): PrintedRow {
  const firstTimestamp = has(parseTimestamp(event["firstTimestamp"])) ? ageSince(event["firstTimestamp"], clock) : ageSince(event["eventTime"], clock);
  let lastTimestamp = has(parseTimestamp(event["lastTimestamp"])) ? ageSince(event["lastTimestamp"], clock) : firstTimestamp;
  let count = integer(event["count"]);
  if (has(event["series"])) {
    const series = record(event["series"]);
    lastTimestamp = ageSince(series["lastObservedTime"], clock);
    count = integer(series["count"]);
  } else if (count === 0) {
    // Singleton events don't have a count set in the new API.
    count = 1;
  }
  const involved = record(event["involvedObject"]);
  const kind = text(involved["kind"]).toLowerCase();
  const target = text(involved["name"]) === "" ? kind : `${kind}/${text(involved["name"])}`;
  const source = record(event["source"]);
  const component = firstNonEmpty(text(source["component"]), text(event["reportingComponent"]));
  const instance = firstNonEmpty(text(source["host"]), text(event["reportingInstance"]));
  return {
    cells: [
      lastTimestamp,
      text(event["type"]),
      text(event["reason"]),
      target,
      text(involved["fieldPath"]),
      instance === "" ? component : `${component}, ${instance}`,
      text(event["message"]).trim(),
      firstTimestamp,
      count,
      nameOf(event),
    ],
  };
}

function firstNonEmpty(...values: string[]): string {
  return values.find((value) => value !== "") ?? "";
}

/** printDeployment: Ready (ready/desired), Up-to-date, Available, Age, Containers, Images, Selector. */
export function printDeployment(deployment: ApiObject, clock: Now): PrintedRow {
  const spec = record(deployment["spec"]);
  const status = record(deployment["status"]);
  // Decoding defaults spec.replicas to 1.
  const desired = has(spec["replicas"]) ? integer(spec["replicas"]) : 1;
  const containers = list(record(record(spec["template"])["spec"])["containers"]).map(record);
  return {
    cells: [
      nameOf(deployment),
      `${integer(status["readyReplicas"])}/${desired}`,
      integer(status["updatedReplicas"]),
      integer(status["availableReplicas"]),
      ageOf(deployment, clock),
      containers.map((container) => text(container["name"])).join(","),
      containers.map((container) => text(container["image"])).join(","),
      labelSelectorString(spec["selector"]),
    ],
  };
}

/** printScale: Desired (spec.replicas), Available (status.replicas), Age. */
export function printScale(scale: ApiObject, clock: Now): PrintedRow {
  return { cells: [nameOf(scale), integer(record(scale["spec"])["replicas"]), integer(record(scale["status"])["replicas"]), ageOf(scale, clock)] };
}

/** printLease: Holder is spec.holderIdentity, "" when unset. */
export function printLease(lease: ApiObject, clock: Now): PrintedRow {
  return { cells: [nameOf(lease), text(record(lease["spec"])["holderIdentity"]), ageOf(lease, clock)] };
}

/** The default table's row: the name and creationTimestamp (RFC 3339, UTC), not an age. */
export function printDefault(object: ApiObject): PrintedRow {
  return { cells: [nameOf(object), formatTimestamp(parseTimestamp(metadataOf(object)["creationTimestamp"]))] };
}

function printer(columns: readonly TableColumnDefinition[], print: (object: ApiObject, clock: Now) => PrintedRow): TablePrinter {
  return { columns, isDefault: false, print };
}

/** Kubernetes' default table (doc 1 §2.5) for a type with no columns of its own. */
export const defaultTablePrinter: TablePrinter = { columns: defaultColumns, isDefault: true, print: (object) => printDefault(object) };

/**
 * The printer of a served type: Kubernetes' own columns for pods, nodes, namespaces, configmaps,
 * secrets, services, events, deployments, leases and the Scale of a scale subresource; the
 * recorded built-in types' (recorded-printers.ts); the default table for any other type.
 */
export function tablePrinterFor(type: Pick<ResourceType, "group" | "resource"> & { readonly kind?: string }, dialect: Dialect): TablePrinter {
  if (type.group === "autoscaling" && type.kind === "Scale") return printer(scaleColumns, printScale);
  if (type.group === "") {
    switch (type.resource) {
      case "pods":
        return printer(podColumns, printPod);
      case "nodes":
        return printer(nodeColumns, printNode);
      case "namespaces":
        return printer(namespaceColumns, printNamespace);
      case "configmaps":
        return printer(configMapColumns, printConfigMap);
      case "secrets":
        return printer(secretColumns, printSecret);
      case "services":
        return printer(serviceColumns, printService);
      case "events":
        return printer(eventColumns, printEvent);
    }
  }
  if (type.group === "apps" && type.resource === "deployments") return printer(deploymentColumns, printDeployment);
  if (type.group === dialect.groups.coordination && type.resource === "leases") return printer(leaseColumns, printLease);
  return recordedTablePrinter(type, dialect) ?? defaultTablePrinter;
}
