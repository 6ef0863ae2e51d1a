/**
 * Records what a real kube-apiserver answers about CustomResourceDefinitions written over the API
 * and about the custom resources they define (sim/apiserver/apiextensions/recorded/README.md), so
 * that the embedded server's conditions, validation messages, defaulting, pruning and subresources
 * are compared with data, not with memory.
 *
 *   npx tsx conformance/record/record-custom-resource-definitions.ts --kube-assets DIR [--out FILE]
 *
 * It starts a control plane from the binaries in DIR (default profile), works in a namespace it
 * creates and deletes and with definitions of the group `example.io` it deletes, then stops the
 * control plane. Each step is a request and the answer's status and body; volatile values (uids,
 * resourceVersions, times, the namespace) are placeholders, managedFields are left out.
 */
import { writeFileSync } from "node:fs";
import { Agent, fetch } from "undici";
import { runIfMain, type RecordingSession } from "./recorder-main.ts";

type Json = any;

/** The definition recorded: typed fields with each kind of check, defaults, an open object, both subresources. */
export const WIDGET_DEFINITION: Json = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.example.io" },
  spec: {
    group: "example.io",
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList", shortNames: ["wd"], categories: ["all"] },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" } },
        schema: {
          openAPIV3Schema: {
            type: "object",
            description: "A Widget is a recorded sample.",
            properties: {
              spec: {
                type: "object",
                description: "What the widget should be.",
                required: ["color"],
                properties: {
                  size: { type: "integer", minimum: 1, maximum: 10, description: "How big, 1 to 10." },
                  color: { type: "string", enum: ["red", "green", "blue"] },
                  code: { type: "string", pattern: "^[a-z]+$", maxLength: 8 },
                  replicas: { type: "integer", default: 1 },
                  mode: { type: "string", default: "fast" },
                  tags: { type: "array", items: { type: "string" }, maxItems: 2 },
                  port: { "x-kubernetes-int-or-string": true },
                  extra: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
                },
              },
              status: {
                type: "object",
                properties: { replicas: { type: "integer" }, selector: { type: "string" }, phase: { type: "string" } },
              },
            },
          },
        },
      },
    ],
  },
};

const BASE = "/apis/example.io/v1";
const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

const widget = (name: string, spec: Json, rest: Json = {}): Json => ({ apiVersion: "example.io/v1", kind: "Widget", metadata: { name }, spec, ...rest });

/** One recorded exchange. */
export interface RecordedStep {
  readonly method: string;
  readonly path: string;
  readonly body?: Json;
  readonly status: number;
  readonly response: Json;
}

const NAMESPACE_PLACEHOLDER = "<namespace>";

/** `value` with uids, resourceVersions, times and the namespace replaced by placeholders, managedFields dropped. */
export function stabilized(value: Json, namespace: string): Json {
  if (typeof value === "string") {
    if (value === namespace) return NAMESPACE_PLACEHOLDER;
    const replaced = value.replaceAll(namespace, NAMESPACE_PLACEHOLDER).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uid>");
    if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(replaced)) return "<time>";
    return replaced;
  }
  if (Array.isArray(value)) return value.map((item) => stabilized(item, namespace));
  if (value !== null && typeof value === "object") {
    const out: Json = {};
    for (const [key, item] of Object.entries(value)) {
      if (key === "resourceVersion" && typeof item === "string" && item !== "") out[key] = "<resourceVersion>";
      else if (key === "managedFields") continue;
      else out[key] = stabilized(item, namespace);
    }
    return out;
  }
  return value;
}

