/**
 * Records the RBAC bootstrap policy a real kube-apiserver creates at start-up (its ClusterRoles,
 * ClusterRoleBindings, and the Roles and RoleBindings of kube-system and kube-public), so that
 * `serve --authorization-mode RBAC` creates the same objects from data, not from hand-written
 * rules (sim/apiserver/auth/rbac-bootstrap-data/README.md).
 *
 *   npx tsx conformance/record/record-rbac-bootstrap.ts --kube-assets DIR [--out DIR]
 *
 * kube-apiserver creates admin, edit, view and the other aggregated ClusterRoles with an
 * aggregationRule and no rules; kube-controller-manager's clusterrole-aggregation controller fills
 * them. The shared control plane does not run that controller, so this recorder runs a second
 * kube-controller-manager with only it, and waits until `admin` has rules, as a cluster has them.
 *
 * It also records a few answers of the RBAC authorizer (rbac-answers.json): SubjectAccessReviews
 * allowed through a RoleBinding, a ClusterRoleBinding, the system:masters group, denied, and a
 * binding whose role does not exist; a 403; and a SelfSubjectRulesReview (`kubectl auth can-i
 * --list`) as a user holding one Role, with kubectl's table of it. Tests compare the embedded server's wording with them.
 * Volatile fields (uid, resourceVersion, creationTimestamp, managedFields) are left out.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, fetch } from "undici";
import { findKubeAssets } from "../control-plane/kube-assets.ts";
import type { KubeControlPlane } from "../control-plane/kube-control-plane.ts";
import { runIfMain } from "./recorder-main.ts";
import { freeLoopbackPorts } from "../control-plane/free-port.ts";

type Json = any;

const RBAC = "/apis/rbac.authorization.k8s.io/v1";
/** The namespaces whose Roles and RoleBindings are bootstrap policy (kube-apiserver's rbac/bootstrap-roles hook). */
const BOOTSTRAP_NAMESPACES = ["kube-system", "kube-public"];

/** The object without what changes from server to server. */
function stable(object: Json): Json {
  const { uid: _uid, resourceVersion: _rv, creationTimestamp: _ct, managedFields: _mf, ...metadata } = object.metadata;
  return { ...object, metadata };
}

