/**
 * Records how a real kube-apiserver answers server-side apply and keeps metadata.managedFields,
 * so that sim/apiserver/apply/ follows data rather than memory (sim/apiserver/apply/recorded/README.md).
 *
 *   npx tsx conformance/record/record-server-side-apply.ts --kube-assets DIR [--out FILE]
 *
 * It starts a control plane from DIR (default profile, no controller manager needed), runs
 * SSA_STEPS in a namespace it creates and deletes, and writes each request and answer with the
 * volatile values (uid, resourceVersion, times, the namespace) as placeholders. managedFields are
 * kept: they are what is recorded.
 */
import { writeFileSync } from "node:fs";
import { Agent, fetch } from "undici";
import { runIfMain, type RecordingSession } from "./recorder-main.ts";

type Json = any;

/** One request of the sequence; `{ns}` in a path is the namespace. */
export interface SsaStep {
  readonly name: string;
  readonly method: "GET" | "POST" | "PUT" | "PATCH";
  readonly path: string;
  readonly contentType?: string;
  readonly userAgent?: string;
  /** A string is sent as is (YAML); anything else as JSON. */
  readonly body?: Json;
}

const APPLY = "application/apply-patch+yaml";
const CM = "/api/v1/namespaces/{ns}/configmaps";
const DEPLOY = "/apis/apps/v1/namespaces/{ns}/deployments";
const UA = "orb-record/1.0 (linux/amd64) kubernetes/none";

