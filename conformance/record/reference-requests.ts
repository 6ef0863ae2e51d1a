/**
 * The requests of the reference transcripts (spec/reference/kube-apiserver-1.26/transcripts.jsonl),
 * written out as templates so that `orb-harness record` can send them to any server: the namespace
 * is the run's own, and values that came from earlier answers (a resourceVersion, continue tokens)
 * are taken from this run's answers. Rendered with the reference run's values, every template gives
 * that run's request exactly (reference-requests.test.ts checks it, line by line and in order).
 *
 * Between the recorded requests the reference run also sent requests it did not record (the
 * ConfigMaps cm-1..cm-4, the watched ConfigMap w-1, the finalizer's ConfigMap); their effects show
 * in the recorded answers (resourceVersions, watch events), so they are steps here too.
 */

/** Who sends a request; the names the transcripts' `identity` field uses (absent for the administrator). */
export type IdentityName = "admin" | "restricted user" | "unknown token" | "anonymous";

/** Values a request depends on: the run's namespaces, and what earlier answers said. */
export interface RecordValues {
  /** The namespace the run creates (the reference: ref-main). */
  readonly namespace: string;
  /** A namespace that does not exist, to create into (the reference: no-such-ns). */
  readonly absentNamespace: string;
  /** Another namespace that does not exist, named in a body that disagrees with its path (the reference: other). */
  readonly otherNamespace: string;
  /** The resourceVersion of ConfigMap cm-0 as created (the reference: 252). */
  readonly createdResourceVersion: string;
  /** The resourceVersion of the first page of the paged list (the reference: 262). */
  readonly listResourceVersion: string;
  /** The continue token of the first page. */
  readonly firstContinue: string;
  /** The continue token of the second page. */
  readonly secondContinue: string;
  /** The resourceVersion of the last list before the watches: they start there (the reference: 263). */
  readonly watchResourceVersion: string;
}

/** Values read from an answer's `metadata`, by the name later requests use. */
export type CapturedValue = "createdResourceVersion" | "listResourceVersion" | "firstContinue" | "secondContinue" | "watchResourceVersion";

/** One recorded request. */
export interface RequestTemplate {
  readonly id: string;
  readonly note: string;
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  readonly path: (values: RecordValues) => string;
  /** The headers the transcript shows (Accept, Content-Type); JSON bodies otherwise go as application/json. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON value, or a string sent as it is. */
  readonly body?: (values: RecordValues) => unknown;
  readonly identity?: IdentityName;
  /** Values of this answer's `metadata` that later requests use. */
  readonly capture?: Readonly<Partial<Record<CapturedValue, "resourceVersion" | "continue">>>;
  /** Set when record never sends it: why (it would write outside the namespaces the run creates). */
  readonly neverSent?: string;
}

/** An unrecorded request whose effects the recorded answers show. */
export interface SetupRequest {
  readonly what: string;
  readonly method: "POST" | "PUT" | "PATCH" | "DELETE";
  readonly path: (values: RecordValues) => string;
  readonly body?: (values: RecordValues) => unknown;
  readonly contentType?: string;
}

/** One step of a recording, in order. */
export type RecordStep =
  | { readonly kind: "send"; readonly request: RequestTemplate }
  | { readonly kind: "setup"; readonly request: SetupRequest }
  /** Opens a watch and reads it in the background; its line is written when it is closed. */
  | { readonly kind: "open-watch"; readonly request: RequestTemplate }
  /** Closes a watch once it has been open `hold` long: "short" (seconds), or "bookmark" (long enough for one). */
  | { readonly kind: "close-watch"; readonly id: string; readonly hold: "short" | "bookmark" };

const JSON_ACCEPT_TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
const PROTOBUF = "application/vnd.kubernetes.protobuf";
const MERGE_PATCH = { "content-type": "application/merge-patch+json" };
/** The size of the reference's too-large body: 4 MiB of data and 80 bytes of ConfigMap around it. */
export const TOO_LARGE_BODY_BYTES = 4 * 1024 * 1024 + 80;

