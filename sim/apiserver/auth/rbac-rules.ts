/**
 * RBAC's matching, word for word as Kubernetes' (k8s.io/kubernetes plugin/pkg/auth/authorizer/rbac
 * rbac.go RuleAllows, pkg/apis/rbac/v1 evaluation_helpers.go, pkg/registry/rbac/validation
 * rule.go appliesToUser and the binding describers): which PolicyRule allows a request, which
 * binding subject is the user, and how the allowing binding is named in the reason.
 *
 * The stored objects are read as they are (rbac.authorization.k8s.io/v1 JSON): a missing list is
 * an empty one, as Go's nil slice.
 */
import type { RequestAttributes } from "./authorize.ts";
import { goQuote } from "../responses/go-text.ts";
import type { UserInfo } from "./user.ts";

/** A PolicyRule of a Role or ClusterRole. */
export interface RbacPolicyRule {
  readonly verbs?: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** A subject of a RoleBinding or ClusterRoleBinding. */
export interface RbacSubject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly apiGroup?: string;
}

/** A RoleBinding (with its namespace) or ClusterRoleBinding, as stored. */
export interface RbacBinding {
  readonly metadata: { readonly name: string; readonly namespace?: string };
  readonly subjects?: readonly RbacSubject[];
  readonly roleRef: { readonly kind: string; readonly name: string; readonly apiGroup?: string };
}

/** Whether `rule` allows the request (RBAC's RuleAllows). */
export function ruleAllows(attributes: RequestAttributes, rule: RbacPolicyRule): boolean {
  if (!matchesOrAll(rule.verbs, attributes.verb, "*")) return false;
  if (attributes.kind === "nonResource") return nonResourceUrlMatches(rule.nonResourceURLs ?? [], attributes.path);
  const subresource = attributes.subresource ?? "";
  const combined = subresource === "" ? attributes.resource : `${attributes.resource}/${subresource}`;
  return (
    matchesOrAll(rule.apiGroups, attributes.apiGroup, "*") &&
    resourceMatches(rule.resources ?? [], combined, subresource) &&
    resourceNameMatches(rule.resourceNames ?? [], attributes.name ?? "")
  );
}

function matchesOrAll(values: readonly string[] | undefined, wanted: string, all: string): boolean {
  return (values ?? []).some((value) => value === all || value === wanted);
}

/**
 * ResourceMatches: "*", the exact `resource[/subresource]`, or `*\/<subresource>` for a request on
 * that subresource. There is no `resource/*`: a rule `pods/*` matches only a subresource named "*",
 * so it grants neither `pods` nor `pods/log` (recorded: rbac-answers.json alice-get-pods-log).
 */
function resourceMatches(ruleResources: readonly string[], combined: string, subresource: string): boolean {
  return ruleResources.some(
    (ruleResource) => ruleResource === "*" || ruleResource === combined || (subresource !== "" && ruleResource === `*/${subresource}`),
  );
}

/**
 * ResourceNameMatches: no resourceNames allows every name; otherwise the request must name one of
 * them. A request that names nothing (list, create, deletecollection) has the name "", so such a
 * rule does not allow it.
 */
function resourceNameMatches(ruleNames: readonly string[], name: string): boolean {
  return ruleNames.length === 0 || ruleNames.includes(name);
}

/** NonResourceURLMatches: "*", the exact path, or a prefix that ends in "*" (every trailing "*" cut, as Go's TrimRight). */
function nonResourceUrlMatches(ruleUrls: readonly string[], path: string): boolean {
  return ruleUrls.some((ruleUrl) => ruleUrl === "*" || ruleUrl === path || (ruleUrl.endsWith("*") && path.startsWith(ruleUrl.replace(/\*+$/, ""))));
}

/** The index of the first subject of `subjects` that is `user` (appliesTo), or -1. `namespace` is the binding's ("" for a ClusterRoleBinding). */
export function subjectIndexFor(user: UserInfo, subjects: readonly RbacSubject[], namespace: string): number {
  return subjects.findIndex((subject) => appliesToUser(user, subject, namespace));
}

function appliesToUser(user: UserInfo, subject: RbacSubject, namespace: string): boolean {
  switch (subject.kind) {
    case "User":
      return user.name === subject.name;
    case "Group":
      return user.groups.includes(subject.name);
    case "ServiceAccount": {
      // A RoleBinding's service account without a namespace is one of the binding's namespace; a
      // ClusterRoleBinding's matches nobody.
      const saNamespace = subject.namespace !== undefined && subject.namespace !== "" ? subject.namespace : namespace;
      return saNamespace !== "" && user.name === `system:serviceaccount:${saNamespace}:${subject.name}`;
    }
    default:
      return false;
  }
}

/**
 * How the reason names an allowing binding: `ClusterRoleBinding "b" of ClusterRole "r" to User
 * "alice"`, `RoleBinding "b/ns" of Role "r" to Group "g"`, a service account as `ServiceAccount
 * "name/ns"` (clusterRoleBindingDescriber, roleBindingDescriber, describeSubject).
 */
export function describeBinding(binding: RbacBinding, subject: RbacSubject): string {
  const namespace = binding.metadata.namespace ?? "";
  const name = namespace === "" ? binding.metadata.name : `${binding.metadata.name}/${namespace}`;
  const kind = namespace === "" ? "ClusterRoleBinding" : "RoleBinding";
  return `${kind} ${goQuote(name)} of ${binding.roleRef.kind} ${goQuote(binding.roleRef.name)} to ${describeSubject(subject, namespace)}`;
}

function describeSubject(subject: RbacSubject, bindingNamespace: string): string {
  if (subject.kind !== "ServiceAccount") return `${subject.kind} ${goQuote(subject.name)}`;
  const namespace = subject.namespace !== undefined && subject.namespace !== "" ? subject.namespace : bindingNamespace;
  return `${subject.kind} ${goQuote(`${subject.name}/${namespace}`)}`;
}
