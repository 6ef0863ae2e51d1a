/**
 * Records what a real kube-apiserver says about the built-in types the embedded server serves
 * beyond its first nine kinds, so that their table entries, Table columns and defaults are read
 * from data rather than written by hand (sim/apiserver/routing/builtin-types-data/README.md).
 *
 *   npx tsx conformance/record/record-builtin-types.ts --kube-assets DIR [--out FILE]
 *
 * It starts a control plane from the binaries in DIR (conformance/control-plane/kube-control-plane.ts,
 * default profile plus record-openapi.ts's APISERVER_FLAGS), and per type of RECORDED_TYPES reads
 * its discovery entry and those of its subresources, the Table column definitions of its
 * collection, and for the types with a sample: the object the server answers to creating it (its
 * defaults) and the cells of its Table row. It works in a namespace it creates and deletes, names
 * cluster-scoped samples `orb-record-*` and deletes them; it stops the control plane and removes
 * its scratch directory, on error too. Volatile values (uid, resourceVersion, times, the
 * namespace's name) are replaced by placeholders and managedFields left out, so the same server
 * gives the same file.
 */
import { writeFileSync } from "node:fs";
import { Agent, fetch } from "undici";
import { runIfMain, type RecordingSession } from "./recorder-main.ts";
import { APISERVER_FLAGS } from "./record-openapi.ts";

type Json = any;

/** The types recorded, in the priority order: group, version, plural. */
export const RECORDED_TYPES: ReadonlyArray<readonly [group: string, version: string, resource: string]> = [
  ["", "v1", "serviceaccounts"],
  ["rbac.authorization.k8s.io", "v1", "roles"],
  ["rbac.authorization.k8s.io", "v1", "rolebindings"],
  ["rbac.authorization.k8s.io", "v1", "clusterroles"],
  ["rbac.authorization.k8s.io", "v1", "clusterrolebindings"],
  ["batch", "v1", "jobs"],
  ["batch", "v1", "cronjobs"],
  ["apps", "v1", "statefulsets"],
  ["apps", "v1", "replicasets"],
  ["apps", "v1", "daemonsets"],
  ["", "v1", "persistentvolumeclaims"],
  ["", "v1", "persistentvolumes"],
  ["", "v1", "endpoints"],
  ["", "v1", "limitranges"],
  ["", "v1", "resourcequotas"],
  ["", "v1", "replicationcontrollers"],
  ["networking.k8s.io", "v1", "ingresses"],
  ["networking.k8s.io", "v1", "ingressclasses"],
  ["networking.k8s.io", "v1", "networkpolicies"],
  ["policy", "v1", "poddisruptionbudgets"],
  ["storage.k8s.io", "v1", "storageclasses"],
  ["discovery.k8s.io", "v1", "endpointslices"],
  ["scheduling.k8s.io", "v1", "priorityclasses"],
  ["autoscaling", "v2", "horizontalpodautoscalers"],
  ["apps", "v1", "controllerrevisions"],
];

const POD_TEMPLATE = (app: string, restartPolicy?: string) => ({
  metadata: { labels: { app } },
  spec: { ...(restartPolicy === undefined ? {} : { restartPolicy }), containers: [{ name: "main", image: "busybox:1.36", command: ["sleep", "3600"] }] },
});

