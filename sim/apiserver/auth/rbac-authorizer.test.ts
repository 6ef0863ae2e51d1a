/**
 * The RBAC authorizer's matching, case by case, over objects held in memory (rbac-authorizer.ts
 * RbacObjects): each case is one rule of Kubernetes' RBAC that a wrong implementation breaks.
 */
import { describe, expect, it } from "vitest";
import type { RequestAttributes } from "./authorize.ts";
import { rbacAuthorizer, rbacModeAuthorizer, type RbacObjects, type RbacRole } from "./rbac-authorizer.ts";
import type { RbacBinding, RbacPolicyRule } from "./rbac-rules.ts";
import type { UserInfo } from "./user.ts";

const user = (name: string, ...groups: string[]): UserInfo => ({ name, uid: "", groups: [...groups, "system:authenticated"] });
const alice = user("alice");
const pods = (verb: string, extra: Partial<Extract<RequestAttributes, { kind: "resource" }>> = {}): RequestAttributes => ({
  kind: "resource",
  verb,
  apiGroup: "",
  resource: "pods",
  namespace: "team-a",
  ...extra,
});
const path = (verb: string, url: string): RequestAttributes => ({ kind: "nonResource", verb, path: url });

interface World {
  readonly clusterRoles?: Record<string, readonly RbacPolicyRule[]>;
  readonly roles?: Record<string, readonly RbacPolicyRule[]>; // "ns/name"
  readonly clusterRoleBindings?: readonly RbacBinding[];
  readonly roleBindings?: readonly RbacBinding[];
}

function objects(world: World): RbacObjects {
  const role = (rules: readonly RbacPolicyRule[] | undefined): RbacRole | undefined => (rules === undefined ? undefined : { rules });
  return {
    clusterRoleBindings: () => world.clusterRoleBindings ?? [],
    roleBindings: (namespace) => (world.roleBindings ?? []).filter((binding) => binding.metadata.namespace === namespace),
    clusterRole: (name) => role(world.clusterRoles?.[name]),
    role: (namespace, name) => role(world.roles?.[`${namespace}/${name}`]),
  };
}

const binding = (name: string, namespace: string | undefined, roleRef: RbacBinding["roleRef"], ...subjects: RbacBinding["subjects"] & object): RbacBinding => ({
  metadata: { name, ...(namespace !== undefined && { namespace }) },
  subjects,
  roleRef,
});
const toUser = (name: string) => ({ kind: "User", name, apiGroup: "rbac.authorization.k8s.io" });
const clusterRole = (name: string) => ({ apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name });
const roleRef = (name: string) => ({ apiGroup: "rbac.authorization.k8s.io", kind: "Role", name });

/** alice holds `rules` through a Role of team-a. */
function withRules(...rules: RbacPolicyRule[]) {
  return rbacAuthorizer(objects({ roles: { "team-a/r": rules }, roleBindings: [binding("b", "team-a", roleRef("r"), toUser("alice"))] }));
}
const allowed = (authorizer: ReturnType<typeof withRules>, attributes: RequestAttributes, who: UserInfo = alice) => authorizer.authorize(who, attributes).allowed;

