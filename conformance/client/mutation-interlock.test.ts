import { describe, expect, it } from "vitest";
import { InterlockError, MutationInterlock } from "./mutation-interlock.ts";
import { ConformanceClient } from "./conformance-client.ts";
import { ExchangeRecorder } from "./exchange-recorder.ts";
import { ConformanceRun } from "../runner.ts";
import { defineCases } from "../case-definition.ts";
import { startEmbeddedTarget } from "../targets/embedded-target.ts";
import { dialectByName } from "../../spec/dialects.ts";

describe("the mutation interlock", () => {
  const interlock = new MutationInterlock();
  interlock.claimNamespace("orb-conformance-x-0");

  it("lets reads through anywhere, and writes only inside the run's namespaces", () => {
    expect(() => interlock.checkRequest("GET", "/api/v1/namespaces/kube-system/secrets", undefined)).not.toThrow();
    expect(() => interlock.checkRequest("POST", "/api/v1/namespaces/orb-conformance-x-0/configmaps", "a")).not.toThrow();
    expect(() => interlock.checkRequest("DELETE", "/api/v1/namespaces/orb-conformance-x-0", undefined)).not.toThrow();
    for (const [method, path, name] of [
      ["POST", "/api/v1/namespaces/default/configmaps", "a"],
      ["DELETE", "/api/v1/namespaces/kube-system", undefined],
      ["POST", "/api/v1/namespaces", "prod"],
      ["DELETE", "/api/v1/configmaps", undefined],
      ["PATCH", "/api/v1/nodes/real-node", undefined],
      ["PUT", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n", undefined],
    ] as const) {
      expect(() => interlock.checkRequest(method, path, name), `${method} ${path}`).toThrow(InterlockError);
    }
  });

  it("lets permission checks through: a review POST stores nothing", () => {
    expect(() => interlock.checkRequest("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", undefined)).not.toThrow();
    expect(() => interlock.checkRequest("DELETE", "/apis/authorization.k8s.io/v1/subjectaccessreviews/x", undefined)).toThrow(InterlockError);
  });

  it("lets the run change cluster-scoped objects it created, and only those", () => {
    expect(() => interlock.checkRequest("POST", "/api/v1/nodes", "mine")).not.toThrow();
    interlock.recordCreated("POST", "/api/v1/nodes", 201, "mine");
    expect(() => interlock.checkRequest("DELETE", "/api/v1/nodes/mine", undefined)).not.toThrow();
    expect(() => interlock.checkRequest("DELETE", "/api/v1/nodes/theirs", undefined)).toThrow(InterlockError);
  });

  it("stops a case that tries to write outside the run, reported as an error, and the write never happens", async () => {
    const target = await startEmbeddedTarget(dialectByName("orb"));
    try {
      const [rogue] = defineCases("rogue", [
        {
          name: "writes-to-default",
          clauses: ["doc1/1/http-methods"],
          tags: ["mutating"],
          run: async (context) => {
            await context.client.post("/api/v1/namespaces/default/configmaps", { metadata: { name: "escaped" } });
          },
        },
      ]);
      const run = new ConformanceRun(target, { readOnly: false, slow: false, parallel: 1, caseTimeoutMs: 10_000, keepNamespaces: false });
      const [result] = await run.run([rogue!]);
      expect(result?.status).toBe("error");
      expect(result?.message).toMatch(/safety interlock: refused POST \/api\/v1\/namespaces\/default\/configmaps/);
      const recorder = new ExchangeRecorder([]);
      const probe = new ConformanceClient((r) => fetch(r), target.url, recorder, new MutationInterlock(), target.identity.authHeaders);
      expect((await probe.get("/api/v1/namespaces/default/configmaps/escaped")).status).toBe(404);
    } finally {
      await target.close();
    }
  });
});
