/**
 * The ServiceAccount admission lookup (ApiServerOptions.defaultServiceAccounts), against the
 * answers of a real kube-apiserver 1.26.4 (recorded/pod-service-account.kube-1.26.json).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { testServer } from "../test-server.ts";

interface Exchange {
  readonly request: { readonly path: string; readonly body: Record<string, any> };
  readonly status: number;
  readonly body?: Record<string, unknown>;
  readonly serviceAccountFields?: Record<string, string>;
}
const recorded = JSON.parse(readFileSync(new URL("./recorded/pod-service-account.kube-1.26.json", import.meta.url), "utf8")) as { missing: Exchange; defaulted: Exchange };

async function serverWithNamespace(options: { defaultServiceAccounts?: boolean }) {
  const server = testServer("kubernetes", options);
  await server.call("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "sa-probe" } });
  return server;
}

describe("ServiceAccount admission", () => {
  it("refuses a Pod naming a missing ServiceAccount with the recorded 403, in a dry run too", async () => {
    const { call } = await serverWithNamespace({ defaultServiceAccounts: true });
    const { request, status, body } = recorded.missing;
    for (const query of ["", "?dryRun=All"]) {
      const answer = await call("POST", request.path + query, request.body);
      expect([answer.status, answer.json]).toEqual([status, body]);
    }
    const deprecatedField = { ...request.body, spec: { ...request.body["spec"], serviceAccountName: undefined, serviceAccount: "nope" } };
    expect((await call("POST", request.path, deprecatedField)).json.message).toContain('serviceaccount "nope" not found');
  });

  it("admits a Pod naming none right after its namespace is made, with default in both fields as recorded", async () => {
    const { call } = await serverWithNamespace({ defaultServiceAccounts: true });
    const { request, status, serviceAccountFields } = recorded.defaulted;
    const answer = await call("POST", request.path, request.body);
    expect(answer.status).toBe(status);
    expect({ serviceAccountName: answer.json.spec.serviceAccountName, serviceAccount: answer.json.spec.serviceAccount }).toEqual(serviceAccountFields);
    // No projected token volume: the embedded server issues no tokens (service-account-admission.ts).
    expect(answer.json.spec.volumes).toBeUndefined();
  });

  it("admits a Pod naming a ServiceAccount once it exists", async () => {
    const { call } = await serverWithNamespace({ defaultServiceAccounts: true });
    await call("POST", "/api/v1/namespaces/sa-probe/serviceaccounts", { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "nope" } });
    const { request } = recorded.missing;
    expect((await call("POST", request.path, request.body)).status).toBe(201);
  });

  it("does not look ServiceAccounts up when the option is off", async () => {
    const { call } = await serverWithNamespace({});
    const { request } = recorded.missing;
    expect((await call("POST", request.path, request.body)).status).toBe(201);
  });
});
