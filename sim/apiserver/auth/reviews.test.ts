/**
 * SelfSubjectRulesReview (`kubectl auth can-i --list`) and SelfSubjectReview (`kubectl auth
 * whoami`), through the server, against what kube-apiserver 1.26.4 answered
 * (transcripts-scale-and-reviews.jsonl).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dialectByName } from "../../../spec/dialects.ts";
import { readTranscriptFile, referenceDir, SCALE_AND_REVIEWS_FILE, type Transcript } from "../../../spec/reference-transcripts.ts";
import { testServer } from "../test-server.ts";
import { BUILTIN_RULES, rulesFor } from "./authorize.ts";
import { parsePolicyFile } from "./policy-file.ts";
import { parseStaticTokenFile } from "./token-file.ts";

const recorded = new Map(readTranscriptFile(join(referenceDir, SCALE_AND_REVIEWS_FILE)).map((transcript) => [transcript.id, transcript]));

function transcript(id: string): Transcript {
  const found = recorded.get(id);
  if (found === undefined) throw new Error(`no transcript ${id} in ${SCALE_AND_REVIEWS_FILE}`);
  return found;
}

const SSRR = "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews";
const SSR = "/apis/authentication.k8s.io/v1alpha1/selfsubjectreviews";
const rulesReview = (namespace?: string) => ({ apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectRulesReview", spec: namespace === undefined ? {} : { namespace } });
const whoAmI = { apiVersion: "authentication.k8s.io/v1alpha1", kind: "SelfSubjectReview" };

const { tokens } = parseStaticTokenFile('t-alice,alice,1001,"dev"\nt-root,root,0,admins\nt-nobody,nobody,7\n');
// alice: ConfigMaps in team-a only, deployments/scale of web everywhere (as group dev), the reviews.
const policy = parsePolicyFile(`
- group: admins
  apiGroups: ["*"]
  resources: ["*"]
  verbs: ["*"]
- user: alice
  apiGroups: [""]
  resources: [configmaps]
  verbs: [get, list, watch]
  namespaces: [team-a]
- group: dev
  apiGroups: [apps]
  resources: [deployments/scale]
  verbs: [get, update]
  resourceNames: [web]
- group: system:authenticated
  apiGroups: [authorization.k8s.io]
  resources: [selfsubjectaccessreviews, selfsubjectrulesreviews]
  verbs: [create]
- group: system:authenticated
  apiGroups: [authentication.k8s.io]
  resources: [selfsubjectreviews]
  verbs: [create]
- user: root
  apiGroups: [""]
  resources: [users, groups, userextras/scopes]
  verbs: [impersonate]
`);
const auth = { tokens, policy };
const as = (token: string) => ({ authorization: `Bearer ${token}` });

describe("SelfSubjectRulesReview", () => {
  it("with authorization off, lists the AlwaysAllow rules: everything (the first rules of transcript ssrr-admin)", async () => {
    const { call } = testServer();
    const answer = await call("POST", SSRR, rulesReview("default"));
    const admin = JSON.parse(transcript("ssrr-admin").response.body.text!);
    expect([answer.status, answer.headers.get("content-type")]).toEqual([201, "application/json"]);
    expect(answer.text).toBe(
      `${JSON.stringify({
        ...admin,
        status: { resourceRules: admin.status.resourceRules.slice(0, 1), nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }], incomplete: false },
      })}\n`,
    );
    expect(admin.status.nonResourceRules).toContainEqual({ verbs: ["*"], nonResourceURLs: ["*"] });
  });

  it("lists the caller's policy rules that apply in the namespace, then the built-in ones, in Kubernetes' shape", async () => {
    const { call } = testServer("kubernetes", { auth });
    const inTeamA = await call("POST", SSRR, rulesReview("team-a"), as("t-alice"));
    expect(inTeamA.status).toBe(201);
    expect(inTeamA.json).toEqual({
      kind: "SelfSubjectRulesReview",
      apiVersion: "authorization.k8s.io/v1",
      metadata: { creationTimestamp: null },
      spec: {},
      status: {
        resourceRules: [
          { verbs: ["get", "list", "watch"], apiGroups: [""], resources: ["configmaps"] },
          { verbs: ["get", "update"], apiGroups: ["apps"], resources: ["deployments/scale"], resourceNames: ["web"] },
          { verbs: ["create"], apiGroups: ["authorization.k8s.io"], resources: ["selfsubjectaccessreviews", "selfsubjectrulesreviews"] },
          { verbs: ["create"], apiGroups: ["authentication.k8s.io"], resources: ["selfsubjectreviews"] },
        ],
        nonResourceRules: [
          { verbs: ["get"], nonResourceURLs: ["/healthz", "/livez", "/readyz", "/version", "/version/"] },
          { verbs: ["get"], nonResourceURLs: ["/api", "/api/*", "/apis", "/apis/*", "/openapi", "/openapi/*"] },
        ],
        incomplete: false,
      },
    });
    // The same shapes a real server gives (transcript ssrr-restricted: a Role with resourceNames).
    const restricted = JSON.parse(transcript("ssrr-restricted").response.body.text!);
    expect(restricted.status.resourceRules).toContainEqual(inTeamA.json.status.resourceRules[1]);
    expect(restricted.status.resourceRules).toContainEqual(inTeamA.json.status.resourceRules[0]);
    expect(Object.keys(restricted)).toEqual(Object.keys(inTeamA.json));
    expect(Object.keys(restricted.status)).toEqual(Object.keys(inTeamA.json.status));

    // Elsewhere the namespaced rule is gone (transcript ssrr-restricted-other-namespace).
    const elsewhere = await call("POST", SSRR, rulesReview("default"), as("t-alice"));
    expect(elsewhere.json.status.resourceRules.map((rule: any) => rule.resources)).toEqual([["deployments/scale"], ["selfsubjectaccessreviews", "selfsubjectrulesreviews"], ["selfsubjectreviews"]]);

    const root = await call("POST", SSRR, rulesReview("default"), as("t-root"));
    expect(root.json.status.resourceRules[0]).toEqual({ verbs: ["*"], apiGroups: ["*"], resources: ["*"] });
  });

  it("answers for the impersonated user when the request impersonates (transcript ssrr-impersonated)", async () => {
    const { call } = testServer("kubernetes", { auth });
    const answer = await call("POST", SSRR, rulesReview("team-a"), { ...as("t-root"), "impersonate-user": "alice", "impersonate-group": "dev" });
    expect(answer.json.status.resourceRules.map((rule: any) => rule.resources)).toEqual([["configmaps"], ["deployments/scale"], ["selfsubjectaccessreviews", "selfsubjectrulesreviews"], ["selfsubjectreviews"]]);
  });

  it("lists exactly the rules authorize tries for the caller", () => {
    const alice = { name: "alice", uid: "1001", groups: ["dev", "system:authenticated"] };
    const sources = (namespace: string) => rulesFor(alice, namespace, policy).map((rule) => rule.source.replace(/ \(line \d+\)$/, ""));
    // Not rule 1 (group admins) nor 6 (user root); of the built-in rules, those of signed-in users.
    expect(sources("team-a")).toEqual(["policy rule 2", "policy rule 3", "policy rule 4", "policy rule 5", ...BUILTIN_RULES.slice(1).map((rule) => rule.source)]);
    expect(sources("default")).toEqual(["policy rule 3", "policy rule 4", "policy rule 5", ...BUILTIN_RULES.slice(1).map((rule) => rule.source)]);
    expect(sources("")).toEqual(sources("default"));
  });

  it("answers no namespace with 400 and an unknown spec field with a Warning, as kube-apiserver 1.26.4 does", async () => {
    const { call } = testServer();
    for (const [body, id] of [
      [rulesReview(), "ssrr-no-namespace"],
      [{ apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectRulesReview" }, "ssrr-no-spec"],
    ] as const) {
      const answer = await call("POST", SSRR, body);
      expect([answer.status, answer.text], id).toEqual([transcript(id).response.status, transcript(id).response.body.text]);
    }
    const warned = await call("POST", SSRR, { ...rulesReview("default"), spec: { namespace: "default", user: "x" } });
    expect([warned.status, warned.headers.get("warning")]).toEqual([201, transcript("ssrr-unknown-field").response.headers["warning"]]);
    const wrongKind = await call("POST", SSRR, { apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectAccessReview", spec: { namespace: "default" } });
    expect([wrongKind.status, wrongKind.json.reason]).toEqual([400, "BadRequest"]);
  });

  it("is authorized as create on selfsubjectrulesreviews: without a rule, 403 as transcript ssrr-anonymous; a GET is 405 or 403", async () => {
    const { call } = testServer("kubernetes", { auth });
    const anonymous = await call("POST", SSRR, rulesReview("scale-rec"));
    expect([anonymous.status, anonymous.text]).toEqual([403, transcript("ssrr-anonymous").response.body.text]);
    expect((await call("GET", SSRR, undefined, as("t-root"))).status).toBe(405);
    expect((await call("GET", SSRR, undefined, as("t-alice"))).status).toBe(403);
  });

  it("is served in the orb dialect's authorization group too", async () => {
    const { call } = testServer("orb");
    const answer = await call("POST", "/apis/authorization.orb.io/v1/selfsubjectrulesreviews", { ...rulesReview("default"), apiVersion: "authorization.orb.io/v1" });
    expect([answer.status, answer.json.apiVersion, answer.json.status.resourceRules]).toEqual([201, "authorization.orb.io/v1", [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }]]);
  });
});

describe("SelfSubjectReview", () => {
  it("answers who the caller is, at the server's time (transcripts ssr-v1alpha1-admin-gate, ssr-v1alpha1-restricted-gate)", async () => {
    const { call, sim } = testServer("kubernetes", { auth });
    const answer = await call("POST", SSR, whoAmI, as("t-alice"));
    const now = new Date(sim.nowMs()).toISOString().replace(/\.\d{3}Z$/, "Z");
    const theirs = JSON.parse(transcript("ssr-v1alpha1-restricted-gate").response.body.text!);
    expect([answer.status, answer.headers.get("content-type")]).toEqual([201, "application/json"]);
    expect(answer.text).toBe(
      `${JSON.stringify({ ...theirs, metadata: { creationTimestamp: now }, status: { userInfo: { username: "alice", uid: "1001", groups: ["dev", "system:authenticated"] } } })}\n`,
    );
    // An empty body is a SelfSubjectReview too (transcript ssr-v1alpha1-empty-gate).
    expect((await call("POST", SSR, {}, as("t-alice"))).json.status.userInfo.username).toBe("alice");
  });

  it("answers for the impersonated user, extras included (transcript ssr-v1alpha1-impersonated-gate)", async () => {
    const { call } = testServer("kubernetes", { auth });
    const answer = await call("POST", SSR, whoAmI, { ...as("t-root"), "impersonate-user": "bob", "impersonate-group": "devs", "impersonate-extra-scopes": "view" });
    const theirs = JSON.parse(transcript("ssr-v1alpha1-impersonated-gate").response.body.text!);
    expect(answer.json.status).toEqual(theirs.status);
  });

  it("with authentication off, the caller is anonymous", async () => {
    const { call } = testServer();
    const answer = await call("POST", SSR, whoAmI);
    expect(answer.json.status).toEqual({ userInfo: { username: "system:anonymous", groups: ["system:unauthenticated"] } });
  });

  it("is v1alpha1 only: v1 and v1beta1 answer 404 as 1.26 does, so kubectl falls back (transcripts ssr-v1-admin, ssr-v1beta1-admin)", async () => {
    const { call } = testServer();
    for (const version of ["v1", "v1beta1"]) {
      const answer = await call("POST", `/apis/authentication.k8s.io/${version}/selfsubjectreviews`, { ...whoAmI, apiVersion: `authentication.k8s.io/${version}` });
      expect([answer.status, answer.text]).toEqual([404, transcript(`ssr-${version}-admin`).response.body.text]);
    }
    const get = await call("GET", SSR);
    expect([get.status, get.text]).toEqual([405, transcript("ssr-v1alpha1-get-gate").response.body.text]);
  });

  it("is authorized as create on selfsubjectreviews: without a rule, 403 as transcript ssr-v1alpha1-anonymous-gate", async () => {
    const { call } = testServer("kubernetes", { auth });
    const anonymous = await call("POST", SSR, whoAmI);
    expect([anonymous.status, anonymous.text]).toEqual([403, transcript("ssr-v1alpha1-anonymous-gate").response.body.text]);
  });

  it("answers Protobuf: the userInfo in the authentication/v1alpha1 envelope", async () => {
    const { server } = testServer("kubernetes", { auth });
    const response = await server.handle(
      new Request(`http://test.local${SSR}`, {
        method: "POST",
        headers: { ...as("t-alice"), "content-type": "application/json", accept: "application/vnd.kubernetes.protobuf" },
        body: JSON.stringify(whoAmI),
      }),
    );
    expect([response.status, response.headers.get("content-type")]).toEqual([201, "application/vnd.kubernetes.protobuf"]);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 4).toString("latin1")).toBe("k8s\u0000");
    expect(bytes.includes(Buffer.from("authentication.k8s.io/v1alpha1"))).toBe(true);
  });

  it("has no dialect name of its own: both dialects serve it in authentication.k8s.io", () => {
    expect(dialectByName("orb").groups).not.toHaveProperty("authentication");
  });
});
