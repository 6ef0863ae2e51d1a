/**
 * Impersonation (Impersonate-User, -Group, -Uid, -Extra-*) against answers recorded from a real
 * kube-apiserver 1.26.4 (RBAC, token file) set up like the policy below: `carol` may impersonate
 * user bob, groups devs and system:authenticated, service account team/robot, uid bob-uid and
 * extra scopes=view; `alice` may impersonate nothing; the admin may do everything.
 */
import { describe, expect, it } from "vitest";
import { testServer } from "../test-server.ts";
import { impersonate } from "./impersonate.ts";
import { readImpersonationHeaders, removeImpersonationHeaders } from "./impersonation-headers.ts";
import { parsePolicyFile } from "./policy-file.ts";
import { parseStaticTokenFile } from "./token-file.ts";
import type { UserInfo } from "./user.ts";

const { tokens } = parseStaticTokenFile(['admin-token,admin,admin-uid,"ops"', "token2,alice,alice-uid", "token3,carol,carol-uid"].join("\n"));
const policy = parsePolicyFile(`
- group: ops
  apiGroups: ["*"]
  resources: ["*"]
  verbs: ["*"]
- user: carol
  apiGroups: [""]
  resources: [users]
  verbs: [impersonate]
  resourceNames: [bob]
- user: carol
  apiGroups: [""]
  resources: [groups]
  verbs: [impersonate]
  resourceNames: [devs, system:authenticated]
- user: carol
  apiGroups: [""]
  resources: [serviceaccounts]
  verbs: [impersonate]
  namespaces: [team]
  resourceNames: [robot]
- user: carol
  apiGroups: [authentication.k8s.io]
  resources: [uids]
  verbs: [impersonate]
  resourceNames: [bob-uid]
- user: carol
  apiGroups: [authentication.k8s.io]
  resources: [userextras/scopes]
  verbs: [impersonate]
  resourceNames: [view]
- user: bob
  apiGroups: [""]
  resources: [configmaps]
  verbs: [get, list]
  namespaces: [default]
- group: devs
  apiGroups: [""]
  resources: [secrets]
  verbs: [list]
  namespaces: [default]
- group: system:serviceaccounts:team
  apiGroups: [""]
  resources: [configmaps]
  verbs: [get, list]
  namespaces: [default]
- group: system:unauthenticated
  apiGroups: [""]
  resources: [configmaps]
  verbs: [get, list]
  namespaces: [default]
- group: system:authenticated           # Kubernetes' system:basic-user
  apiGroups: [authorization.k8s.io]
  resources: [selfsubjectaccessreviews]
  verbs: [create]
`);

const ADMIN = { authorization: "Bearer admin-token" };
const ALICE = { authorization: "Bearer token2" };
const CAROL = { authorization: "Bearer token3" };
const CM = "/api/v1/namespaces/default/configmaps";
const SECRETS = "/api/v1/namespaces/default/secrets";
const PODS = "/api/v1/namespaces/default/pods";
const SSAR = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";

const server = () => testServer("kubernetes", { auth: { tokens, policy } });

/** A 403 Status body as kube-apiserver 1.26.4 sent it (compact JSON, then a newline). */
function forbidden(message: string, details: Record<string, string>): string {
  return `${JSON.stringify({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason: "Forbidden", details, code: 403 })}\n`;
}

const selfReview = (resource: string) => ({
  apiVersion: "authorization.k8s.io/v1",
  kind: "SelfSubjectAccessReview",
  spec: { resourceAttributes: { namespace: "default", verb: "list", resource } },
});

