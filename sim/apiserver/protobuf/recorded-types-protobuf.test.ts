/**
 * The Protobuf form of every built-in type served from the recording (routing/recorded-types.ts),
 * against the bytes kube-apiserver 1.26.4 sent for its sample object (builtin-types-data/, each
 * read back as JSON and as Protobuf at one resourceVersion): decoding the server's bytes gives the
 * JSON it sent, and encoding that JSON gives the server's bytes, byte for byte. This checks the
 * message tables recorded from the binary (recorded-messages.ts) field by field where the samples
 * reach: numbers, order, pointers, omitempty and inlined structs.
 */
import { describe, expect, it } from "vitest";
import { stabilized } from "../../../conformance/record/record-builtin-types.ts";
import { recordedType, recordedTypesData } from "../routing/recorded-types.ts";
import { testServer } from "../test-server.ts";
import { decodeObject, encodeObject } from "./envelope.ts";

const PROTOBUF = "application/vnd.kubernetes.protobuf";

describe.each(Object.keys(recordedTypesData().types))("%s in Protobuf", (resource) => {
  const sample = recordedType(resource).sample!;
  const bytes = new Uint8Array(Buffer.from(sample.protobuf, "base64"));

  it("decodes kube-apiserver's bytes to the JSON it sent for the same resourceVersion", () => {
    const decoded = decodeObject(bytes);
    const metadata = decoded.object["metadata"] as { namespace?: string; uid: string };
    // The same text, so also Go's field order.
    // A cluster-scoped object has no namespace to replace by a placeholder.
    expect(JSON.stringify(stabilized(decoded.object, metadata.namespace ?? "\u0000", metadata.uid))).toBe(JSON.stringify(sample.fetched));
  });

  it("encodes that JSON to kube-apiserver's bytes, byte for byte", () => {
    const decoded = decodeObject(bytes);
    expect(Buffer.from(encodeObject(decoded.apiVersion, decoded.kind, decoded.object)).toString("hex")).toBe(Buffer.from(bytes).toString("hex"));
  });

  it("is served by the embedded server: what it sends as Protobuf is what it sends as JSON", async () => {
    const recorded = recordedType(resource);
    const { call, server } = testServer();
    const base = recorded.group === "" ? `/api/${recorded.version}` : `/apis/${recorded.group}/${recorded.version}`;
    const path = `${recorded.discovery.namespaced ? `${base}/namespaces/default/${resource}` : `${base}/${resource}`}/${(sample.sent["metadata"] as { name: string }).name}`;
    expect((await call("POST", path.slice(0, path.lastIndexOf("/")), sample.sent)).status).toBe(201);
    const json = await call("GET", path);
    const answer = await server.handle(new Request(`http://test.local${path}`, { headers: { accept: PROTOBUF } }));
    expect([answer.status, answer.headers.get("content-type")]).toEqual([200, PROTOBUF]);
    expect(decodeObject(new Uint8Array(await answer.arrayBuffer())).object).toEqual(json.json);
  });
});
