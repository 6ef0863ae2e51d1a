/**
 * What kube-apiserver 1.26.4 adds when it creates objects of the recorded built-in types
 * (routing/recorded-types.ts), checked against the recorded create answers in
 * builtin-types-data/ by recorded-types.test.ts. The defaulting (not the create-only parts named
 * below) also runs on every update and patch, as decoding does in kube-apiserver
 * (type-strategy.ts's prepareForUpdate):
 *
 * - a type with a status subresource starts with the empty status the recording shows (Kubernetes'
 *   PrepareForCreate drops the status sent; StatefulSetStatus has two non-omitempty fields, so
 *   `{replicas: 0, availableReplicas: 0}`, the others `{}`);
 * - a type whose recorded create answer has `metadata.generation` starts at 1 and counts spec
 *   changes (type-defaults.ts's tracksGeneration);
 * - Job (batch/v1 SetDefaults_Job, the job strategy's generateSelector and its tracking
 *   annotation): parallelism and completions 1 when both are unset, parallelism 1, backoffLimit 6,
 *   completionMode NonIndexed, suspend false; the selector `controller-uid=<uid>` and the template
 *   labels controller-uid and job-name; the object's labels are the template's when it has none;
 *   the annotation `batch.kubernetes.io/job-tracking: ""`;
 * - CronJob (SetDefaults_CronJob): concurrencyPolicy Allow, suspend false, history limits 3 and 1;
 * - StatefulSet (apps/v1 SetDefaults_StatefulSet with 1.26's default feature gates): replicas 1,
 *   podManagementPolicy OrderedReady, updateStrategy RollingUpdate with partition 0,
 *   revisionHistoryLimit 10;
 * - ReplicaSet (apps/v1 SetDefaults_ReplicaSet): replicas 1;
 * - DaemonSet (SetDefaults_DaemonSet and the daemonset strategy): updateStrategy RollingUpdate with
 *   maxUnavailable 1 and maxSurge 0, revisionHistoryLimit 10, the annotation
 *   `deprecated.daemonset.template.generation: "1"` (on create only: an update that changes the
 *   template does not bump it here);
 * - ReplicationController (core/v1 SetDefaults_ReplicationController): the selector and the
 *   object's labels are the template's labels when unset, replicas 1;
 * - PersistentVolumeClaim: volumeMode Filesystem (status phase Pending, as recorded);
 * - PersistentVolume: persistentVolumeReclaimPolicy Retain, volumeMode Filesystem, a hostPath's
 *   type "" (status phase Pending, as recorded);
 * - Endpoints, NetworkPolicy: ports' protocol TCP; NetworkPolicy policyTypes [Ingress] (and Egress
 *   with egress rules) when unset;
 * - IngressClass: parameters.scope Cluster; StorageClass: reclaimPolicy Delete, volumeBindingMode
 *   Immediate; PriorityClass: preemptionPolicy PreemptLowerPriority;
 *   PodDisruptionBudget: its recorded empty status (four zero counts); ControllerRevision: nothing;
 * - LimitRange (SetDefaults_LimitRangeItem, Container items): the default limit from max, the
 *   default request from the default limit, then from min (quantities copied as sent);
 * - EndpointSlice: ports' name "" and protocol TCP, each endpoint's conditions {};
 * - ResourceQuota and Ingress: their recorded empty status ({} and {loadBalancer: {}});
 * - every pod template (SetDefaults_PodSpec and SetDefaults_Container, no admission plugins: a
 *   template is not a Pod): restartPolicy Always, terminationGracePeriodSeconds 30, dnsPolicy
 *   ClusterFirst, securityContext {}, schedulerName default-scheduler; per container resources {},
 *   the termination message path and policy, the image pull policy, and TCP for ports; the
 *   template's `metadata.creationTimestamp: null`, as Go writes an empty ObjectMeta.
 *
 * Left out: the finalizers kubernetes.io/pvc-protection and kubernetes.io/pv-protection that
 * kube-apiserver's StorageObjectInUseProtection admission adds (only a controller of a real
 * cluster removes them, so here a deleted claim or volume would never go away); the storage class a
 * DefaultStorageClass admission writes into a new claim when a default class exists; what
 * controllers write later (a Job's status, start time, pods; a CronJob's jobs; a
 * StatefulSet's pods and status), and defaults of optional parts the samples do not use
 * (podFailurePolicy rules, volume sources, probes' thresholds).
 */
