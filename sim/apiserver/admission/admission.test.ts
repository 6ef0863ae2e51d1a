import { describe, expect, it } from "vitest";
import { loadReferenceTranscripts, transcriptById } from "../../../spec/reference-transcripts.ts";
import { testServer } from "../test-server.ts";
import { parseSideEffectPlugin } from "./side-effect-plugins.ts";

const PODS = "/api/v1/namespaces/default/pods";
const SERVICES = "/api/v1/namespaces/default/services";
const CM = "/api/v1/namespaces/default/configmaps";
const transcripts = loadReferenceTranscripts();
const referenceBody = (id: string) => JSON.parse(transcriptById(transcripts, id).response.body.text!);
const requestBody = (id: string) => transcriptById(transcripts, id).request.body;

describe("defaults as a real kube-apiserver 1.26 sets them", () => {
  it("gives a new pod the recorded spec and status, default tolerations included", async () => {
    const { call } = testServer("kubernetes");
    const reference = referenceBody("pod-create");
    const created = await call("POST", PODS, requestBody("pod-create"));
    expect(created.json.spec).toEqual(reference.spec);
    expect(created.json.status).toEqual(reference.status);
  });

  it("gives a NodePort service the recorded defaults, with an IP from the range and a node port", async () => {
    const { call } = testServer("kubernetes");
    const reference = referenceBody("service-create");
    const created = await call("POST", SERVICES, requestBody("service-create"));
    const { clusterIP, clusterIPs, ports, ...rest } = created.json.spec;
    const { clusterIP: _ip, clusterIPs: _ips, ports: referencePorts, ...referenceRest } = reference.spec;
    expect(Object.keys(created.json.spec)).toEqual(Object.keys(reference.spec));
    expect(rest).toEqual(referenceRest);
    expect(clusterIP).toMatch(/^10\.0\.0\.\d+$/);
    expect(clusterIPs).toEqual([clusterIP]);
    expect(ports[0]).toMatchObject({ ...referencePorts[0], nodePort: expect.any(Number) });
    expect(ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    expect(ports[0].nodePort).toBeLessThanOrEqual(32767);
    expect(created.json.status).toEqual(reference.status);
  });
});

describe("admission (doc 1 §4.4.2)", () => {
  it("uses the dialect's taint keys for the default tolerations", async () => {
    const created = await testServer("orb").call("POST", PODS, { metadata: { name: "p" }, spec: { containers: [{ name: "c", image: "i" }] } });
    expect(created.json.spec.tolerations.map((t: any) => `${t.key}:${t.tolerationSeconds}`)).toEqual(["node.orb.io/not-ready:300", "node.orb.io/unreachable:300"]);
  });

  it("keeps a pod's own toleration of a node taint instead of adding the default", async () => {
    const own = { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute", tolerationSeconds: 6000 };
    const created = await testServer().call("POST", PODS, { metadata: { name: "p" }, spec: { containers: [{ name: "c", image: "i" }], tolerations: [own] } });
    expect(created.json.spec.tolerations).toEqual([own, { key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 }]);
  });

  it("rejects missing required fields with 422 and a cause per field", async () => {
    const { call } = testServer();
    const pod = await call("POST", PODS, { metadata: { name: "p" }, spec: {} });
    expect([pod.status, pod.json.details.causes]).toEqual([422, [{ reason: "FieldValueRequired", message: "Required value", field: "spec.containers" }]]);
    const container = await call("POST", PODS, { metadata: { name: "p" }, spec: { containers: [{ name: "c" }] } });
    expect(container.json.details.causes[0].field).toBe("spec.containers[0].image");
  });

  it("never hands out one cluster IP twice, and says so when the range is full", async () => {
    const { call } = testServer("kubernetes", { serviceClusterIpRange: "10.1.0.0/29" });
    const ips = new Set<string>();
    // A /29 has 8 addresses; the network address, the first host and the broadcast are never given.
    for (let i = 0; i < 5; i++) ips.add((await call("POST", SERVICES, { metadata: { name: `s${i}` }, spec: { ports: [{ port: 80 }] } })).json.spec.clusterIP);
    expect(ips.size).toBe(5);
    const full = await call("POST", SERVICES, { metadata: { name: "s5" }, spec: { ports: [{ port: 80 }] } });
    expect([full.status, full.json.reason]).toEqual([422, "Invalid"]);
  });

  it("keeps a service's cluster IP and node ports across updates", async () => {
    const { call } = testServer();
    const created = (await call("POST", SERVICES, { metadata: { name: "np" }, spec: { type: "NodePort", ports: [{ port: 80 }] } })).json;
    const updated = (await call("PUT", `${SERVICES}/np`, { metadata: { name: "np" }, spec: { type: "NodePort", ports: [{ port: 80 }], selector: { a: "b" } } })).json;
    expect(updated.spec.clusterIP).toBe(created.spec.clusterIP);
    expect(updated.spec.ports[0].nodePort).toBe(created.spec.ports[0].nodePort);
    expect(updated.spec.selector).toEqual({ a: "b" });
  });
});

describe("dry-run (doc 1 §2.7, §4.4)", () => {
  it("creates nothing: generated values filled, no resourceVersion, no watch event, 201", async () => {
    const { call, server } = testServer();
    const revision = server.store.revision;
    const watch = server.store.watch({ prefix: "configmaps/" });
    const dry = await call("POST", `${CM}?dryRun=All`, { metadata: { generateName: "dry-" }, data: { a: "b" } });
    expect(dry.status).toBe(201);
    expect(dry.json.metadata.name).toMatch(/^dry-.{5}$/);
    expect(dry.json.metadata.uid).toBeDefined();
    expect(dry.json.metadata.creationTimestamp).toBeDefined();
    expect(dry.json.metadata.resourceVersion).toBeUndefined();
    expect((await call("GET", `${CM}/${dry.json.metadata.name}`)).status).toBe(404);
    expect(server.store.revision).toBe(revision);
    expect(watch.tryNext()).toBeUndefined();
  });

  it("runs admission and validation: defaults appear, invalid objects fail, service allocations are placeholders", async () => {
    const { call } = testServer("kubernetes", { serviceClusterIpRange: "10.2.0.0/30" });
    const pod = await call("POST", `${PODS}?dryRun=All`, { metadata: { name: "p" }, spec: { containers: [{ name: "c", image: "i" }] } });
    expect(pod.json.spec.tolerations).toHaveLength(2);
    expect((await call("POST", `${PODS}?dryRun=All`, { metadata: { name: "p" }, spec: {} })).status).toBe(422);
    // A /30 has one IP to give: dry runs show placeholders that no real allocation can equal
    // (doc 1 §2.7), reserve nothing, and the real create still gets the one IP.
    const service = { metadata: { name: "s" }, spec: { type: "NodePort", ports: [{ port: 80 }] } };
    const first = await call("POST", `${SERVICES}?dryRun=All`, service);
    const real = await call("POST", SERVICES, service);
    expect([first.json.spec.clusterIP, real.json.spec.clusterIP]).toEqual(["10.2.0.0", "10.2.0.2"]);
    expect(first.json.spec.ports[0].nodePort).toBe(32769);
    expect(real.json.spec.ports[0].nodePort).toBeLessThanOrEqual(32767);
  });

  it("updates, patches and deletes nothing", async () => {
    const { call } = testServer();
    const created = await call("POST", CM, { metadata: { name: "keep" }, data: { v: "1" } });
    const put = await call("PUT", `${CM}/keep?dryRun=All`, { ...created.json, data: { v: "2" } });
    expect([put.status, put.json.data.v, put.json.metadata.resourceVersion]).toEqual([200, "2", created.json.metadata.resourceVersion]);
    const patch = await call("PATCH", `${CM}/keep?dryRun=All`, { data: { v: "3" } }, { "content-type": "application/merge-patch+json" });
    expect(patch.json.data.v).toBe("3");
    expect((await call("DELETE", `${CM}/keep?dryRun=All`)).status).toBe(200);
    expect((await call("GET", `${CM}/keep`)).json).toEqual(created.json);
  });

  it("answers dryRun values other than All with 422 naming the options kind, and a bare dryRun per dialect", async () => {
    const k8s = testServer("kubernetes");
    for (const [method, path, kind] of [
      ["POST", CM, "CreateOptions"],
      ["PUT", `${CM}/x`, "UpdateOptions"],
      ["DELETE", `${CM}/x`, "DeleteOptions"],
    ] as const) {
      // A DELETE's query options count only without a body (transcripts-delete-options.jsonl, cases f and g).
      const response = await k8s.call(method, `${path}?dryRun=Bogus`, method === "DELETE" ? undefined : { metadata: { name: "x" } });
      expect([response.status, response.json.details.kind, response.json.details.causes[0].field]).toEqual([422, kind, "dryRun"]);
    }
    expect((await k8s.call("POST", `${CM}?dryRun`, { metadata: { name: "bare" } })).status).toBe(422);
    const orb = testServer("orb");
    expect((await orb.call("POST", `${CM}?dryRun`, { metadata: { name: "bare" } })).status).toBe(201);
    expect((await orb.call("GET", `${CM}/bare`)).status).toBe(404);
  });

  it("fails a dry run that would reach a plugin with side effects (doc 1 §4.4.5); None and NoneOnDryRun pass", async () => {
    const plugins = ["audit=configmaps:Some", "quiet=secrets:None", "careful=secrets:NoneOnDryRun"].map(parseSideEffectPlugin);
    const { call } = testServer("kubernetes", { sideEffectPlugins: plugins });
    const dry = await call("POST", `${CM}?dryRun=All`, { metadata: { name: "c" } });
    expect([dry.status, dry.json.reason, dry.json.message]).toEqual([400, "BadRequest", 'admission webhook "audit" does not support dry run']);
    expect((await call("POST", CM, { metadata: { name: "c" } })).status).toBe(201);
    expect((await call("DELETE", `${CM}/c?dryRun=All`)).status).toBe(400);
    expect((await call("POST", "/api/v1/namespaces/default/secrets?dryRun=All", { metadata: { name: "s" } })).status).toBe(201);
    expect(() => parseSideEffectPlugin("bad")).toThrow(/NAME=RESOURCE/);
  });
});
