/**
 * SelfSubjectRulesReview (authorization/v1, `kubectl auth can-i --list`): the rules the caller
 * holds in one namespace, a virtual type (POST only, nothing stored), answered from the same rules
 * that authorize requests (authorize.ts `rulesFor`).
 *
 * Request: `{apiVersion: "<authorization group>/v1", kind: "SelfSubjectRulesReview", spec:
 * {namespace}}`. Answer, as kube-apiserver 1.26.4 gives it (transcripts ssrr-* in
 * transcripts-scale-and-reviews.jsonl): 201 with `metadata: {creationTimestamp: null}`, an empty
 * `spec` (the namespace asked about is not echoed) and `status: {resourceRules, nonResourceRules,
 * incomplete: false}`; a resource rule is `{verbs, apiGroups, resources, resourceNames?}`, a
 * non-resource rule `{verbs, nonResourceURLs}`. Without a namespace: 400 "no namespace on request".
 * Spec fields other than namespace are dropped with a Warning (`unknown field "spec.user"`).
 *
 * Which rules:
 * - authorization off (no policy file): Kubernetes' AlwaysAllow authorizer's rules, everything:
 *   `{verbs: ["*"], apiGroups: ["*"], resources: ["*"]}` and `{verbs: ["*"], nonResourceURLs: ["*"]}`
 *   (the same two rules a real server lists first for a system:masters user, transcript ssrr-admin);
 * - RBAC (`--authorization-mode RBAC`): system:masters' two rules of everything, then the rules of
 *   every binding of the caller, ClusterRoleBindings first (rbac-authorizer.ts);
 * - a policy file: every rule of it whose subject is the caller (its name, or one of its groups)
 *   and that applies in the namespace, then the built-in rules that apply to the caller (discovery,
 *   version, health), in that order. Kubernetes lists the rules of each binding, in an order that
 *   varies from answer to answer for non-resource rules; its bootstrap roles grant every signed-in
 *   user `create` on selfsubjectaccessreviews and selfsubjectrulesreviews, which this server's
 *   policy does not grant unless a rule says so, so they are listed only when a rule grants them.
 */
import type { Dialect } from "../../../spec/dialects.ts";
import { badRequest } from "../responses/api-error.ts";
import { asAuthorizer, type Authorizer, type ReviewNonResourceRule, type ReviewResourceRule } from "./authorizer.ts";
import type { Policy } from "./policy-file.ts";
import { checkTypeMeta } from "./subject-access-review.ts";
import type { UserInfo } from "./user.ts";

/** The kind of the review. */
export const SELF_SUBJECT_RULES_REVIEW_KIND = "SelfSubjectRulesReview";

export type { ReviewNonResourceRule, ReviewResourceRule } from "./authorizer.ts";

/** The answered review. */
export interface SelfSubjectRulesReview {
  readonly kind: typeof SELF_SUBJECT_RULES_REVIEW_KIND;
  readonly apiVersion: string;
  readonly metadata: { readonly creationTimestamp: null };
  readonly spec: Record<string, never>;
  readonly status: {
    readonly resourceRules: readonly ReviewResourceRule[];
    readonly nonResourceRules: readonly ReviewNonResourceRule[];
    readonly incomplete: boolean;
    /** Why some rules could not be read (RBAC: a binding naming a missing role); absent when none. */
    readonly evaluationError?: string;
  };
}

/** What the handler sends: 201, the review, and the spec fields it dropped (paths, in body order). */
export interface SelfSubjectRulesReviewResponse {
  readonly status: 201;
  readonly body: SelfSubjectRulesReview;
  readonly unknownFields: readonly string[];
}

/** Kubernetes' AlwaysAllow authorizer's rules: what everyone holds when authorization is off. */
const EVERYTHING = {
  resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }],
  nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
} as const;

/**
 * Answers a decoded SelfSubjectRulesReview body for `caller` (the authenticated user, the
 * impersonated one, or anonymous) under `authorization`, the server's authorizer (or a policy;
 * undefined: authorization off). Throws an
 * ApiError 400 for a body of another kind or apiVersion, a spec that is not an object, or no namespace.
 */
export function selfSubjectRulesReview(body: Record<string, unknown>, caller: UserInfo, authorization: Authorizer | Policy | undefined, dialect: Dialect): SelfSubjectRulesReviewResponse {
  const apiVersion = `${dialect.groups.authorization}/v1`;
  checkTypeMeta(body, apiVersion, SELF_SUBJECT_RULES_REVIEW_KIND);
  const rawSpec = body["spec"];
  if (rawSpec !== undefined && rawSpec !== null && !isObject(rawSpec)) {
    throw badRequest(`${SELF_SUBJECT_RULES_REVIEW_KIND} in version "v1" cannot be handled as a ${SELF_SUBJECT_RULES_REVIEW_KIND}: spec must be an object`);
  }
  const spec = isObject(rawSpec) ? rawSpec : {};
  const namespace = spec["namespace"];
  if (namespace !== undefined && namespace !== null && typeof namespace !== "string") {
    throw badRequest(`${SELF_SUBJECT_RULES_REVIEW_KIND} in version "v1" cannot be handled as a ${SELF_SUBJECT_RULES_REVIEW_KIND}: spec.namespace must be a string`);
  }
  if (typeof namespace !== "string" || namespace === "") throw badRequest("no namespace on request");
  const unknownFields = Object.keys(spec)
    .filter((field) => field !== "namespace")
    .map((field) => `spec.${field}`);
  const authorizer = asAuthorizer(authorization);
  const status = authorizer === undefined ? { ...EVERYTHING, incomplete: false } : reviewStatus(authorizer, caller, namespace);
  return {
    status: 201,
    body: { kind: SELF_SUBJECT_RULES_REVIEW_KIND, apiVersion, metadata: { creationTimestamp: null }, spec: {}, status },
    unknownFields,
  };
}

function reviewStatus(authorizer: Authorizer, caller: UserInfo, namespace: string): SelfSubjectRulesReview["status"] {
  const { resourceRules, nonResourceRules, evaluationError } = authorizer.rulesFor(caller, namespace);
  return { resourceRules, nonResourceRules, incomplete: false, ...(evaluationError !== "" && { evaluationError }) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
