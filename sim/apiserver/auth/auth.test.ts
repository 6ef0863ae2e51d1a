import { describe, expect, it } from "vitest";
import { dialectByName } from "../../../spec/dialects.ts";
import { loadReferenceTranscripts, transcriptById, transcriptJson } from "../../../spec/reference-transcripts.ts";
import { ApiError } from "../responses/api-error.ts";
import { authenticate, bearerToken, unauthorizedError } from "./authenticate.ts";
import { authorize, forbiddenError, skipsAuthorization, type RequestAttributes, type ResourceAttributes } from "./authorize.ts";
import { checkAccess } from "./check-access.ts";
import { parsePolicyFile } from "./policy-file.ts";
import { selfSubjectAccessReview, subjectAccessReview } from "./subject-access-review.ts";
import { unknownFieldsWarning } from "../request/unknown-fields.ts";
import { parseStaticTokenFile } from "./token-file.ts";
import { anonymousUser, type UserInfo } from "./user.ts";

const kubernetes = dialectByName("kubernetes");
const orb = dialectByName("orb");

const { tokens } = parseStaticTokenFile('t-alice,alice,1001\nt-bob,bob,1002,"dev,ops"\nt-root,root,0,admins\n');

const policy = parsePolicyFile(`
- group: admins
  apiGroups: ["*"]
  resources: ["*"]
  verbs: ["*"]
- user: bob
  apiGroups: [""]
  resources: [configmaps]
  verbs: [get, list, create]
  namespaces: [team-a]
- group: dev
  apiGroups: [apps]
  resources: [deployments, deployments/scale, "*/status"]
  verbs: [patch]
- group: ops
  nonResourceURLs: ["/livez/*"]
  verbs: [get]
`);

const alice: UserInfo = { name: "alice", uid: "1001", groups: ["system:authenticated"] };
const bob: UserInfo = { name: "bob", uid: "1002", groups: ["dev", "ops", "system:authenticated"] };
const root: UserInfo = { name: "root", uid: "0", groups: ["admins", "system:authenticated"] };

const listConfigMaps: ResourceAttributes = { kind: "resource", verb: "list", apiGroup: "", resource: "configmaps", namespace: "ref-main" };

/** The JSON a Status serializes to, as kube-apiserver writes it (it adds a final newline). */
function wire(error: ApiError): string {
  return `${JSON.stringify(error.status)}\n`;
}

const transcripts = loadReferenceTranscripts();

describe("401, 403 and SAR match kube-apiserver 1.26", () => {
  it("unauthorized: an unknown bearer token", () => {
    const transcript = transcriptById(transcripts, "unauthorized");
    const result = authenticate({ Authorization: "Bearer nope" }, tokens);
    expect(result.outcome).toBe("unauthorized");
    if (result.outcome !== "unauthorized") return;
    expect(result.error.code).toBe(transcript.response.status);
    expect(wire(result.error)).toBe(transcript.response.body.text);
  });

  it("forbidden: alice may not list configmaps", () => {
    const transcript = transcriptById(transcripts, "forbidden");
    const access = checkAccess({ tokens, policy }, { authorization: "Bearer t-alice" }, listConfigMaps);
    expect(access.allowed).toBe(false);
    if (access.allowed) return;
    expect(access.error.code).toBe(transcript.response.status);
    expect(wire(access.error)).toBe(transcript.response.body.text);
  });

  it("forbidden-dryrun: a dry-run create is judged by the verb of the real create", () => {
    const transcript = transcriptById(transcripts, "forbidden-dryrun");
    // POST .../configmaps?dryRun=All: verb create, no name (the URL names none, whatever the body says).
    const attributes: ResourceAttributes = { kind: "resource", verb: "create", apiGroup: "", resource: "configmaps", namespace: "ref-main" };
    const access = checkAccess({ tokens, policy }, { authorization: "Bearer t-alice" }, attributes);
    expect(access.allowed).toBe(false);
    if (access.allowed) return;
    expect(wire(access.error)).toBe(transcript.response.body.text);
  });

  it("health-healthz-ping-anonymous: a single-check path is authorized, and anonymous may not get it", () => {
    const transcript = transcriptById(transcripts, "health-healthz-ping-anonymous");
    const access = checkAccess({ tokens, policy }, {}, { kind: "nonResource", verb: "get", path: "/healthz/ping" });
    expect(access.allowed).toBe(false);
    if (access.allowed) return;
    expect(access.error.code).toBe(403);
    expect(wire(access.error)).toBe(transcript.response.body.text);
  });

  it("health-readyz-anonymous: the endpoint itself is served to anonymous callers", () => {
    const transcript = transcriptById(transcripts, "health-readyz-anonymous");
    expect(transcript.response.status).toBe(200);
    const access = checkAccess({ tokens, policy }, {}, { kind: "nonResource", verb: "get", path: "/readyz" });
    expect(access).toMatchObject({ allowed: true, user: anonymousUser });
  });

  it("sar: 201 and the review with status {allowed: false}, no reason", () => {
    const transcript = transcriptById(transcripts, "sar");
    const request = (transcript.request as unknown as { body: Record<string, unknown> }).body;
    const answer = subjectAccessReview(request, policy, kubernetes);
    expect(answer.status).toBe(transcript.response.status);
    // Kubernetes adds managedFields (field manager bookkeeping, with the wall time); the embedded
    // server keeps none. Everything else matches byte for byte, key order included.
    const expected = transcriptJson(transcript) as { metadata: Record<string, unknown> };
    delete expected.metadata["managedFields"];
    expect(`${JSON.stringify(answer.body)}\n`).toBe(`${JSON.stringify(expected)}\n`);
  });
});