import type { StoredObject } from "../../store/stored-object.ts";
import { recordedTypesData } from "../routing/recorded-types.ts";
import type { ResourceType } from "../routing/resource-types.ts";

type Json = Record<string, unknown>;

function record(value: unknown): Json {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}

/** Whether the recorded create answer of `type` carries metadata.generation (Kubernetes counts spec changes for it). */
export function recordedTypeTracksGeneration(type: ResourceType): boolean {
  if (type.recorded !== true) return false;
  const created = recordedTypesData().types[type.resource]?.sample?.created;
  return created !== undefined && record(created["metadata"])["generation"] !== undefined;
}

/** The status a new object of `type` starts with, as recorded (undefined: the type has no status subresource). */
function recordedEmptyStatus(type: ResourceType): Json | undefined {
  if (type.subresources["status"] === undefined) return undefined;
  const created = recordedTypesData().types[type.resource]?.sample?.created;
  return created === undefined ? {} : record(created["status"]);
}

/** `object` with what kube-apiserver adds on create to an object of a recorded type: its defaulting, the strategy's PrepareForCreate. */
export function withRecordedTypeDefaults(type: ResourceType, object: StoredObject): StoredObject {
  let next = withDefaults(type, object, true);
  const status = recordedEmptyStatus(type);
  if (status !== undefined) next = { ...next, status: structuredClone(status) };
  if (recordedTypeTracksGeneration(type)) next = { ...next, metadata: { ...record(next["metadata"]), generation: 1 } };
  return next as StoredObject;
}

/**
 * `object` with the defaulting kube-apiserver applies when it decodes any write of a recorded type
 * (an update or patch too: a field a client drops comes back), without what only creating does
 * (a Job's selector and tracking annotation, a DaemonSet's template generation, the empty status).
 */
export function withRecordedTypeDecodeDefaults(type: ResourceType, object: StoredObject): StoredObject {
  return withDefaults(type, object, false) as StoredObject;
}

function withDefaults(type: ResourceType, object: StoredObject, create: boolean): Json {
  let next: Json = { ...object };
  if (type.group === "batch" && type.kind === "Job") next = withJobDefaults(next, object.metadata.name, String(object.metadata["uid"] ?? ""), create);
  if (type.group === "batch" && type.kind === "CronJob") next = withCronJobDefaults(next);
  if (type.group === "apps" && type.kind === "StatefulSet") next = withStatefulSetDefaults(next);
  if (type.group === "apps" && type.kind === "ReplicaSet") next = withReplicaSetDefaults(next);
  if (type.group === "apps" && type.kind === "DaemonSet") next = withDaemonSetDefaults(next, create);
  if (type.group === "" && type.kind === "ReplicationController") next = withReplicationControllerDefaults(next);
  if (type.group === "" && type.kind === "PersistentVolumeClaim") next = withSpecDefaults(next, { volumeMode: "Filesystem" });
  if (type.group === "" && type.kind === "PersistentVolume") next = withPersistentVolumeDefaults(next);
  if (type.group === "" && type.kind === "Endpoints") next = withEndpointsDefaults(next);
  if (type.kind === "IngressClass") next = withIngressClassDefaults(next);
  if (type.kind === "NetworkPolicy") next = withNetworkPolicyDefaults(next);
  if (type.group === "storage.k8s.io" && type.kind === "StorageClass") next = withTopLevelDefaults(next, { reclaimPolicy: "Delete", volumeBindingMode: "Immediate" });
  if (type.group === "" && type.kind === "LimitRange") next = withLimitRangeDefaults(next);
  if (type.group === "discovery.k8s.io" && type.kind === "EndpointSlice") next = withEndpointSliceDefaults(next);
  if (type.group === "scheduling.k8s.io" && type.kind === "PriorityClass") next = withTopLevelDefaults(next, { preemptionPolicy: "PreemptLowerPriority" });
  return next;
}