/** The objects created to record defaults and a Table row, by plural (the namespace is filled in). */
export const SAMPLES: Readonly<Record<string, Json>> = {
  serviceaccounts: { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "builder" } },
  roles: {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "Role",
    metadata: { name: "pod-reader" },
    rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get", "list", "watch"] }],
  },
  rolebindings: {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "RoleBinding",
    metadata: { name: "read-pods" },
    subjects: [
      { kind: "ServiceAccount", name: "builder" },
      { kind: "User", name: "jane", apiGroup: "rbac.authorization.k8s.io" },
      { kind: "Group", name: "devs", apiGroup: "rbac.authorization.k8s.io" },
    ],
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "pod-reader" },
  },
  clusterroles: {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRole",
    metadata: { name: "orb-record-node-reader" },
    rules: [{ apiGroups: [""], resources: ["nodes"], verbs: ["get", "list"] }],
  },
  clusterrolebindings: {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRoleBinding",
    metadata: { name: "orb-record-read-nodes" },
    subjects: [{ kind: "Group", name: "devs", apiGroup: "rbac.authorization.k8s.io" }],
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "orb-record-node-reader" },
  },
  jobs: { apiVersion: "batch/v1", kind: "Job", metadata: { name: "once" }, spec: { template: POD_TEMPLATE("once", "Never") } },
  cronjobs: {
    apiVersion: "batch/v1",
    kind: "CronJob",
    metadata: { name: "nightly" },
    spec: { schedule: "0 3 * * *", jobTemplate: { spec: { template: POD_TEMPLATE("nightly", "OnFailure") } } },
  },
  statefulsets: {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name: "db" },
    spec: { serviceName: "db", replicas: 2, selector: { matchLabels: { app: "db" } }, template: POD_TEMPLATE("db") },
  },
  replicasets: {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: { name: "web" },
    spec: { selector: { matchLabels: { app: "web" } }, template: POD_TEMPLATE("web") },
  },
  daemonsets: {
    apiVersion: "apps/v1",
    kind: "DaemonSet",
    metadata: { name: "agent" },
    spec: {
      selector: { matchLabels: { app: "agent" } },
      template: { ...POD_TEMPLATE("agent"), spec: { ...POD_TEMPLATE("agent").spec, nodeSelector: { "kubernetes.io/os": "linux" } } },
    },
  },
  persistentvolumeclaims: {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: "data" },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
  },
  persistentvolumes: {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name: "orb-record-pv" },
    spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce", "ReadOnlyMany"], hostPath: { path: "/tmp/orb-record-pv" }, storageClassName: "manual" },
  },
  endpoints: {
    apiVersion: "v1",
    kind: "Endpoints",
    metadata: { name: "ext" },
    subsets: [{ addresses: [{ ip: "10.1.0.1" }, { ip: "10.1.0.2" }], ports: [{ name: "http", port: 80 }, { name: "https", port: 443 }] }],
  },
  replicationcontrollers: {
    apiVersion: "v1",
    kind: "ReplicationController",
    metadata: { name: "legacy" },
    spec: { replicas: 2, template: POD_TEMPLATE("legacy") },
  },
  networkpolicies: {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "deny-in" },
    spec: { podSelector: { matchLabels: { app: "db" } }, ingress: [{ ports: [{ port: 5432 }] }] },
  },
  poddisruptionbudgets: {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: "db" },
    spec: { minAvailable: 1, selector: { matchLabels: { app: "db" } } },
  },
  storageclasses: {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name: "orb-record-fast", annotations: { "storageclass.kubernetes.io/is-default-class": "true" } },
    provisioner: "example.com/fast",
  },
  priorityclasses: {
    apiVersion: "scheduling.k8s.io/v1",
    kind: "PriorityClass",
    metadata: { name: "orb-record-high" },
    value: 1000,
    description: "high",
  },
  ingressclasses: {
    apiVersion: "networking.k8s.io/v1",
    kind: "IngressClass",
    metadata: { name: "orb-record-nginx" },
    spec: { controller: "example.com/ingress", parameters: { apiGroup: "example.com", kind: "Params", name: "p" } },
  },
  limitranges: {
    apiVersion: "v1",
    kind: "LimitRange",
    metadata: { name: "limits" },
    spec: { limits: [{ type: "Container", max: { memory: "1Gi" }, default: { cpu: "500m" }, min: { cpu: "100m", memory: "64Mi" } }] },
  },
  resourcequotas: {
    apiVersion: "v1",
    kind: "ResourceQuota",
    metadata: { name: "quota" },
    spec: { hard: { pods: "10", "requests.cpu": "2", "limits.memory": "4Gi" } },
  },
  ingresses: {
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name: "site" },
    spec: {
      ingressClassName: "nginx",
      tls: [{ hosts: ["a.example.com"], secretName: "tls" }],
      rules: [
        { host: "a.example.com", http: { paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: "web", port: { number: 80 } } } }] } },
        { host: "b.example.com", http: { paths: [{ path: "/", pathType: "Exact", backend: { service: { name: "web", port: { name: "http" } } } }] } },
      ],
    },
  },
  endpointslices: {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: { name: "ext-abc" },
    addressType: "IPv4",
    ports: [{ name: "http", port: 80 }],
    endpoints: [{ addresses: ["10.1.0.1"] }, { addresses: ["10.1.0.2"], conditions: { ready: true } }],
  },
  horizontalpodautoscalers: {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "web" },
    spec: {
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" },
      minReplicas: 1,
      maxReplicas: 5,
      metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 70 } } }],
    },
  },
  controllerrevisions: {
    apiVersion: "apps/v1",
    kind: "ControllerRevision",
    metadata: { name: "db-1" },
    data: { spec: { template: { metadata: { labels: { app: "db" } } } } },
    revision: 1,
  },
};