describe("impersonation without the right: 403 naming the requester (recorded from kube-apiserver 1.26.4)", () => {
  it("a user (alice may impersonate no one; carol not mallory), on resources, /version and the health endpoints", async () => {
    const { call } = server();
    const aliceAsBob = forbidden('users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope', {
      name: "bob",
      kind: "users",
    });
    for (const path of [CM, "/version", "/readyz", "/livez"]) {
      const answer = await call("GET", path, undefined, { ...ALICE, "Impersonate-User": "bob" });
      expect([path, answer.status, answer.text]).toEqual([path, 403, aliceAsBob]);
    }
    // The user is checked first: with a group too, the answer is still about the user.
    expect((await call("GET", CM, undefined, { ...ALICE, "Impersonate-User": "bob", "Impersonate-Group": "devs" })).text).toBe(aliceAsBob);
    const mallory = await call("GET", CM, undefined, { ...CAROL, "Impersonate-User": "mallory" });
    expect(mallory.json.message).toBe('users "mallory" is forbidden: User "carol" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  it("a group, a uid and extras, each with its own resource and group", async () => {
    const { call } = server();
    const asBob = (headers: Record<string, string>) => call("GET", CM, undefined, { ...CAROL, "Impersonate-User": "bob", ...headers });
    expect((await asBob({ "Impersonate-Group": "ops" })).text).toBe(
      forbidden('groups "ops" is forbidden: User "carol" cannot impersonate resource "groups" in API group "" at the cluster scope', { name: "ops", kind: "groups" }),
    );
    expect((await asBob({ "Impersonate-Uid": "other-uid" })).text).toBe(
      forbidden(
        'uids.authentication.k8s.io "other-uid" is forbidden: User "carol" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
        { name: "other-uid", group: "authentication.k8s.io", kind: "uids" },
      ),
    );
    expect((await asBob({ "Impersonate-Extra-Scopes": "edit" })).text).toBe(
      forbidden(
        'userextras.authentication.k8s.io "edit" is forbidden: User "carol" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
        { name: "edit", group: "authentication.k8s.io", kind: "userextras" },
      ),
    );
    expect((await asBob({ "Impersonate-Extra-Other": "x" })).json.message).toBe(
      'userextras.authentication.k8s.io "x" is forbidden: User "carol" cannot impersonate resource "userextras/other" in API group "authentication.k8s.io" at the cluster scope',
    );
    // The key is the header suffix lowercased, then percent-decoded.
    expect((await asBob({ "Impersonate-Extra-Example.COM%2FKey": "V1" })).json.message).toBe(
      'userextras.authentication.k8s.io "V1" is forbidden: User "carol" cannot impersonate resource "userextras/example.com/key" in API group "authentication.k8s.io" at the cluster scope',
    );
    // An empty group is a group named "": the message then names none.
    expect((await asBob({ "Impersonate-Group": "" })).text).toBe(
      forbidden('groups is forbidden: User "carol" cannot impersonate resource "groups" in API group "" at the cluster scope', { kind: "groups" }),
    );
  });

  it("repeated headers: each value is checked, the first denied one answers", async () => {
    const { call } = server();
    // Two Impersonate-Group headers reach the handler joined as "devs, ops" (kubectl --as-group twice).
    const twoGroups = new Headers({ ...CAROL, "Impersonate-User": "bob" });
    twoGroups.append("Impersonate-Group", "devs");
    twoGroups.append("Impersonate-Group", "ops");
    const groups = await call("GET", "/version", undefined, Object.fromEntries(twoGroups));
    expect(groups.json.message).toBe('groups "ops" is forbidden: User "carol" cannot impersonate resource "groups" in API group "" at the cluster scope');
    const extras = await call("GET", "/version", undefined, { ...CAROL, "Impersonate-User": "bob", "Impersonate-Extra-Scopes": "view, edit" });
    expect(extras.json.message).toBe(
      'userextras.authentication.k8s.io "edit" is forbidden: User "carol" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
    );
  });

  it("a service account is checked in its namespace; a malformed one is a user", async () => {
    const { call } = server();
    expect((await call("GET", CM, undefined, { ...ALICE, "Impersonate-User": "system:serviceaccount:team:robot" })).text).toBe(
      forbidden('serviceaccounts "robot" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "team"', {
        name: "robot",
        kind: "serviceaccounts",
      }),
    );
    expect((await call("GET", CM, undefined, { ...CAROL, "Impersonate-User": "system:serviceaccount:team:other" })).json.message).toBe(
      'serviceaccounts "other" is forbidden: User "carol" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "team"',
    );
    expect((await call("GET", CM, undefined, { ...CAROL, "Impersonate-User": "system:serviceaccount:Team:robot" })).json.message).toBe(
      'users "system:serviceaccount:Team:robot" is forbidden: User "carol" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
  });

  it("anonymous callers are judged as system:anonymous; a bad token is 401 before impersonation", async () => {
    const { call } = server();
    const anonymous = await call("GET", PODS, undefined, { "Impersonate-User": "bob" });
    expect([anonymous.status, anonymous.json.message]).toEqual([
      403,
      'users "bob" is forbidden: User "system:anonymous" cannot impersonate resource "users" in API group "" at the cluster scope',
    ]);
    const bad = await call("GET", PODS, undefined, { authorization: "Bearer bad", "Impersonate-User": "bob" });
    expect([bad.status, bad.json.reason]).toEqual([401, "Unauthorized"]);
  });
});

describe("groups, uid or extras without Impersonate-User: Kubernetes' plain-text 500", () => {
  it("names what was asked for, as Go prints the object references", async () => {
    const { call } = server();
    const group = await call("GET", PODS, undefined, { ...ADMIN, "Impersonate-Group": "devs" });
    expect(group.status).toBe(500);
    expect(group.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(group.headers.get("x-content-type-options")).toBe("nosniff");
    expect(group.text).toBe('Internal Server Error: "/api/v1/namespaces/default/pods": requested [{Group  devs    }] without impersonating a user\n');
    // Whoever asks: the headers are refused before any permission is checked.
    expect((await call("GET", PODS, undefined, { ...ALICE, "Impersonate-Group": "devs" })).status).toBe(500);
    const uid = await call("GET", `${PODS}?limit=1&x=%20y`, undefined, { ...ADMIN, "Impersonate-Uid": "x" });
    expect(uid.text).toBe('Internal Server Error: "/api/v1/namespaces/default/pods?limit=1&amp;x=%20y": requested [{UID  x  authentication.k8s.io/v1  }] without impersonating a user\n');
    const all = await call("GET", "/version", undefined, {
      ...ADMIN,
      "Impersonate-User": "",
      "Impersonate-Extra-Scopes": "view",
      "Impersonate-Group": "devs",
      "Impersonate-Uid": "u",
    });
    expect(all.text).toBe(
      'Internal Server Error: "/version": requested [{Group  devs    } {UserExtra  view  authentication.k8s.io/v1  scopes} {UID  u  authentication.k8s.io/v1  }] without impersonating a user\n',
    );
  });

  it("an empty Impersonate-User alone asks for nothing: the caller acts as themselves", async () => {
    const { call } = server();
    expect((await call("GET", PODS, undefined, { ...ADMIN, "Impersonate-User": "" })).status).toBe(200);
  });
});

describe("with the right, the request acts as the impersonated user", () => {
  it("the admin as bob: bob's rights only, bob named in the 403", async () => {
    const { call } = server();
    expect((await call("GET", CM, undefined, { ...ADMIN, "Impersonate-User": "bob" })).status).toBe(200);
    const pods = await call("GET", PODS, undefined, { ...ADMIN, "Impersonate-User": "bob" });
    expect([pods.status, pods.text]).toEqual([
      403,
      forbidden('pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "default"', { kind: "pods" }),
    ]);
    expect((await call("GET", PODS, undefined, ADMIN)).status).toBe(200);
  });

  it("carol as bob, and as bob in group devs: the groups are exactly the ones asked for", async () => {
    const { call } = server();
    const asBob = { ...CAROL, "Impersonate-User": "bob" };
    expect((await call("GET", CM, undefined, asBob)).status).toBe(200);
    const secrets = await call("GET", SECRETS, undefined, asBob);
    expect([secrets.status, secrets.json.message]).toEqual([403, 'secrets is forbidden: User "bob" cannot list resource "secrets" in API group "" in the namespace "default"']);
    expect((await call("GET", SECRETS, undefined, { ...asBob, "Impersonate-Group": "devs" })).status).toBe(200);
    expect((await call("GET", CM, undefined, { ...asBob, "Impersonate-Group": "devs" })).status).toBe(200);
    const allowed = await call("GET", SECRETS, undefined, { ...asBob, "Impersonate-Group": "devs", "Impersonate-Uid": "bob-uid", "Impersonate-Extra-Scopes": "view" });
    expect(allowed.status).toBe(200);
    expect((await call("GET", "/version", undefined, asBob)).status).toBe(200);
    expect((await call("GET", "/readyz", undefined, asBob)).status).toBe(200);
    const ping = await call("GET", "/readyz/ping", undefined, asBob);
    expect([ping.status, ping.json.message]).toEqual([403, 'forbidden: User "bob" cannot get path "/readyz/ping"']);
  });

  it("a service account gets its groups, unless Impersonate-Group gives others", async () => {
    const { call } = server();
    const asRobot = { ...CAROL, "Impersonate-User": "system:serviceaccount:team:robot" };
    expect((await call("GET", CM, undefined, asRobot)).status).toBe(200);
    const secrets = await call("GET", SECRETS, undefined, asRobot);
    expect(secrets.json.message).toBe('secrets is forbidden: User "system:serviceaccount:team:robot" cannot list resource "secrets" in API group "" in the namespace "default"');
    const inDevs = { ...asRobot, "Impersonate-Group": "devs" };
    const configMaps = await call("GET", CM, undefined, inDevs);
    expect([configMaps.status, configMaps.json.message]).toEqual([
      403,
      'configmaps is forbidden: User "system:serviceaccount:team:robot" cannot list resource "configmaps" in API group "" in the namespace "default"',
    ]);
    expect((await call("GET", SECRETS, undefined, inDevs)).status).toBe(200);
  });

  it("system:anonymous gets system:unauthenticated; a given system:unauthenticated keeps system:authenticated out", async () => {
    const { call } = server();
    const asAnonymous = { ...ADMIN, "Impersonate-User": "system:anonymous" };
    expect((await call("GET", CM, undefined, asAnonymous)).status).toBe(200);
    expect((await call("GET", CM, undefined, { ...asAnonymous, "Impersonate-Group": "devs" })).status).toBe(200);
    const api = await call("GET", "/api", undefined, asAnonymous);
    expect([api.status, api.json.message]).toEqual([403, 'forbidden: User "system:anonymous" cannot get path "/api"']);
    expect((await call("GET", "/readyz", undefined, asAnonymous)).status).toBe(200);

    // eve is authenticated by default (may create self reviews, may not read configmaps)…
    const asEve = { ...ADMIN, "Impersonate-User": "eve" };
    expect((await call("POST", SSAR, selfReview("pods"), asEve)).status).toBe(201);
    expect((await call("GET", CM, undefined, asEve)).status).toBe(403);
    // …and not when impersonated in system:unauthenticated.
    const unauthenticated = { ...asEve, "Impersonate-Group": "system:unauthenticated" };
    expect((await call("GET", CM, undefined, unauthenticated)).status).toBe(200);
    expect((await call("POST", SSAR, selfReview("pods"), unauthenticated)).status).toBe(403);
  });

  it("removes the Impersonate-* headers once honoured", async () => {
    const { server: api } = server();
    const request = new Request("http://test.local/version", {
      headers: { ...ADMIN, "Impersonate-User": "bob", "Impersonate-Group": "devs", "Impersonate-Uid": "u", "Impersonate-Extra-Scopes": "view" },
    });
    expect((await api.handle(request)).status).toBe(200);
    expect([...request.headers.keys()]).toEqual(["authorization"]);
  });
});

describe("access reviews while impersonating", () => {
  it("a SelfSubjectAccessReview answers for the impersonated user (kubectl auth can-i --as)", async () => {
    const { call } = server();
    for (const caller of [ADMIN, CAROL]) {
      const asBob = { ...caller, "Impersonate-User": "bob" };
      const configMaps = await call("POST", SSAR, selfReview("configmaps"), asBob);
      expect([configMaps.status, configMaps.json.status.allowed]).toEqual([201, true]);
      expect((await call("POST", SSAR, selfReview("pods"), asBob)).json.status).toEqual({ allowed: false });
      // kubectl auth can-i list secrets --as bob --as-group devs
      expect((await call("POST", SSAR, selfReview("secrets"), { ...asBob, "Impersonate-Group": "devs" })).json.status.allowed).toBe(true);
    }
    expect((await call("POST", SSAR, selfReview("pods"), ADMIN)).json.status.allowed).toBe(true);
    // kubectl auth can-i --as bob as alice: the impersonation itself is refused.
    const refused = await call("POST", SSAR, selfReview("configmaps"), { ...ALICE, "Impersonate-User": "bob" });
    expect([refused.status, refused.json.message]).toEqual([
      403,
      'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
    ]);
  });

  it("creating a SubjectAccessReview needs the impersonated user's right", async () => {
    const { call } = server();
    const review = { apiVersion: "authorization.k8s.io/v1", kind: "SubjectAccessReview", spec: { user: "bob", resourceAttributes: { namespace: "default", verb: "list", resource: "configmaps" } } };
    const path = "/apis/authorization.k8s.io/v1/subjectaccessreviews";
    const denied = await call("POST", path, review, { ...CAROL, "Impersonate-User": "bob" });
    expect(denied.text).toBe(
      forbidden(
        'subjectaccessreviews.authorization.k8s.io is forbidden: User "bob" cannot create resource "subjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
        { group: "authorization.k8s.io", kind: "subjectaccessreviews" },
      ),
    );
    expect((await call("POST", path, review, ADMIN)).json.status.allowed).toBe(true);
  });
});

describe("impersonate and readImpersonationHeaders", () => {
  const carol: UserInfo = { name: "carol", uid: "carol-uid", groups: ["system:authenticated"] };

  it("builds the impersonated user: given groups, then the automatic ones; uid and extras", () => {
    const as = (headers: Record<string, string>) => impersonate(carol, headers, undefined);
    expect(as({})).toEqual({ outcome: "none" });
    expect(as({ "Impersonate-User": "bob" })).toEqual({ outcome: "impersonated", user: { name: "bob", uid: "", groups: ["system:authenticated"] } });
    expect(as({ "Impersonate-User": "bob", "Impersonate-Group": "devs, system:authenticated", "Impersonate-Uid": "u1", "Impersonate-Extra-Scopes": "a, b" })).toEqual({
      outcome: "impersonated",
      user: { name: "bob", uid: "u1", groups: ["devs", "system:authenticated"], extra: { scopes: ["a", "b"] } },
    });
    expect(as({ "Impersonate-User": "system:serviceaccount:team:robot" })).toMatchObject({
      user: { groups: ["system:serviceaccounts", "system:serviceaccounts:team", "system:authenticated"] },
    });
    expect(as({ "Impersonate-User": "system:serviceaccount:team:robot", "Impersonate-Group": "devs" })).toMatchObject({ user: { groups: ["devs", "system:authenticated"] } });
    expect(as({ "Impersonate-User": "system:anonymous" })).toMatchObject({ user: { groups: ["system:unauthenticated"] } });
    expect(as({ "Impersonate-User": "bob", "Impersonate-Extra-__proto__": "x" })).toMatchObject({ user: { extra: { ["__proto__"]: ["x"] } } });
  });

  it("lists what the headers ask for in Kubernetes' order; undecodable extra keys stay as written", () => {
    const headers = new Headers({ "impersonate-uid": "u", "impersonate-extra-a%zz": "1", "impersonate-group": "g", "impersonate-user": "system:serviceaccount:ns:sa:x" });
    expect(readImpersonationHeaders(headers)).toEqual({
      requests: [
        { kind: "User", name: "system:serviceaccount:ns:sa:x" },
        { kind: "Group", name: "g" },
        { kind: "UserExtra", key: "a%zz", value: "1" },
        { kind: "UID", uid: "u" },
      ],
      groupsSpecified: true,
    });
    // node:http style records, a repeated header as an array.
    expect(readImpersonationHeaders({ "Impersonate-User": "system:serviceaccount:ns:sa", "Impersonate-Group": ["a, b", "c"] }).requests).toEqual([
      { kind: "ServiceAccount", namespace: "ns", name: "sa" },
      { kind: "Group", name: "a, b" },
      { kind: "Group", name: "c" },
    ]);
  });

  it("removes exactly the impersonation headers", () => {
    const headers = new Headers({ accept: "application/json", "Impersonate-User": "bob", "impersonate-extra-x": "1", "Impersonate-Group": "g", "impersonate-uid": "u" });
    removeImpersonationHeaders(headers);
    expect([...headers.keys()]).toEqual(["accept"]);
  });
});
