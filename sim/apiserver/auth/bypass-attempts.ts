/**
 * The catalog of authentication and authorization bypass attempts (issue #14, "Security"): one
 * table that `spec/reference/kube-apiserver-1.26/transcripts-security.jsonl` was recorded from (a
 * real kube-apiserver 1.26.4, RBAC) and that `bypass-attempts.test.ts` sends to the embedded
 * server over a real socket. Each attempt must get the 401 or 403 (or the refusal) the real server
 * gives, must return no object data, and must write nothing.
 *
 * The setup both servers share (SECURITY_SETUP):
 * - namespaces `sec-a` and `sec-b`; ConfigMaps `sec-a/cm-a` and `sec-b/cm-b` and a Secret
 *   `sec-a/s-a`, each holding a marker value that must never show up in an answer;
 * - the restricted identity is the ServiceAccount `sec-a/restricted` (user
 *   `system:serviceaccount:sec-a:restricted`, groups `system:serviceaccounts`,
 *   `system:serviceaccounts:sec-a`, `system:authenticated`): it may get, list, watch, create,
 *   update and patch ConfigMaps in `sec-a` (no delete), nothing in `sec-b`, no Secrets, no
 *   impersonation. On the real server a Role and RoleBinding grant that and its bearer token comes
 *   from a TokenRequest; on the embedded server the token file and policy file below do;
 * - the administrator is `orb-harness-admin` in `system:masters`.
 *
 * Requests are written as they go on the wire: `path` is the raw request target (sent byte for
 * byte, `..` and `%2F` included: no URL parser touches it), and header values may hold the
 * placeholders of PLACEHOLDERS, which `materialize` replaces with real tokens just before sending.
 * A recorded token is never stored: the transcripts keep the placeholders.
 */
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Clock } from "../../kernel/clock.ts";
import { realClock } from "../../kernel/real-clock.ts";

/** The two namespaces: the restricted identity's own, and the one it must not reach. */
export const NAMESPACE_A = "sec-a";
export const NAMESPACE_B = "sec-b";
/** The restricted ServiceAccount (in NAMESPACE_A) and its user name. */
export const RESTRICTED_SERVICE_ACCOUNT = "restricted";
export const RESTRICTED_USER = `system:serviceaccount:${NAMESPACE_A}:${RESTRICTED_SERVICE_ACCOUNT}`;
/** The administrator of the recording control plane (conformance/control-plane), in system:masters. */
export const ADMIN_USER = "orb-harness-admin";

/** Values stored in the seeded objects: none may ever appear in an answer to an attempt. */
export const DATA_MARKERS = {
  configMapA: "marker-cm-a-7f3c",
  configMapB: "marker-cm-b-91d2",
  secretA: "marker-secret-a-5be8",
} as const;

/** Placeholders in header values and paths; `materialize` swaps them for the real tokens. */
export const PLACEHOLDERS = {
  restricted: "<restricted token>",
  admin: "<admin token>",
  unknown: "<unknown token>",
  /** 1 MiB of "a": a bearer token as large as Go's default header limit (1 << 20 bytes). */
  huge: "<1 MiB token>",
} as const;

/** The size of the huge token. */
export const HUGE_TOKEN_BYTES = 1 << 20;

