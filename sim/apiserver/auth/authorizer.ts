/**
 * The one seam every authorization question goes through (Kubernetes' authorizer.Authorizer and
 * authorizer.RuleResolver): requests (check-access.ts), impersonation (impersonate.ts),
 * SubjectAccessReviews and SelfSubjectAccessReviews (subject-access-review.ts) ask `authorize`;
 * SelfSubjectRulesReviews (subject-rules-review.ts) ask `rulesFor`. The policy file and RBAC are two
 * implementations; `unionAuthorizer` chains them as kube-apiserver's `--authorization-mode=A,B`.
 */
import { authorize, rulesFor, type AuthorizationDecision, type RequestAttributes } from "./authorize.ts";
import type { Policy } from "./policy-file.ts";
import type { UserInfo } from "./user.ts";

/** One `status.resourceRules` entry of a SelfSubjectRulesReview, Kubernetes' field order. */
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

/** What an authorizer says a user holds in a namespace (RuleResolver.RulesFor). */
export interface AuthorizerRules {
  readonly resourceRules: readonly ReviewResourceRule[];
  readonly nonResourceRules: readonly ReviewNonResourceRule[];
  /** Why some rules could not be read (a binding naming a role that does not exist); "" when none. */
  readonly evaluationError: string;
}

/** Decides requests and lists rules. Only allows or has no opinion: neither implementation denies outright. */
export interface Authorizer {
  authorize(user: UserInfo, attributes: RequestAttributes): AuthorizationDecision;
  rulesFor(user: UserInfo, namespace: string): AuthorizerRules;
}

/** The policy file's rules (authorize.ts) as an Authorizer. */
export function policyAuthorizer(policy: Policy): Authorizer {
  return {
    authorize: (user, attributes) => authorize(user, attributes, policy),
    rulesFor(user, namespace) {
      const resourceRules: ReviewResourceRule[] = [];
      const nonResourceRules: ReviewNonResourceRule[] = [];
      for (const rule of rulesFor(user, namespace, policy)) {
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
      return { resourceRules, nonResourceRules, evaluationError: "" };
    },
  };
}

/**
 * Authorizers tried in order, as kube-apiserver's union authorizer: the first that allows decides
 * (with its reason); when none does, the reasons of those that gave one, one per line. Rules are
 * the concatenation of each one's, errors joined as Go's aggregate error.
 */
export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  return {
    authorize(user, attributes) {
      const reasons: string[] = [];
      for (const authorizer of authorizers) {
        const decision = authorizer.authorize(user, attributes);
        if (decision.allowed) return decision;
        if (decision.reason !== "") reasons.push(decision.reason);
      }
      return { allowed: false, reason: reasons.join("\n") };
    },
    rulesFor(user, namespace) {
      const all = authorizers.map((authorizer) => authorizer.rulesFor(user, namespace));
      return {
        resourceRules: all.flatMap((rules) => rules.resourceRules),
        nonResourceRules: all.flatMap((rules) => rules.nonResourceRules),
        evaluationError: aggregateErrorText(all.map((rules) => rules.evaluationError).filter((text) => text !== "")),
      };
    },
  };
}

/** Go's utilerrors aggregate text: one message alone, several (duplicates dropped) as `[a, b]`. */
export function aggregateErrorText(messages: readonly string[]): string {
  const distinct = [...new Set(messages)];
  if (messages.length <= 1 || distinct.length === 1) return distinct[0] ?? "";
  return `[${distinct.join(", ")}]`;
}

/**
 * The authorizer of a policy or an authorizer: the review functions took a Policy before RBAC
 * existed and their callers may still pass one; undefined is authorization off.
 */
export function asAuthorizer(given: Authorizer | Policy | undefined): Authorizer | undefined {
  if (given === undefined || "authorize" in given) return given;
  return policyAuthorizer(given);
}