async function record({ plane, log, header }: RecordingSession): Promise<Json> {
  const agent = new Agent({ connect: { ca: plane.certificateAuthorityPem } });
  const namespace = `orb-record-crd-${Math.random().toString(36).slice(2, 8)}`;
  const steps: Record<string, RecordedStep> = {};
  const send = async (method: string, path: string, body?: Json, contentType = "application/json"): Promise<{ status: number; json: Json }> => {
    const headers: Record<string, string> = { authorization: `Bearer ${plane.adminToken}`, accept: "application/json" };
    if (body !== undefined) headers["content-type"] = contentType;
    const response = await fetch(`${plane.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), dispatcher: agent });
    const text = await response.text();
    let json: Json = text;
    try {
      json = JSON.parse(text);
    } catch {
      // Plain text (a 404 page): kept as text.
    }
    return { status: response.status, json };
  };
  /** Sends and records under `name`; the path is kept with the namespace as a placeholder. */
  const step = async (name: string, method: string, path: string, body?: Json, contentType?: string): Promise<Json> => {
    const answer = await send(method, path, body, contentType);
    steps[name] = {
      method,
      path: path.replaceAll(namespace, NAMESPACE_PLACEHOLDER),
      ...(body !== undefined && { body: stabilized(body, namespace) }),
      status: answer.status,
      response: stabilized(answer.json, namespace),
    };
    log(`${name}: ${method} ${path} → ${answer.status}`);
    return answer.json;
  };
  const until = async (what: string, probe: () => Promise<boolean>) => {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      if (await probe()) return;
      await new Promise((done) => setTimeout(done, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const established = async () => {
    const { json } = await send("GET", `${CRDS}/widgets.example.io`);
    return (json?.status?.conditions ?? []).some((condition: Json) => condition.type === "Established" && condition.status === "True");
  };
  const gitVersion = (await send("GET", "/version")).json.gitVersion as string;
  log(`recording CustomResourceDefinitions on kube-apiserver ${gitVersion}`);
  await send("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
  const widgets = `${BASE}/namespaces/${namespace}/widgets`;
  try {
    // Invalid definitions first: nothing is created by them.
    await step("crd-name-mismatch", "POST", CRDS, { ...WIDGET_DEFINITION, metadata: { name: "gizmos.example.io" } });
    const nonStructural = structuredClone(WIDGET_DEFINITION);
    nonStructural.metadata.name = "widgets.example.io";
    delete nonStructural.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.type;
    await step("crd-non-structural", "POST", CRDS, nonStructural);
    const noStorage = structuredClone(WIDGET_DEFINITION);
    noStorage.spec.versions[0].storage = false;
    await step("crd-no-storage-version", "POST", CRDS, noStorage);

    await step("crd-create", "POST", CRDS, WIDGET_DEFINITION);
    await until("Established", established);
    await step("crd-established", "GET", `${CRDS}/widgets.example.io`);
    await step("crd-list", "GET", `${CRDS}?fieldSelector=metadata.name%3Dwidgets.example.io`);
    await until("discovery of example.io", async () => (await send("GET", BASE)).status === 200);
    await step("discovery-group", "GET", "/apis/example.io");
    await step("discovery-resources", "GET", BASE);
    const groups = (await send("GET", "/apis")).json;
    steps["discovery-group-list-entry"] = { method: "GET", path: "/apis", status: 200, response: groups.groups.find((group: Json) => group.name === "example.io") };

    await step("cr-create-valid", "POST", widgets, widget("w1", { color: "red", size: 3, code: "abc", port: "http", extra: { anything: { goes: 1 } }, unknown: "dropped" }, { unknownTop: 1 }));
    await step("cr-get-valid", "GET", `${widgets}/w1`);
    await step("cr-create-wrong-type", "POST", widgets, widget("w", { color: "red", size: "big" }));
    await step("cr-create-required-missing", "POST", widgets, widget("w", { size: 3 }));
    await step("cr-create-spec-missing", "POST", widgets, widget("w0", undefined));
    await step("cr-create-enum", "POST", widgets, widget("w", { color: "purple" }));
    await step("cr-create-minimum", "POST", widgets, widget("w", { color: "red", size: 0 }));
    await step("cr-create-maximum", "POST", widgets, widget("w", { color: "red", size: 11 }));
    await step("cr-create-pattern", "POST", widgets, widget("w", { color: "red", code: "ABC" }));
    await step("cr-create-max-length", "POST", widgets, widget("w", { color: "red", code: "abcdefghij" }));
    await step("cr-create-max-items", "POST", widgets, widget("w", { color: "red", tags: ["a", "b", "c"] }));
    await step("cr-create-item-type", "POST", widgets, widget("w", { color: "red", tags: [1] }));
    await step("cr-create-int-or-string-bad", "POST", widgets, widget("w", { color: "red", port: true }));
    await step("cr-create-object-type", "POST", widgets, widget("w", "text"));
    await step("cr-create-several-errors", "POST", widgets, widget("w", { color: "purple", size: "big", code: "ABC" }));
    await step("cr-create-strict-unknown", "POST", `${widgets}?fieldValidation=Strict`, widget("w", { color: "red", unknown: 1 }));
    await step("cr-create-bad-name", "POST", widgets, widget("W_1", { color: "red" }));
    await step("cr-create-wrong-kind", "POST", widgets, { ...widget("w", { color: "red" }), kind: "Gadget" });

    // Status: the main resource ignores status, /status ignores spec.
    await step("cr-create-with-status", "POST", widgets, widget("w2", { color: "green" }, { status: { phase: "Ignored" } }));
    const w2 = await send("GET", `${widgets}/w2`);
    await step("cr-status-put", "PUT", `${widgets}/w2/status`, { ...w2.json, spec: { color: "blue" }, status: { phase: "Ready", replicas: 2, selector: "app=w2" } });
    await step("cr-status-put-invalid", "PUT", `${widgets}/w2/status`, { ...w2.json, metadata: { ...w2.json.metadata, resourceVersion: undefined }, status: { replicas: "two" } });
    const afterStatus = await send("GET", `${widgets}/w2`);
    await step("cr-main-put-status-ignored", "PUT", `${widgets}/w2`, { ...afterStatus.json, spec: { color: "blue", size: 4 }, status: { phase: "Changed" } });
    await step("cr-merge-patch", "PATCH", `${widgets}/w2`, { spec: { size: 5, mode: null } }, "application/merge-patch+json");
    await step("cr-strategic-patch", "PATCH", `${widgets}/w2`, { spec: { size: 6 } }, "application/strategic-merge-patch+json");
    await step("cr-patch-invalid", "PATCH", `${widgets}/w2`, { spec: { size: "huge" } }, "application/merge-patch+json");

    // Scale.
    await step("cr-scale-get", "GET", `${widgets}/w2/scale`);
    await step("cr-scale-put", "PUT", `${widgets}/w2/scale`, { apiVersion: "autoscaling/v1", kind: "Scale", metadata: { name: "w2", namespace }, spec: { replicas: 7 } });
    await step("cr-after-scale", "GET", `${widgets}/w2`);
    await step("cr-list", "GET", widgets);

    // An update of the definition: a field added (no longer pruned) and a second served version.
    const current = (await send("GET", `${CRDS}/widgets.example.io`)).json;
    const updated = structuredClone(current);
    updated.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.label = { type: "string" };
    updated.spec.versions.push({ ...structuredClone(WIDGET_DEFINITION.spec.versions[0]), name: "v1beta1", storage: false });
    await step("crd-update", "PUT", `${CRDS}/widgets.example.io`, updated);
    await until("v1beta1 served", async () => (await send("GET", "/apis/example.io/v1beta1")).status === 200);
    await step("discovery-group-after-update", "GET", "/apis/example.io");
    await step("cr-create-after-update", "POST", widgets, widget("w3", { color: "blue", label: "kept", unknown: "dropped" }));
    await step("cr-get-as-v1beta1", "GET", `/apis/example.io/v1beta1/namespaces/${namespace}/widgets/w3`);
    await step("crd-update-invalid", "PUT", `${CRDS}/widgets.example.io`, { ...updated, metadata: { ...updated.metadata, resourceVersion: undefined }, spec: { ...updated.spec, scope: "Cluster" } });

    // Deleting the definition: its objects go, then the definition.
    await step("crd-delete", "DELETE", `${CRDS}/widgets.example.io`);
    await step("crd-while-terminating", "GET", `${CRDS}/widgets.example.io`);
    await step("cr-create-while-terminating", "POST", widgets, widget("w9", { color: "red" }));
    await until("the definition gone", async () => (await send("GET", `${CRDS}/widgets.example.io`)).status === 404);
    await step("crd-after-delete", "GET", `${CRDS}/widgets.example.io`);
    await until("example.io gone from discovery", async () => (await send("GET", BASE)).status === 404);
    await step("cr-list-after-delete", "GET", widgets);
    await step("discovery-group-after-delete", "GET", "/apis/example.io");
    // Recreated: the objects of the old definition do not come back.
    await step("crd-recreate", "POST", CRDS, WIDGET_DEFINITION);
    await until("Established again", established);
    await until("served again", async () => (await send("GET", widgets)).status === 200);
    await step("cr-list-after-recreate", "GET", widgets);
  } finally {
    await send("DELETE", `${CRDS}/widgets.example.io`);
    await send("DELETE", `/api/v1/namespaces/${namespace}`);
    await agent.close();
  }
  return { ...header(gitVersion), definition: WIDGET_DEFINITION, steps };
}

runIfMain(import.meta.url, {
  script: "conformance/record/record-custom-resource-definitions.ts",
  defaultOut: new URL("../../sim/apiserver/apiextensions/recorded/kube-apiserver-1.26-crds.json", import.meta.url),
  async record(session) {
    const { out, log } = session;
    const data = await record(session);
    writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
    log(`recorded ${Object.keys(data.steps).length} steps in ${out}`);
  },
});
