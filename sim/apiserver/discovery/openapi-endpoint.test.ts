import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseCustomResourceDefinition } from "../routing/custom-resources.ts";
import { testServer } from "../test-server.ts";
import { negotiate } from "./openapi-endpoint.ts";

// What kube-apiserver 1.26.4 answered per path and Accept (conformance/record/record-openapi.ts).
const negotiation = JSON.parse(readFileSync(new URL("./openapi-data/negotiation.json", import.meta.url), "utf8")) as {
  answers: Array<{ path: string; accept: string | null; status: number; contentType: string | null; etag: boolean; location: string | null; bodyBytes: number }>;
};
const customResources = JSON.parse(readFileSync(new URL("./openapi-data/custom-resources.json", import.meta.url), "utf8")) as { definitions: unknown[]; schemas: Record<string, unknown> };

const V3_PROTOBUF = "application/com.github.proto-openapi.spec.v3@v1.0+protobuf";

describe("/openapi answers as kube-apiserver 1.26.4 (openapi-data/negotiation.json)", () => {
  const { call } = testServer("kubernetes");

  it.each(negotiation.answers.map((answer) => [`${answer.path} Accept: ${answer.accept ?? "(none)"}`, answer] as const))("%s", async (_name, theirs) => {
    const index = (await call("GET", "/openapi/v3")).json as { paths: Record<string, { serverRelativeURL: string }> };
    const ourHash = index.paths["api/v1"]!.serverRelativeURL.split("hash=")[1]!;
    const path = theirs.path.replace("<its hash>", ourHash);
    const ours = await call("GET", path, undefined, theirs.accept === null ? {} : { accept: theirs.accept });
    // The one difference: gnostic's v3 Protobuf is not served (no client asks for it), so that Accept gets 406.
    if (theirs.accept === V3_PROTOBUF && theirs.path.startsWith("/openapi/v3/api/v1") && theirs.status !== 406) {
      expect(ours.status).toBe(406);
      expect(ours.text).toBe("");
      return;
    }
    expect(ours.status).toBe(theirs.status);
    expect(ours.headers.get("content-type")).toBe(theirs.contentType);
    expect(ours.headers.has("etag")).toBe(theirs.etag);
    expect(ours.headers.get("location")?.replace(ourHash, "<its hash>") ?? null).toBe(theirs.location);
    if (theirs.bodyBytes === 0 || theirs.status === 301 || theirs.status === 404) expect(Buffer.byteLength(ours.text)).toBe(theirs.bodyBytes);
    else expect(ours.text.length).toBeGreaterThan(0);
  });

  it("serves each group/version document at its index URL, its ETag the URL's hash, cacheable for a year", async () => {
    const { call: serverCall, sim } = testServer("kubernetes");
    const index = (await serverCall("GET", "/openapi/v3")).json as { paths: Record<string, { serverRelativeURL: string }> };
    for (const { serverRelativeURL } of Object.values(index.paths)) {
      const answer = await serverCall("GET", serverRelativeURL);
      const hash = serverRelativeURL.split("hash=")[1]!;
      expect(answer.status).toBe(200);
      expect(createHash("sha512").update(answer.text).digest("hex").toUpperCase()).toBe(hash);
      expect(answer.headers.get("etag")).toBe(`"${hash}"`);
      expect(answer.headers.get("cache-control")).toBe("public, immutable");
      expect(Date.parse(answer.headers.get("expires")!.replace("UTC", "GMT"))).toBe(Math.floor((sim.nowMs() + 365 * 24 * 3600_000) / 1000) * 1000);
      const again = await serverCall("GET", serverRelativeURL, undefined, { "if-none-match": `"${hash}"` });
      expect([again.status, again.text]).toEqual([304, ""]);
    }
  });

  it("serves /openapi/v2 as JSON or Protobuf with one ETag, and answers If-None-Match with 304", async () => {
    const json = await call("GET", "/openapi/v2", undefined, { accept: "application/json" });
    const protobuf = await call("GET", "/openapi/v2", undefined, { accept: "application/com.github.proto-openapi.spec.v2@v1.0+protobuf" });
    expect(json.json).toMatchObject({ swagger: "2.0" });
    expect(protobuf.headers.get("content-type")).toBe("application/octet-stream");
    expect(protobuf.headers.get("etag")).toBe(json.headers.get("etag"));
    expect((await call("GET", "/openapi/v2", undefined, { "if-none-match": json.headers.get("etag")! })).status).toBe(304);
  });

  it("describes the custom resources `serve --crd` serves from their definitions' schemas", async () => {
    const { call: serverCall } = testServer("kubernetes", { customResourceDefinitions: customResources.definitions.map((definition) => parseCustomResourceDefinition(JSON.stringify(definition))) });
    const index = (await serverCall("GET", "/openapi/v3")).json as { paths: Record<string, { serverRelativeURL: string }> };
    const document = (await serverCall("GET", index.paths["apis/example.io/v1"]!.serverRelativeURL)).json as { components: { schemas: Record<string, unknown> } };
    for (const [name, schema] of Object.entries(customResources.schemas)) expect(document.components.schemas[name], name).toEqual(schema);
  });
});

describe("negotiate (kube-openapi's choice among the forms it serves)", () => {
  const forms = [
    ["application/json", "json"],
    ["application/com.github.proto-openapi.spec.v2@v1.0+protobuf", "protobuf"],
  ] as const;
  it.each([
    [null, "json"],
    ["", "json"],
    ["*/*", "json"],
    ["application/*", "json"],
    ["application/com.github.proto-openapi.spec.v2@v1.0+protobuf", "protobuf"],
    ["application/com.github.proto-openapi.spec.v2@v1.0+protobuf, application/json", "protobuf"],
    ["application/com.github.proto-openapi.spec.v2@v1.0+protobuf;q=0.5, application/json", "json"],
    ["*/*;q=0.1, application/com.github.proto-openapi.spec.v2@v1.0+protobuf", "protobuf"],
    ["application/com.github.proto-openapi.spec.v2.v1.0+protobuf", undefined],
    ["application/yaml, text/plain", undefined],
  ] as const)("Accept %s: %s", (accept, form) => {
    expect(negotiate(accept, forms)).toBe(form);
  });
});