/** The objects and rights both servers start from. */
export const SECURITY_SETUP = {
  namespaces: [NAMESPACE_A, NAMESPACE_B],
  objects: [
    { path: `/api/v1/namespaces/${NAMESPACE_A}/configmaps`, body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm-a" }, data: { marker: DATA_MARKERS.configMapA } } },
    { path: `/api/v1/namespaces/${NAMESPACE_B}/configmaps`, body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm-b" }, data: { marker: DATA_MARKERS.configMapB } } },
    {
      path: `/api/v1/namespaces/${NAMESPACE_A}/secrets`,
      body: { apiVersion: "v1", kind: "Secret", metadata: { name: "s-a" }, stringData: { marker: DATA_MARKERS.secretA } },
    },
  ],
  /** The verbs the restricted identity has on ConfigMaps in NAMESPACE_A (RBAC Role rules). */
  restrictedVerbs: ["get", "list", "watch", "create", "update", "patch"],
} as const;

/**
 * The policy file that gives the embedded server's users the rights they have on the real server:
 * system:masters everything; the restricted identity its Role; and what Kubernetes' bootstrap
 * ClusterRole system:basic-user gives every signed-in user (SelfSubjectAccessReview and
 * SelfSubjectRulesReview). Discovery and /version are built in (authorize.ts BUILTIN_RULES).
 */
export const SECURITY_POLICY_FILE = [
  "- group: system:masters",
  '  apiGroups: ["*"]',
  '  resources: ["*"]',
  '  verbs: ["*"]',
  "- group: system:masters",
  '  nonResourceURLs: ["*"]',
  '  verbs: ["*"]',
  `- user: ${RESTRICTED_USER}`,
  '  apiGroups: [""]',
  "  resources: [configmaps]",
  `  verbs: [${SECURITY_SETUP.restrictedVerbs.join(", ")}]`,
  `  namespaces: [${NAMESPACE_A}]`,
  "- group: system:authenticated",
  "  apiGroups: [authorization.k8s.io]",
  "  resources: [selfsubjectaccessreviews, selfsubjectrulesreviews]",
  "  verbs: [create]",
  "",
].join("\n");

/** The token file of the embedded server, for the given tokens (the restricted user has its ServiceAccount groups). */
export function securityTokenFile(tokens: { readonly admin: string; readonly restricted: string }): string {
  return [
    `${tokens.admin},${ADMIN_USER},${ADMIN_USER},"system:masters"`,
    `${tokens.restricted},${RESTRICTED_USER},restricted-uid,"system:serviceaccounts,system:serviceaccounts:${NAMESPACE_A}"`,
    "",
  ].join("\n");
}

/** Who sends an attempt: its Authorization header, unless `headers` gives its own. */
export type AttemptIdentity = "restricted user" | "anonymous" | "unknown token" | "custom";

/** One request of the catalog. */
export interface BypassAttempt {
  /** The transcript id. */
  readonly id: string;
  /** What the attempt tries, for the transcript and the test name. */
  readonly note: string;
  readonly method: string;
  /** The raw request target, placeholders allowed. */
  readonly path: string;
  /**
   * `restricted user`: `Authorization: Bearer <restricted token>`; `unknown token`: a token no
   * server knows; `anonymous`: no Authorization header; `custom`: `headers` says it all.
   */
  readonly identity: AttemptIdentity;
  /** Further headers (placeholders allowed); a list sends the header once per value, in order. */
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  /** A JSON value (sent as JSON unless a content-type header says otherwise), or text. */
  readonly body?: unknown;
  /** A request the identity may make: there to show the setup works, not an attempt. It may return data, never write. */
  readonly control?: true;
}

const A = `/api/v1/namespaces/${NAMESPACE_A}`;
const B = `/api/v1/namespaces/${NAMESPACE_B}`;
const AUTHZ = "/apis/authorization.k8s.io/v1";
const configMap = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { stolen: "yes" } });
const reviewSpec = { resourceAttributes: { namespace: NAMESPACE_B, verb: "get", resource: "configmaps", name: "cm-b" } };