const q = encodeURIComponent;
const namespacePath = (v: RecordValues) => `/api/v1/namespaces/${v.namespace}`;
const configMaps = (v: RecordValues) => `${namespacePath(v)}/configmaps`;
const configMap = (data: Readonly<Record<string, unknown>>, metadata: Readonly<Record<string, unknown>>) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata,
  ...(Object.keys(data).length > 0 && { data }),
});
/** A ConfigMap whose one data value is its name, as most of the reference's are. */
const named = (name: string) => configMap({ key: name }, { name });

function send(id: string, note: string, method: RequestTemplate["method"], path: RequestTemplate["path"], more: Partial<RequestTemplate> = {}): RecordStep {
  return { kind: "send", request: { id, note, method, path, ...more } };
}

function get(id: string, note: string, path: RequestTemplate["path"], more: Partial<RequestTemplate> = {}): RecordStep {
  return send(id, note, "GET", path, more);
}

function setup(what: string, method: SetupRequest["method"], path: SetupRequest["path"], body?: SetupRequest["body"], contentType?: string): RecordStep {
  return { kind: "setup", request: { what, method, path, ...(body !== undefined && { body }), ...(contentType !== undefined && { contentType }) } };
}

function watch(id: string, note: string, path: RequestTemplate["path"], headers?: Readonly<Record<string, string>>): RecordStep {
  return { kind: "open-watch", request: { id, note, method: "GET", path, ...(headers !== undefined && { headers }) } };
}

/** A body of exactly TOO_LARGE_BODY_BYTES bytes: a ConfigMap whose one value fills it. */
function tooLargeBody(): string {
  const [head, tail] = ['{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"too-large"},"data":{"key":"', '"}}'];
  return head + "x".repeat(TOO_LARGE_BODY_BYTES - head.length - tail.length) + tail;
}

const DISCOVERY: readonly RecordStep[] = [
  get("version", "GET /version", () => "/version"),
  get("discovery-api", "core group versions", () => "/api"),
  get("discovery-api-v1", "core v1 resource list", () => "/api/v1"),
  get("discovery-apis", "named groups", () => "/apis"),
  get("discovery-apps-v1", "apps/v1 resource list", () => "/apis/apps/v1"),
  get("discovery-coordination-v1", "coordination.k8s.io/v1 resource list", () => "/apis/coordination.k8s.io/v1"),
  get("discovery-aggregated-apis", "aggregated discovery as kubectl asks for it", () => "/apis", {
    headers: { accept: "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json" },
  }),
];

