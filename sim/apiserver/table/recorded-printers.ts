/**
 * Table printers of the recorded built-in types (routing/recorded-types.ts): the column definitions
 * are the ones kube-apiserver 1.26.4 sent (builtin-types-data/), the cells are computed as the
 * printers of k8s.io/kubernetes/pkg/printers/internalversion 1.26 compute them (wide form):
 * printServiceAccount, printRoleBinding, printClusterRoleBinding, printJob, printCronJob,
 * printStatefulSet, printReplicaSet, printDaemonSet, printReplicationController,
 * printPersistentVolumeClaim, printPersistentVolume, printEndpoints, printIngressClass,
 * printNetworkPolicy, printPodDisruptionBudget, printStorageClass, printPriorityClass,
 * printControllerRevision, printResourceQuota, printIngress, printEndpointSlice,
 * printHorizontalPodAutoscaler. Role, ClusterRole
 * and LimitRange have no printer there: the default table (recorded as
 * Name and Created At). recorded-types.test.ts compares each with the recorded sample's cells.
 */
import type { Clock } from "../../kernel/clock.ts";
import type { Dialect } from "../../../spec/dialects.ts";
import { servedRecordedType } from "../routing/recorded-types.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { ageSince, humanDuration, parseTimestamp } from "./human-duration.ts";
import { defaultTablePrinter, labelSelectorString, type ApiObject, type PrintedRow, type TablePrinter } from "./printers.ts";
import { integer, list, record, text } from "../untyped-json.ts";

type Now = Pick<Clock, "nowMs">;

function nameOf(object: ApiObject): string {
  return text(record(object["metadata"])["name"]);
}

function ageOf(object: ApiObject, clock: Now): string {
  return ageSince(record(object["metadata"])["creationTimestamp"], clock);
}

/** metav1.FormatLabelSelector: the selector string, "<none>" when it selects by nothing, "<error>" when it does not convert. */
function formatLabelSelector(value: unknown): string {
  const selector = labelSelectorString(value);
  return selector === "" ? "<none>" : selector === "<invalid>" ? "<error>" : selector;
}

/** layoutContainerCells: the containers' names and images, comma-joined. */
function containerCells(podTemplate: unknown): [string, string] {
  const containers = list(record(record(podTemplate)["spec"])["containers"]).map(record);
  return [containers.map((container) => text(container["name"])).join(","), containers.map((container) => text(container["image"])).join(",")];
}

/** printServiceAccount: Name, Secrets (how many), Age. */
export function printServiceAccount(serviceAccount: ApiObject, clock: Now): PrintedRow {
  return { cells: [nameOf(serviceAccount), list(serviceAccount["secrets"]).length, ageOf(serviceAccount, clock)] };
}

/** printRoleBinding and printClusterRoleBinding: Name, Role (kind/name), Age, Users, Groups, ServiceAccounts (rbac.SubjectsStrings, ", "-joined; a ServiceAccount as namespace/name). */
export function printRoleBinding(binding: ApiObject, clock: Now): PrintedRow {
  const roleRef = record(binding["roleRef"]);
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts: string[] = [];
  for (const subject of list(binding["subjects"]).map(record)) {
    if (subject["kind"] === "User") users.push(text(subject["name"]));
    else if (subject["kind"] === "Group") groups.push(text(subject["name"]));
    else if (subject["kind"] === "ServiceAccount") serviceAccounts.push(`${text(subject["namespace"])}/${text(subject["name"])}`);
  }
  return {
    cells: [nameOf(binding), `${text(roleRef["kind"])}/${text(roleRef["name"])}`, ageOf(binding, clock), users.join(", "), groups.join(", "), serviceAccounts.join(", ")],
  };
}

/** printJob: Name, Completions (succeeded/completions, or of parallelism), Duration (start to completion or now), Age, Containers, Images, Selector. */
export function printJob(job: ApiObject, clock: Now): PrintedRow {
  const spec = record(job["spec"]);
  const status = record(job["status"]);
  const succeeded = integer(status["succeeded"]);
  let completions: string;
  if (spec["completions"] !== undefined && spec["completions"] !== null) completions = `${succeeded}/${integer(spec["completions"])}`;
  else completions = integer(spec["parallelism"]) > 1 ? `${succeeded}/1 of ${integer(spec["parallelism"])}` : `${succeeded}/1`;
  const start = parseTimestamp(status["startTime"]);
  const completion = parseTimestamp(status["completionTime"]);
  const duration = start === undefined ? "" : humanDuration((completion ?? clock.nowMs()) - start);
  const [names, images] = containerCells(spec["template"]);
  return { cells: [nameOf(job), completions, duration, ageOf(job, clock), names, images, formatLabelSelector(spec["selector"])] };
}

