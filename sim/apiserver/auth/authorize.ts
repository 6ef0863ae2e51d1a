/**
 * Authorization against the policy file (doc 1 §5), matching as Kubernetes' RBAC does, and the
 * 403 Forbidden Status kube-apiserver sends (transcripts forbidden, forbidden-dryrun,
 * health-healthz-ping-anonymous).
 *
 * Callers describe a request by its attributes, as Kubernetes' RequestInfo does:
 * - the verb of the real request, also for a dry-run (doc 1 §4.4.6, §5.1: a dry-run needs exactly
 *   the permission of the real request; dryRun is not an attribute at all): GET of one object
 *   `get`, of a collection `list`, with `watch` `watch`; POST `create`; PUT `update`; PATCH (and
 *   server-side apply) `patch`; DELETE of one object `delete`, of a collection `deletecollection`;
 *   for a path that is no resource, the lowercase HTTP method (`get`);
 * - `name` only when the URL names the object (a POST to a collection has none, even if the body
 *   does: transcript forbidden-dryrun);
 * - `namespace` from the URL ("" or absent for cluster scope and for lists across namespaces).
 */
import type { ApiError } from "../responses/api-error.ts";
import { failure } from "../responses/api-error.ts";

import type { NonResourceRule, Policy, PolicyRule } from "./policy-file.ts";
import { AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP, type UserInfo } from "./user.ts";
import { goQuote } from "../responses/go-text.ts";

/** A request on a resource. */
export interface ResourceAttributes {
  readonly kind: "resource";
  /** The verb of the real request, also for a dry-run. */
  readonly verb: string;
  /** "" for the core group. */
  readonly apiGroup: string;
  /** The plural, as in the URL. */
  readonly resource: string;
  readonly subresource?: string;
  /** Undefined or "" for cluster scope and for lists across all namespaces. */
  readonly namespace?: string;
  /** Only when the URL names the object. */
  readonly name?: string;
}

/** A request on a path that is not a resource (`/livez/ping`, `/version`, `/apis`). */
export interface NonResourceAttributes {
  readonly kind: "nonResource";
  /** The lowercase HTTP method. */
  readonly verb: string;
  /** The URL path, without query. */
  readonly path: string;
}

/** What authorization judges. */
export type RequestAttributes = ResourceAttributes | NonResourceAttributes;

/**
 * The verdict. `reason` names the rule that allowed the request. A denial carries the empty
 * reason, as RBAC's does (it only has no opinion): the 403 message and a SubjectAccessReview's
 * status then carry none, exactly as the transcripts forbidden and sar show.
 */
export interface AuthorizationDecision {
  readonly allowed: boolean;
  readonly reason: string;
}

/**
 * Rules every policy holds, copied from Kubernetes' bootstrap ClusterRoles, so that a policy file
 * need not repeat them and anonymous callers get what they get from a real server:
 * system:public-info-viewer (every caller, signed in or not: GET of the three health endpoints and
 * of /version) and system:discovery (signed-in callers: discovery and OpenAPI documents). The
 * single-check health paths are in neither: GET /healthz/ping as anonymous is 403 (transcript
 * health-healthz-ping-anonymous), while GET /readyz?verbose is 200 (health-readyz-anonymous).
 * Grant them with a nonResourceURLs rule (`/livez/*`, `/readyz/*`) as Kubernetes' system:monitoring does.
 */
export const BUILTIN_RULES: readonly NonResourceRule[] = [
  ...[UNAUTHENTICATED_GROUP, AUTHENTICATED_GROUP].map(
    (group): NonResourceRule => ({
      kind: "nonResource",
      subject: { kind: "Group", name: group },
      verbs: ["get"],
      nonResourceURLs: ["/healthz", "/livez", "/readyz", "/version", "/version/"],
      source: "built-in rule system:public-info-viewer",
    }),
  ),
  {
    kind: "nonResource",
    subject: { kind: "Group", name: AUTHENTICATED_GROUP },
    verbs: ["get"],
    nonResourceURLs: ["/api", "/api/*", "/apis", "/apis/*", "/openapi", "/openapi/*"],
    source: "built-in rule system:discovery",
  },
];

/** Whether `user` may do what `attributes` describe under `policy` (its rules, then BUILTIN_RULES). */
export function authorize(user: UserInfo, attributes: RequestAttributes, policy: Policy): AuthorizationDecision {
  for (const rule of [...policy.rules, ...BUILTIN_RULES]) {
    if (subjectMatches(rule, user) && ruleAllows(rule, attributes)) {
      return { allowed: true, reason: `allowed by ${rule.source} to ${rule.subject.kind} ${goQuote(rule.subject.name)}` };
    }
  }
  return { allowed: false, reason: "" };
}

/**
 * The rules that apply to `user` in `namespace` ("" for cluster scope only), in the order
 * `authorize` tries them: the policy's, then BUILTIN_RULES. A rule limited to namespaces applies
 * only in one of them. What a SelfSubjectRulesReview lists (subject-rules-review.ts).
 */
export function rulesFor(user: UserInfo, namespace: string, policy: Policy): PolicyRule[] {
  return [...policy.rules, ...BUILTIN_RULES].filter(
    (rule) => subjectMatches(rule, user) && (rule.kind === "nonResource" || rule.namespaces === undefined || (namespace !== "" && rule.namespaces.includes(namespace))),
  );
}