describe("RBAC rule matching", () => {
  it("verbs: the exact verb or *", () => {
    expect(allowed(withRules({ verbs: ["get"], apiGroups: [""], resources: ["pods"] }), pods("get"))).toBe(true);
    expect(allowed(withRules({ verbs: ["get"], apiGroups: [""], resources: ["pods"] }), pods("list"))).toBe(false);
    expect(allowed(withRules({ verbs: ["*"], apiGroups: [""], resources: ["pods"] }), pods("deletecollection"))).toBe(true);
  });

  it("apiGroups: the exact group (\"\" is core) or *", () => {
    const apps = { verbs: ["get"], apiGroups: ["apps"], resources: ["pods"] };
    expect(allowed(withRules(apps), pods("get"))).toBe(false);
    expect(allowed(withRules(apps), pods("get", { apiGroup: "apps" }))).toBe(true);
    expect(allowed(withRules({ ...apps, apiGroups: ["*"] }), pods("get"))).toBe(true);
  });

  it("resources: * matches every resource and subresource; a bare resource does not cover its subresources", () => {
    expect(allowed(withRules({ verbs: ["get"], apiGroups: [""], resources: ["*"] }), pods("get", { subresource: "log" }))).toBe(true);
    expect(allowed(withRules({ verbs: ["get"], apiGroups: [""], resources: ["pods"] }), pods("get", { subresource: "log" }))).toBe(false);
    expect(allowed(withRules({ verbs: ["get"], apiGroups: [""], resources: ["pods/log"] }), pods("get", { subresource: "log" }))).toBe(true);
    expect(allowed(withRules({ verbs: ["get"], apiGroups: [""], resources: ["pods/log"] }), pods("get"))).toBe(false);
  });

  it("resources: */sub matches that subresource of any resource, and not the resource itself", () => {
    const anyLog = withRules({ verbs: ["get"], apiGroups: [""], resources: ["*/log"] });
    expect(allowed(anyLog, pods("get", { subresource: "log" }))).toBe(true);
    expect(allowed(anyLog, pods("get", { resource: "nodes", subresource: "log" }))).toBe(true);
    expect(allowed(anyLog, pods("get", { subresource: "status" }))).toBe(false);
    expect(allowed(anyLog, pods("get"))).toBe(false);
  });

  it("resources: resource/* is no wildcard (kube-apiserver 1.26.4 denied pods/log to a pods/* rule, rbac-answers.json)", () => {
    const podsStar = withRules({ verbs: ["get"], apiGroups: [""], resources: ["pods/*"] });
    expect(allowed(podsStar, pods("get", { subresource: "log" }))).toBe(false);
    expect(allowed(podsStar, pods("get"))).toBe(false);
    expect(allowed(podsStar, pods("get", { subresource: "*" }))).toBe(true);
  });

  it("resourceNames: only a request naming one of them; a list or a create names nothing", () => {
    const settings = withRules({ verbs: ["get", "list", "create"], apiGroups: [""], resources: ["pods"], resourceNames: ["web"] });
    expect(allowed(settings, pods("get", { name: "web" }))).toBe(true);
    expect(allowed(settings, pods("get", { name: "db" }))).toBe(false);
    expect(allowed(settings, pods("list"))).toBe(false);
    expect(allowed(settings, pods("create"))).toBe(false);
    expect(allowed(withRules({ verbs: ["get"], apiGroups: [""], resources: ["pods"], resourceNames: [] }), pods("get", { name: "db" }))).toBe(true);
  });

  it("nonResourceURLs: exact, *, or a prefix ending in *; a resource rule never grants a path nor the reverse", () => {
    const rule = (...nonResourceURLs: string[]) => rbacAuthorizer(objects({ clusterRoles: { r: [{ verbs: ["get"], nonResourceURLs }] }, clusterRoleBindings: [binding("b", undefined, clusterRole("r"), toUser("alice"))] }));
    expect(allowed(rule("/healthz"), path("get", "/healthz"))).toBe(true);
    expect(allowed(rule("/healthz"), path("get", "/healthz/ping"))).toBe(false);
    expect(allowed(rule("/healthz/*"), path("get", "/healthz/ping"))).toBe(true);
    expect(allowed(rule("/healthz/*"), path("get", "/healthz"))).toBe(false);
    expect(allowed(rule("/api*"), path("get", "/apis/apps"))).toBe(true);
    expect(allowed(rule("*"), path("get", "/metrics"))).toBe(true);
    expect(allowed(rule("*"), path("post", "/metrics"))).toBe(false);
    expect(allowed(rule("*"), pods("get"))).toBe(false);
    expect(allowed(withRules({ verbs: ["get"], apiGroups: ["*"], resources: ["*"] }), path("get", "/version"))).toBe(false);
  });
});