const WRITES: readonly RecordStep[] = [
  send("create-configmap", "POST a ConfigMap: 201 with uid, creationTimestamp, resourceVersion", "POST", configMaps, {
    body: () => named("cm-0"),
    capture: { createdResourceVersion: "resourceVersion" },
  }),
  send("create-duplicate", "POST an existing name: 409 AlreadyExists", "POST", configMaps, { body: () => named("cm-0") }),
  // cm-1..cm-4, labelled by parity, for the patches, pages and selectors below.
  ...[1, 2, 3, 4].map((n) =>
    setup(`create ConfigMap cm-${n}`, "POST", configMaps, () => configMap({ key: `cm-${n}` }, { name: `cm-${n}`, labels: { tier: n % 2 === 1 ? "odd" : "even" } })),
  ),
  send("create-generate-name", "POST with generateName", "POST", configMaps, { body: () => configMap({}, { generateName: "gen-" }) }),
  send("create-invalid-name", "POST with an invalid name: 422 Invalid", "POST", configMaps, { body: () => named("Bad_Name!") }),
  send("create-wrong-kind", "POST a Secret body to configmaps", "POST", configMaps, { body: () => ({ apiVersion: "v1", kind: "Secret", metadata: { name: "x" } }) }),
  send("create-namespace-mismatch", "body namespace differs from path namespace", "POST", configMaps, {
    body: (v) => configMap({}, { name: "mm", namespace: v.otherNamespace }),
  }),
  send("create-missing-namespace", "POST into a namespace that does not exist", "POST", (v) => `/api/v1/namespaces/${v.absentNamespace}/configmaps`, { body: () => named("x") }),
  send("create-strict-unknown-field", "fieldValidation=Strict with an unknown field", "POST", (v) => `${configMaps(v)}?fieldValidation=Strict`, {
    body: () => ({ ...configMap({}, { name: "strict" }), bogusField: 1 }),
  }),
  send("create-warn-unknown-field", "fieldValidation=Warn with an unknown field", "POST", (v) => `${configMaps(v)}?fieldValidation=Warn`, {
    body: () => ({ ...configMap({}, { name: "warn" }), bogusField: 1 }),
  }),
  get("get-configmap", "GET one ConfigMap", (v) => `${configMaps(v)}/cm-0`),
  get("get-missing", "GET a missing object: 404 NotFound", (v) => `${configMaps(v)}/nope`),
  send("update-configmap", "PUT with the current resourceVersion", "PUT", (v) => `${configMaps(v)}/cm-0`, {
    body: (v) => configMap({ key: "v2" }, { name: "cm-0", resourceVersion: v.createdResourceVersion }),
  }),
  send("update-stale", "PUT with a stale resourceVersion: 409 Conflict", "PUT", (v) => `${configMaps(v)}/cm-0`, {
    body: (v) => configMap({ key: "v3" }, { name: "cm-0", resourceVersion: v.createdResourceVersion }),
  }),
  send("update-missing", "PUT to a missing object", "PUT", (v) => `${configMaps(v)}/nope`, { body: () => named("nope") }),
  send("patch-merge", "JSON merge patch", "PATCH", (v) => `${configMaps(v)}/cm-1`, { headers: MERGE_PATCH, body: () => ({ data: { merged: "yes" } }) }),
  send("patch-json", "JSON patch", "PATCH", (v) => `${configMaps(v)}/cm-1`, {
    headers: { "content-type": "application/json-patch+json" },
    body: () => [{ op: "add", path: "/data/jp", value: "1" }],
  }),
  send("patch-strategic", "strategic merge patch", "PATCH", (v) => `${configMaps(v)}/cm-1`, {
    headers: { "content-type": "application/strategic-merge-patch+json" },
    body: () => ({ data: { smp: "1" } }),
  }),
  send("patch-json-bad-test", "JSON patch whose test op fails", "PATCH", (v) => `${configMaps(v)}/cm-1`, {
    headers: { "content-type": "application/json-patch+json" },
    body: () => [{ op: "test", path: "/data/key", value: "nope" }],
  }),
  send("patch-collection", "PATCH on a collection: 405", "PATCH", configMaps, { headers: MERGE_PATCH, body: () => ({}) }),
];