function requester(plane: KubeControlPlane) {
  const agent = new Agent({ connect: { ca: plane.certificateAuthorityPem } });
  const request = async (method: string, path: string, body?: Json, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${plane.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${plane.adminToken}`, accept: "application/json", ...(body !== undefined && { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: agent,
    });
    return { status: response.status, body: JSON.parse(await response.text()) as Json };
  };
  const ok = async (method: string, path: string, body?: Json): Promise<Json> => {
    const answer = await request(method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  return { request, ok, close: () => agent.close() };
}

/** Runs kube-controller-manager with only the clusterrole-aggregation controller; returns its stop. */
async function startAggregationController(assetsDir: string, plane: KubeControlPlane): Promise<() => void> {
  const binary = findKubeAssets(assetsDir).kubeControllerManager;
  if (binary === undefined) throw new Error(`${assetsDir} holds no kube-controller-manager: the aggregated ClusterRoles would have no rules`);
  const { port } = await freeLoopbackPorts(["port"]);
  const certDir = mkdtempSync(join(tmpdir(), "orb-rbac-kcm-"));
  const child = spawn(binary, [
    `--kubeconfig=${plane.kubeconfigFile}`,
    `--authentication-kubeconfig=${plane.kubeconfigFile}`,
    `--authorization-kubeconfig=${plane.kubeconfigFile}`,
    "--bind-address=127.0.0.1",
    `--secure-port=${port}`,
    `--cert-dir=${certDir}`,
    "--controllers=clusterrole-aggregation",
    "--leader-elect=false",
    "--profiling=false",
  ], { stdio: "ignore" });
  return () => {
    child.kill("SIGTERM");
    rmSync(certDir, { recursive: true, force: true });
  };
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 500));
  }
}

async function recordBootstrap(api: ReturnType<typeof requester>): Promise<Json> {
  const items = async (path: string) => ((await api.ok("GET", path)).items as Json[]).map(stable);
  const namespaced = async (resource: string) => (await Promise.all(BOOTSTRAP_NAMESPACES.map((ns) => items(`${RBAC}/namespaces/${ns}/${resource}`)))).flat();
  return {
    clusterroles: await items(`${RBAC}/clusterroles`),
    clusterrolebindings: await items(`${RBAC}/clusterrolebindings`),
    roles: await namespaced("roles"),
    rolebindings: await namespaced("rolebindings"),
  };
}

const sar = (spec: Json) => ({ apiVersion: "authorization.k8s.io/v1", kind: "SubjectAccessReview", spec });

/** What the RBAC authorizer answers in a few cases (tests compare the embedded server's wording with these). */
async function recordAnswers(api: ReturnType<typeof requester>, plane: KubeControlPlane): Promise<Json> {
  const ns = "orb-rbac-record";
  await api.ok("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
  try {
    await api.ok("POST", `${RBAC}/namespaces/${ns}/roles`, {
      apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", metadata: { name: "pod-reader" },
      rules: [{ apiGroups: [""], resources: ["pods", "pods/*"], verbs: ["get", "list"] }, { apiGroups: [""], resources: ["configmaps"], resourceNames: ["settings"], verbs: ["get"] }],
    });
    await api.ok("POST", `${RBAC}/namespaces/${ns}/rolebindings`, {
      apiVersion: "rbac.authorization.k8s.io/v1", kind: "RoleBinding", metadata: { name: "alice-reads-pods" },
      subjects: [{ kind: "User", name: "alice", apiGroup: "rbac.authorization.k8s.io" }],
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "pod-reader" },
    });
    await api.ok("POST", `${RBAC}/namespaces/${ns}/rolebindings`, {
      apiVersion: "rbac.authorization.k8s.io/v1", kind: "RoleBinding", metadata: { name: "robot-views" },
      subjects: [{ kind: "ServiceAccount", name: "robot" }],
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
    });
    await api.ok("POST", `${RBAC}/namespaces/${ns}/rolebindings`, {
      apiVersion: "rbac.authorization.k8s.io/v1", kind: "RoleBinding", metadata: { name: "carol-missing-role" },
      subjects: [{ kind: "User", name: "carol", apiGroup: "rbac.authorization.k8s.io" }],
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "no-such-role" },
    });
    const pods = (verb: string, extra: Json = {}) => ({ namespace: ns, verb, group: "", version: "v1", resource: "pods", ...extra });
    const cases: Record<string, Json> = {
      "alice-get-pods": { user: "alice", groups: ["system:authenticated"], resourceAttributes: pods("get") },
      "alice-get-pods-log": { user: "alice", groups: ["system:authenticated"], resourceAttributes: pods("get", { subresource: "log", name: "p" }) },
      "alice-delete-pods": { user: "alice", groups: ["system:authenticated"], resourceAttributes: pods("delete") },
      "alice-get-configmap-settings": { user: "alice", groups: ["system:authenticated"], resourceAttributes: { namespace: ns, verb: "get", resource: "configmaps", name: "settings" } },
      "alice-list-configmaps": { user: "alice", groups: ["system:authenticated"], resourceAttributes: { namespace: ns, verb: "list", resource: "configmaps" } },
      "robot-list-pods": { user: `system:serviceaccount:${ns}:robot`, groups: ["system:serviceaccounts", "system:authenticated"], resourceAttributes: pods("list") },
      "carol-get-pods": { user: "carol", groups: ["system:authenticated"], resourceAttributes: pods("get") },
      "masters-delete-nodes": { user: "root", groups: ["system:masters"], resourceAttributes: { verb: "delete", resource: "nodes" } },
      "authenticated-get-api": { user: "dave", groups: ["system:authenticated"], nonResourceAttributes: { path: "/api", verb: "get" } },
      "authenticated-create-ssar": { user: "dave", groups: ["system:authenticated"], resourceAttributes: { verb: "create", group: "authorization.k8s.io", resource: "selfsubjectaccessreviews" } },
    };
    const reviews: Record<string, Json> = {};
    for (const [name, spec] of Object.entries(cases)) reviews[name] = (await api.ok("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", sar(spec))).status;
    const forbidden = await api.request("DELETE", `/api/v1/namespaces/${ns}/pods/p`, undefined, { "impersonate-user": "alice" });
    const carolForbidden = await api.request("GET", `/api/v1/namespaces/${ns}/pods`, undefined, { "impersonate-user": "carol" });
    const rulesReview = await api.request("POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
      { apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectRulesReview", spec: { namespace: ns } }, { "impersonate-user": "alice" });
    // What a user sees: kubectl's table of the same review (kubectl on PATH; empty without it).
    const canIList = kubectlText(plane, ["auth", "can-i", "--list", "-n", ns, "--as", "alice"]);
    return {
      namespace: ns,
      reviews: Object.fromEntries(Object.entries(cases).map(([name, spec]) => [name, { spec, status: reviews[name] }])),
      forbidden,
      carolForbidden,
      aliceRulesReview: rulesReview.body.status,
      aliceCanIList: canIList,
    };
  } finally {
    await api.request("DELETE", `/api/v1/namespaces/${ns}`);
  }
}

function kubectlText(plane: KubeControlPlane, args: readonly string[]): string {
  try {
    return execFileSync("kubectl", ["--kubeconfig", plane.kubeconfigFile, ...args], { encoding: "utf8", timeout: 20_000 });
  } catch {
    return "";
  }
}

runIfMain(import.meta.url, {
  script: "conformance/record/record-rbac-bootstrap.ts",
  defaultOut: new URL("../../sim/apiserver/auth/rbac-bootstrap-data/", import.meta.url),
  async record(session) {
    const { plane, assetsDir, out, log, onStop } = session;
    const api = requester(plane);
    try {
      const gitVersion = (await api.ok("GET", "/version")).gitVersion as string;
      onStop(await startAggregationController(assetsDir, plane));
      log("waiting for the clusterrole-aggregation controller to fill admin, edit and view");
      const filled = async (name: string) => ((await api.ok("GET", `${RBAC}/clusterroles/${name}`)).rules ?? []).length > 0;
      await waitFor("aggregated ClusterRoles", async () => (await filled("admin")) && (await filled("edit")) && (await filled("view")));
      const bootstrap = await recordBootstrap(api);
      const answers = await recordAnswers(api, plane);
      const header = session.header(gitVersion);
      writeFileSync(join(out, "kube-apiserver-1.26-rbac-bootstrap.json"), `${JSON.stringify({ ...header, ...bootstrap }, null, 1)}\n`);
      writeFileSync(join(out, "rbac-answers.json"), `${JSON.stringify({ ...header, ...answers }, null, 2)}\n`);
      log(`recorded ${bootstrap.clusterroles.length} ClusterRoles, ${bootstrap.clusterrolebindings.length} ClusterRoleBindings, ${bootstrap.roles.length} Roles, ${bootstrap.rolebindings.length} RoleBindings in ${out}`);
    } finally {
      await api.close();
    }
  },
});
