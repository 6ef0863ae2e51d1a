/**
 * Built-in types served from a recording of kube-apiserver 1.26.4 rather than from hand-written
 * entries: `builtin-types-data/kube-apiserver-1.26-types.json` (written by
 * conformance/record/record-builtin-types.ts; README beside it) holds, per type, the discovery
 * entries of the resource and its subresources, the Table column definitions, and for some a sample
 * object with the server's create answer and Table cells. This module turns the entries of the
 * types in SERVED_RECORDED_TYPES into `ResourceType`s (resource-types.ts appends them to the
 * table), and hands the columns and samples to the printers, the defaults and the tests.
 *
 * Only what discovery does not say is written here: each type's name rule (Kubernetes' validation,
 * not visible in any answer), and which recorded subresources have no handler in this server.
 */
import { readFileSync } from "node:fs";
import { dialectByName, type Dialect } from "../../../spec/dialects.ts";
import type { NameRule, ResourceType, Verb } from "./resource-types.ts";
import type { APIResource } from "../discovery/discovery.ts";

/** One entry of an APIResourceList, as recorded: the shape discovery answers with. */
export type RecordedApiResource = APIResource;

/** A recorded Table column definition (meta/v1 TableColumnDefinition). */
export interface RecordedColumn {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

/** One recorded type. */
export interface RecordedType {
  readonly group: string;
  readonly version: string;
  readonly discovery: RecordedApiResource;
  readonly subresources: Readonly<Record<string, RecordedApiResource>>;
  readonly columns: readonly RecordedColumn[];
  /**
   * What was created, the create answer (placeholders `<uid>`, `<time>`, `<namespace>`,
   * `<resourceVersion>`), the Table row's cells, and the object read back at one resourceVersion
   * as JSON (`fetched`, placeholders too) and as Protobuf (`protobuf`, base64, as sent).
   */
  readonly sample?: {
    readonly sent: Record<string, unknown>;
    readonly created: Record<string, unknown>;
    readonly cells: readonly unknown[];
    readonly fetched: Record<string, unknown>;
    readonly protobuf: string;
  };
}

/** The data file. */
export interface RecordedTypesData {
  readonly gitVersion: string;
  readonly recorded: string;
  readonly recorder: string;
  readonly types: Readonly<Record<string, RecordedType>>;
}

/** The data file, beside this module. */
export const RECORDED_TYPES_FILE = new URL("./builtin-types-data/kube-apiserver-1.26-types.json", import.meta.url);

let data: RecordedTypesData | undefined;

/** The recorded data, read once. */
export function recordedTypesData(): RecordedTypesData {
  data ??= JSON.parse(readFileSync(RECORDED_TYPES_FILE, "utf8")) as RecordedTypesData;
  return data;
}

/**
 * The recorded types this server serves, by plural, with their name rule (Kubernetes 1.26
 * validation: ValidateServiceAccountName, ValidateJobName, ValidateCronJobName,
 * ValidateStatefulSetName, ValidateReplicaSetName, ValidateDaemonSetName and the name rules of
 * PersistentVolume(Claim), Endpoints, ReplicationController, IngressClass, NetworkPolicy,
 * PodDisruptionBudget, StorageClass, PriorityClass, ControllerRevision, LimitRange, ResourceQuota,
 * Ingress and EndpointSlice are RFC 1123 subdomains; RBAC objects' names are path segments,
 * ValidateRBACName). The one recorded type not served: autoscaling/v2 HorizontalPodAutoscaler
 * (its defaults, a CPU metric and scaling behavior policies, and its Targets column are not done).
 */
export const SERVED_RECORDED_TYPES: Readonly<Record<string, NameRule>> = {
  serviceaccounts: "subdomain",
  roles: "path-segment",
  rolebindings: "path-segment",
  clusterroles: "path-segment",
  clusterrolebindings: "path-segment",
  jobs: "subdomain",
  cronjobs: "subdomain",
  statefulsets: "subdomain",
  replicasets: "subdomain",
  daemonsets: "subdomain",
  persistentvolumeclaims: "subdomain",
  persistentvolumes: "subdomain",
  endpoints: "subdomain",
  limitranges: "subdomain",
  resourcequotas: "subdomain",
  replicationcontrollers: "subdomain",
  ingresses: "subdomain",
  ingressclasses: "subdomain",
  networkpolicies: "subdomain",
  poddisruptionbudgets: "subdomain",
  storageclasses: "subdomain",
  endpointslices: "subdomain",
  priorityclasses: "subdomain",
  horizontalpodautoscalers: "subdomain",
  controllerrevisions: "subdomain",
};

/**
 * Recorded subresources this server has no handler for, left out of its discovery and routing:
 * serviceaccounts/token (a TokenRequest, which needs a token signer).
 */
export const UNSERVED_SUBRESOURCES: ReadonlySet<string> = new Set(["serviceaccounts/token"]);

/** The recorded entry of a served type, by plural. */
export function recordedType(resource: string): RecordedType {
  const type = recordedTypesData().types[resource];
  if (type === undefined) throw new Error(`no recorded type ${resource}`);
  return type;
}

const kubernetesGroups = dialectByName("kubernetes").groups;

/** The group a dialect serves a recorded (Kubernetes) group as: rbac.authorization.orb.io for RBAC in the orb dialect, as its Leases. */
export function dialectGroupOf(kubernetesGroup: string, dialect: Dialect): string {
  for (const [role, name] of Object.entries(kubernetesGroups)) {
    if (name === kubernetesGroup) return dialect.groups[role as keyof Dialect["groups"]];
  }
  return kubernetesGroup;
}

/** The served ResourceTypes of `dialect` derived from the recording, in the recording's order. */
export function recordedResourceTypes(dialect: Dialect): ResourceType[] {
  return Object.entries(recordedTypesData().types)
    .filter(([resource]) => SERVED_RECORDED_TYPES[resource] !== undefined)
    .map(([resource, recorded]) => resourceTypeOf(recorded, SERVED_RECORDED_TYPES[resource]!, dialect));
}

/** The served recorded type with `group` (the dialect's) and plural `resource`, if any. */
export function servedRecordedType(group: string, resource: string, dialect: Dialect): RecordedType | undefined {
  const recorded = recordedTypesData().types[resource];
  if (recorded === undefined || SERVED_RECORDED_TYPES[resource] === undefined) return undefined;
  return dialectGroupOf(recorded.group, dialect) === group ? recorded : undefined;
}

/** The ResourceType a recorded discovery entry describes, in `dialect`'s group names. */
export function resourceTypeOf(recorded: RecordedType, nameRule: NameRule, dialect: Dialect): ResourceType {
  const entry = recorded.discovery;
  const subresources: Record<string, readonly Verb[]> = {};
  for (const [name, sub] of Object.entries(recorded.subresources)) {
    if (!UNSERVED_SUBRESOURCES.has(`${entry.name}/${name}`)) subresources[name] = sub.verbs as Verb[];
  }
  return {
    group: dialectGroupOf(recorded.group, dialect),
    version: recorded.version,
    resource: entry.name,
    // Discovery's singularName is "" for built-in types in 1.26; the table's singular is the lower-case kind, as for the others.
    singular: entry.singularName !== "" ? entry.singularName : entry.kind.toLowerCase(),
    kind: entry.kind,
    namespaced: entry.namespaced,
    verbs: entry.verbs as Verb[],
    shortNames: entry.shortNames ?? [],
    categories: entry.categories ?? [],
    nameRule,
    subresources,
    ...(entry.storageVersionHash !== undefined && { storageVersionHash: entry.storageVersionHash }),
    recorded: true,
  };
}