const LISTS: readonly RecordStep[] = [
  get("list-page-1", "limit=2: first page with continue and remainingItemCount", (v) => `${configMaps(v)}?limit=2`, {
    capture: { listResourceVersion: "resourceVersion", firstContinue: "continue" },
  }),
  get("list-page-2", "second page: same resourceVersion", (v) => `${configMaps(v)}?limit=2&continue=${q(v.firstContinue)}`, { capture: { secondContinue: "continue" } }),
  get("list-page-3", "last page: continue empty, no remainingItemCount", (v) => `${configMaps(v)}?limit=2&continue=${q(v.secondContinue)}`),
  get("list-unpaged", "full list", configMaps),
  get("list-continue-with-rv", "limit + continue + resourceVersion: 400", (v) => `${configMaps(v)}?limit=2&continue=${q(v.firstContinue)}&resourceVersion=5`),
  get("list-continue-with-rv0", "limit + continue + resourceVersion=0", (v) => `${configMaps(v)}?limit=2&continue=${q(v.firstContinue)}&resourceVersion=0`),
  get("list-continue-garbage", "a continue token that is not one", (v) => `${configMaps(v)}?limit=2&continue=not-a-token`),
  get("list-limit-abc", "limit=abc", (v) => `${configMaps(v)}?limit=abc`),
  get("list-limit-negative", "limit=-1", (v) => `${configMaps(v)}?limit=-1`),
  get("list-rvmatch-no-rv", "resourceVersionMatch=Exact without resourceVersion: 422", (v) => `${configMaps(v)}?resourceVersionMatch=Exact`),
  get("list-rvmatch-exact-rv0", "resourceVersionMatch=Exact with resourceVersion=0", (v) => `${configMaps(v)}?resourceVersionMatch=Exact&resourceVersion=0`),
  get("list-rvmatch-unknown", "unknown resourceVersionMatch", (v) => `${configMaps(v)}?resourceVersionMatch=Bogus&resourceVersion=5`),
  get("list-rvmatch-with-continue", "resourceVersionMatch with continue", (v) => `${configMaps(v)}?limit=2&resourceVersionMatch=NotOlderThan&continue=${q(v.firstContinue)}`),
  get("list-rv0-limit", "resourceVersion=0&limit=2 (Any): served from the watch cache", (v) => `${configMaps(v)}?resourceVersion=0&limit=2`),
  get("list-exact-current", "resourceVersionMatch=Exact at the list resourceVersion", (v) => `${configMaps(v)}?resourceVersionMatch=Exact&resourceVersion=${q(v.listResourceVersion)}`),
  get("list-exact-current-limit", "Exact at the list resourceVersion with limit=2", (v) => `${configMaps(v)}?resourceVersionMatch=Exact&resourceVersion=${q(v.listResourceVersion)}&limit=2`),
  get("list-notolderthan", "NotOlderThan at the list resourceVersion", (v) => `${configMaps(v)}?resourceVersionMatch=NotOlderThan&resourceVersion=${q(v.listResourceVersion)}`),
  get("list-rv-nonnumeric", "resourceVersion that is not a number", (v) => `${configMaps(v)}?resourceVersion=abc`),
  get("list-rv-future", "a resourceVersion far in the future: 504 after a wait", (v) => `${configMaps(v)}?resourceVersion=999999999`),
  get("list-rv-future-exact", "a future resourceVersion with Exact", (v) => `${configMaps(v)}?resourceVersion=999999999&resourceVersionMatch=Exact`),
  get("get-rv-future", "GET one object at a future resourceVersion", (v) => `${configMaps(v)}/cm-0?resourceVersion=999999999`),
  get("list-label-selector", "labelSelector with limit: remainingItemCount omitted", (v) => `${configMaps(v)}?labelSelector=tier%3Dodd&limit=1`),
  get("list-field-selector", "fieldSelector metadata.name", (v) => `${configMaps(v)}?fieldSelector=metadata.name%3Dcm-2`),
  get("list-field-selector-bad", "fieldSelector on an unsupported field", (v) => `${configMaps(v)}?fieldSelector=data.key%3Dx`),
  get("list-all-namespaces", "cluster-wide list of a namespaced type with limit", () => "/api/v1/configmaps?limit=1", { capture: { watchResourceVersion: "resourceVersion" } }),
];

// Four watches open together; changes made while they are open are what they show.
const WATCHES: readonly RecordStep[] = [
  watch("watch-initial-state", "watch with resourceVersion unset: synthetic ADDED for existing objects", (v) => `${configMaps(v)}?watch=true&labelSelector=tier%3Dodd`),
  watch("watch-protobuf", "watch in protobuf (stream=watch framing)", (v) => `${configMaps(v)}?watch=1&resourceVersion=${q(v.watchResourceVersion)}`, {
    accept: `${PROTOBUF};stream=watch`,
  }),
  watch("watch-as-table", "watch with a Table Accept header", (v) => `${configMaps(v)}?watch=1&resourceVersion=${q(v.watchResourceVersion)}`, { accept: JSON_ACCEPT_TABLE }),
  watch(
    "watch-from-rv",
    "watch from the list resourceVersion with allowWatchBookmarks; then create, update, delete; held 70 s to catch a bookmark",
    (v) => `${configMaps(v)}?watch=1&resourceVersion=${q(v.watchResourceVersion)}&allowWatchBookmarks=true`,
  ),
  setup("create ConfigMap w-1", "POST", configMaps, () => named("w-1")),
  setup("update ConfigMap w-1", "PUT", (v) => `${configMaps(v)}/w-1`, () => configMap({ key: "changed" }, { name: "w-1" })),
  setup("delete ConfigMap w-1", "DELETE", (v) => `${configMaps(v)}/w-1`),
  setup("relabel cm-2 tier=odd", "PATCH", (v) => `${configMaps(v)}/cm-2`, () => ({ metadata: { labels: { tier: "odd" } } }), MERGE_PATCH["content-type"]),
  { kind: "close-watch", id: "watch-initial-state", hold: "short" },
  { kind: "close-watch", id: "watch-protobuf", hold: "short" },
  { kind: "close-watch", id: "watch-as-table", hold: "short" },
];