const TABLE_ACCEPT = "application/json;as=Table;v=v1;g=meta.k8s.io";
const PROTOBUF = "application/vnd.kubernetes.protobuf";

/** One recorded type (the data file's `types` entries). */
export interface RecordedType {
  readonly group: string;
  readonly version: string;
  /** The discovery entry of the resource, as the group/version's APIResourceList gives it. */
  readonly discovery: Json;
  /** The discovery entries of its subresources (`jobs/status`), by subresource name. */
  readonly subresources: Readonly<Record<string, Json>>;
  /** The Table's columnDefinitions for the collection. */
  readonly columns: readonly Json[];
  /**
   * For a type with a sample: what was sent, what the create answer was, the Table row's cells, and
   * the object read back as JSON (`fetched`) and as Protobuf (`protobuf`, base64 of the body) at one
   * resourceVersion. The Protobuf body is kept as sent (no placeholders): tests decode it and
   * compare with `fetched`, and encode that back to the same bytes.
   */
  readonly sample?: { readonly sent: Json; readonly created: Json; readonly cells: readonly unknown[]; readonly fetched: Json; readonly protobuf: string };
}

const NAMESPACE_PLACEHOLDER = "<namespace>";

/** `value` with the server's volatile values replaced by placeholders (uid, resourceVersion, times, the namespace), managedFields dropped. */
export function stabilized(value: Json, namespace: string, uid: string | undefined): Json {
  if (typeof value === "string") {
    if (value === namespace) return NAMESPACE_PLACEHOLDER;
    if (uid !== undefined && value.includes(uid)) return value.replaceAll(uid, "<uid>");
    if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(value)) return "<time>";
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => stabilized(item, namespace, uid));
  if (value !== null && typeof value === "object") {
    const out: Json = {};
    for (const [key, item] of Object.entries(value)) {
      if (key === "resourceVersion") out[key] = "<resourceVersion>";
      // managedFields are left out: the embedded server does not write them, and they would double the file.
      else if (key === "managedFields") continue;
      else out[key] = stabilized(item, namespace, uid);
    }
    return out;
  }
  return value;
}

