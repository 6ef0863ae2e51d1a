/**
 * Request objects whose values have the wrong JSON type are refused as Kubernetes refuses them
 * (400 on create and update, 422 on field `patch` for a patch), and never reach defaulting,
 * storage or the encoders: before this check they answered 500, or were stored and made every
 * Protobuf list that included them a 500.
 */
import { describe, expect, it } from "vitest";
import { parseCustomResourceDefinition } from "../routing/custom-resources.ts";
import { testServer } from "../test-server.ts";

const NS = "/api/v1/namespaces/default";
const PROTOBUF = { accept: "application/vnd.kubernetes.protobuf" };
const pod = (name: string, spec: Record<string, unknown>) => ({ apiVersion: "v1", kind: "Pod", metadata: { name }, spec });
const container = { name: "c", image: "registry.example/app:1" };

describe("values of the wrong JSON type", () => {
  it("are 400 BadRequest on create, naming the field, for every kind checked", async () => {
    const { call } = testServer();
    const cases: Array<[string, string, unknown, RegExp]> = [
      ["pods", "Pod", pod("p1", { containers: "x" }), /^Pod in version "v1" cannot be handled as a Pod: spec\.containers: expected a list, got "x"$/],
      ["pods", "Pod", pod("p2", { containers: [container], tolerations: "x" }), /spec\.tolerations: expected a list/],
      ["pods", "Pod", pod("p4", { containers: [container], nodeName: 5 }), /spec\.nodeName: expected a string, got 5/],
      ["services", "Service", { apiVersion: "v1", kind: "Service", metadata: { name: "s1" }, spec: { ports: "x" } }, /spec\.ports: expected a list/],
      ["configmaps", "ConfigMap", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c1" }, data: { a: 1 } }, /data\["a"\]: expected a string, got 1/],
      ["configmaps", "ConfigMap", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c2", labels: { a: 1 } } }, /metadata\.labels\["a"\]: expected a string/],
      ["configmaps", "ConfigMap", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c3", annotations: { a: { b: 1 } } } }, /metadata\.annotations\["a"\]/],
      ["configmaps", "ConfigMap", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c4", finalizers: [1] } }, /metadata\.finalizers\[0\]/],
    ];
    for (const [resource, kind, body, message] of cases) {
      const response = await call("POST", `${NS}/${resource}`, body);
      expect([response.status, response.json.kind, response.json.reason], JSON.stringify(body)).toEqual([400, "Status", "BadRequest"]);
      expect(response.json.message, kind).toMatch(message);
    }
    const lease = await call("POST", "/apis/coordination.k8s.io/v1/namespaces/default/leases", {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: "l1" },
      spec: { renewTime: "garbage" },
    });
    expect([lease.status, lease.json.message]).toEqual([400, expect.stringMatching(/^Lease in version "v1" cannot be handled as a Lease: spec\.renewTime: expected an RFC 3339 time/)]);
    // Go decodes a null item of a list of structs to the zero struct: validation, not decoding, refuses it.
    const nullContainer = await call("POST", `${NS}/pods`, pod("p3", { containers: [null], tolerations: [null] }));
    expect([nullContainer.status, nullContainer.json.reason, nullContainer.json.details?.causes]).toEqual([
      422,
      "Invalid",
      [
        { reason: "FieldValueRequired", message: "Required value", field: "spec.containers[0].name" },
        { reason: "FieldValueRequired", message: "Required value", field: "spec.containers[0].image" },
      ],
    ]);
    const nullPort = await call("POST", `${NS}/services`, { apiVersion: "v1", kind: "Service", metadata: { name: "s2" }, spec: { ports: [null] } });
    expect([nullPort.status, nullPort.json.details?.causes?.[0]?.field]).toEqual([422, "spec.ports[0].port"]);
    // Nothing was stored, and a dry run is refused the same way.
    expect((await call("GET", `${NS}/configmaps`)).json.items).toEqual([]);
    expect((await call("POST", `${NS}/pods?dryRun=All`, pod("p5", { containers: "x" }))).status).toBe(400);
  });

  it("are 400 on update, and 422 Invalid on field `patch` when a patch makes them, leaving the object as it was", async () => {
    const { call } = testServer();
    const created = await call("POST", `${NS}/configmaps`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm" }, data: { a: "1" } });
    expect(created.status).toBe(201);
    const put = await call("PUT", `${NS}/configmaps/cm`, { ...created.json, data: { a: 1 } });
    expect([put.status, put.json.reason]).toEqual([400, "BadRequest"]);
    for (const [contentType, patch] of [
      ["application/merge-patch+json", { data: { a: 2 } }],
      ["application/strategic-merge-patch+json", { metadata: { labels: { x: true } } }],
      ["application/json-patch+json", [{ op: "add", path: "/data/b", value: [] }]],
    ] as const) {
      const patched = await call("PATCH", `${NS}/configmaps/cm`, patch, { "content-type": contentType });
      expect([patched.status, patched.json.reason, patched.json.details.causes[0].field], contentType).toEqual([422, "Invalid", "patch"]);
      expect(patched.json.message).toMatch(/^ "" is invalid: patch: Invalid value: "\{.*\}": (data|metadata\.labels)\[/);
    }
    const podCreated = await call("POST", `${NS}/pods`, pod("p", { containers: [container] }));
    expect(podCreated.status).toBe(201);
    const statusPatch = await call("PATCH", `${NS}/pods/p/status`, { status: { conditions: "x" } }, { "content-type": "application/merge-patch+json" });
    expect([statusPatch.status, statusPatch.json.details.causes[0].field]).toEqual([422, "patch"]);
    const after = await call("GET", `${NS}/configmaps/cm`);
    expect([after.json.data, after.json.metadata.resourceVersion]).toEqual([{ a: "1" }, created.json.metadata.resourceVersion]);
  });

  it("leave Protobuf lists working, since no such object is ever stored", async () => {
    const { call } = testServer();
    await call("POST", `${NS}/configmaps`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "bad", annotations: { a: { b: 1 } } } });
    await call("POST", `${NS}/configmaps`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "good" }, data: { a: "1" } });
    const list = await call("GET", `${NS}/configmaps`, undefined, PROTOBUF);
    expect([list.status, list.headers.get("content-type")]).toEqual([200, "application/vnd.kubernetes.protobuf"]);
  });

  it("do not refuse what Go decodes: nulls, int-or-string ports, numbers for quantities, timestamps with offsets", async () => {
    const { call } = testServer();
    const created = await call("POST", `${NS}/pods`, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "fine", creationTimestamp: null, labels: null, annotations: { a: "" } },
      spec: {
        containers: [{ ...container, ports: [{ containerPort: 80 }], resources: { limits: { cpu: 1, memory: "64Mi" } }, readinessProbe: { httpGet: { port: "http" } } }],
        tolerations: null,
      },
      status: {},
    });
    expect(created.status, created.text).toBe(201);
    const lease = await call("POST", "/apis/coordination.k8s.io/v1/namespaces/default/leases", {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: "l" },
      spec: { holderIdentity: "a", renewTime: "2026-01-02T03:04:05.123456+02:00", leaseDurationSeconds: 15 },
    });
    expect(lease.status, lease.text).toBe(201);
    // Go's base64 decoding skips line breaks: a wrapped value is data, and it is served as Protobuf too.
    const secret = await call("POST", `${NS}/secrets`, { apiVersion: "v1", kind: "Secret", metadata: { name: "wrapped" }, data: { crt: "QUFB\nQUFB\r\n" } });
    expect(secret.status, secret.text).toBe(201);
    expect((await call("GET", `${NS}/secrets/wrapped`, undefined, PROTOBUF)).status).toBe(200);
    const notBase64 = await call("POST", `${NS}/secrets`, { apiVersion: "v1", kind: "Secret", metadata: { name: "bad" }, data: { crt: "not base64!" } });
    expect([notBase64.status, notBase64.json.message]).toEqual([400, expect.stringMatching(/data\["crt"\]: expected base64 text/)]);
  });

  it("are not checked for custom resources, whose schema is their definition's", async () => {
    const widgets = parseCustomResourceDefinition(
      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.io}\n" +
        "spec: {group: example.io, scope: Namespaced, names: {plural: widgets, kind: Widget},\n" +
        "  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}]}\n",
    );
    const { call } = testServer("kubernetes", { customResourceDefinitions: [widgets] });
    const body = { apiVersion: "example.io/v1", kind: "Widget", metadata: { name: "w" }, spec: { containers: "x" }, extra: [1] };
    const created = await call("POST", "/apis/example.io/v1/namespaces/default/widgets?fieldValidation=Strict", body);
    expect([created.status, created.json.spec, created.json.extra]).toEqual([201, { containers: "x" }, [1]]);
  });
});