const DELETES: readonly RecordStep[] = [
  setup("create ConfigMap fin with a finalizer", "POST", configMaps, () => configMap({ key: "fin" }, { name: "fin", finalizers: ["example.com/hold"] })),
  send("delete-with-finalizer", "DELETE an object with a finalizer: 200, deletionTimestamp set, object kept", "DELETE", (v) => `${configMaps(v)}/fin`),
  get("get-finalizing", "GET the finalizing object", (v) => `${configMaps(v)}/fin`),
  send("delete-again", "DELETE it again", "DELETE", (v) => `${configMaps(v)}/fin`),
  send("remove-finalizer", "remove the last finalizer: the object is removed", "PATCH", (v) => `${configMaps(v)}/fin`, {
    headers: MERGE_PATCH,
    body: () => ({ metadata: { finalizers: null } }),
  }),
  get("get-after-finalize", "GET after the last finalizer went", (v) => `${configMaps(v)}/fin`),
  send("delete-plain", "DELETE without finalizers", "DELETE", (v) => `${configMaps(v)}/cm-4`),
  send("delete-precondition-stale", "DELETE with a stale resourceVersion precondition", "DELETE", (v) => `${configMaps(v)}/cm-3`, {
    body: () => ({ kind: "DeleteOptions", apiVersion: "v1", preconditions: { resourceVersion: "1" } }),
  }),
  send("deletecollection", "DELETE on a collection with a labelSelector", "DELETE", (v) => `${configMaps(v)}?labelSelector=tier%3Deven`),
];

const DRY_RUN_AND_TYPES: readonly RecordStep[] = [
  send("dryrun-create", "dryRun=All create: nothing persisted", "POST", (v) => `${configMaps(v)}?dryRun=All`, { body: () => named("dry") }),
  send("dryrun-create-generate-name", "dryRun=All with generateName", "POST", (v) => `${configMaps(v)}?dryRun=All`, { body: () => configMap({}, { generateName: "drygen-" }) }),
  get("dryrun-get-after", "GET the dry-run object: 404", (v) => `${configMaps(v)}/dry`),
  send("dryrun-bogus", "dryRun=Bogus", "POST", (v) => `${configMaps(v)}?dryRun=Bogus`, { body: () => named("dry2") }),
  send("dryrun-bare", "bare dryRun", "POST", (v) => `${configMaps(v)}?dryRun`, { body: () => named("dry3") }),
  send("dryrun-delete", "dryRun=All delete: object kept", "DELETE", (v) => `${configMaps(v)}/cm-1?dryRun=All`),
  send("dryrun-update", "dryRun=All patch", "PATCH", (v) => `${configMaps(v)}/cm-1?dryRun=All`, { headers: MERGE_PATCH, body: () => ({ data: { dry: "run" } }) }),
  send("dryrun-service", "dryRun=All Service create: cluster IP shown, not reserved", "POST", (v) => `${namespacePath(v)}/services?dryRun=All`, { body: () => nodePortService() }),
  send("service-create", "Service create: cluster IP and node port allocated", "POST", (v) => `${namespacePath(v)}/services`, { body: () => nodePortService() }),
  send("pod-create", "Pod create: defaulting (tolerations, dnsPolicy, ...)", "POST", (v) => `${namespacePath(v)}/pods`, {
    body: () => ({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p1", labels: { app: "x" } },
      spec: { automountServiceAccountToken: false, containers: [{ name: "c", image: "registry.example/app:1" }] },
    }),
  }),
  send("node-create", "Node create (cluster-scoped)", "POST", () => "/api/v1/nodes", {
    body: () => ({ apiVersion: "v1", kind: "Node", metadata: { name: "node-a", labels: { "topology.kubernetes.io/zone": "z1" } } }),
    neverSent: "it creates a Node, outside the namespaces record creates",
  }),
  send("node-lease-create", "node Lease in kube-node-lease", "POST", () => "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases", {
    body: () => ({
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: "node-a" },
      spec: { holderIdentity: "node-a", leaseDurationSeconds: 40, renewTime: "2026-11-21T12:00:00.000000Z" },
    }),
    neverSent: "it creates a Lease in kube-node-lease, outside the namespaces record creates",
  }),
];