function withJobDefaults(job: Json, name: string, uid: string, create: boolean): Json {
  const spec = record(job["spec"]);
  const template = record(spec["template"]);
  const templateMetadata = record(template["metadata"]);
  const originalTemplateLabels = templateMetadata["labels"] as Record<string, string> | undefined | null;
  const templateLabels = { ...(originalTemplateLabels ?? {}) };
  // The job strategy's PrepareForCreate (generateSelector), unless the client manages the selector.
  const generate = create && spec["manualSelector"] !== true;
  if (generate) {
    templateLabels["controller-uid"] ??= uid;
    templateLabels["job-name"] ??= name;
  }
  const selector = record(spec["selector"]);
  const matchLabels = { ...record(selector["matchLabels"]) };
  if (generate) matchLabels["controller-uid"] ??= uid;
  const bothUnset = spec["completions"] == null && spec["parallelism"] == null;
  const templateWithLabels = originalTemplateLabels == null && !generate ? template : { ...template, metadata: { ...templateMetadata, labels: templateLabels } };
  const defaultedSpec: Json = {
    ...spec,
    parallelism: spec["parallelism"] ?? 1,
    ...(bothUnset && { completions: 1 }),
    backoffLimit: spec["backoffLimit"] ?? 6,
    ...(generate ? { selector: { ...selector, matchLabels } } : spec["selector"] !== undefined && { selector: spec["selector"] }),
    template: withPodTemplateDefaults(templateWithLabels),
    completionMode: spec["completionMode"] ?? "NonIndexed",
    suspend: spec["suspend"] ?? false,
  };
  const metadata = record(job["metadata"]);
  const labels = record(metadata["labels"]);
  // SetDefaults_Job shares the template's label map when the Job has no labels, so the selector labels show there too.
  const jobLabels = Object.keys(labels).length === 0 && originalTemplateLabels != null ? { ...templateLabels } : metadata["labels"];
  return {
    ...job,
    metadata: {
      ...metadata,
      ...(jobLabels !== undefined && { labels: jobLabels }),
      // The job strategy's PrepareForCreate marks new Jobs as tracked with finalizers.
      ...(create && { annotations: { ...record(metadata["annotations"]), "batch.kubernetes.io/job-tracking": "" } }),
    },
    spec: defaultedSpec,
  };
}

function withCronJobDefaults(cronJob: Json): Json {
  const spec = record(cronJob["spec"]);
  const jobTemplate = record(spec["jobTemplate"]);
  const jobSpec = record(jobTemplate["spec"]);
  return {
    ...cronJob,
    spec: {
      ...spec,
      concurrencyPolicy: spec["concurrencyPolicy"] ?? "Allow",
      suspend: spec["suspend"] ?? false,
      jobTemplate: {
        ...jobTemplate,
        metadata: { creationTimestamp: null, ...record(jobTemplate["metadata"]) },
        spec: { ...jobSpec, template: withPodTemplateDefaults(record(jobSpec["template"])) },
      },
      successfulJobsHistoryLimit: spec["successfulJobsHistoryLimit"] ?? 3,
      failedJobsHistoryLimit: spec["failedJobsHistoryLimit"] ?? 1,
    },
  };
}

function withStatefulSetDefaults(statefulSet: Json): Json {
  const spec = record(statefulSet["spec"]);
  let updateStrategy = record(spec["updateStrategy"]);
  if (updateStrategy["type"] === undefined || updateStrategy["type"] === "") {
    updateStrategy = { ...updateStrategy, type: "RollingUpdate", rollingUpdate: updateStrategy["rollingUpdate"] ?? {} };
  }
  if (updateStrategy["type"] === "RollingUpdate" && updateStrategy["rollingUpdate"] != null) {
    const rollingUpdate = record(updateStrategy["rollingUpdate"]);
    updateStrategy = { ...updateStrategy, rollingUpdate: { ...rollingUpdate, partition: rollingUpdate["partition"] ?? 0 } };
  }
  return {
    ...statefulSet,
    spec: {
      ...spec,
      replicas: spec["replicas"] ?? 1,
      template: withPodTemplateDefaults(record(spec["template"])),
      podManagementPolicy: spec["podManagementPolicy"] || "OrderedReady",
      updateStrategy,
      revisionHistoryLimit: spec["revisionHistoryLimit"] ?? 10,
    },
  };
}

function withReplicaSetDefaults(replicaSet: Json): Json {
  const spec = record(replicaSet["spec"]);
  return { ...replicaSet, spec: { ...spec, replicas: spec["replicas"] ?? 1, template: withPodTemplateDefaults(record(spec["template"])) } };
}

