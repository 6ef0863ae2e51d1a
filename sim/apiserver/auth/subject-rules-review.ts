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
 * - a policy file: every rule of it whose subject is the caller (its name, or one of its groups)
 *   and that applies in the namespace, then the built-in rules that apply to the caller (discovery,
 *   version, health), in that order. Kubernetes lists the rules of each binding, in an order that
 *   varies from answer to answer for non-resource rules; its bootstrap roles grant every signed-in
 *   user `create` on selfsubjectaccessreviews and selfsubjectrulesreviews, which this server's
 *   policy does not grant unless a rule says so, so they are listed only when a rule grants them.
 */
import type { Dialect } from "../../../spec/dialects.ts";
import { badRequest } from "../responses/api-error.ts";
import { rulesFor } from "./authorize.ts";
import type { Policy } from "./policy-file.ts";
import { checkTypeMeta } from "./subject-access-review.ts";
import type { UserInfo } from "./user.ts";

/** The kind of the review. */
export const SELF_SUBJECT_RULES_REVIEW_KIND = "SelfSubjectRulesReview";

/** One `status.resourceRules` entry, Kubernetes' field order. */
export interface ReviewResourceRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
}

/** One `status.nonResourceRules` entry. */
export interface ReviewNonResourceRule {
  readonly verbs: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

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
 * impersonated one, or anonymous) under `policy` (undefined: authorization off). Throws an
 * ApiError 400 for a body of another kind or apiVersion, a spec that is not an object, or no namespace.
 */
export function selfSubjectRulesReview(body: Record<string, unknown>, caller: UserInfo, policy: Policy | undefined, dialect: Dialect): SelfSubjectRulesReviewResponse {
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
  const status = policy === undefined ? { ...EVERYTHING, incomplete: false } : { ...policyRules(caller, namespace, policy), incomplete: false };
  return {
    status: 201,
    body: { kind: SELF_SUBJECT_RULES_REVIEW_KIND, apiVersion, metadata: { creationTimestamp: null }, spec: {}, status },
    unknownFields,
  };
}

function policyRules(caller: UserInfo, namespace: string, policy: Policy): { resourceRules: ReviewResourceRule[]; nonResourceRules: ReviewNonResourceRule[] } {
  const resourceRules: ReviewResourceRule[] = [];
  const nonResourceRules: ReviewNonResourceRule[] = [];
  for (const rule of rulesFor(caller, namespace, policy)) {
    if (rule.kind === "nonResource") {
      nonResourceRules.push({ verbs: [...rule.verbs], nonResourceURLs: [...rule.nonResourceURLs] });
    } else {
      resourceRules.push({
        verbs: [...rule.verbs],
        apiGroups: [...rule.apiGroups],
        resources: [...rule.resources],
        ...(rule.resourceNames !== undefined && { resourceNames: [...rule.resourceNames] }),
      });
    }
  }
  return { resourceRules, nonResourceRules };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
