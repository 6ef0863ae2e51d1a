/**
 * The eviction subresource's checks, against what kube-apiserver 1.26.4 answered to the same
 * bodies (recorded 2026-11-25 from a fast-expiry control plane; found by `fuzz --target http`:
 * the body used to be ignored, so an Eviction with deleteOptions.dryRun ["Bogus"] deleted the pod).
 */
import { describe, expect, it } from "vitest";
import { testServer } from "../test-server.ts";

const PODS = "/api/v1/namespaces/default/pods";

async function withPod() {
  const server = testServer();
  const created = await server.call("POST", PODS, { apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: { containers: [{ name: "c", image: "x" }] } });
  expect(created.status).toBe(201);
  const evict = (body: unknown, query = "") => server.call("POST", `${PODS}/p/eviction${query}`, body);
  const exists = async () => (await server.call("GET", `${PODS}/p`)).status === 200;
  return { evict, exists, uid: created.json.metadata.uid as string, resourceVersion: created.json.metadata.resourceVersion as string };
}

const eviction = (rest: Record<string, unknown> = {}) => ({ apiVersion: "policy/v1", kind: "Eviction", metadata: { name: "p" }, ...rest });

describe("POST pods/<name>/eviction", () => {
  it("refuses a deleteOptions.dryRun other than All with 422, and deletes nothing", async () => {
    const { evict, exists } = await withPod();
    const answer = await evict(eviction({ deleteOptions: { dryRun: ["Bogus"] } }));
    expect([answer.status, answer.json.reason, answer.json.message]).toEqual([422, "Invalid", 'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"']);
    expect(await exists()).toBe(true);
  });

  it("deletes nothing in a dry run, from the query or from deleteOptions", async () => {
    const { evict, exists } = await withPod();
    expect((await evict(eviction(), "?dryRun=All")).status).toBe(201);
    expect((await evict(eviction({ deleteOptions: { dryRun: ["All"] } }))).status).toBe(201);
    expect(await exists()).toBe(true);
    expect((await evict(eviction())).status).toBe(201);
    expect(await exists()).toBe(false);
  });

  it("refuses a name other than the URL's, a wrong kind and a wrong value type with 400", async () => {
    const { evict, exists } = await withPod();
    for (const body of [eviction({ metadata: { name: "q" } }), eviction({ metadata: { name: "" } }), {}]) {
      expect((await evict(body)).json).toMatchObject({ code: 400, reason: "BadRequest", message: "name in URL does not match name in Eviction object" });
    }
    expect((await evict({ apiVersion: "v1", kind: "Pod", metadata: { name: "p" } })).json.message).toBe('Pod in version "v1" cannot be handled as a Eviction: converting (v1.Pod) to (policy.Eviction): unknown conversion');
    const wrongType = await evict(eviction({ deleteOptions: { gracePeriodSeconds: "x" } }));
    expect([wrongType.status, wrongType.json.message]).toEqual([400, expect.stringMatching(/^Eviction in version "v1" cannot be handled as a Eviction: /)]);
    expect((await evict(eviction({ deleteOptions: { propagationPolicy: "Bogus" } }))).json.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Bogus": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
    expect(await exists()).toBe(true);
  });

  it("answers query and body dry runs that disagree with 400 (Kubernetes: 500), and stale preconditions with 409", async () => {
    const { evict, exists, uid } = await withPod();
    const disagreeing = await evict(eviction({ deleteOptions: { dryRun: ["All"] } }), "?dryRun=All&dryRun=All");
    expect([disagreeing.status, disagreeing.json.message]).toEqual([400, "Non-matching dry-run options in request and content: [All All] and [All]"]);
    const staleVersion = await evict(eviction({ deleteOptions: { preconditions: { resourceVersion: "1" } } }));
    expect([staleVersion.status, staleVersion.json.details]).toEqual([409, { name: "p", kind: "Pod" }]);
    expect(staleVersion.json.message).toMatch(/^Operation cannot be fulfilled on Pod "p": the ResourceVersion in the precondition \(1\) does not match the ResourceVersion in record \(\d+\)\. The object might have been modified$/);
    const otherUid = await evict(eviction({ deleteOptions: { preconditions: { uid: "0b3c1a9e-0000-4000-8000-000000000000" } } }));
    expect(otherUid.json.message).toBe(`Operation cannot be fulfilled on Pod "p": the UID in the precondition (0b3c1a9e-0000-4000-8000-000000000000) does not match the UID in record (${uid}). The object might have been deleted and then recreated`);
    expect(await exists()).toBe(true);
    expect((await evict(eviction({ deleteOptions: { preconditions: { uid } } }))).status).toBe(201);
    expect(await exists()).toBe(false);
  });
});