/** Every attempt, in the order they were recorded. */
export const BYPASS_ATTEMPTS: readonly BypassAttempt[] = [
  // Controls: the identity works where it should.
  { id: "security-control-get-own", note: "control: the restricted user reads a ConfigMap of its own namespace", method: "GET", path: `${A}/configmaps/cm-a`, identity: "restricted user", control: true },
  { id: "security-control-list-own", note: "control: the restricted user lists ConfigMaps of its own namespace", method: "GET", path: `${A}/configmaps`, identity: "restricted user", control: true },

  // Credentials.
  { id: "security-no-token", note: "no Authorization header: anonymous, and anonymous may not list", method: "GET", path: `${A}/configmaps`, identity: "anonymous" },
  { id: "security-wrong-token", note: "a bearer token the server does not know: 401, never anonymous", method: "GET", path: `${A}/configmaps`, identity: "unknown token" },
  { id: "security-wrong-token-health", note: "a bearer token the server does not know on /readyz, which anonymous may read: still 401", method: "GET", path: "/readyz", identity: "unknown token" },
  {
    id: "security-token-in-query",
    note: "the restricted user's valid token in ?access_token= and no header: the query is no credential, the request is anonymous",
    method: "GET",
    path: `${A}/configmaps?access_token=${PLACEHOLDERS.restricted}`,
    identity: "anonymous",
  },
  {
    id: "security-admin-token-in-query",
    note: "the administrator's valid token in ?access_token= next to the restricted user's header: the request is the restricted user's",
    method: "GET",
    path: `${B}/configmaps?access_token=${PLACEHOLDERS.admin}`,
    identity: "restricted user",
  },
  { id: "security-token-1mib", note: "a 1 MiB bearer token (1048576 × 'a')", method: "GET", path: `${A}/configmaps`, identity: "custom", headers: { authorization: `Bearer ${PLACEHOLDERS.huge}` } },
  { id: "security-token-non-ascii", note: "a bearer token of non-ASCII characters, sent as UTF-8 bytes", method: "GET", path: `${A}/configmaps`, identity: "custom", headers: { authorization: "Bearer tökén-ünïcödé-🔑" } },
  {
    id: "security-token-valid-plus-non-ascii",
    note: "the restricted user's valid token followed by a non-ASCII character (UTF-8 bytes): no prefix match",
    method: "GET",
    path: `${A}/configmaps`,
    identity: "custom",
    headers: { authorization: `Bearer ${PLACEHOLDERS.restricted}é` },
  },
  {
    id: "security-token-basic-scheme",
    note: "Basic credentials (admin:admin): Kubernetes has no basic authentication any more, so the request is anonymous",
    method: "GET",
    path: `${A}/configmaps`,
    identity: "custom",
    headers: { authorization: "Basic YWRtaW46YWRtaW4=" },
  },
  {
    id: "security-two-authorization-unknown-first",
    note: "two Authorization headers, an unknown token then the administrator's: the first one counts",
    method: "GET",
    path: `${B}/configmaps`,
    identity: "custom",
    headers: { authorization: [`Bearer ${PLACEHOLDERS.unknown}`, `Bearer ${PLACEHOLDERS.admin}`] },
  },
  {
    id: "security-two-authorization-restricted-first",
    note: "two Authorization headers, the restricted user's token then the administrator's: the first one counts",
    method: "GET",
    path: `${B}/configmaps`,
    identity: "custom",
    headers: { authorization: [`Bearer ${PLACEHOLDERS.restricted}`, `Bearer ${PLACEHOLDERS.admin}`] },
  },

  // Front-proxy headers from a client that is not a trusted proxy (no client certificate).
  {
    id: "security-remote-user-anonymous",
    note: "X-Remote-User: orb-harness-admin and X-Remote-Group: system:masters without a client certificate and without a token: ignored, anonymous",
    method: "GET",
    path: `${B}/configmaps`,
    identity: "anonymous",
    headers: { "x-remote-user": ADMIN_USER, "x-remote-group": "system:masters" },
  },
  {
    id: "security-remote-user-restricted",
    note: "X-Remote-User: orb-harness-admin and X-Remote-Group: system:masters with the restricted user's token: ignored, the restricted user",
    method: "GET",
    path: `${B}/configmaps`,
    identity: "restricted user",
    headers: { "x-remote-user": ADMIN_USER, "x-remote-group": "system:masters", "x-remote-extra-scopes": "all" },
  },

  // Impersonation without the impersonate right.
  {
    id: "security-impersonate-admin",
    note: "Impersonate-User: orb-harness-admin without the impersonate right",
    method: "GET",
    path: `${B}/configmaps`,
    identity: "restricted user",
    headers: { "impersonate-user": ADMIN_USER },
  },
  {
    id: "security-impersonate-self-with-masters",
    note: "impersonating itself (a ServiceAccount) with Impersonate-Group: system:masters: impersonating oneself needs the right too",
    method: "GET",
    path: `${B}/configmaps`,
    identity: "restricted user",
    headers: { "impersonate-user": RESTRICTED_USER, "impersonate-group": "system:masters" },
  },
  {
    id: "security-impersonate-group-only",
    note: "Impersonate-Group: system:masters without Impersonate-User",
    method: "GET",
    path: `${B}/configmaps`,
    identity: "restricted user",
    headers: { "impersonate-group": "system:masters" },
  },
  {
    id: "security-impersonate-serviceaccount",
    note: "Impersonate-User of a kube-system ServiceAccount without the impersonate right",
    method: "GET",
    path: `${B}/configmaps`,
    identity: "restricted user",
    headers: { "impersonate-user": "system:serviceaccount:kube-system:default" },
  },
  {
    id: "security-impersonate-anonymous-caller",
    note: "Impersonate-User: orb-harness-admin from an anonymous caller",
    method: "GET",
    path: `${B}/configmaps`,
    identity: "anonymous",
    headers: { "impersonate-user": ADMIN_USER },
  },
  {
    id: "security-impersonate-uid-extra",
    note: "Impersonate-User, Impersonate-Uid and Impersonate-Extra-scopes together without the right: the user is checked first",
    method: "GET",
    path: `${B}/configmaps`,
    identity: "restricted user",
    headers: { "impersonate-user": ADMIN_USER, "impersonate-uid": "0", "impersonate-extra-scopes": "all" },
  },

  // Paths that might reach another namespace or resource.
  { id: "security-path-direct", note: "the other namespace's ConfigMap, plainly", method: "GET", path: `${B}/configmaps/cm-b`, identity: "restricted user" },
  { id: "security-path-dotdot-namespace", note: "own namespace, then .. to the other", method: "GET", path: `${A}/../${NAMESPACE_B}/configmaps/cm-b`, identity: "restricted user" },
  { id: "security-path-dotdot-name", note: "own ConfigMaps, then ../.. to the other namespace", method: "GET", path: `${A}/configmaps/../../${NAMESPACE_B}/configmaps/cm-b`, identity: "restricted user" },
  { id: "security-path-encoded-dotdot", note: "%2e%2e segments to the other namespace", method: "GET", path: `${A}/configmaps/%2e%2e/%2e%2e/${NAMESPACE_B}/configmaps/cm-b`, identity: "restricted user" },
  { id: "security-path-encoded-slash-namespace", note: "the namespace segment sec-a%2F..%2Fsec-b", method: "GET", path: `/api/v1/namespaces/${NAMESPACE_A}%2F..%2F${NAMESPACE_B}/configmaps/cm-b`, identity: "restricted user" },
  { id: "security-path-encoded-slash-name", note: "the name segment ..%2F..%2Fsec-b%2Fconfigmaps%2Fcm-b", method: "GET", path: `${A}/configmaps/..%2F..%2F${NAMESPACE_B}%2Fconfigmaps%2Fcm-b`, identity: "restricted user" },
  { id: "security-path-encoded-slash-all", note: "namespaces%2Fsec-b%2Fconfigmaps%2Fcm-b as one segment", method: "GET", path: `/api/v1/namespaces%2F${NAMESPACE_B}%2Fconfigmaps%2Fcm-b`, identity: "restricted user" },
  { id: "security-path-case-namespace", note: "the other namespace in capitals", method: "GET", path: `/api/v1/namespaces/SEC-B/configmaps/cm-b`, identity: "restricted user" },
  { id: "security-path-case-resource", note: "the resource in another case (ConfigMaps)", method: "GET", path: `${B}/ConfigMaps/cm-b`, identity: "restricted user" },
  { id: "security-path-case-prefix", note: "the /API prefix in capitals", method: "GET", path: `/API/v1/namespaces/${NAMESPACE_B}/configmaps/cm-b`, identity: "restricted user" },
  { id: "security-path-double-slash-leading", note: "a leading double slash", method: "GET", path: `//api/v1/namespaces/${NAMESPACE_B}/configmaps/cm-b`, identity: "restricted user" },
  { id: "security-path-double-slash-inner", note: "a doubled slash before the namespace", method: "GET", path: `/api/v1/namespaces//${NAMESPACE_B}/configmaps/cm-b`, identity: "restricted user" },
  { id: "security-path-double-slash-own-namespace", note: "a doubled slash after its own namespace", method: "GET", path: `${A}//configmaps/cm-a`, identity: "restricted user" },
  { id: "security-path-trailing-slash-object", note: "the other namespace's ConfigMap with a trailing slash", method: "GET", path: `${B}/configmaps/cm-b/`, identity: "restricted user" },
  { id: "security-path-trailing-slash-collection", note: "the other namespace's ConfigMaps with a trailing slash", method: "GET", path: `${B}/configmaps/`, identity: "restricted user" },
  { id: "security-path-all-namespaces", note: "ConfigMaps of all namespaces", method: "GET", path: "/api/v1/configmaps", identity: "restricted user" },
  { id: "security-path-secret-own-namespace", note: "a Secret of its own namespace", method: "GET", path: `${A}/secrets/s-a`, identity: "restricted user" },
  { id: "security-path-dotdot-secret", note: "own ConfigMaps, then .. to a Secret", method: "GET", path: `${A}/configmaps/../secrets/s-a`, identity: "restricted user" },
  { id: "security-path-unknown-resource", note: "a resource that does not exist, in its own namespace", method: "GET", path: `${A}/nosuchthings`, identity: "restricted user" },

  // Method override headers: the method on the wire is what counts.
  {
    id: "security-override-get-as-delete",
    note: "GET of its own ConfigMap with X-HTTP-Method-Override: DELETE (it may not delete): a GET, nothing deleted",
    method: "GET",
    path: `${A}/configmaps/cm-a`,
    identity: "restricted user",
    headers: { "x-http-method-override": "DELETE" },
    control: true,
  },
  {
    id: "security-override-post-as-delete",
    note: "POST to its own ConfigMap with X-HTTP-Method-Override, X-HTTP-Method and X-Method-Override: DELETE",
    method: "POST",
    path: `${A}/configmaps/cm-a`,
    identity: "restricted user",
    headers: { "x-http-method-override": "DELETE", "x-http-method": "DELETE", "x-method-override": "DELETE", "content-type": "application/json" },
    body: {},
  },
  {
    id: "security-override-delete-as-get",
    note: "DELETE of its own ConfigMap (not allowed) with X-HTTP-Method-Override: GET",
    method: "DELETE",
    path: `${A}/configmaps/cm-a`,
    identity: "restricted user",
    headers: { "x-http-method-override": "GET" },
  },
  {
    id: "security-override-post-secrets-as-get",
    note: "POST to Secrets of its own namespace with X-HTTP-Method-Override: GET (a list in disguise)",
    method: "POST",
    path: `${A}/secrets`,
    identity: "restricted user",
    headers: { "x-http-method-override": "GET", "content-type": "application/json" },
    body: { apiVersion: "v1", kind: "Secret", metadata: { name: "override" } },
  },

  // Watches on forbidden resources.
  { id: "security-watch-other-namespace", note: "watch ConfigMaps of the other namespace", method: "GET", path: `${B}/configmaps?watch=true`, identity: "restricted user" },
  { id: "security-watch-secrets", note: "watch Secrets of its own namespace", method: "GET", path: `${A}/secrets?watch=1`, identity: "restricted user" },
  { id: "security-watch-all-namespaces", note: "watch ConfigMaps of all namespaces", method: "GET", path: "/api/v1/configmaps?watch=true&allowWatchBookmarks=true", identity: "restricted user" },
  {
    id: "security-watch-name-selector",
    note: "watch one ConfigMap of the other namespace by fieldSelector metadata.name",
    method: "GET",
    path: `${B}/configmaps?watch=true&fieldSelector=metadata.name%3Dcm-b`,
    identity: "restricted user",
  },
  { id: "security-watch-legacy-path", note: "the deprecated /api/v1/watch/ path to the other namespace", method: "GET", path: `/api/v1/watch/namespaces/${NAMESPACE_B}/configmaps`, identity: "restricted user" },
  { id: "security-watch-anonymous", note: "anonymous watch of ConfigMaps", method: "GET", path: `${A}/configmaps?watch=true`, identity: "anonymous" },

  // Dry-run writes where the real write is forbidden.
  { id: "security-dryrun-create-other-namespace", note: "dry-run create in the other namespace", method: "POST", path: `${B}/configmaps?dryRun=All`, identity: "restricted user", body: configMap("dry") },
  { id: "security-dryrun-update-other-namespace", note: "dry-run update in the other namespace", method: "PUT", path: `${B}/configmaps/cm-b?dryRun=All`, identity: "restricted user", body: configMap("cm-b") },
  {
    id: "security-dryrun-patch-other-namespace",
    note: "dry-run merge patch in the other namespace",
    method: "PATCH",
    path: `${B}/configmaps/cm-b?dryRun=All`,
    identity: "restricted user",
    headers: { "content-type": "application/merge-patch+json" },
    body: { data: { stolen: "yes" } },
  },
  {
    id: "security-dryrun-apply-other-namespace",
    note: "dry-run server-side apply in the other namespace",
    method: "PATCH",
    path: `${B}/configmaps/cm-b?dryRun=All&fieldManager=intruder`,
    identity: "restricted user",
    headers: { "content-type": "application/apply-patch+yaml" },
    body: configMap("cm-b"),
  },
  { id: "security-dryrun-delete-own-namespace", note: "dry-run delete of its own ConfigMap (it may not delete)", method: "DELETE", path: `${A}/configmaps/cm-a?dryRun=All`, identity: "restricted user" },
  { id: "security-dryrun-deletecollection-other-namespace", note: "dry-run delete of the other namespace's ConfigMaps", method: "DELETE", path: `${B}/configmaps?dryRun=All`, identity: "restricted user" },
  {
    id: "security-dryrun-create-secret",
    note: "dry-run create of a Secret in its own namespace",
    method: "POST",
    path: `${A}/secrets?dryRun=All`,
    identity: "restricted user",
    body: { apiVersion: "v1", kind: "Secret", metadata: { name: "dry" }, stringData: { k: "v" } },
  },
  { id: "security-dryrun-create-anonymous", note: "anonymous dry-run create", method: "POST", path: `${A}/configmaps?dryRun=All`, identity: "anonymous", body: configMap("dry") },

  // Access reviews about someone else.
  {
    id: "security-sar-other-user",
    note: "a SubjectAccessReview asking whether orb-harness-admin may read the other namespace's ConfigMap",
    method: "POST",
    path: `${AUTHZ}/subjectaccessreviews`,
    identity: "restricted user",
    body: { apiVersion: "authorization.k8s.io/v1", kind: "SubjectAccessReview", spec: { ...reviewSpec, user: ADMIN_USER, groups: ["system:masters"] } },
  },
  {
    id: "security-sar-anonymous",
    note: "an anonymous SubjectAccessReview about orb-harness-admin",
    method: "POST",
    path: `${AUTHZ}/subjectaccessreviews`,
    identity: "anonymous",
    body: { apiVersion: "authorization.k8s.io/v1", kind: "SubjectAccessReview", spec: { ...reviewSpec, user: ADMIN_USER } },
  },
  {
    id: "security-self-sar-names-other-user",
    note: "a SelfSubjectAccessReview whose spec names orb-harness-admin and system:masters: the answer is about the caller",
    method: "POST",
    path: `${AUTHZ}/selfsubjectaccessreviews`,
    identity: "restricted user",
    body: { apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectAccessReview", spec: { ...reviewSpec, user: ADMIN_USER, groups: ["system:masters"] } },
  },
  {
    id: "security-local-sar-other-user",
    note: "a LocalSubjectAccessReview in its own namespace about orb-harness-admin",
    method: "POST",
    path: `${AUTHZ}/namespaces/${NAMESPACE_A}/localsubjectaccessreviews`,
    identity: "restricted user",
    body: {
      apiVersion: "authorization.k8s.io/v1",
      kind: "LocalSubjectAccessReview",
      metadata: { namespace: NAMESPACE_A },
      spec: { resourceAttributes: { namespace: NAMESPACE_A, verb: "get", resource: "secrets", name: "s-a" }, user: ADMIN_USER },
    },
  },
];

/** The real tokens behind the placeholders. */
export interface AttemptTokens {
  readonly restricted: string;
  readonly admin: string;
  readonly unknown: string;
}

/** A request ready for the wire: headers as node:http sends them (values are latin1 byte strings). */
export interface WireRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: OutgoingHttpHeaders;
  readonly body?: Buffer;
}