describe("RBAC subjects and bindings", () => {
  const reader = [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }];

  it("User by name, Group by membership", () => {
    const authorizer = rbacAuthorizer(
      objects({ clusterRoles: { reader }, clusterRoleBindings: [binding("b", undefined, clusterRole("reader"), toUser("bob"), { kind: "Group", name: "devs" })] }),
    );
    expect(allowed(authorizer, pods("get"), user("bob"))).toBe(true);
    expect(allowed(authorizer, pods("get"), user("carol", "devs"))).toBe(true);
    expect(allowed(authorizer, pods("get"), user("devs"))).toBe(false);
  });

  it("ServiceAccount: system:serviceaccount:NS:NAME; a RoleBinding's defaults to its namespace, a ClusterRoleBinding's needs one", () => {
    const sa = (ns: string, name: string) => user(`system:serviceaccount:${ns}:${name}`, "system:serviceaccounts");
    const inRoleBinding = rbacAuthorizer(objects({ clusterRoles: { reader }, roleBindings: [binding("b", "team-a", clusterRole("reader"), { kind: "ServiceAccount", name: "robot" })] }));
    expect(allowed(inRoleBinding, pods("get"), sa("team-a", "robot"))).toBe(true);
    expect(allowed(inRoleBinding, pods("get"), sa("team-b", "robot"))).toBe(false);
    const clusterWide = (subject: { kind: string; name: string; namespace?: string }) =>
      rbacAuthorizer(objects({ clusterRoles: { reader }, clusterRoleBindings: [binding("b", undefined, clusterRole("reader"), subject)] }));
    expect(allowed(clusterWide({ kind: "ServiceAccount", name: "robot" }), pods("get"), sa("team-a", "robot"))).toBe(false);
    expect(allowed(clusterWide({ kind: "ServiceAccount", name: "robot", namespace: "team-a" }), pods("get"), sa("team-a", "robot"))).toBe(true);
    expect(allowed(clusterWide({ kind: "ServiceAccount", name: "robot", namespace: "team-a" }), pods("get", { namespace: "team-b" }), sa("team-a", "robot"))).toBe(true);
  });

  it("a RoleBinding to a ClusterRole grants its rules in the binding's namespace only", () => {
    const authorizer = rbacAuthorizer(objects({ clusterRoles: { reader }, roleBindings: [binding("b", "team-a", clusterRole("reader"), toUser("alice"))] }));
    expect(allowed(authorizer, pods("get"))).toBe(true);
    expect(allowed(authorizer, pods("get", { namespace: "team-b" }))).toBe(false);
    expect(allowed(authorizer, pods("get", { namespace: "" }))).toBe(false);
  });

  it("a RoleBinding's Role is the one of its namespace", () => {
    const authorizer = rbacAuthorizer(objects({ roles: { "team-b/r": reader }, roleBindings: [binding("b", "team-a", roleRef("r"), toUser("alice"))] }));
    expect(authorizer.authorize(alice, pods("get"))).toEqual({ allowed: false, reason: 'RBAC: role.rbac.authorization.k8s.io "r" not found' });
  });

  it("words the reason as kube-apiserver: ClusterRoleBinding, RoleBinding name/ns, ServiceAccount name/ns", () => {
    const authorizer = rbacAuthorizer(
      objects({
        clusterRoles: { reader, paths: [{ verbs: ["get"], nonResourceURLs: ["/version"] }] },
        roles: { "team-a/r": [{ verbs: ["list"], apiGroups: [""], resources: ["pods"] }] },
        clusterRoleBindings: [binding("cluster-paths", undefined, clusterRole("paths"), { kind: "Group", name: "system:authenticated" })],
        roleBindings: [binding("by-role", "team-a", roleRef("r"), toUser("alice")), binding("by-cluster-role", "team-a", clusterRole("reader"), { kind: "ServiceAccount", name: "robot" })],
      }),
    );
    expect(authorizer.authorize(alice, path("get", "/version")).reason).toBe(
      'RBAC: allowed by ClusterRoleBinding "cluster-paths" of ClusterRole "paths" to Group "system:authenticated"',
    );
    expect(authorizer.authorize(alice, pods("list")).reason).toBe('RBAC: allowed by RoleBinding "by-role/team-a" of Role "r" to User "alice"');
    expect(authorizer.authorize(user("system:serviceaccount:team-a:robot"), pods("get")).reason).toBe(
      'RBAC: allowed by RoleBinding "by-cluster-role/team-a" of ClusterRole "reader" to ServiceAccount "robot/team-a"',
    );
  });

  it("a denial has no reason, unless a binding of the user names a missing role; an allowing binding wins over that error", () => {
    const missing = binding("broken", "team-a", clusterRole("gone"), toUser("alice"));
    const another = binding("broken-too", "team-a", roleRef("gone"), toUser("alice"));
    expect(rbacAuthorizer(objects({})).authorize(alice, pods("get"))).toEqual({ allowed: false, reason: "" });
    expect(rbacAuthorizer(objects({ roleBindings: [missing] })).authorize(alice, pods("get")).reason).toBe('RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found');
    expect(rbacAuthorizer(objects({ roleBindings: [missing, another] })).authorize(alice, pods("get")).reason).toBe(
      'RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "gone" not found]',
    );
    // A binding of someone else naming a missing role is never read.
    expect(rbacAuthorizer(objects({ roleBindings: [{ ...missing, subjects: [toUser("bob")] }] })).authorize(alice, pods("get")).reason).toBe("");
    const fine = rbacAuthorizer(objects({ clusterRoles: { reader }, roleBindings: [missing, binding("ok", "team-a", clusterRole("reader"), toUser("alice"))] }));
    expect(fine.authorize(alice, pods("get")).allowed).toBe(true);
  });

  it("system:masters is allowed everything with no reason in RBAC mode, without any binding", () => {
    const mode = rbacModeAuthorizer(objects({}));
    expect(mode.authorize(user("root", "system:masters"), pods("delete", { resource: "nodes", namespace: "" }))).toEqual({ allowed: true, reason: "" });
    expect(mode.authorize(alice, pods("get"))).toEqual({ allowed: false, reason: "" });
  });
});

