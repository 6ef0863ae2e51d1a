/**
 * The scale subresource of Deployments (handlers/scale-handler.ts, registry/scale-subresource.ts)
 * against what kube-apiserver 1.26.4 answered (transcripts-scale-and-reviews.jsonl): the same
 * namespace, names and requests, so that error bodies compare byte for byte and Scales compare
 * with only the uid, resourceVersion and creationTimestamp (which no two servers share) carried over.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTranscriptFile, referenceDir, SCALE_AND_REVIEWS_FILE, type Transcript } from "../../../spec/reference-transcripts.ts";
import { parsePolicyFile } from "../auth/index.ts";
import { parseStaticTokenFile } from "../auth/token-file.ts";
import { decodeObject } from "../protobuf/envelope.ts";
import { testServer, type TestServer } from "../test-server.ts";

const recorded = new Map(readTranscriptFile(join(referenceDir, SCALE_AND_REVIEWS_FILE)).map((transcript) => [transcript.id, transcript]));

function transcript(id: string): Transcript {
  const found = recorded.get(id);
  if (found === undefined) throw new Error(`no transcript ${id} in ${SCALE_AND_REVIEWS_FILE}`);
  return found;
}

const NS = "scale-rec";
const D = `/apis/apps/v1/namespaces/${NS}/deployments`;
const S = `${D}/web/scale`;
const MERGE = { "content-type": "application/merge-patch+json" };
const JSON_PATCH = { "content-type": "application/json-patch+json" };
const STRATEGIC = { "content-type": "application/strategic-merge-patch+json" };

function deployment(name: string, selector: unknown, labels: Record<string, string>): Record<string, unknown> {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name },
    spec: { replicas: 1, selector, template: { metadata: { labels }, spec: { containers: [{ name: "nginx", image: "nginx" }] } } },
  };
}

function scale(replicas: unknown, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: "autoscaling/v1", kind: "Scale", metadata: { name: "web", namespace: NS, ...metadata }, spec: { replicas } };
}

/** A server with the recording's namespace and its Deployment `web` (selector app=web, 1 replica). */
async function serverWithWeb(options: Parameters<typeof testServer>[1] = {}, headers: Record<string, string> = {}): Promise<TestServer & { created: any }> {
  const server = testServer("kubernetes", options);
  expect((await server.call("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: NS } }, headers)).status).toBe(201);
  const created = await server.call("POST", D, deployment("web", { matchLabels: { app: "web" } }, { app: "web" }), headers);
  expect(created.status).toBe(201);
  return { ...server, created: created.json };
}

/** The recorded answer's JSON with our uid, resourceVersion and creationTimestamp, as text: what ours must be. */
function recordedWithOurIdentity(id: string, ours: any): string {
  const theirs = JSON.parse(transcript(id).response.body.text!);
  for (const field of ["uid", "resourceVersion", "creationTimestamp"]) theirs.metadata[field] = ours.metadata[field];
  return JSON.stringify(theirs);
}

/** Status, Content-Type and body text as recorded. */
function expectRecorded(answer: { status: number; headers: Headers; text: string }, id: string): void {
  const { response } = transcript(id);
  expect([answer.status, answer.headers.get("content-type"), answer.text]).toEqual([response.status, response.headers["content-type"], response.body.text]);
}

describe("GET of the scale subresource", () => {
  it("answers an autoscaling/v1 Scale built from the Deployment (transcript scale-get)", async () => {
    const { call, created } = await serverWithWeb();
    const answer = await call("GET", S);
    expect(answer.status).toBe(200);
    expect(answer.json.metadata).toEqual({
      name: "web",
      namespace: NS,
      uid: created.metadata.uid,
      resourceVersion: created.metadata.resourceVersion,
      creationTimestamp: created.metadata.creationTimestamp,
    });
    expect(JSON.stringify(answer.json)).toBe(recordedWithOurIdentity("scale-get", answer.json));
    expect(answer.text.endsWith("}\n")).toBe(true);
  });

  it("prints the selector as Kubernetes does: requirements sorted by key, values sorted (transcript scale-get-selector)", async () => {
    const { call } = await serverWithWeb();
    const selector = {
      matchLabels: { tier: "fe", app: "multi" },
      matchExpressions: [
        { key: "env", operator: "In", values: ["prod", "dev"] },
        { key: "legacy", operator: "DoesNotExist" },
        { key: "zone", operator: "NotIn", values: ["b", "a"] },
        { key: "canary", operator: "Exists" },
      ],
    };
    expect((await call("POST", D, deployment("multi", selector, { app: "multi", tier: "fe", env: "prod", canary: "yes" }))).status).toBe(201);
    const answer = await call("GET", `${D}/multi/scale`);
    expect(JSON.stringify(answer.json)).toBe(recordedWithOurIdentity("scale-get-selector", answer.json));
    expect(answer.json.status.selector).toBe("app=multi,canary,env in (dev,prod),!legacy,tier=fe,zone notin (a,b)");
  });

  it("reads status.replicas from the Deployment's status, and leaves spec.replicas 0 out (transcripts scale-get-status, scale-patch-zero)", async () => {
    const { call, created } = await serverWithWeb();
    expect((await call("PATCH", S, JSON.stringify({ spec: { replicas: 0 } }), MERGE)).json.spec).toEqual({});
    const current = (await call("GET", `${D}/web`)).json;
    expect((await call("PUT", `${D}/web/status`, { ...current, status: { replicas: 2, readyReplicas: 1 } })).status).toBe(200);
    const answer = await call("GET", S);
    expect(answer.json.metadata.uid).toBe(created.metadata.uid);
    expect(JSON.stringify(answer.json)).toBe(recordedWithOurIdentity("scale-get-status", answer.json));
  });

  it("answers a missing Deployment's scale with 404 deployments/scale.apps (transcript scale-get-missing)", async () => {
    const { call } = await serverWithWeb();
    expectRecorded(await call("GET", `${D}/nope/scale`), "scale-get-missing");
  });

  it("takes ?watch=true as a plain get: the subresource has no watch (transcript scale-list)", async () => {
    const { call } = await serverWithWeb();
    const answer = await call("GET", `${S}?watch=true&timeoutSeconds=1`);
    expect([answer.status, answer.json.kind]).toEqual([200, "Scale"]);
  });

  it("answers YAML and a Table of Name, Desired, Available, Age (transcripts scale-get-yaml, scale-get-table)", async () => {
    const { call } = await serverWithWeb();
    const json = (await call("GET", S)).json;
    const yaml = await call("GET", S, undefined, { accept: "application/yaml" });
    const recordedYaml = transcript("scale-get-yaml").response.body.text!;
    const withOurs = recordedYaml
      .replace(/creationTimestamp: "[^"]*"/, `creationTimestamp: "${json.metadata.creationTimestamp}"`)
      .replace(/resourceVersion: "[^"]*"/, `resourceVersion: "${json.metadata.resourceVersion}"`)
      .replace(/uid: \S+/, `uid: ${json.metadata.uid}`);
    expect([yaml.status, yaml.headers.get("content-type"), yaml.text]).toEqual([200, "application/yaml", withOurs]);

    const table = await call("GET", S, undefined, { accept: "application/json;as=Table;v=v1;g=meta.k8s.io" });
    const theirs = JSON.parse(transcript("scale-get-table").response.body.text!);
    theirs.metadata.resourceVersion = json.metadata.resourceVersion;
    theirs.rows[0].object.metadata = json.metadata;
    expect(theirs.rows[0].cells).toEqual(["web", 1, 0, "0s"]);
    expect([table.status, table.headers.get("content-type"), table.text]).toEqual([200, "application/json", `${JSON.stringify(theirs)}\n`]);
  });

  it("is listed in discovery as autoscaling/v1 Scale with get, patch and update", async () => {
    const { call } = testServer();
    const apps = await call("GET", "/apis/apps/v1");
    expect(apps.json.resources.find((resource: any) => resource.name === "deployments/scale")).toEqual({
      name: "deployments/scale",
      singularName: "",
      namespaced: true,
      group: "autoscaling",
      version: "v1",
      kind: "Scale",
      verbs: ["get", "patch", "update"],
    });
  });
});

describe("writes of the scale subresource", () => {
  it("PUT, merge, JSON and strategic merge patches write spec.replicas into the Deployment, one generation each", async () => {
    const { call } = await serverWithWeb();
    const first = (await call("GET", S)).json;
    const writes: Array<[string, () => ReturnType<TestServer["call"]>, number]> = [
      ["scale-put", () => call("PUT", S, scale(3, { resourceVersion: first.metadata.resourceVersion })), 3],
      ["scale-put-unconditional", () => call("PUT", S, scale(4)), 4],
      ["scale-patch-merge", () => call("PATCH", S, JSON.stringify({ spec: { replicas: 5 } }), MERGE), 5],
      ["scale-patch-json", () => call("PATCH", S, JSON.stringify([{ op: "replace", path: "/spec/replicas", value: 6 }]), JSON_PATCH), 6],
      ["scale-patch-strategic", () => call("PATCH", S, JSON.stringify({ spec: { replicas: 7 } }), STRATEGIC), 7],
    ];
    let generation = 1;
    for (const [id, write, replicas] of writes) {
      const before = (await call("GET", `${D}/web`)).json;
      const answer = await write();
      expect([answer.status, answer.headers.get("content-type")], id).toEqual([200, "application/json"]);
      expect(JSON.stringify(answer.json), id).toBe(recordedWithOurIdentity(id, answer.json));
      const after = (await call("GET", `${D}/web`)).json;
      generation += 1;
      expect([after.spec.replicas, after.metadata.generation], id).toEqual([replicas, generation]);
      // The answer's resourceVersion is the Deployment's new one; nothing else of it changed.
      expect(answer.json.metadata.resourceVersion, id).toBe(after.metadata.resourceVersion);
      expect(after.metadata.resourceVersion, id).not.toBe(before.metadata.resourceVersion);
      expect({ ...after.spec, replicas: 0 }, id).toEqual({ ...before.spec, replicas: 0 });
    }
  });

  it("answers a stale resourceVersion 409, on deployments.apps, for PUT and for a patch that sets it (transcripts scale-put-stale, scale-patch-stale)", async () => {
    const { call, created } = await serverWithWeb();
    const stale = created.metadata.resourceVersion;
    expect((await call("PUT", S, scale(3))).status).toBe(200);
    const before = (await call("GET", `${D}/web`)).json;
    expectRecorded(await call("PUT", S, scale(5, { resourceVersion: stale })), "scale-put-stale");
    expectRecorded(await call("PATCH", S, JSON.stringify({ metadata: { resourceVersion: stale }, spec: { replicas: 8 } }), MERGE), "scale-patch-stale");
    expect((await call("GET", `${D}/web`)).json).toEqual(before);
  });

  it("answers a dry run with the new replicas at the current resourceVersion, and writes nothing (transcripts scale-put-dry-run, scale-patch-dry-run)", async () => {
    const { call, server } = await serverWithWeb();
    const before = (await call("GET", `${D}/web`)).json;
    const revision = server.store.revision;
    const put = await call("PUT", `${S}?dryRun=All`, scale(9));
    expect(JSON.stringify(put.json)).toBe(recordedWithOurIdentity("scale-put-dry-run", put.json));
    expect(put.json.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    const patch = await call("PATCH", `${S}?dryRun=All`, JSON.stringify({ spec: { replicas: 10 } }), MERGE);
    expect(JSON.stringify(patch.json)).toBe(recordedWithOurIdentity("scale-patch-dry-run", patch.json));
    expect((await call("GET", `${D}/web`)).json).toEqual(before);
    expect(server.store.revision).toBe(revision);
  });

  it("runs admission like any write of the Deployment: a dry run is refused where a plugin with side effects watches deployments", async () => {
    const { call } = await serverWithWeb({ sideEffectPlugins: [{ name: "audit.example.com", resources: ["deployments"], sideEffects: "Some" }] });
    const answer = await call("PUT", `${S}?dryRun=All`, scale(9));
    expect([answer.status, answer.json.message]).toEqual([400, 'admission webhook "audit.example.com" does not support dry run']);
    expect((await call("PUT", S, scale(2))).json.spec).toEqual({ replicas: 2 });
  });

  it("takes only spec.replicas from the Scale: its labels, annotations and status are ignored (transcripts scale-patch-ignored-fields, scale-deployment-after-ignored)", async () => {
    const { call } = await serverWithWeb();
    const patch = { metadata: { labels: { a: "b" }, annotations: { c: "d" } }, spec: { replicas: 2 }, status: { replicas: 50, selector: "x=y" } };
    const answer = await call("PATCH", S, JSON.stringify(patch), MERGE);
    expect(JSON.stringify(answer.json)).toBe(recordedWithOurIdentity("scale-patch-ignored-fields", answer.json));
    const after = (await call("GET", `${D}/web`)).json;
    expect(after.metadata.labels).toBeUndefined();
    expect(after.metadata.annotations).toBeUndefined();
    expect(after.status).toBeUndefined();
    expect(after.spec.replicas).toBe(2);
  });

  it("refuses negative replicas with 422 on Scale.autoscaling, for PUT and patch (transcripts scale-put-negative, scale-patch-negative)", async () => {
    const { call } = await serverWithWeb();
    expectRecorded(await call("PUT", S, scale(-1)), "scale-put-negative");
    expectRecorded(await call("PATCH", S, JSON.stringify({ spec: { replicas: -1 } }), MERGE), "scale-patch-negative");
    expect((await call("GET", `${D}/web`)).json.spec.replicas).toBe(1);
  });

  it("answers names, missing Deployments, uids and methods as kube-apiserver 1.26.4 does", async () => {
    const { call, created } = await serverWithWeb();
    const uid = created.metadata.uid as string;
    expectRecorded(await call("PUT", S, { ...scale(2), metadata: { name: "other" } }), "scale-put-wrong-name");
    expectRecorded(await call("PUT", S, { ...scale(2), metadata: {} }), "scale-put-no-name");
    expectRecorded(await call("PATCH", S, JSON.stringify({ metadata: { name: "other" }, spec: { replicas: 1 } }), MERGE), "scale-patch-name");
    expectRecorded(await call("PUT", S, { apiVersion: "apps/v1", kind: "Scale", metadata: { name: "web" }, spec: { replicas: 2 } }), "scale-put-wrong-version");
    expectRecorded(await call("PUT", `${D}/nope/scale`, { ...scale(2), metadata: { name: "nope" } }), "scale-put-missing");
    expectRecorded(await call("PATCH", `${D}/nope/scale`, JSON.stringify({ spec: { replicas: 2 } }), MERGE), "scale-patch-missing");
    expectRecorded(await call("POST", S, scale(2)), "scale-post");
    expectRecorded(await call("DELETE", S), "scale-delete");
    const zeros = "00000000-0000-0000-0000-000000000000";
    const withOurUid = (id: string) => transcript(id).response.body.text!.replaceAll("136e49ba-0559-4c7f-84ec-c6846c51ccb3", uid);
    const put = await call("PUT", S, scale(2, { uid: zeros }));
    expect([put.status, put.text]).toEqual([409, withOurUid("scale-put-uid-mismatch")]);
    const patch = await call("PATCH", S, JSON.stringify({ metadata: { uid: zeros }, spec: { replicas: 1 } }), MERGE);
    expect([patch.status, patch.text]).toEqual([409, withOurUid("scale-patch-uid")]);
    // A Scale without kind and apiVersion is taken as one (transcript scale-put-no-typemeta).
    const bare = await call("PUT", S, { metadata: { name: "web" }, spec: { replicas: 2 } });
    expect(JSON.stringify(bare.json)).toBe(recordedWithOurIdentity("scale-put-no-typemeta", bare.json));
    expect((await call("GET", `${D}/web`)).json.spec.replicas).toBe(2);
  });

  it("warns about an unknown field, refuses it under Strict, and refuses a replicas that is not an integer", async () => {
    const { call } = await serverWithWeb();
    const warned = await call("PUT", S, { ...scale(2), bogus: 1 });
    expect([warned.status, warned.headers.get("warning")]).toEqual([200, transcript("scale-put-unknown-field").response.headers["warning"]]);
    expectRecorded(await call("PUT", `${S}?fieldValidation=Strict`, { ...scale(2), bogus: 1 }), "scale-put-strict-unknown");
    const strictPatch = await call("PATCH", `${S}?fieldValidation=Strict`, JSON.stringify({ bogus: 1, spec: { replicas: 1 } }), MERGE);
    expect([strictPatch.status, strictPatch.json.reason, strictPatch.json.details.causes[0].field]).toEqual([422, "Invalid", "patch"]);
    // kube-apiserver words it as Go's decoder does (transcript scale-put-string-replicas); the status and reason are the same.
    const text = await call("PUT", S, scale("2"));
    expect([text.status, text.json.reason]).toEqual([400, "BadRequest"]);
    expect(text.json.message).toMatch(/^Scale in version "v1" cannot be handled as a Scale: /);
    // Removing spec.replicas once it is 0 (and so absent from the Scale) fails as it does on a real server.
    expect((await call("PATCH", S, JSON.stringify({ spec: null }), MERGE)).json.spec).toEqual({});
    expectRecorded(await call("PATCH", S, JSON.stringify([{ op: "remove", path: "/spec/replicas" }]), JSON_PATCH), "scale-patch-json-remove");
  });

  it("answers Protobuf when asked: the Scale in the autoscaling/v1 envelope (transcript scale-put-protobuf-accept)", async () => {
    const { call, server } = await serverWithWeb();
    const response = await server.handle(
      new Request(`http://test.local${S}`, {
        method: "PUT",
        headers: { "content-type": "application/json", accept: "application/vnd.kubernetes.protobuf" },
        body: JSON.stringify(scale(2)),
      }),
    );
    expect([response.status, response.headers.get("content-type")]).toEqual([200, transcript("scale-put-protobuf-accept").response.headers["content-type"]]);
    const decoded = decodeObject(new Uint8Array(await response.arrayBuffer()));
    expect([decoded.apiVersion, decoded.kind]).toEqual(["autoscaling/v1", "Scale"]);
    expect(JSON.stringify(decoded.object)).toBe(JSON.stringify((await call("GET", S)).json));
  });
});

describe("authorization of the scale subresource", () => {
  const tokens = parseStaticTokenFile("scaler-token,scaler,u1\ndeployer-token,deployer,u2\n").tokens;
  const policy = parsePolicyFile(
    [
      "- user: scaler",
      '  apiGroups: ["apps"]',
      "  resources: [deployments/scale]",
      "  verbs: [get, update, patch]",
      "- user: deployer",
      '  apiGroups: ["", "apps"]',
      "  resources: [namespaces, deployments]",
      '  verbs: ["*"]',
    ].join("\n"),
  );

  it("needs a rule for deployments/scale: one for deployments does not cover it (RBAC)", async () => {
    const deployer = { authorization: "Bearer deployer-token" };
    const { call } = await serverWithWeb({ auth: { tokens, policy } }, deployer);
    const scaler = { authorization: "Bearer scaler-token" };
    expect((await call("GET", S, undefined, scaler)).status).toBe(200);
    expect((await call("PATCH", S, JSON.stringify({ spec: { replicas: 3 } }), { ...MERGE, ...scaler })).json.spec).toEqual({ replicas: 3 });
    expect((await call("GET", `${D}/web`, undefined, scaler)).status).toBe(403);
    const refused = await call("GET", S, undefined, deployer);
    expect([refused.status, refused.json.message]).toEqual([
      403,
      'deployments.apps "web" is forbidden: User "deployer" cannot get resource "deployments/scale" in API group "apps" in the namespace "scale-rec"',
    ]);
  });
});