function subjectMatches(rule: PolicyRule, user: UserInfo): boolean {
  return rule.subject.kind === "User" ? rule.subject.name === user.name : user.groups.includes(rule.subject.name);
}

function ruleAllows(rule: PolicyRule, attributes: RequestAttributes): boolean {
  if (!matchesOrWildcard(rule.verbs, attributes.verb)) return false;
  if (attributes.kind === "nonResource") {
    return rule.kind === "nonResource" && rule.nonResourceURLs.some((url) => urlMatches(url, attributes.path));
  }
  if (rule.kind !== "resource") return false;
  if (!matchesOrWildcard(rule.apiGroups, attributes.apiGroup)) return false;
  if (!resourceMatches(rule.resources, attributes.resource, attributes.subresource ?? "")) return false;
  // RBAC's ResourceNameMatches: with resourceNames, only a request naming one of them.
  if (rule.resourceNames !== undefined && !rule.resourceNames.includes(attributes.name ?? "")) return false;
  if (rule.namespaces === undefined) return true;
  const namespace = attributes.namespace ?? "";
  return namespace !== "" && rule.namespaces.includes(namespace);
}

function matchesOrWildcard(values: readonly string[], wanted: string): boolean {
  return values.includes("*") || values.includes(wanted);
}

/** RBAC's ResourceMatches: "*", the exact `resource[/subresource]`, or "*" + "/<subresource>". */
function resourceMatches(ruleResources: readonly string[], resource: string, subresource: string): boolean {
  const combined = subresource === "" ? resource : `${resource}/${subresource}`;
  return ruleResources.some(
    (ruleResource) => ruleResource === "*" || ruleResource === combined || (subresource !== "" && ruleResource === `*/${subresource}`),
  );
}

/** RBAC's NonResourceURLMatches: "*", the exact path, or a prefix ending in "*". */
function urlMatches(ruleUrl: string, path: string): boolean {
  if (ruleUrl === "*" || ruleUrl === path) return true;
  return ruleUrl.endsWith("*") && path.startsWith(ruleUrl.slice(0, -1));
}

/**
 * The 403 kube-apiserver sends when authorization denies (responsewriters.Forbidden and
 * apierrors.NewForbidden):
 * - resource: `<resource>[.<group>][ "<name>"] is forbidden: User "<u>" cannot <verb> resource
 *   "<resource>[/<sub>]" in API group "<g>" in the namespace "<ns>"` (or `at the cluster scope`),
 *   details `{name?, group?, kind: <resource>}` (transcripts forbidden, forbidden-dryrun);
 * - non-resource: `forbidden: User "<u>" cannot <verb> path "<path>"`, details `{}`
 *   (transcript health-healthz-ping-anonymous);
 * - a resource request whose group and resource are both empty (a doubled slash:
 *   `/api/v1/namespaces/ns//configmaps/x` names resource "", name "configmaps"): `forbidden: …`
 *   as for a path, details without kind (transcript security-path-double-slash-own-namespace).
 * A non-empty `reason` is appended after ": ".
 */
export function forbiddenError(user: UserInfo | string, attributes: RequestAttributes, reason = ""): ApiError {
  const userName = typeof user === "string" ? user : user.name;
  const base = forbiddenMessage(userName, attributes);
  const why = reason === "" ? base : `${base}: ${reason}`;
  if (attributes.kind === "nonResource") return failure("Forbidden", `forbidden: ${why}`, {});
  const { apiGroup, resource, name } = attributes;
  const qualified = apiGroup === "" ? resource : `${resource}.${apiGroup}`;
  const subject = name === undefined || name === "" ? qualified : `${qualified} ${goQuote(name)}`;
  // apierrors.NewForbidden: an empty GroupResource gives a bare "forbidden:"; empty fields are omitted.
  return failure("Forbidden", qualified === "" ? `forbidden: ${why}` : `${subject} is forbidden: ${why}`, {
    ...(name !== undefined && name !== "" && { name }),
    ...(apiGroup !== "" && { group: apiGroup }),
    ...(resource !== "" && { kind: resource }),
  });
}

function forbiddenMessage(userName: string, attributes: RequestAttributes): string {
  const who = `User ${goQuote(userName)} cannot ${attributes.verb}`;
  if (attributes.kind === "nonResource") return `${who} path ${goQuote(attributes.path)}`;
  const resource = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  const what = `${who} resource ${goQuote(resource)} in API group ${goQuote(attributes.apiGroup)}`;
  return attributes.namespace ? `${what} in the namespace ${goQuote(attributes.namespace)}` : `${what} at the cluster scope`;
}

/** Paths whose requests skip authorization, still authenticated (doc 1 §5.3). */
export const AUTHORIZATION_FREE_PATHS: readonly string[] = ["/healthz", "/livez", "/readyz"];

/**
 * Whether a request on `path` skips authorization: the three health endpoints themselves, exactly
 * (doc 1 §5.3; Kubernetes serves them to every caller, transcript health-readyz-anonymous), but
 * not their single-check paths (`/healthz/ping` as anonymous is 403, transcript
 * health-healthz-ping-anonymous). A query string is ignored. Authentication still applies: a bad
 * token is 401 here too (doc 1 §5.3, "remote use of the health endpoints is authenticated").
 */
export function skipsAuthorization(path: string): boolean {
  const queryAt = path.indexOf("?");
  return AUTHORIZATION_FREE_PATHS.includes(queryAt === -1 ? path : path.slice(0, queryAt));
}
