/**
 * `--authorization-mode RBAC`: Kubernetes' RBAC authorizer (plugin/pkg/auth/authorizer/rbac and
 * pkg/registry/rbac/validation DefaultRuleResolver.VisitRulesFor) over the RBAC objects the server
 * stores, read at request time, so a Role or binding written a moment ago already counts.
 *
 * Rules are visited as kube-apiserver visits them: every ClusterRoleBinding whose subjects include
 * the user, with its ClusterRole's rules; then, for a namespaced request, every RoleBinding of
 * that namespace, with its Role's (of the namespace) or ClusterRole's rules, which then apply in
 * that namespace only. The first rule that allows decides: reason `RBAC: allowed by <binding>`.
 * A binding whose role does not exist is an error, not a denial by itself: when nothing allows,
 * the reason is `RBAC: <errors>` (recorded: `RBAC: role.rbac.authorization.k8s.io "no-such-role"
 * not found`, rbac-bootstrap-data/rbac-answers.json carol-get-pods); otherwise a denial has no
 * reason. Kubernetes lists bindings from an informer cache in no set order; here they come in
 * name order, which only matters when two bindings allow the same request.
 *
 * ClusterRole aggregation is not evaluated here: kube-controller-manager writes the aggregated
 * rules into the ClusterRole, and the bootstrap data holds admin, edit and view with their rules
 * filled (rbac-bootstrap.ts). A ClusterRole created later with an aggregationRule holds the rules
 * it was written with, as on a cluster without the clusterrole-aggregation controller.
 */
import type { Authorizer, AuthorizerRules, ReviewNonResourceRule, ReviewResourceRule } from "./authorizer.ts";
import { aggregateErrorText, unionAuthorizer } from "./authorizer.ts";
import type { RequestAttributes } from "./authorize.ts";
import { describeBinding, ruleAllows, subjectIndexFor, type RbacBinding, type RbacPolicyRule } from "./rbac-rules.ts";
import type { UserInfo } from "./user.ts";
import { goQuote } from "../responses/go-text.ts";

/** A Role or ClusterRole, as stored. */
export interface RbacRole {
  readonly rules?: readonly RbacPolicyRule[];
}

/** Where the authorizer reads RBAC objects (the store, in rbac-store-objects.ts). */
export interface RbacObjects {
  clusterRoleBindings(): readonly RbacBinding[];
  roleBindings(namespace: string): readonly RbacBinding[];
  clusterRole(name: string): RbacRole | undefined;
  role(namespace: string, name: string): RbacRole | undefined;
}

/** The group kube-apiserver lets do anything, before any authorizer (user.SystemPrivilegedGroup). */
export const PRIVILEGED_GROUP = "system:masters";

/**
 * kube-apiserver's privileged-groups authorizer, always first in its chain: system:masters is
 * allowed everything with no reason (recorded: masters-delete-nodes answers `{allowed: true}`),
 * and holds the two rules every SelfSubjectRulesReview of an admin lists first.
 */
export const privilegedGroupAuthorizer: Authorizer = {
  authorize: (user) => ({ allowed: user.groups.includes(PRIVILEGED_GROUP), reason: "" }),
  rulesFor: (user) =>
    user.groups.includes(PRIVILEGED_GROUP)
      ? { resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }], nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }], evaluationError: "" }
      : { resourceRules: [], nonResourceRules: [], evaluationError: "" },
};

/** What `visitRules` shows the visitor: a rule and the binding it came through, or an error. */
type Visit = { readonly rule: RbacPolicyRule; readonly source: string } | { readonly error: string };

/** The RBAC authorizer alone (no privileged group). */
export function rbacAuthorizer(objects: RbacObjects): Authorizer {
  return {
    authorize(user, attributes) {
      const errors: string[] = [];
      for (const visit of visitRules(objects, user, requestNamespace(attributes))) {
        if ("error" in visit) errors.push(visit.error);
        else if (ruleAllows(attributes, visit.rule)) return { allowed: true, reason: `RBAC: allowed by ${visit.source}` };
      }
      return { allowed: false, reason: errors.length === 0 ? "" : `RBAC: ${aggregateErrorText(errors)}` };
    },
    rulesFor(user, namespace): AuthorizerRules {
      const resourceRules: ReviewResourceRule[] = [];
      const nonResourceRules: ReviewNonResourceRule[] = [];
      const errors: string[] = [];
      for (const visit of visitRules(objects, user, namespace)) {
        if ("error" in visit) {
          errors.push(visit.error);
          continue;
        }
        // A rule with both resources and nonResourceURLs is listed as both (RBACAuthorizer.RulesFor).
        const { verbs = [], apiGroups, resources = [], resourceNames, nonResourceURLs = [] } = visit.rule;
        if (resources.length > 0) {
          // Go's omitempty: empty lists are left out.
          resourceRules.push({ verbs, ...(apiGroups !== undefined && apiGroups.length > 0 && { apiGroups }), resources, ...(resourceNames !== undefined && resourceNames.length > 0 && { resourceNames }) });
        }
        if (nonResourceURLs.length > 0) nonResourceRules.push({ verbs, nonResourceURLs });
      }
      return { resourceRules, nonResourceRules, evaluationError: aggregateErrorText(errors) };
    },
  };
}

/** `--authorization-mode RBAC` as kube-apiserver builds it: the privileged group, then RBAC. */
export function rbacModeAuthorizer(objects: RbacObjects): Authorizer {
  return unionAuthorizer([privilegedGroupAuthorizer, rbacAuthorizer(objects)]);
}

function requestNamespace(attributes: RequestAttributes): string {
  return attributes.kind === "resource" ? (attributes.namespace ?? "") : "";
}

/** DefaultRuleResolver.VisitRulesFor, as a sequence: ClusterRoleBindings, then the namespace's RoleBindings. */
function* visitRules(objects: RbacObjects, user: UserInfo, namespace: string): Generator<Visit> {
  yield* bindingRules(objects, user, objects.clusterRoleBindings(), "");
  if (namespace !== "") yield* bindingRules(objects, user, objects.roleBindings(namespace), namespace);
}

function* bindingRules(objects: RbacObjects, user: UserInfo, bindings: readonly RbacBinding[], namespace: string): Generator<Visit> {
  for (const binding of bindings) {
    const subjects = binding.subjects ?? [];
    const index = subjectIndexFor(user, subjects, namespace);
    if (index === -1) continue;
    const role = referencedRole(objects, binding, namespace);
    if (typeof role === "string") {
      yield { error: role };
      continue;
    }
    const source = describeBinding(binding, subjects[index]!);
    for (const rule of role.rules ?? []) yield { rule, source };
  }
}

/** GetRoleReferenceRules: the role a binding names, or the error text the informer's lister gives. */
function referencedRole(objects: RbacObjects, binding: RbacBinding, namespace: string): RbacRole | string {
  const { kind, name } = binding.roleRef;
  if (kind === "ClusterRole") return objects.clusterRole(name) ?? `clusterrole.rbac.authorization.k8s.io ${goQuote(name)} not found`;
  if (kind === "Role") return objects.role(namespace, name) ?? `role.rbac.authorization.k8s.io ${goQuote(name)} not found`;
  return `unsupported role reference kind: ${goQuote(kind)}`;
}