describe("authenticate", () => {
  it("maps a known bearer token to its user, adding system:authenticated", () => {
    expect(authenticate({ authorization: "Bearer t-bob" }, tokens)).toEqual({ outcome: "authenticated", user: bob });
    expect(authenticate(new Headers({ Authorization: "bearer t-alice" }), tokens)).toEqual({ outcome: "authenticated", user: alice });
    expect(authenticate({ AUTHORIZATION: ["Bearer t-root", "Bearer t-alice"] }, tokens)).toMatchObject({ user: root });
  });

  it("treats requests without a bearer token as anonymous", () => {
    for (const headers of [{}, { authorization: "Basic YWxpY2U6cHc=" }, { authorization: "Bearer" }, { authorization: "Bearer  t-alice" }, { authorization: "  " }]) {
      expect(authenticate(headers, tokens)).toEqual({ outcome: "anonymous", user: { name: "system:anonymous", uid: "", groups: ["system:unauthenticated"] } });
    }
  });

  it("never downgrades a bad token to anonymous", () => {
    expect(authenticate({ authorization: "Bearer t-alice-typo" }, tokens).outcome).toBe("unauthorized");
    expect(unauthorizedError().status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "Unauthorized",
      reason: "Unauthorized",
      code: 401,
    });
  });

  it("takes the token up to the next space, as Kubernetes does", () => {
    expect(bearerToken("  Bearer abc def ")).toBe("abc");
    expect(bearerToken("Token abc")).toBeUndefined();
  });
});