describe("RBAC rulesFor (SelfSubjectRulesReview)", () => {
  it("lists the rules of the user's ClusterRoleBindings, then of the namespace's RoleBindings, split into resource and path rules", () => {
    const authorizer = rbacModeAuthorizer(
      objects({
        clusterRoles: { basic: [{ verbs: ["create"], apiGroups: ["authorization.k8s.io"], resources: ["selfsubjectrulesreviews"] }, { verbs: ["get"], nonResourceURLs: ["/api"] }] },
        roles: { "team-a/r": [{ verbs: ["get"], apiGroups: [""], resources: ["configmaps"], resourceNames: ["settings"] }] },
        clusterRoleBindings: [binding("basic", undefined, clusterRole("basic"), { kind: "Group", name: "system:authenticated" })],
        roleBindings: [binding("b", "team-a", roleRef("r"), toUser("alice")), binding("gone", "team-a", roleRef("gone"), toUser("alice"))],
      }),
    );
    expect(authorizer.rulesFor(alice, "team-a")).toEqual({
      resourceRules: [
        { verbs: ["create"], apiGroups: ["authorization.k8s.io"], resources: ["selfsubjectrulesreviews"] },
        { verbs: ["get"], apiGroups: [""], resources: ["configmaps"], resourceNames: ["settings"] },
      ],
      nonResourceRules: [{ verbs: ["get"], nonResourceURLs: ["/api"] }],
      evaluationError: 'role.rbac.authorization.k8s.io "gone" not found',
    });
    expect(authorizer.rulesFor(alice, "team-b").resourceRules).toHaveLength(1);
    expect(authorizer.rulesFor(user("root", "system:masters"), "team-b").resourceRules[0]).toEqual({ verbs: ["*"], apiGroups: ["*"], resources: ["*"] });
  });
});