function withDaemonSetDefaults(daemonSet: Json, create: boolean): Json {
  const spec = record(daemonSet["spec"]);
  let updateStrategy = record(spec["updateStrategy"]);
  if (updateStrategy["type"] === undefined || updateStrategy["type"] === "") {
    updateStrategy = { ...updateStrategy, type: "RollingUpdate", rollingUpdate: updateStrategy["rollingUpdate"] ?? {} };
  }
  if (updateStrategy["type"] === "RollingUpdate") {
    const rollingUpdate = record(updateStrategy["rollingUpdate"]);
    updateStrategy = { ...updateStrategy, rollingUpdate: { ...rollingUpdate, maxUnavailable: rollingUpdate["maxUnavailable"] ?? 1, maxSurge: rollingUpdate["maxSurge"] ?? 0 } };
  }
  const metadata = record(daemonSet["metadata"]);
  return {
    ...daemonSet,
    // The daemonset strategy's PrepareForCreate: the template generation (1) as an annotation.
    ...(create && { metadata: { ...metadata, annotations: { ...record(metadata["annotations"]), "deprecated.daemonset.template.generation": "1" } } }),
    spec: { ...spec, template: withPodTemplateDefaults(record(spec["template"])), updateStrategy, revisionHistoryLimit: spec["revisionHistoryLimit"] ?? 10 },
  };
}

function withTopLevelDefaults(object: Json, defaults: Json): Json {
  const next = { ...object };
  for (const [field, value] of Object.entries(defaults)) if (next[field] === undefined || next[field] === null || next[field] === "") next[field] = value;
  return next;
}

function withSpecDefaults(object: Json, defaults: Json): Json {
  return { ...object, spec: withTopLevelDefaults(record(object["spec"]), defaults) };
}

/** Ports of a list of Ports (EndpointPort, NetworkPolicyPort) with protocol TCP where unset. */
function withTcpPorts(ports: unknown): unknown {
  return Array.isArray(ports) ? ports.map((port) => ({ ...record(port), protocol: record(port)["protocol"] || "TCP" })) : ports;
}

function withReplicationControllerDefaults(controller: Json): Json {
  const spec = record(controller["spec"]);
  const template = record(spec["template"]);
  const templateLabels = record(record(template["metadata"])["labels"]);
  const metadata = record(controller["metadata"]);
  const hasTemplateLabels = Object.keys(templateLabels).length > 0;
  const selector = Object.keys(record(spec["selector"])).length === 0 && hasTemplateLabels ? { ...templateLabels } : spec["selector"];
  const labels = Object.keys(record(metadata["labels"])).length === 0 && hasTemplateLabels ? { ...templateLabels } : metadata["labels"];
  return {
    ...controller,
    metadata: { ...metadata, ...(labels !== undefined && { labels }) },
    spec: { ...spec, replicas: spec["replicas"] ?? 1, ...(selector !== undefined && { selector }), ...(spec["template"] !== undefined && { template: withPodTemplateDefaults(template) }) },
  };
}

function withPersistentVolumeDefaults(volume: Json): Json {
  const spec = withTopLevelDefaults(record(volume["spec"]), { persistentVolumeReclaimPolicy: "Retain", volumeMode: "Filesystem" });
  if (spec["hostPath"] !== undefined && spec["hostPath"] !== null) spec["hostPath"] = { ...record(spec["hostPath"]), type: record(spec["hostPath"])["type"] ?? "" };
  return { ...volume, spec };
}

function withEndpointsDefaults(endpoints: Json): Json {
  const subsets = endpoints["subsets"];
  if (!Array.isArray(subsets)) return endpoints;
  return { ...endpoints, subsets: subsets.map((subset) => ({ ...record(subset), ...(record(subset)["ports"] !== undefined && { ports: withTcpPorts(record(subset)["ports"]) }) })) };
}

function withIngressClassDefaults(ingressClass: Json): Json {
  const spec = record(ingressClass["spec"]);
  const parameters = spec["parameters"];
  if (parameters === undefined || parameters === null) return ingressClass;
  return { ...ingressClass, spec: { ...spec, parameters: { ...record(parameters), scope: record(parameters)["scope"] ?? "Cluster" } } };
}