describe("authorize", () => {
  const allowed = (user: UserInfo, attributes: RequestAttributes) => authorize(user, attributes, policy).allowed;

  it("wildcard rules allow everything, naming the rule", () => {
    const decision = authorize(root, { kind: "resource", verb: "deletecollection", apiGroup: "apps", resource: "deployments", namespace: "x" }, policy);
    expect(decision).toEqual({ allowed: true, reason: 'allowed by policy rule 1 (line 2) to Group "admins"' });
    expect(allowed(root, { kind: "resource", verb: "get", apiGroup: "", resource: "pods", subresource: "log", namespace: "x", name: "p" })).toBe(true);
    expect(allowed(root, { kind: "resource", verb: "list", apiGroup: "", resource: "nodes" })).toBe(true);
  });

  it("namespace-restricted rules cover only their namespaces, not cluster scope nor all namespaces", () => {
    const bobConfigMaps = (namespace: string | undefined, verb = "list") =>
      allowed(bob, { kind: "resource", verb, apiGroup: "", resource: "configmaps", ...(namespace !== undefined && { namespace }) });
    expect(bobConfigMaps("team-a")).toBe(true);
    expect(bobConfigMaps("team-b")).toBe(false);
    expect(bobConfigMaps(undefined)).toBe(false);
    expect(bobConfigMaps("")).toBe(false);
    expect(bobConfigMaps("team-a", "delete")).toBe(false);
  });

  it("matches groups, resources and subresources as RBAC does", () => {
    const deployments = (subresource?: string, apiGroup = "apps") =>
      allowed(bob, { kind: "resource", verb: "patch", apiGroup, resource: "deployments", namespace: "x", ...(subresource && { subresource }) });
    expect(deployments()).toBe(true);
    expect(deployments("scale")).toBe(true);
    expect(deployments("status")).toBe(true); // "*/status"
    expect(deployments("rollback")).toBe(false); // "deployments" does not cover its subresources
    expect(deployments(undefined, "")).toBe(false);
    expect(allowed(bob, { kind: "resource", verb: "patch", apiGroup: "apps", resource: "statefulsets", subresource: "status", namespace: "x" })).toBe(true);
    expect(allowed(bob, { kind: "resource", verb: "patch", apiGroup: "apps", resource: "statefulsets", namespace: "x" })).toBe(false);
  });

  it("doc 1 §5.2: apps/deployments/patch allows a patch, and so a dry-run patch (same attributes)", () => {
    const patch: ResourceAttributes = { kind: "resource", verb: "patch", apiGroup: "apps", resource: "deployments", namespace: "x", name: "web" };
    // The router passes the real request's verb for ?dryRun=All: there is no dry-run attribute.
    expect(checkAccess({ tokens, policy }, { authorization: "Bearer t-bob" }, patch).allowed).toBe(true);
    expect(checkAccess({ tokens, policy }, { authorization: "Bearer t-alice" }, patch).allowed).toBe(false);
  });

  it("non-resource rules: prefix match; built-in public and discovery paths", () => {
    expect(allowed(bob, { kind: "nonResource", verb: "get", path: "/livez/ping" })).toBe(true);
    expect(allowed(bob, { kind: "nonResource", verb: "get", path: "/readyz/ping" })).toBe(false);
    expect(allowed(alice, { kind: "nonResource", verb: "get", path: "/livez/ping" })).toBe(false);
    expect(allowed(anonymousUser, { kind: "nonResource", verb: "get", path: "/version" })).toBe(true);
    expect(allowed(anonymousUser, { kind: "nonResource", verb: "get", path: "/apis" })).toBe(false);
    expect(allowed(alice, { kind: "nonResource", verb: "get", path: "/apis/apps/v1" })).toBe(true);
    expect(allowed(alice, { kind: "nonResource", verb: "post", path: "/apis" })).toBe(false);
    // A resource rule never covers a path, nor a path rule a resource.
    expect(allowed(root, { kind: "nonResource", verb: "get", path: "/metrics" })).toBe(false);
  });

  it("denies with an empty reason, as RBAC does", () => {
    expect(authorize(alice, listConfigMaps, policy)).toEqual({ allowed: false, reason: "" });
  });
});

describe("forbiddenError", () => {
  it("qualifies the resource with its group, names the object, and says 'at the cluster scope' without a namespace", () => {
    const error = forbiddenError(alice, { kind: "resource", verb: "get", apiGroup: "apps", resource: "deployments", subresource: "scale", name: "web" });
    expect(error.status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'deployments.apps "web" is forbidden: User "alice" cannot get resource "deployments/scale" in API group "apps" at the cluster scope',
      reason: "Forbidden",
      details: { name: "web", group: "apps", kind: "deployments" },
      code: 403,
    });
  });

  it("says a bare 'forbidden:' and names no kind for an empty resource, as NewForbidden does (transcript security-path-double-slash-own-namespace)", () => {
    const transcript = transcriptById(transcripts, "security-path-double-slash-own-namespace");
    const user: UserInfo = { name: "system:serviceaccount:sec-a:restricted", uid: "", groups: [] };
    // GET /api/v1/namespaces/sec-a//configmaps/cm-a: resource "", name "configmaps", subresource "cm-a".
    const error = forbiddenError(user, { kind: "resource", verb: "get", apiGroup: "", resource: "", subresource: "cm-a", namespace: "sec-a", name: "configmaps" });
    expect(wire(error)).toBe(transcript.response.body.text);
  });

  it("appends a reason when there is one", () => {
    expect(forbiddenError("u", { kind: "nonResource", verb: "get", path: "/x" }, "RBAC: role missing").status.message).toBe(
      'forbidden: User "u" cannot get path "/x": RBAC: role missing',
    );
  });
});

