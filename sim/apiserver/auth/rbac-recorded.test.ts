/**
 * RBAC mode through the server, against what kube-apiserver 1.26.4 answered for the same objects
 * (rbac-bootstrap-data/rbac-answers.json, recorded by conformance/record/record-rbac-bootstrap.ts
 * which creates the Role and RoleBindings below): SubjectAccessReview statuses, 403 messages and a
 * SelfSubjectRulesReview, all from the bootstrap policy the server creates at start plus those.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { testServer } from "../test-server.ts";
import { rbacBootstrapData } from "./rbac-bootstrap.ts";
import { parseStaticTokenFile } from "./token-file.ts";

const answers = JSON.parse(readFileSync(new URL("./rbac-bootstrap-data/rbac-answers.json", import.meta.url), "utf8"));
const NS: string = answers.namespace;
const RBAC = "/apis/rbac.authorization.k8s.io/v1";
const { tokens } = parseStaticTokenFile('t-admin,admin,0,"system:masters"\nt-alice,alice,1\nt-carol,carol,2\n');
const as = (token: string) => ({ authorization: `Bearer ${token}` });
const byJson = (rules: readonly unknown[]) => rules.map((rule) => JSON.stringify(rule)).sort();

/** A server in RBAC mode holding what the recorder created, as the admin made it. */
async function recordedWorld() {
  const server = testServer("kubernetes", { auth: { tokens, authorizationMode: "RBAC" } });
  const admin = (method: string, path: string, body: unknown) => server.call(method, path, body, as("t-admin"));
  const made = [
    await admin("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: NS } }),
    await admin("POST", `${RBAC}/namespaces/${NS}/roles`, {
      apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", metadata: { name: "pod-reader" },
      rules: [{ apiGroups: [""], resources: ["pods", "pods/*"], verbs: ["get", "list"] }, { apiGroups: [""], resources: ["configmaps"], resourceNames: ["settings"], verbs: ["get"] }],
    }),
    ...[
      ["alice-reads-pods", { kind: "User", name: "alice", apiGroup: "rbac.authorization.k8s.io" }, "Role", "pod-reader"],
      ["robot-views", { kind: "ServiceAccount", name: "robot" }, "ClusterRole", "view"],
      ["carol-missing-role", { kind: "User", name: "carol", apiGroup: "rbac.authorization.k8s.io" }, "Role", "no-such-role"],
    ].map(([name, subject, kind, role]) =>
      admin("POST", `${RBAC}/namespaces/${NS}/rolebindings`, {
        apiVersion: "rbac.authorization.k8s.io/v1", kind: "RoleBinding", metadata: { name },
        subjects: [subject], roleRef: { apiGroup: "rbac.authorization.k8s.io", kind, name: role },
      }),
    ),
  ];
  for (const answer of await Promise.all(made)) expect(answer.status, answer.text).toBe(201);
  return server;
}

describe("RBAC mode against kube-apiserver 1.26.4's answers", () => {
  it("creates the recorded bootstrap policy at start: kubectl get clusterroles lists it", async () => {
    const { call } = testServer("kubernetes", { auth: { tokens, authorizationMode: "RBAC" } });
    const data = rbacBootstrapData();
    const listed = await call("GET", `${RBAC}/clusterroles`, undefined, as("t-admin"));
    expect(listed.status).toBe(200);
    expect(listed.json.items.map((item: { metadata: { name: string } }) => item.metadata.name).sort()).toEqual(data.clusterroles.map((role) => role.metadata.name).sort());
    const bindings = await call("GET", `${RBAC}/clusterrolebindings/cluster-admin`, undefined, as("t-admin"));
    expect(bindings.json.subjects).toEqual([{ kind: "Group", apiGroup: "rbac.authorization.k8s.io", name: "system:masters" }]);
    const roles = await call("GET", `${RBAC}/namespaces/kube-system/roles`, undefined, as("t-admin"));
    expect(roles.json.items).toHaveLength(data.roles.filter((role) => role.metadata.namespace === "kube-system").length);
    // Without RBAC mode there is no bootstrap policy.
    const plain = await testServer("kubernetes").call("GET", `${RBAC}/clusterroles`);
    expect(plain.json.items).toEqual([]);
  });

  it("answers every recorded SubjectAccessReview with the recorded status (allowed, reason wording, errors)", async () => {
    const { call } = await recordedWorld();
    for (const [name, { spec, status }] of Object.entries<{ spec: unknown; status: unknown }>(answers.reviews)) {
      const review = await call("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", { apiVersion: "authorization.k8s.io/v1", kind: "SubjectAccessReview", spec }, as("t-admin"));
      expect([name, review.status, review.json.status]).toEqual([name, 201, status]);
    }
  });

  it("refuses with the recorded 403s: no reason for a plain denial, the RBAC error for a missing role", async () => {
    const { call } = await recordedWorld();
    const denied = await call("DELETE", `/api/v1/namespaces/${NS}/pods/p`, undefined, as("t-alice"));
    expect([denied.status, denied.json]).toEqual([403, answers.forbidden.body]);
    const carol = await call("GET", `/api/v1/namespaces/${NS}/pods`, undefined, as("t-carol"));
    expect([carol.status, carol.json]).toEqual([403, answers.carolForbidden.body]);
  });

  it("answers alice's SelfSubjectRulesReview with the recorded rules (the real server's order varies)", async () => {
    const { call } = await recordedWorld();
    const review = await call("POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", { apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectRulesReview", spec: { namespace: NS } }, as("t-alice"));
    expect(review.status).toBe(201);
    const { resourceRules, nonResourceRules, incomplete } = review.json.status;
    expect(incomplete).toBe(answers.aliceRulesReview.incomplete);
    expect(byJson(resourceRules)).toEqual(byJson(answers.aliceRulesReview.resourceRules));
    expect(byJson(nonResourceRules)).toEqual(byJson(answers.aliceRulesReview.nonResourceRules));
  });

  it("a Role written now counts from the next request (read at request time, no cache)", async () => {
    const { call } = await recordedWorld();
    expect((await call("GET", `/api/v1/namespaces/${NS}/configmaps`, undefined, as("t-alice"))).status).toBe(403);
    const role = await call("PUT", `${RBAC}/namespaces/${NS}/roles/pod-reader`, {
      apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", metadata: { name: "pod-reader", namespace: NS },
      rules: [{ apiGroups: [""], resources: ["configmaps"], verbs: ["list"] }],
    }, as("t-admin"));
    expect(role.status, role.text).toBe(200);
    expect((await call("GET", `/api/v1/namespaces/${NS}/configmaps`, undefined, as("t-alice"))).status).toBe(200);
    expect((await call("GET", `/api/v1/namespaces/${NS}/pods`, undefined, as("t-alice"))).status).toBe(403);
  });
});