const cmYaml = (data: Record<string, string>, labels?: Record<string, string>) =>
  [
    "apiVersion: v1",
    "kind: ConfigMap",
    "metadata:",
    "  name: cm",
    ...(labels === undefined ? [] : ["  labels:", ...Object.entries(labels).map(([k, v]) => `    ${k}: "${v}"`)]),
    "data:",
    ...Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`),
    "",
  ].join("\n");

const deployment = (containers: Json[], extra: Json = {}) => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web" },
  spec: { ...extra, template: { spec: { containers } } },
});
const fullDeployment = {
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web" },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: "web" } },
    template: {
      metadata: { labels: { app: "web" } },
      spec: { containers: [{ name: "main", image: "busybox:1.36", args: ["sleep", "3600"], ports: [{ containerPort: 80, protocol: "TCP" }] }] },
    },
  },
};

/** The sequence recorded, in order (each step sees what the ones before it did). */
export const SSA_STEPS: readonly SsaStep[] = [
  { name: "apply-create-configmap", method: "PATCH", path: `${CM}/cm?fieldManager=A`, contentType: APPLY, body: cmYaml({ x: "1", q: "2" }, { a: "1" }) },
  { name: "apply-remove-field", method: "PATCH", path: `${CM}/cm?fieldManager=A`, contentType: APPLY, body: cmYaml({ x: "1" }, { a: "1" }) },
  { name: "apply-conflict", method: "PATCH", path: `${CM}/cm?fieldManager=B`, contentType: APPLY, body: cmYaml({ x: "2" }) },
  { name: "apply-conflict-two-fields", method: "PATCH", path: `${CM}/cm?fieldManager=B`, contentType: APPLY, body: cmYaml({ x: "2" }, { a: "2" }) },
  { name: "apply-force", method: "PATCH", path: `${CM}/cm?fieldManager=B&force=true`, contentType: APPLY, body: cmYaml({ x: "2" }) },
  { name: "apply-shared", method: "PATCH", path: `${CM}/cm?fieldManager=B`, contentType: APPLY, body: cmYaml({ x: "2" }, { a: "1" }) },
  { name: "read-after-shared", method: "GET", path: `${CM}/cm` },
  {
    name: "put-with-manager",
    method: "PUT",
    path: `${CM}/cm?fieldManager=editor`,
    contentType: "application/json",
    body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm", labels: { a: "1" } }, data: { x: "2", z: "3" } },
  },
  {
    name: "put-without-manager",
    method: "PUT",
    path: `${CM}/cm`,
    contentType: "application/json",
    userAgent: "kubectl-edit/v1.26.4 (linux/amd64) kubernetes/f89670c",
    body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm", labels: { a: "1" } }, data: { x: "2", z: "3", w: "4" } },
  },
  { name: "merge-patch-with-manager", method: "PATCH", path: `${CM}/cm?fieldManager=patcher`, contentType: "application/merge-patch+json", body: { data: { v: "5" } } },
  { name: "merge-patch-without-manager", method: "PATCH", path: `${CM}/cm`, contentType: "application/merge-patch+json", userAgent: "curl/8.0.1", body: { data: { u: "6" } } },
  { name: "apply-conflict-with-update-manager", method: "PATCH", path: `${CM}/cm?fieldManager=A`, contentType: APPLY, body: cmYaml({ z: "9" }, { a: "1" }) },
  { name: "apply-without-manager", method: "PATCH", path: `${CM}/cm`, contentType: APPLY, userAgent: UA, body: cmYaml({ x: "2" }) },
  { name: "apply-dry-run", method: "PATCH", path: `${CM}/cm?fieldManager=A&dryRun=All`, contentType: APPLY, body: cmYaml({ x: "2", d: "dry" }, { a: "1" }) },
  { name: "read-after-dry-run", method: "GET", path: `${CM}/cm` },
  { name: "apply-noop", method: "PATCH", path: `${CM}/cm?fieldManager=B`, contentType: APPLY, body: cmYaml({ x: "2" }, { a: "1" }) },
  {
    name: "apply-json-body",
    method: "PATCH",
    path: `${CM}/cm2?fieldManager=A`,
    contentType: APPLY,
    body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm2" }, data: { k: "v" } },
  },
  { name: "apply-name-mismatch", method: "PATCH", path: `${CM}/other?fieldManager=A`, contentType: APPLY, body: cmYaml({ x: "1" }) },
  {
    name: "apply-kind-mismatch",
    method: "PATCH",
    path: `${CM}/cm?fieldManager=A`,
    contentType: APPLY,
    body: { apiVersion: "v1", kind: "Secret", metadata: { name: "cm" }, stringData: { k: "v" } },
  },
  { name: "apply-missing-kind", method: "PATCH", path: `${CM}/cm3?fieldManager=A`, contentType: APPLY, body: { metadata: { name: "cm3" }, data: { k: "v" } } },
  { name: "patch-unknown-type", method: "PATCH", path: `${CM}/cm?fieldManager=A`, contentType: "application/x-unknown", body: { data: { k: "v" } } },
  { name: "apply-bad-force-on-merge", method: "PATCH", path: `${CM}/cm?fieldManager=A&force=true`, contentType: "application/merge-patch+json", body: { data: { k: "v" } } },
  {
    name: "post-with-manager",
    method: "POST",
    path: `${CM}?fieldManager=creator`,
    contentType: "application/json",
    body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "posted", labels: { l: "1" } }, data: { p: "1" } },
  },
  {
    name: "post-without-manager",
    method: "POST",
    path: CM,
    contentType: "application/json",
    userAgent: UA,
    body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "posted2" }, data: { p: "1" } },
  },
  { name: "apply-create-deployment", method: "PATCH", path: `${DEPLOY}/web?fieldManager=A`, contentType: APPLY, body: fullDeployment },
  {
    name: "apply-second-container",
    method: "PATCH",
    path: `${DEPLOY}/web?fieldManager=B`,
    contentType: APPLY,
    body: deployment([{ name: "side", image: "busybox:1.36" }]),
  },
  {
    name: "apply-container-conflict",
    method: "PATCH",
    path: `${DEPLOY}/web?fieldManager=B`,
    contentType: APPLY,
    body: deployment([{ name: "main", image: "busybox:1.37" }]),
  },
  { name: "apply-atomic-list-conflict", method: "PATCH", path: `${DEPLOY}/web?fieldManager=B`, contentType: APPLY, body: deployment([{ name: "main", args: ["x"] }]) },
  { name: "scale-merge-patch", method: "PATCH", path: `${DEPLOY}/web/scale?fieldManager=scaler`, contentType: "application/merge-patch+json", body: { spec: { replicas: 2 } } },
  {
    name: "status-merge-patch",
    method: "PATCH",
    path: `${DEPLOY}/web/status?fieldManager=statuser`,
    contentType: "application/merge-patch+json",
    body: { status: { observedGeneration: 1 } },
  },
  { name: "apply-replicas-conflict-with-scaler", method: "PATCH", path: `${DEPLOY}/web?fieldManager=A`, contentType: APPLY, body: { ...fullDeployment, spec: { ...fullDeployment.spec, replicas: 3 } } },
  {
    name: "apply-drop-container",
    method: "PATCH",
    path: `${DEPLOY}/web?fieldManager=B`,
    contentType: APPLY,
    body: { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" } },
  },
  { name: "read-deployment", method: "GET", path: `${DEPLOY}/web` },
  // A key field left out (protocol): the item is named by what structured-merge-diff fills in.
  {
    name: "apply-port-without-protocol",
    method: "PATCH",
    path: `${DEPLOY}/web2?fieldManager=A`,
    contentType: APPLY,
    body: {
      ...fullDeployment,
      metadata: { name: "web2" },
      spec: { ...fullDeployment.spec, template: { ...fullDeployment.spec.template, spec: { containers: [{ name: "main", image: "busybox:1.36", ports: [{ containerPort: 8080 }] }] } } },
    },
  },
  // An apply to the status subresource (a Service: no controller of the recording control plane writes its status).
  {
    name: "apply-create-service",
    method: "PATCH",
    path: `/api/v1/namespaces/{ns}/services/svc?fieldManager=A`,
    contentType: APPLY,
    body: { apiVersion: "v1", kind: "Service", metadata: { name: "svc" }, spec: { ports: [{ port: 80 }], selector: { app: "web" } } },
  },
  {
    name: "apply-status",
    method: "PATCH",
    path: `/api/v1/namespaces/{ns}/services/svc/status?fieldManager=S`,
    contentType: APPLY,
    body: { apiVersion: "v1", kind: "Service", metadata: { name: "svc" }, status: { loadBalancer: { ingress: [{ ip: "192.0.2.1" }] } } },
  },
  // YAML 1.1 as go-yaml reads it: the key `y` is a boolean.
  { name: "apply-yaml-boolean-key", method: "PATCH", path: `${CM}/cm4?fieldManager=A`, contentType: APPLY, body: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm4\ndata:\n  y: \"1\"\n" },
];

const NAMESPACE_PLACEHOLDER = "<namespace>";

/** `value` with volatile values as placeholders: uids, resourceVersions, times, the namespace. */
export function stabilizedAnswer(value: Json, namespace: string): Json {
  if (typeof value === "string") {
    let text = value.replaceAll(namespace, NAMESPACE_PLACEHOLDER);
    text = text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uid>");
    if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(text)) return "<time>";
    return text;
  }
  if (Array.isArray(value)) return value.map((item) => stabilizedAnswer(item, namespace));
  if (value !== null && typeof value === "object") {
    const out: Json = {};
    for (const [key, item] of Object.entries(value)) out[key] = key === "resourceVersion" ? "<resourceVersion>" : stabilizedAnswer(item, namespace);
    return out;
  }
  return value;
}

async function record({ plane, log, header }: RecordingSession): Promise<Json> {
  const agent = new Agent({ connect: { ca: plane.certificateAuthorityPem } });
  const send = async (step: Pick<SsaStep, "method" | "path" | "contentType" | "userAgent" | "body">) => {
    const headers: Record<string, string> = { authorization: `Bearer ${plane.adminToken}`, accept: "application/json", "user-agent": step.userAgent ?? UA };
    if (step.contentType !== undefined) headers["content-type"] = step.contentType;
    const body = step.body === undefined ? undefined : typeof step.body === "string" ? step.body : JSON.stringify(step.body);
    const response = await fetch(`${plane.url}${step.path}`, { method: step.method, headers, body, dispatcher: agent });
    const text = await response.text();
    return { status: response.status, body: text === "" ? null : (JSON.parse(text) as Json) };
  };
  const gitVersion = ((await send({ method: "GET", path: "/version" })).body as Json).gitVersion as string;
  log(`recording server-side apply on kube-apiserver ${gitVersion}`);
  const namespace = `orb-record-ssa-${Math.random().toString(36).slice(2, 8)}`;
  const created = await send({ method: "POST", path: "/api/v1/namespaces", contentType: "application/json", body: { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } } });
  if (created.status !== 201) throw new Error(`namespace: ${created.status}`);
  const steps: Json[] = [];
  try {
    for (const step of SSA_STEPS) {
      const answer = await send({ ...step, path: step.path.replaceAll("{ns}", namespace) });
      steps.push({ ...step, status: answer.status, answer: stabilizedAnswer(answer.body, namespace) });
      log(`${step.name}: ${answer.status}`);
    }
  } finally {
    await send({ method: "GET", path: `/api/v1/namespaces/${namespace}` });
    await fetch(`${plane.url}/api/v1/namespaces/${namespace}`, { method: "DELETE", headers: { authorization: `Bearer ${plane.adminToken}` }, dispatcher: agent });
    await agent.close();
  }
  return { ...header(gitVersion), steps };
}

runIfMain(import.meta.url, {
  script: "conformance/record/record-server-side-apply.ts",
  defaultOut: new URL("../../sim/apiserver/apply/recorded/kube-apiserver-1.26-apply.json", import.meta.url),
  async record(session) {
    const { out, log } = session;
    const data = await record(session);
    writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
    log(`recorded ${data.steps.length} steps in ${out}`);
  },
});