/** printCronJob: Name, Schedule, Suspend (printBoolPtr), Active (how many), Last Schedule, Age, Containers, Images, Selector (of the job template). */
export function printCronJob(cronJob: ApiObject, clock: Now): PrintedRow {
  const spec = record(cronJob["spec"]);
  const status = record(cronJob["status"]);
  const suspend = spec["suspend"];
  const lastSchedule = status["lastScheduleTime"];
  const jobSpec = record(record(spec["jobTemplate"])["spec"]);
  const [names, images] = containerCells(jobSpec["template"]);
  return {
    cells: [
      nameOf(cronJob),
      text(spec["schedule"]),
      typeof suspend === "boolean" ? (suspend ? "True" : "False") : "<unset>",
      list(status["active"]).length,
      lastSchedule === undefined || lastSchedule === null ? "<none>" : ageSince(lastSchedule, clock),
      ageOf(cronJob, clock),
      names,
      images,
      formatLabelSelector(jobSpec["selector"]),
    ],
  };
}

/** printStatefulSet: Name, Ready (ready/desired), Age, Containers, Images. */
export function printStatefulSet(statefulSet: ApiObject, clock: Now): PrintedRow {
  const spec = record(statefulSet["spec"]);
  const [names, images] = containerCells(spec["template"]);
  return { cells: [nameOf(statefulSet), `${integer(record(statefulSet["status"])["readyReplicas"])}/${spec["replicas"] === undefined || spec["replicas"] === null ? 1 : integer(spec["replicas"])}`, ageOf(statefulSet, clock), names, images] };
}

/** printReplicaSet: Name, Desired (spec.replicas), Current (status.replicas), Ready, Age, Containers, Images, Selector. */
export function printReplicaSet(replicaSet: ApiObject, clock: Now): PrintedRow {
  const spec = record(replicaSet["spec"]);
  const status = record(replicaSet["status"]);
  const [names, images] = containerCells(spec["template"]);
  const desired = spec["replicas"] === undefined || spec["replicas"] === null ? 1 : integer(spec["replicas"]);
  return {
    cells: [nameOf(replicaSet), desired, integer(status["replicas"]), integer(status["readyReplicas"]), ageOf(replicaSet, clock), names, images, formatLabelSelector(spec["selector"])],
  };
}

/** labels.FormatLabels: "k=v" pairs sorted by key, or "<none>". */
function formatLabels(value: unknown): string {
  const labels = record(value);
  const keys = Object.keys(labels).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return keys.length === 0 ? "<none>" : keys.map((key) => `${key}=${text(labels[key])}`).join(",");
}

/** printDaemonSet: Name, Desired, Current, Ready, Up-to-date, Available (from status), Node Selector (the template's), Age, Containers, Images, Selector. */
export function printDaemonSet(daemonSet: ApiObject, clock: Now): PrintedRow {
  const spec = record(daemonSet["spec"]);
  const status = record(daemonSet["status"]);
  const [names, images] = containerCells(spec["template"]);
  return {
    cells: [
      nameOf(daemonSet),
      integer(status["desiredNumberScheduled"]),
      integer(status["currentNumberScheduled"]),
      integer(status["numberReady"]),
      integer(status["updatedNumberScheduled"]),
      integer(status["numberAvailable"]),
      formatLabels(record(record(spec["template"])["spec"])["nodeSelector"]),
      ageOf(daemonSet, clock),
      names,
      images,
      formatLabelSelector(spec["selector"]),
    ],
  };
}

/** printReplicationController: Name, Desired, Current, Ready, Age, Containers, Images, Selector (a plain label map). */
export function printReplicationController(controller: ApiObject, clock: Now): PrintedRow {
  const spec = record(controller["spec"]);
  const status = record(controller["status"]);
  const [names, images] = containerCells(spec["template"]);
  const desired = spec["replicas"] === undefined || spec["replicas"] === null ? 1 : integer(spec["replicas"]);
  return { cells: [nameOf(controller), desired, integer(status["replicas"]), integer(status["readyReplicas"]), ageOf(controller, clock), names, images, formatLabels(spec["selector"])] };
}