/** Replaces the placeholders of `text`. */
export function fillPlaceholders(text: string, tokens: AttemptTokens): string {
  return text
    .replaceAll(PLACEHOLDERS.restricted, tokens.restricted)
    .replaceAll(PLACEHOLDERS.admin, tokens.admin)
    .replaceAll(PLACEHOLDERS.unknown, tokens.unknown)
    .replaceAll(PLACEHOLDERS.huge, "a".repeat(HUGE_TOKEN_BYTES));
}

/** The headers of an attempt with their placeholders, as a transcript keeps them (a list joined with ", "). */
export function attemptHeaders(attempt: BypassAttempt): Record<string, string> {
  const headers: Record<string, string> = {};
  if (attempt.identity === "restricted user") headers["authorization"] = `Bearer ${PLACEHOLDERS.restricted}`;
  if (attempt.identity === "unknown token") headers["authorization"] = `Bearer ${PLACEHOLDERS.unknown}`;
  for (const [name, value] of Object.entries(attempt.headers ?? {})) headers[name] = typeof value === "string" ? value : value.join(", ");
  if (attempt.body !== undefined && typeof attempt.body !== "string" && headers["content-type"] === undefined) headers["content-type"] = "application/json";
  return headers;
}

/** An attempt with real tokens in, ready to send. */
export function materialize(attempt: BypassAttempt, tokens: AttemptTokens): WireRequest {
  // node:http writes header values as latin1: a non-ASCII value goes out as its UTF-8 bytes, as a Go client sends it.
  const bytes = (text: string) => Buffer.from(fillPlaceholders(text, tokens), "utf8").toString("latin1");
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(attemptHeaders(attempt))) headers[name] = bytes(value);
  // A list goes out as one header line per value (the transcript shows them joined).
  for (const [name, value] of Object.entries(attempt.headers ?? {})) if (typeof value !== "string") headers[name] = value.map(bytes);
  const body = attempt.body === undefined ? undefined : Buffer.from(typeof attempt.body === "string" ? attempt.body : JSON.stringify(attempt.body), "utf8");
  return { method: attempt.method, path: fillPlaceholders(attempt.path, tokens), headers, ...(body !== undefined && { body }) };
}

