import { describe, expect, it } from "vitest";
import { parsePolicyFile, parseStaticTokenFile } from "../auth/index.ts";
import { testServer } from "../test-server.ts";

const tokens = parseStaticTokenFile(['admin-token,admin,u1,"ops"', "reader-token,reader,u2"].join("\n")).tokens;
const policy = parsePolicyFile(
  [
    "- group: ops",
    '  apiGroups: ["*"]',
    '  resources: ["*"]',
    '  verbs: ["*"]',
    "- user: reader",
    '  apiGroups: [""]',
    "  resources: [configmaps]",
    "  verbs: [get, list, watch]",
    "  namespaces: [default]",
  ].join("\n"),
);
const as = (token: string) => ({ authorization: `Bearer ${token}` });
const CM = "/api/v1/namespaces/default/configmaps";

describe("authentication and authorization (doc 1 §5)", () => {
  const secured = () => testServer("kubernetes", { auth: { tokens, policy } });

  it("answers an unknown token with 401 and a denied request with Kubernetes' 403", async () => {
    const { call } = secured();
    const unknown = await call("GET", CM, undefined, as("nope"));
    expect([unknown.status, unknown.json.reason]).toEqual([401, "Unauthorized"]);
    expect((await call("GET", CM, undefined, as("reader-token"))).status).toBe(200);
    const denied = await call("GET", "/api/v1/namespaces/default/secrets", undefined, as("reader-token"));
    expect([denied.status, denied.json.reason]).toEqual([403, "Forbidden"]);
    expect(denied.json.message).toBe('secrets is forbidden: User "reader" cannot list resource "secrets" in API group "" in the namespace "default"');
  });

  it("needs the same permission for a dry run as for the real request (doc 1 §4.4.6, §5.1)", async () => {
    const { call } = secured();
    const dry = await call("POST", `${CM}?dryRun=All`, { metadata: { name: "x" } }, as("reader-token"));
    expect([dry.status, dry.json.message]).toEqual([403, 'configmaps is forbidden: User "reader" cannot create resource "configmaps" in API group "" in the namespace "default"']);
    expect((await call("POST", `${CM}?dryRun=All`, { metadata: { name: "x" } }, as("admin-token"))).status).toBe(201);
  });

  it("skips authorization on the health endpoints (doc 1 §5.3), not on other paths", async () => {
    const { call } = secured();
    expect((await call("GET", "/readyz")).status).toBe(200);
    expect((await call("GET", "/healthz/ping")).status).toBe(403);
  });

  it("answers a SubjectAccessReview from the same rules, and a self review for the caller", async () => {
    const { call } = secured();
    const path = "/apis/authorization.k8s.io/v1/subjectaccessreviews";
    const review = (verb: string) => ({
      apiVersion: "authorization.k8s.io/v1",
      kind: "SubjectAccessReview",
      spec: { user: "reader", resourceAttributes: { namespace: "default", verb, resource: "configmaps" } },
    });
    const allowed = await call("POST", path, review("get"), as("admin-token"));
    const denied = await call("POST", path, review("delete"), as("admin-token"));
    expect([allowed.status, allowed.json.status.allowed, denied.json.status.allowed]).toEqual([201, true, false]);
    const self = await call(
      "POST",
      "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
      { apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectAccessReview", spec: { resourceAttributes: { namespace: "default", verb: "list", resource: "configmaps" } } },
      as("reader-token"),
    );
    // The reader may not create reviews at all: only the rules above apply.
    expect(self.status).toBe(403);
    expect((await call("GET", path, undefined, as("admin-token"))).status).toBe(405);
  });

  it("allows everything when authentication and authorization are off (the embedded default)", async () => {
    const { call } = testServer();
    expect((await call("GET", CM, undefined, as("anything"))).status).toBe(200);
  });
});

describe("health endpoints (doc 1 §4.5)", () => {
  it("answers ok, verbose lines ending with the dialect's last line, and single checks", async () => {
    for (const [dialect, last] of [["kubernetes", "readyz check passed"], ["orb", "healthz check passed"]] as const) {
      const { call } = testServer(dialect);
      expect((await call("GET", "/readyz")).text).toBe("ok");
      const verbose = (await call("GET", "/readyz?verbose")).text.trimEnd().split("\n");
      expect(verbose[0]).toBe("[+]ping ok");
      expect(verbose.at(-1)).toBe(last);
      expect((await call("GET", "/livez/ping")).text).toBe("ok");
      expect((await call("GET", "/readyz/nonexistent")).status).toBe(404);
    }
  });

  it("fails a check on request with 500 and '[-]<check> failed: reason withheld'", async () => {
    const { call } = testServer("kubernetes", { health: { failChecks: ["etcd"] } });
    const answer = await call("GET", "/livez?verbose");
    expect(answer.status).toBe(500);
    expect(answer.text).toContain("[-]etcd failed: reason withheld");
    expect(answer.text.trimEnd().split("\n").at(-1)).toBe("livez check failed");
  });

  it("fails readyz at once on shutdown while livez stays healthy, and closes after the delay", async () => {
    const { call, server, sim } = testServer("kubernetes", { health: { shutdownDelayMs: 5_000 } });
    let closed = false;
    server.beginShutdown(() => {
      closed = true;
    });
    expect((await call("GET", "/readyz")).status).toBe(500);
    expect((await call("GET", "/livez")).status).toBe(200);
    await sim.runFor(4_999);
    expect(closed).toBe(false);
    await sim.runFor(1);
    expect(closed).toBe(true);
  });
});