/** helper.GetAccessModesAsString: RWO, ROX, RWX, RWOP, in that order, each once. */
function accessModes(value: unknown): string {
  const modes = new Set(list(value).map(text));
  return (
    [
      ["ReadWriteOnce", "RWO"],
      ["ReadOnlyMany", "ROX"],
      ["ReadWriteMany", "RWX"],
      ["ReadWriteOncePod", "RWOP"],
    ] as const
  )
    .filter(([mode]) => modes.has(mode))
    .map(([, short]) => short)
    .join(",");
}

/** The storage class of a claim or volume: spec.storageClassName, else the beta annotation, else "". */
function storageClassOf(object: ApiObject): string {
  const spec = record(object["spec"]);
  if (typeof spec["storageClassName"] === "string") return spec["storageClassName"];
  return text(record(record(object["metadata"])["annotations"])["volume.beta.kubernetes.io/storage-class"]);
}

function phaseOf(object: ApiObject): string {
  const deleting = record(object["metadata"])["deletionTimestamp"];
  return deleting !== undefined && deleting !== null ? "Terminating" : text(record(object["status"])["phase"]);
}

// A quantity is printed as stored: the server keeps what the client sent, not Kubernetes' canonical form.
function storageOf(resources: unknown): string {
  const storage = record(resources)["storage"];
  return typeof storage === "number" ? String(storage) : text(storage);
}

/** printPersistentVolumeClaim: Name, Status, Volume, Capacity and Access Modes (once bound), StorageClass, Age, VolumeMode. */
export function printPersistentVolumeClaim(claim: ApiObject, clock: Now): PrintedRow {
  const spec = record(claim["spec"]);
  const status = record(claim["status"]);
  const volumeName = text(spec["volumeName"]);
  const bound = volumeName !== "";
  return {
    cells: [
      nameOf(claim),
      phaseOf(claim),
      volumeName,
      bound ? storageOf(status["capacity"]) : "",
      bound ? accessModes(status["accessModes"]) : "",
      storageClassOf(claim),
      ageOf(claim, clock),
      typeof spec["volumeMode"] === "string" ? spec["volumeMode"] : "<unset>",
    ],
  };
}

/** printPersistentVolume: Name, Capacity, Access Modes, Reclaim Policy, Status, Claim (namespace/name), StorageClass, Reason, Age, VolumeMode. */
export function printPersistentVolume(volume: ApiObject, clock: Now): PrintedRow {
  const spec = record(volume["spec"]);
  const claimRef = spec["claimRef"];
  return {
    cells: [
      nameOf(volume),
      storageOf(spec["capacity"]),
      accessModes(spec["accessModes"]),
      text(spec["persistentVolumeReclaimPolicy"]),
      phaseOf(volume),
      claimRef === undefined || claimRef === null ? "" : `${text(record(claimRef)["namespace"])}/${text(record(claimRef)["name"])}`,
      storageClassOf(volume),
      text(record(volume["status"])["reason"]),
      ageOf(volume, clock),
      typeof spec["volumeMode"] === "string" ? spec["volumeMode"] : "<unset>",
    ],
  };
}

/** net.JoinHostPort: brackets around an IPv6 address. */
function joinHostPort(host: string, port: number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

/** formatEndpoints: up to three address:port pairs (per port, per address), then " + N more...", or "<none>". */
export function formatEndpoints(subsets: unknown): string {
  const all = list(subsets).map(record);
  if (all.length === 0) return "<none>";
  const shown: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const subset of all) {
    const addresses = list(subset["addresses"]).map(record);
    const ports = list(subset["ports"]).map(record);
    if (ports.length === 0) {
      count += addresses.length;
      for (const address of addresses) {
        if (shown.length === max) more = true;
        if (!more) shown.push(text(address["ip"]));
      }
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      for (const address of addresses) {
        if (shown.length === max) {
          more = true;
          break;
        }
        shown.push(joinHostPort(text(address["ip"]), integer(port["port"])));
      }
    }
  }
  return more ? `${shown.join(",")} + ${count - max} more...` : shown.join(",");
}