function nodePortService(): unknown {
  return { apiVersion: "v1", kind: "Service", metadata: { name: "svc" }, spec: { type: "NodePort", ports: [{ port: 80 }] } };
}

const TABLE = { accept: JSON_ACCEPT_TABLE };
const REPRESENTATIONS: readonly RecordStep[] = [
  get("table-pods", "Table of pods", (v) => `${namespacePath(v)}/pods`, { headers: TABLE }),
  get("table-nodes", "Table of nodes", () => "/api/v1/nodes", { headers: TABLE }),
  get("table-configmaps", "Table of configmaps (default columns)", configMaps, { headers: TABLE }),
  get("table-configmap-one", "Table of one ConfigMap", (v) => `${configMaps(v)}/cm-1`, { headers: TABLE }),
  get("table-namespaces-none", "Table of namespaces with includeObject=None", () => "/api/v1/namespaces?includeObject=None", { headers: TABLE }),
  get("table-kubectl-accept", "the Accept list kubectl sends", configMaps, {
    headers: { accept: `${JSON_ACCEPT_TABLE},application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json` },
  }),
  get("table-leases", "Table of leases", () => "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases", { headers: TABLE }),
  send("table-sar-only", "SelfSubjectAccessReview asked for only as a Table: 406", "POST", () => "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", {
    headers: TABLE,
    body: () => ({ apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectAccessReview", spec: { resourceAttributes: { verb: "get", resource: "pods" } } }),
  }),
  get("protobuf-get-configmap", "protobuf GET of a ConfigMap", (v) => `${configMaps(v)}/cm-1`, { headers: { accept: PROTOBUF } }),
  get("protobuf-get-namespace", "protobuf GET of a Namespace", namespacePath, { headers: { accept: PROTOBUF } }),
  get("protobuf-list-configmaps", "protobuf list with limit=2", (v) => `${configMaps(v)}?limit=2`, { headers: { accept: PROTOBUF } }),
  get("protobuf-get-pod", "protobuf GET of a Pod", (v) => `${namespacePath(v)}/pods/p1`, { headers: { accept: PROTOBUF } }),
  get("protobuf-get-lease", "protobuf GET of a Lease", () => "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-a", { headers: { accept: PROTOBUF } }),
  get("protobuf-get-missing", "protobuf Accept on a 404: Status in protobuf", (v) => `${configMaps(v)}/nope`, { headers: { accept: PROTOBUF } }),
  get("accept-xml", "Accept application/xml: 406", configMaps, { headers: { accept: "application/xml" } }),
  get("accept-fallback", "Accept text/csv, application/json: JSON", (v) => `${configMaps(v)}/cm-1`, { headers: { accept: "text/csv, application/json" } }),
  get("accept-yaml", "Accept application/yaml", (v) => `${configMaps(v)}/cm-1`, { headers: { accept: "application/yaml" } }),
  send("content-type-text", "POST with Content-Type text/plain: 415", "POST", configMaps, { headers: { "content-type": "text/plain" }, body: () => "hello" }),
  send("body-malformed", "POST malformed JSON: 400", "POST", configMaps, { body: () => '{"kind": "ConfigMap", oops' }),
  send("body-array", "POST a JSON array", "POST", configMaps, { body: () => "[1,2,3]" }),
  send("body-too-large", "POST a 4 MiB body: 413", "POST", configMaps, { body: tooLargeBody }),
];

const ACCESS: readonly RecordStep[] = [
  send("eviction", "POST an Eviction for a pod", "POST", (v) => `${namespacePath(v)}/pods/p1/eviction`, {
    body: (v) => ({ apiVersion: "policy/v1", kind: "Eviction", metadata: { name: "p1", namespace: v.namespace } }),
  }),
  get("unknown-resource", "unknown resource in the core group", () => "/api/v1/nosuchthings"),
  get("unknown-group", "unknown group", () => "/apis/no.such.group/v1/things"),
  get("forbidden", "a user without permissions lists configmaps: 403", configMaps, { identity: "restricted user" }),
  send("forbidden-dryrun", "the same user, dry-run create: 403", "POST", (v) => `${configMaps(v)}?dryRun=All`, { identity: "restricted user", body: () => named("nope") }),
  get("unauthorized", "an unknown bearer token: 401", configMaps, { identity: "unknown token" }),
  // Asks about user alice, the reference run's restricted user, whoever the restricted user is here.
  send("sar", "SubjectAccessReview for the restricted user", "POST", () => "/apis/authorization.k8s.io/v1/subjectaccessreviews", {
    body: (v) => ({
      apiVersion: "authorization.k8s.io/v1",
      kind: "SubjectAccessReview",
      spec: { user: "alice", resourceAttributes: { namespace: v.namespace, verb: "list", resource: "configmaps" } },
    }),
  }),
];

const HEALTH: readonly RecordStep[] = [
  ...["/healthz", "/livez", "/readyz"].map((path) => get(`health-${path.slice(1)}`, `GET ${path}`, () => path)),
  ...["/healthz", "/livez", "/readyz"].map((path) => get(`health-${path.slice(1)}-verbose`, `GET ${path}?verbose`, () => `${path}?verbose`)),
  get("health-readyz-verbose-exclude", "GET /readyz?verbose&exclude=etcd", () => "/readyz?verbose&exclude=etcd"),
  get("health-readyz-exclude-unknown", "GET /readyz?verbose&exclude=bogus", () => "/readyz?verbose&exclude=bogus"),
  get("health-livez-ping", "GET /livez/ping", () => "/livez/ping"),
  get("health-readyz-etcd", "GET /readyz/etcd", () => "/readyz/etcd"),
  get("health-readyz-unknown-check", "GET /readyz/nonexistent", () => "/readyz/nonexistent"),
  get("health-readyz-anonymous", "GET /readyz?verbose", () => "/readyz?verbose", { identity: "anonymous" }),
  get("health-healthz-ping-anonymous", "GET /healthz/ping", () => "/healthz/ping", { identity: "anonymous" }),
];

const NAMESPACE_END: readonly RecordStep[] = [
  send("namespace-delete", "DELETE the namespace: Terminating", "DELETE", namespacePath),
  get("namespace-terminating", "GET the terminating namespace", namespacePath),
  send("create-in-terminating", "create in a terminating namespace", "POST", configMaps, { body: () => named("late") }),
  { kind: "close-watch", id: "watch-from-rv", hold: "bookmark" },
];

/** Every step of a recording, in the reference run's order. */
export const RECORD_STEPS: readonly RecordStep[] = [
  send("namespace-create", "POST a namespace", "POST", () => "/api/v1/namespaces", { body: (v) => ({ apiVersion: "v1", kind: "Namespace", metadata: { name: v.namespace } }) }),
  ...DISCOVERY,
  ...WRITES,
  ...LISTS,
  ...WATCHES,
  ...DELETES,
  ...DRY_RUN_AND_TYPES,
  ...REPRESENTATIONS,
  ...ACCESS,
  ...HEALTH,
  ...NAMESPACE_END,
];

/** The id of the step that creates the run's namespace: nothing else runs unless it answers 201. */
export const NAMESPACE_CREATE_ID = "namespace-create";

/** What an answer gives the requests after it (`template.capture`), and the fields it lacked. */
export function capturedValues(template: RequestTemplate, answer: unknown): { values: Partial<Record<CapturedValue, string>>; missing: string[] } {
  const metadata = (answer as { metadata?: Record<string, unknown> } | undefined)?.metadata;
  const values: Partial<Record<CapturedValue, string>> = {};
  const missing: string[] = [];
  for (const [name, field] of Object.entries(template.capture ?? {}) as [CapturedValue, string][]) {
    const value = metadata?.[field];
    if (typeof value === "string" && value !== "") values[name] = value;
    else missing.push(`metadata.${field}`);
  }
  return { values, missing };
}