async function record({ plane, log, header }: RecordingSession): Promise<Json> {
  const agent = new Agent({ connect: { ca: plane.certificateAuthorityPem } });
  const request = async (method: string, path: string, accept: string, body?: Json) => {
    const headers: Record<string, string> = { authorization: `Bearer ${plane.adminToken}`, accept };
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${plane.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), dispatcher: agent });
    const text = await response.text();
    if (response.status >= 300 && !(method === "DELETE" && response.status === 404)) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as Json;
  };
  /** The object as JSON and as Protobuf at one resourceVersion (read again while a controller writes it meanwhile). */
  const bothForms = async (path: string): Promise<{ json: Json; protobuf: Buffer }> => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const before = await request("GET", path, "application/json");
      const response = await fetch(`${plane.url}${path}`, { headers: { authorization: `Bearer ${plane.adminToken}`, accept: PROTOBUF }, dispatcher: agent });
      const protobuf = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200) throw new Error(`GET ${path} as Protobuf: ${response.status}`);
      const after = await request("GET", path, "application/json");
      if (before.metadata.resourceVersion === after.metadata.resourceVersion) return { json: after, protobuf };
      await new Promise((resolveWait) => setTimeout(resolveWait, 500));
    }
    throw new Error(`GET ${path}: the object kept changing; no JSON and Protobuf of one resourceVersion`);
  };
  const gitVersion = (await request("GET", "/version", "application/json")).gitVersion as string;
  log(`recording the built-in types of kube-apiserver ${gitVersion}`);
  const namespace = `orb-record-types-${Math.random().toString(36).slice(2, 8)}`;
  await request("POST", "/api/v1/namespaces", "application/json", { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
  const cleanups: Array<() => Promise<unknown>> = [];
  const types: Record<string, RecordedType> = {};
  try {
    const lists = new Map<string, Json>();
    for (const [group, version, resource] of RECORDED_TYPES) {
      const base = group === "" ? `/api/${version}` : `/apis/${group}/${version}`;
      if (!lists.has(base)) lists.set(base, await request("GET", base, "application/json"));
      const resources = lists.get(base).resources as Json[];
      const discovery = resources.find((entry) => entry.name === resource);
      if (discovery === undefined) throw new Error(`${base} does not list ${resource}`);
      const subresources = Object.fromEntries(
        resources.filter((entry) => entry.name.startsWith(`${resource}/`)).map((entry) => [entry.name.slice(resource.length + 1), entry]),
      );
      const collection = discovery.namespaced ? `${base}/namespaces/${namespace}/${resource}` : `${base}/${resource}`;
      const sent = SAMPLES[resource];
      let sample: RecordedType["sample"];
      if (sent !== undefined) {
        const created = await request("POST", collection, "application/json", sent);
        cleanups.push(() => request("DELETE", `${collection}/${sent.metadata.name}`, "application/json"));
        const table = await request("GET", `${collection}/${sent.metadata.name}`, TABLE_ACCEPT);
        const uid = created.metadata.uid as string;
        const both = await bothForms(`${collection}/${sent.metadata.name}`);
        sample = {
          sent,
          created: stabilized(created, namespace, uid),
          cells: stabilized(table.rows[0].cells, namespace, uid),
          fetched: stabilized(both.json, namespace, uid),
          protobuf: both.protobuf.toString("base64"),
        };
      }
      const table = await request("GET", collection, TABLE_ACCEPT);
      types[resource] = { group, version, discovery, subresources, columns: table.columnDefinitions, ...(sample === undefined ? {} : { sample }) };
      log(`${group || "core"}/${version} ${resource}${sample === undefined ? "" : " (with a sample)"}`);
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await request("DELETE", `/api/v1/namespaces/${namespace}`, "application/json");
    await agent.close();
  }
  return { ...header(gitVersion), types };
}

runIfMain(import.meta.url, {
  script: "conformance/record/record-builtin-types.ts",
  defaultOut: new URL("../../sim/apiserver/routing/builtin-types-data/kube-apiserver-1.26-types.json", import.meta.url),
  apiserverFlags: APISERVER_FLAGS,
  async record(session) {
    const { out, log } = session;
    const data = await record(session);
    const text = `${JSON.stringify(data)}\n`;
    writeFileSync(out, text);
    log(`recorded ${Object.keys(data.types).length} types: ${(text.length / 1024).toFixed(1)} KiB in ${out}`);
  },
});