/** printEndpoints: Name, Endpoints, Age. */
export function printEndpoints(endpoints: ApiObject, clock: Now): PrintedRow {
  return { cells: [nameOf(endpoints), formatEndpoints(endpoints["subsets"]), ageOf(endpoints, clock)] };
}

/** printIngressClass: Name, Controller, Parameters (Kind.apiGroup/name or "<none>"), Age. */
export function printIngressClass(ingressClass: ApiObject, clock: Now): PrintedRow {
  const spec = record(ingressClass["spec"]);
  const parameters = spec["parameters"];
  let shown = "<none>";
  if (parameters !== undefined && parameters !== null) {
    const p = record(parameters);
    shown = `${text(p["kind"])}${typeof p["apiGroup"] === "string" ? `.${p["apiGroup"]}` : ""}/${text(p["name"])}`;
  }
  return { cells: [nameOf(ingressClass), text(spec["controller"]), shown, ageOf(ingressClass, clock)] };
}

/** printNetworkPolicy: Name, Pod-Selector, Age. */
export function printNetworkPolicy(policy: ApiObject, clock: Now): PrintedRow {
  // The pod selector is a struct, never nil: an absent one selects everything ("<none>").
  return { cells: [nameOf(policy), formatLabelSelector(record(record(policy["spec"])["podSelector"])), ageOf(policy, clock)] };
}

/** An IntOrString as Go's String(), or "N/A" when unset (printPodDisruptionBudget). */
function intOrStringOrNA(value: unknown): string {
  if (typeof value === "number") return String(Math.trunc(value));
  if (typeof value === "string") return value;
  return "N/A";
}

/** printPodDisruptionBudget: Name, Min Available, Max Unavailable, Allowed Disruptions, Age. */
export function printPodDisruptionBudget(budget: ApiObject, clock: Now): PrintedRow {
  const spec = record(budget["spec"]);
  return {
    cells: [nameOf(budget), intOrStringOrNA(spec["minAvailable"]), intOrStringOrNA(spec["maxUnavailable"]), integer(record(budget["status"])["disruptionsAllowed"]), ageOf(budget, clock)],
  };
}

/** printStorageClass: Name (with " (default)" for the default class), Provisioner, ReclaimPolicy, VolumeBindingMode, AllowVolumeExpansion, Age. */
export function printStorageClass(storageClass: ApiObject, clock: Now): PrintedRow {
  const annotations = record(record(storageClass["metadata"])["annotations"]);
  const isDefault = annotations["storageclass.kubernetes.io/is-default-class"] === "true" || annotations["storageclass.beta.kubernetes.io/is-default-class"] === "true";
  return {
    cells: [
      isDefault ? `${nameOf(storageClass)} (default)` : nameOf(storageClass),
      text(storageClass["provisioner"]),
      typeof storageClass["reclaimPolicy"] === "string" ? storageClass["reclaimPolicy"] : "Delete",
      typeof storageClass["volumeBindingMode"] === "string" ? storageClass["volumeBindingMode"] : "Immediate",
      storageClass["allowVolumeExpansion"] === true,
      ageOf(storageClass, clock),
    ],
  };
}

/** printPriorityClass: Name, Value, Global-Default, Age. */
export function printPriorityClass(priorityClass: ApiObject, clock: Now): PrintedRow {
  return { cells: [nameOf(priorityClass), integer(priorityClass["value"]), priorityClass["globalDefault"] === true, ageOf(priorityClass, clock)] };
}

/** printControllerRevision: Name, Controller (kind.group/name of the controlling owner, lower-case kind, or "<none>"), Revision, Age. */
export function printControllerRevision(revision: ApiObject, clock: Now): PrintedRow {
  const owner = list(record(revision["metadata"])["ownerReferences"])
    .map(record)
    .find((reference) => reference["controller"] === true);
  let controller = "<none>";
  if (owner !== undefined) {
    const apiVersion = text(owner["apiVersion"]);
    const group = apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";
    const kind = text(owner["kind"]);
    controller = kind === "" ? text(owner["name"]) : `${(group === "" ? kind : `${kind}.${group}`).toLowerCase()}/${text(owner["name"])}`;
  }
  return { cells: [nameOf(revision), controller, integer(revision["revision"]), ageOf(revision, clock)] };
}