/** What came back. */
export interface WireAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** True when the answer was still streaming (a watch) after `streamMs` and was cut there. */
  readonly cut: boolean;
}

/**
 * Sends a request byte for byte (the path is not parsed or normalized) to `baseUrl` (http or
 * https; `ca` is the certificate to trust), and reads the answer. A body still open after
 * `streamMs` (an allowed watch) is cut and returned as far as it came.
 */
export function sendRaw(
  baseUrl: string,
  wire: WireRequest,
  options: { readonly ca?: string | Buffer; readonly streamMs?: number; readonly clock?: Clock } = {},
): Promise<WireAnswer> {
  const url = new URL(baseUrl);
  const streamMs = options.streamMs ?? 2_000;
  const clock = options.clock ?? realClock;
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const headers = { ...wire.headers, ...(wire.body !== undefined && { "content-length": String(wire.body.length) }) };
    const request = send(
      {
        host: url.hostname,
        port: url.port,
        method: wire.method,
        path: wire.path,
        headers,
        ...(options.ca !== undefined && { ca: options.ca }),
        // Only limits the answer's headers (a request header of any size is sent).
        maxHeaderSize: 64 * 1024,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let cut = false;
        const timer = clock.setTimer(streamMs, () => {
          cut = true;
          response.destroy();
          finish();
        });
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          timer.cancel();
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8"), cut });
        };
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", finish);
        response.on("close", finish);
        response.on("error", () => finish());
      },
    );
    const deadline = clock.setTimer(30_000, () => request.destroy(new Error(`no answer from ${baseUrl}${wire.path.slice(0, 200)} within 30 s`)));
    request.on("close", () => deadline.cancel());
    request.on("error", reject);
    request.end(wire.body);
  });
}