function withNetworkPolicyDefaults(policy: Json): Json {
  const spec = record(policy["spec"]);
  const rules = (list: unknown) => (Array.isArray(list) ? list.map((rule) => ({ ...record(rule), ...(record(rule)["ports"] !== undefined && { ports: withTcpPorts(record(rule)["ports"]) }) })) : list);
  const egress = spec["egress"];
  const policyTypes = Array.isArray(spec["policyTypes"]) && spec["policyTypes"].length > 0 ? spec["policyTypes"] : ["Ingress", ...(Array.isArray(egress) && egress.length > 0 ? ["Egress"] : [])];
  return {
    ...policy,
    spec: { ...spec, ...(spec["ingress"] !== undefined && { ingress: rules(spec["ingress"]) }), ...(egress !== undefined && { egress: rules(egress) }), policyTypes },
  };
}

function withLimitRangeDefaults(limitRange: Json): Json {
  const spec = record(limitRange["spec"]);
  const limits = spec["limits"];
  if (!Array.isArray(limits)) return limitRange;
  const defaulted = limits.map((entry) => {
    const item = record(entry);
    if (item["type"] !== "Container") return item;
    // SetDefaults_LimitRangeItem: the default limit from max, the default request from the default limit, then from min.
    const limit: Json = { ...record(item["max"]), ...record(item["default"]) };
    const request: Json = { ...record(item["min"]), ...limit, ...record(item["defaultRequest"]) };
    return { ...item, ...(Object.keys(limit).length > 0 && { default: limit }), ...(Object.keys(request).length > 0 && { defaultRequest: request }) };
  });
  return { ...limitRange, spec: { ...spec, limits: defaulted } };
}

function withEndpointSliceDefaults(slice: Json): Json {
  const ports = slice["ports"];
  const endpoints = slice["endpoints"];
  return {
    ...slice,
    ...(Array.isArray(ports) && { ports: ports.map((port) => ({ ...record(port), name: record(port)["name"] ?? "", protocol: record(port)["protocol"] || "TCP" })) }),
    // Endpoint.conditions is a struct: Go writes {} when it is unset.
    ...(Array.isArray(endpoints) && { endpoints: endpoints.map((endpoint) => ({ ...record(endpoint), conditions: record(endpoint)["conditions"] ?? {} })) }),
  };
}

/** A pod template with the defaults of SetDefaults_PodSpec and SetDefaults_Container (no admission: a template is not a Pod). */
export function withPodTemplateDefaults(template: Json): Json {
  const spec = record(template["spec"]);
  const containers = (list: unknown) => (Array.isArray(list) ? list.map((container) => withContainerDefaults(record(container))) : list);
  return {
    ...template,
    metadata: { creationTimestamp: null, ...record(template["metadata"]) },
    spec: {
      ...spec,
      ...(spec["initContainers"] !== undefined && { initContainers: containers(spec["initContainers"]) }),
      containers: containers(spec["containers"]),
      restartPolicy: spec["restartPolicy"] || "Always",
      terminationGracePeriodSeconds: spec["terminationGracePeriodSeconds"] ?? 30,
      dnsPolicy: spec["dnsPolicy"] || "ClusterFirst",
      securityContext: spec["securityContext"] ?? {},
      schedulerName: spec["schedulerName"] || "default-scheduler",
    },
  };
}

function withContainerDefaults(container: Json): Json {
  const ports = container["ports"];
  return {
    ...container,
    ...(Array.isArray(ports) && { ports: ports.map((port) => ({ ...record(port), protocol: record(port)["protocol"] || "TCP" })) }),
    resources: container["resources"] ?? {},
    terminationMessagePath: container["terminationMessagePath"] || "/dev/termination-log",
    terminationMessagePolicy: container["terminationMessagePolicy"] || "File",
    imagePullPolicy: container["imagePullPolicy"] || defaultPullPolicy(String(container["image"] ?? "")),
  };
}

/** Always for `:latest` or an untagged image, else IfNotPresent (SetDefaults_Container). */
function defaultPullPolicy(image: string): string {
  if (image.includes("@")) return "IfNotPresent";
  const lastSegment = image.slice(image.lastIndexOf("/") + 1);
  const tag = lastSegment.includes(":") ? lastSegment.slice(lastSegment.indexOf(":") + 1) : "latest";
  return tag === "latest" ? "Always" : "IfNotPresent";
}