/** printResourceQuota: Name, Age, Request and Limit ("name: used/hard" per resource of status.hard, sorted; limits.* in Limit). */
export function printResourceQuota(quota: ApiObject, clock: Now): PrintedRow {
  const status = record(quota["status"]);
  const hard = record(status["hard"]);
  const used = record(status["used"]);
  const requests: string[] = [];
  const limits: string[] = [];
  const quantity = (value: unknown) => (typeof value === "number" ? String(value) : typeof value === "string" ? value : "0");
  for (const resource of Object.keys(hard).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const pieces = resource.split(".");
    (pieces.length > 1 && pieces[0] === "limits" ? limits : requests).push(`${resource}: ${quantity(used[resource])}/${quantity(hard[resource])}`);
  }
  return { cells: [nameOf(quota), ageOf(quota, clock), requests.join(", "), limits.join(", ")] };
}

/** listWithMoreString: the first three, then " + N more...", or "<unset>" for none. */
function listWithMore(items: readonly string[], max = 3): string {
  const shown = items.slice(0, max).join(",");
  if (items.length > max) return `${shown} + ${items.length - max} more...`;
  return shown === "" ? "<unset>" : shown;
}

/** printIngress: Name, Class (ingressClassName or "<none>"), Hosts, Address, Ports ("80", or "80, 443" with TLS), Age. */
export function printIngress(ingress: ApiObject, clock: Now): PrintedRow {
  const spec = record(ingress["spec"]);
  const rules = list(spec["rules"]).map(record);
  // formatHosts: up to three hosts of rules that name one, "*" for none.
  const hosts = rules.map((rule) => text(rule["host"])).slice(0, 3).filter((host) => host !== "");
  let hostsCell = hosts.length === 0 ? "*" : hosts.join(",");
  if (hosts.length > 0 && rules.length > 3) hostsCell = `${hostsCell} + ${rules.length - 3} more...`;
  const addresses = new Set<string>();
  for (const entry of list(record(record(ingress["status"])["loadBalancer"])["ingress"]).map(record)) {
    const address = text(entry["ip"]) || text(entry["hostname"]);
    if (address !== "") addresses.add(address);
  }
  const className = typeof spec["ingressClassName"] === "string" ? spec["ingressClassName"] : "<none>";
  const ports = list(spec["tls"]).length > 0 ? "80, 443" : "80";
  return { cells: [nameOf(ingress), className, hostsCell, [...addresses].sort().join(","), ports, ageOf(ingress, clock)] };
}

/** printEndpointSlice: Name, AddressType, Ports (port, else name, else "*"), Endpoints (addresses), Age. */
export function printEndpointSlice(slice: ApiObject, clock: Now): PrintedRow {
  const ports = list(slice["ports"])
    .map(record)
    .map((port) => (typeof port["port"] === "number" ? String(port["port"]) : typeof port["name"] === "string" ? port["name"] : "*"));
  const addresses = list(slice["endpoints"]).flatMap((endpoint) => list(record(endpoint)["addresses"]).map(text));
  return { cells: [nameOf(slice), text(slice["addressType"]), listWithMore(ports), listWithMore(addresses), ageOf(slice, clock)] };
}

/** One metric's `current/target` (formatHPAMetrics), from its spec and the status entry at the same index. */
function hpaMetric(spec: Readonly<Record<string, unknown>>, status: Readonly<Record<string, unknown>>): string {
  const quantity = (value: unknown): string => (typeof value === "string" ? value : typeof value === "number" ? String(value) : "<unknown>");
  const source = (type: string, field: string) => [record(spec[field]), record(status[field]), status["type"] === type && status[field] !== undefined] as const;
  const valueOrAverage = ([metric, current, measured]: readonly [Readonly<Record<string, unknown>>, Readonly<Record<string, unknown>>, boolean]): string => {
    const target = record(metric["target"]);
    const now = record(current["current"]);
    if (target["averageValue"] !== undefined) return `${measured && now["averageValue"] !== undefined ? quantity(now["averageValue"]) : "<unknown>"}/${quantity(target["averageValue"])} (avg)`;
    return `${measured ? quantity(now["value"]) : "<unknown>"}/${quantity(target["value"])}`;
  };
  const utilization = ([metric, current, measured]: readonly [Readonly<Record<string, unknown>>, Readonly<Record<string, unknown>>, boolean]): string => {
    const target = record(metric["target"]);
    const now = record(current["current"]);
    if (target["averageValue"] !== undefined) return `${measured ? quantity(now["averageValue"]) : "<unknown>"}/${quantity(target["averageValue"])}`;
    const currentText = measured && typeof now["averageUtilization"] === "number" ? `${now["averageUtilization"]}%` : "<unknown>";
    const targetText = typeof target["averageUtilization"] === "number" ? `${target["averageUtilization"]}%` : "<auto>";
    return `${currentText}/${targetText}`;
  };
  switch (spec["type"]) {
    case "External":
      return valueOrAverage(source("External", "external"));
    case "Object":
      return valueOrAverage(source("Object", "object"));
    case "Pods": {
      const [metric, current, measured] = source("Pods", "pods");
      return `${measured ? quantity(record(current["current"])["averageValue"]) : "<unknown>"}/${quantity(record(metric["target"])["averageValue"])}`;
    }
    case "Resource":
      return utilization(source("Resource", "resource"));
    case "ContainerResource":
      return utilization(source("ContainerResource", "containerResource"));
    default:
      return "<unknown type>";
  }
}