describe("checkAccess", () => {
  const getPods: ResourceAttributes = { kind: "resource", verb: "get", apiGroup: "", resource: "pods", namespace: "default", name: "p" };

  it("allows everything when authentication and authorization are off (the embedded default)", () => {
    expect(checkAccess(undefined, { authorization: "Bearer whatever" }, getPods)).toMatchObject({ allowed: true, user: undefined });
    expect(checkAccess({}, {}, getPods).allowed).toBe(true);
  });

  it("with tokens but no policy: authenticates (401 for a bad token), then allows", () => {
    expect(checkAccess({ tokens }, { authorization: "Bearer t-alice" }, getPods)).toMatchObject({ allowed: true, user: alice });
    expect(checkAccess({ tokens }, {}, getPods)).toMatchObject({ allowed: true, user: anonymousUser });
    const bad = checkAccess({ tokens }, { authorization: "Bearer bad" }, getPods);
    expect(bad.allowed === false && bad.error.code).toBe(401);
  });

  it("with a policy but no tokens: every caller is anonymous", () => {
    const anonymousPolicy = parsePolicyFile(`- group: system:unauthenticated\n  apiGroups: [""]\n  resources: [pods]\n  verbs: [get]\n`);
    expect(checkAccess({ policy: anonymousPolicy }, { authorization: "Bearer anything" }, getPods)).toMatchObject({ allowed: true, user: anonymousUser });
    expect(checkAccess({ policy }, {}, getPods).allowed).toBe(false);
  });

  it("health endpoints skip authorization but not authentication", () => {
    for (const path of ["/healthz", "/livez", "/readyz"]) {
      expect(checkAccess({ tokens, policy: parsePolicyFile("[]") }, {}, { kind: "nonResource", verb: "get", path }).allowed).toBe(true);
      const bad = checkAccess({ tokens, policy }, { authorization: "Bearer bad" }, { kind: "nonResource", verb: "get", path });
      expect(bad.allowed === false && bad.error.code).toBe(401);
    }
    expect(skipsAuthorization("/readyz?verbose")).toBe(true);
    expect(skipsAuthorization("/readyz/")).toBe(false);
    expect(skipsAuthorization("/livez/ping")).toBe(false);
    expect(skipsAuthorization("/version")).toBe(false);
  });
});

