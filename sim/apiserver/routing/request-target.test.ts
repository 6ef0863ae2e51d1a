/**
 * Paths with a NUL (`%00`), which the store cannot key: found by `fuzz --target http` (every verb
 * answered 500 "store key: invalid namespace"). kube-apiserver 1.26.4 (recorded 2026-11-25)
 * treats such a namespace as one holding nothing, and such a name as one nothing has.
 */
import { describe, expect, it } from "vitest";
import { parseRequestTarget } from "./request-target.ts";
import { testServer } from "../test-server.ts";

describe("a NUL in a path", () => {
  it("reads as the four characters \\x00, which no valid name or namespace contains", () => {
    expect(parseRequestTarget("/api/v1/namespaces/a%00b/configmaps/%00")).toMatchObject({ namespace: "a\\x00b", name: "\\x00" });
  });

  it("names a namespace that holds nothing and objects that do not exist, as Kubernetes answers", async () => {
    const { call, server } = testServer();
    const list = await call("GET", "/api/v1/namespaces/%00/configmaps");
    expect([list.status, list.json.items]).toEqual([200, []]);
    expect((await call("DELETE", "/api/v1/namespaces/%00/configmaps")).status).toBe(200);
    expect((await call("GET", "/api/v1/namespaces/%00/configmaps/x")).json).toMatchObject({ code: 404, message: 'configmaps "x" not found' });
    for (const [method, path] of [["GET", "/api/v1/namespaces/default/configmaps/%00"], ["DELETE", "/api/v1/namespaces/default/configmaps/%00"]]) {
      expect((await call(method!, path!)).json, `${method} ${path}`).toMatchObject({ code: 404, message: 'configmaps "\\x00" not found' });
    }
    expect((await call("GET", "/api/v1/namespaces/%00")).json).toMatchObject({ code: 404, message: 'namespaces "\\x00" not found' });
    expect((await call("GET", "/api/v1/nodes/%00")).json).toMatchObject({ code: 404, message: 'nodes "\\x00" not found' });
    const watch = await server.handle(new Request("http://test.local/api/v1/namespaces/%00/configmaps?watch=1"));
    expect(watch.status).toBe(200);
    await watch.body?.cancel();
  });
});

describe("empty segments and methods, as kube-apiserver 1.26.4 answered them (recorded 2026-11-25, found by comparing with `fuzz --target http`)", () => {
  it("drop trailing slashes but name nothing with an empty segment inside", () => {
    expect(parseRequestTarget("/api/v1/namespaces/x/configmaps//")).toMatchObject({ kind: "resource", namespace: "x", resource: "configmaps" });
    expect(parseRequestTarget("/api/v1/namespaces/x//configmaps")).toEqual({ kind: "not-served", group: "" });
    expect(parseRequestTarget("/api//v1/namespaces")).toEqual({ kind: "not-served", group: "" });
    expect(parseRequestTarget("/apis/apps/v1//deployments")).toEqual({ kind: "not-served", group: "apps" });
    expect(parseRequestTarget("/apis//apps/v1")).toEqual({ kind: "unknown" });
    expect(parseRequestTarget("//api/v1/namespaces")).toEqual({ kind: "unknown" });
    expect(parseRequestTarget("/version/")).toEqual({ kind: "version" });
  });

  it("answer them with Kubernetes' 404s, and serve /version and discovery to GET only", async () => {
    const { call } = testServer();
    expect((await call("GET", "/api/v1/namespaces/default//configmaps")).json).toMatchObject({ code: 404, reason: "NotFound", message: "the server could not find the requested resource" });
    expect((await call("GET", "/apis//apps/v1")).text).toBe("404 page not found\n");
    expect((await call("GET", "/api/v1/namespaces/default/configmaps//")).status).toBe(200);
    for (const path of ["/version", "/api", "/apis", "/apis/apps", "/apis/apps/v1", "/api/v1"]) {
      expect((await call("GET", path)).status, path).toBe(200);
      for (const method of ["HEAD", "POST", "PUT", "DELETE", "OPTIONS"]) expect((await call(method, path)).status, `${method} ${path}`).toBe(405);
    }
    expect((await call("POST", "/version")).json).toMatchObject({ reason: "MethodNotAllowed", message: "the server does not allow this method on the requested resource" });
    expect((await call("POST", "/apis/no.such.group")).text).toBe("404 page not found\n");
  });
});

describe("percent-escapes, as Go reads them (kube-apiserver 1.26.4, recorded 2026-11-25; found by comparing with `fuzz --target http`)", () => {
  it("refuse a % that starts no escape with Go's plain-text 400, before anything else", async () => {
    const { call } = testServer();
    for (const path of ["/version/x%zz", "/api/v1/namespaces/default/configmaps/%", "/api/v1/namespaces/default/configmaps/a%2"]) {
      const answer = await call("GET", path);
      expect([answer.status, answer.headers.get("content-type"), answer.text], path).toEqual([400, "text/plain; charset=utf-8", "400 Bad Request"]);
    }
  });

  it("decode escapes of bytes that are not UTF-8 instead of giving up on the path", async () => {
    expect(parseRequestTarget("/api/v1/namespaces/default/configmaps/a%ffb")).toMatchObject({ kind: "resource", name: "a\ufffdb" });
    const { call } = testServer();
    expect((await call("GET", "/api/v1/namespaces/default/configmaps/%ff")).json).toMatchObject({ code: 404, reason: "NotFound" });
  });

  it("keep a path without escapes as it is, but a lone surrogate in it still decodes to U+FFFD", () => {
    expect(parseRequestTarget("/api/v1/namespaces/default/configmaps/caf\u00e9")).toMatchObject({ name: "caf\u00e9" });
    expect(parseRequestTarget("/api/v1/namespaces/default/configmaps/a\ud800b")).toMatchObject({ name: "a\ufffdb" });
  });
});

describe("an empty namespace segment (kube-apiserver 1.26.4, recorded 2026-11-25; found by comparing with `fuzz --target http`)", () => {
  it("lists every namespace, and is 400 for a named object or a write", async () => {
    expect(parseRequestTarget("/api/v1/namespaces//configmaps")).toMatchObject({ kind: "resource", namespace: "", resource: "configmaps" });
    const { call } = testServer();
    await call("POST", "/api/v1/namespaces", { metadata: { name: "other" } });
    await call("POST", "/api/v1/namespaces/other/configmaps", { metadata: { name: "a" } });
    await call("POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "b" } });
    const list = await call("GET", "/api/v1/namespaces//configmaps");
    expect([list.status, list.json.items.map((item: any) => `${item.metadata.namespace}/${item.metadata.name}`)]).toEqual([200, ["default/b", "other/a"]]);
    for (const [method, path] of [["GET", "/api/v1/namespaces//configmaps/a"], ["DELETE", "/api/v1/namespaces//configmaps"], ["POST", "/api/v1/namespaces//configmaps"]] as const) {
      expect((await call(method, path, method === "POST" ? { metadata: { name: "c" } } : undefined)).json, `${method} ${path}`).toMatchObject({ code: 400, message: "Namespace parameter required." });
    }
    expect((await call("GET", "/api/v1/namespaces/default/configmaps")).json.items).toHaveLength(1);
  });
});