/** printHorizontalPodAutoscaler: Name, Reference (Kind/name), Targets (formatHPAMetrics: two, then "+ N more..."), MinPods ("<unset>"), MaxPods, Replicas, Age. */
export function printHorizontalPodAutoscaler(hpa: ApiObject, clock: Now): PrintedRow {
  const spec = record(hpa["spec"]);
  const status = record(hpa["status"]);
  const target = record(spec["scaleTargetRef"]);
  const metrics = list(spec["metrics"]).map(record);
  const current = list(status["currentMetrics"]).map(record);
  const shown = metrics.slice(0, 2).map((metric, index) => hpaMetric(metric, current[index] ?? {}));
  const targets = metrics.length === 0 ? "<none>" : `${shown.join(", ")}${metrics.length > 2 ? ` + ${metrics.length - 2} more...` : ""}`;
  const minPods = typeof spec["minReplicas"] === "number" ? String(spec["minReplicas"]) : "<unset>";
  const reference = `${text(target["kind"])}/${text(target["name"])}`;
  return { cells: [nameOf(hpa), reference, targets, minPods, integer(spec["maxReplicas"]), integer(status["currentReplicas"]), ageOf(hpa, clock)] };
}

const PRINTERS: Readonly<Record<string, (object: ApiObject, clock: Now) => PrintedRow>> = {
  "/serviceaccounts": printServiceAccount,
  "rbac.authorization.k8s.io/rolebindings": printRoleBinding,
  "rbac.authorization.k8s.io/clusterrolebindings": printRoleBinding,
  "batch/jobs": printJob,
  "batch/cronjobs": printCronJob,
  "apps/statefulsets": printStatefulSet,
  "apps/replicasets": printReplicaSet,
  "apps/daemonsets": printDaemonSet,
  "/replicationcontrollers": printReplicationController,
  "/persistentvolumeclaims": printPersistentVolumeClaim,
  "/persistentvolumes": printPersistentVolume,
  "/endpoints": printEndpoints,
  "networking.k8s.io/ingressclasses": printIngressClass,
  "networking.k8s.io/networkpolicies": printNetworkPolicy,
  "policy/poddisruptionbudgets": printPodDisruptionBudget,
  "storage.k8s.io/storageclasses": printStorageClass,
  "scheduling.k8s.io/priorityclasses": printPriorityClass,
  "apps/controllerrevisions": printControllerRevision,
  "/resourcequotas": printResourceQuota,
  "networking.k8s.io/ingresses": printIngress,
  "discovery.k8s.io/endpointslices": printEndpointSlice,
  "autoscaling/horizontalpodautoscalers": printHorizontalPodAutoscaler,
};

/** The printer of a served recorded type (its group in `dialect`, its plural): its recorded columns and its printer, or the default table; undefined for any other type. */
export function recordedTablePrinter(type: Pick<ResourceType, "group" | "resource">, dialect: Dialect): TablePrinter | undefined {
  const recorded = servedRecordedType(type.group, type.resource, dialect);
  if (recorded === undefined) return undefined;
  const print = PRINTERS[`${recorded.group}/${type.resource}`];
  if (print === undefined) return defaultTablePrinter;
  return { columns: recorded.columns, isDefault: false, print };
}