describe("subjectAccessReview", () => {
  const review = (spec: Record<string, unknown>, dialect = kubernetes, extra: Record<string, unknown> = {}) =>
    subjectAccessReview({ apiVersion: `${dialect.groups.authorization}/v1`, kind: "SubjectAccessReview", spec, ...extra }, policy, dialect);

  it("answers allowed with the rule as reason, judging exactly the groups given", () => {
    const spec = { user: "someone", groups: ["dev"], resourceAttributes: { namespace: "x", verb: "patch", group: "apps", resource: "deployments" } };
    expect(review(spec).body.status).toEqual({ allowed: true, reason: 'allowed by policy rule 3 (line 11) to Group "dev"' });
    // Without the group, the same user is denied: no system:authenticated or token-file groups are added.
    expect(review({ ...spec, groups: [] }).body.status).toEqual({ allowed: false });
  });

  it("answers non-resource reviews", () => {
    expect(review({ groups: ["ops"], nonResourceAttributes: { path: "/livez/etcd", verb: "get" } }).body.status.allowed).toBe(true);
    expect(review({ user: "x", nonResourceAttributes: { path: "/livez/etcd", verb: "get" } }).body.status.allowed).toBe(false);
  });

  it("echoes the review in Kubernetes' key order, empty fields dropped, in the dialect's group", () => {
    const answer = review(
      { uid: "u1", groups: ["g"], user: "alice", resourceAttributes: { name: "n", resource: "pods", verb: "get", group: "", namespace: "ns" } },
      orb,
      { metadata: { name: "check-1" } },
    );
    expect(answer.status).toBe(201);
    expect(JSON.stringify(answer.body)).toBe(
      JSON.stringify({
        kind: "SubjectAccessReview",
        apiVersion: "authorization.orb.io/v1",
        metadata: { name: "check-1", creationTimestamp: null },
        spec: { resourceAttributes: { namespace: "ns", verb: "get", resource: "pods", name: "n" }, user: "alice", groups: ["g"], uid: "u1" },
        status: { allowed: false },
      }),
    );
  });

  it("allows every review when there is no policy (authorization off)", () => {
    const body = { kind: "SubjectAccessReview", spec: { user: "x", resourceAttributes: { verb: "delete", resource: "nodes" } } };
    expect(subjectAccessReview(body, undefined, kubernetes).body.status).toEqual({ allowed: true });
  });

  it("422 for a spec without subject or attributes, with Kubernetes' messages", () => {
    const error = catchApiError(() => review({}));
    expect(error.code).toBe(422);
    expect(error.status.message).toBe(
      'SubjectAccessReview.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
    );
    expect(error.status.details).toMatchObject({ group: "authorization.k8s.io", kind: "SubjectAccessReview" });
    const both = catchApiError(() => review({ user: "a", resourceAttributes: { verb: "get" }, nonResourceAttributes: { path: "/x", verb: "get" } }));
    expect(both.status.message).toBe(
      'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes',
    );
  });

  it("400 for another kind, another group's apiVersion, or fields of the wrong type", () => {
    expect(catchApiError(() => subjectAccessReview({ kind: "Pod", spec: {} }, policy, kubernetes)).code).toBe(400);
    expect(catchApiError(() => review({ user: "a", resourceAttributes: { verb: "get" } }, orb, { apiVersion: "authorization.k8s.io/v1" })).code).toBe(400);
    expect(catchApiError(() => review({ user: 7, resourceAttributes: {} })).status.message).toBe(
      'SubjectAccessReview in version "v1" cannot be handled as a SubjectAccessReview: spec.user must be a string',
    );
    expect(catchApiError(() => review({ groups: "dev", resourceAttributes: {} })).code).toBe(400);
  });
});

describe("selfSubjectAccessReview", () => {
  it("answers about the caller whatever subject the spec names, dropping it as unknown fields (transcript security-self-sar-names-other-user)", () => {
    const transcript = transcriptById(transcripts, "security-self-sar-names-other-user");
    const restricted: UserInfo = {
      name: "system:serviceaccount:sec-a:restricted",
      uid: "restricted-uid",
      groups: ["system:serviceaccounts", "system:serviceaccounts:sec-a", "system:authenticated"],
    };
    const rules = parsePolicyFile("- user: system:serviceaccount:sec-a:restricted\n  apiGroups: ['']\n  resources: [configmaps]\n  verbs: [get]\n  namespaces: [sec-a]\n");
    const answer = selfSubjectAccessReview(transcript.request.body as Record<string, unknown>, restricted, rules, kubernetes);
    expect(answer.status).toBe(transcript.response.status);
    const expected = transcriptJson(transcript) as { metadata: Record<string, unknown> };
    delete expected.metadata["managedFields"];
    expect(`${JSON.stringify(answer.body)}\n`).toBe(`${JSON.stringify(expected)}\n`);
    expect(unknownFieldsWarning(answer.unknownFields)).toEqual({ warning: transcript.response.headers["warning"] });
    // The same caller asking about its own namespace is allowed: the spec's user never counts.
    const own = selfSubjectAccessReview(
      { spec: { resourceAttributes: { namespace: "sec-a", verb: "get", resource: "configmaps" }, user: "nobody" } },
      restricted,
      rules,
      kubernetes,
    );
    expect([own.body.status.allowed, own.body.spec, own.unknownFields]).toEqual([true, { resourceAttributes: { namespace: "sec-a", verb: "get", resource: "configmaps" } }, ["spec.user"]]);
  });

  it("400 for a body of another kind", () => {
    expect(catchApiError(() => selfSubjectAccessReview({ kind: "SubjectAccessReview", spec: {} }, anonymousUser, policy, kubernetes)).code).toBe(400);
  });
});

function catchApiError(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}
