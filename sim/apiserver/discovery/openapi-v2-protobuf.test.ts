import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { dialectByName } from "../../../spec/dialects.ts";
import { ResourceRegistry } from "../routing/resource-types.ts";
import { OpenApiDocuments } from "./openapi.ts";
import { recordedOpenApi } from "./openapi-schemas.ts";
import { openApiV2PathItemProtobuf, openApiV2Protobuf, openApiV2SchemaProtobuf } from "./openapi-v2-protobuf.ts";

// kube-apiserver 1.26.4's bytes for a few definitions and a path item (conformance/record/record-openapi.ts).
const samples = JSON.parse(readFileSync(new URL("./openapi-data/v2-protobuf-samples.json", import.meta.url), "utf8")) as {
  definitions: Record<string, string>;
  paths: Record<string, { json: Record<string, unknown>; protobuf: string }>;
};
const bytes = (base64: string) => new Uint8Array(Buffer.from(base64, "base64"));

// The length-delimited fields of a message, to read our own output back.
function fields(message: Uint8Array): Array<[number, Uint8Array]> {
  const out: Array<[number, Uint8Array]> = [];
  let at = 0;
  const varint = () => {
    let value = 0;
    for (let scale = 1; ; scale *= 128) {
      const byte = message[at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
    }
  };
  while (at < message.byteLength) {
    const key = varint();
    if (key % 8 === 0) varint();
    else if (key % 8 === 1) at += 8;
    else if (key % 8 === 2) {
      const length = varint();
      out.push([Math.floor(key / 8), message.subarray(at, at + length)]);
      at += length;
    } else throw new Error(`wire type ${key % 8}`);
  }
  return out;
}
const text = (value: Uint8Array) => new TextDecoder().decode(value);

describe("/openapi/v2 as Protobuf (gnostic's openapi.v2.Document)", () => {
  it.each(Object.keys(samples.definitions))("writes the definition %s byte for byte as kube-apiserver 1.26.4 does", (name) => {
    expect(Buffer.from(openApiV2SchemaProtobuf(recordedOpenApi().v2.definitions[name]!)).toString("base64")).toBe(samples.definitions[name]);
  });

  it.each(Object.keys(samples.paths))("writes the path item %s byte for byte as kube-apiserver 1.26.4 does", (path) => {
    const sample = samples.paths[path]!;
    expect(Buffer.from(openApiV2PathItemProtobuf(sample.json)).toString("base64")).toBe(sample.protobuf);
    expect(bytes(sample.protobuf).byteLength).toBeGreaterThan(1000);
  });

  it("holds the served document: swagger, info, every path and every definition, in the JSON's order", () => {
    const documents = new OpenApiDocuments(new ResourceRegistry(dialectByName("kubernetes")), dialectByName("kubernetes"));
    const json = documents.v2().document;
    const document = fields(documents.v2Protobuf());
    expect(document.map(([field]) => field)).toEqual([1, 2, 8, 9]);
    expect(text(document[0]![1])).toBe("2.0");
    expect(fields(document[1]![1]).map(([, value]) => text(value))).toEqual(["Kubernetes", "v1.26.4+orb-harness"]);
    const named = (message: Uint8Array) => fields(message).map(([, entry]) => text(fields(entry)[0]![1]));
    expect(named(document[2]![1])).toEqual(Object.keys(json.paths));
    expect(named(document[3]![1])).toEqual(Object.keys(json.definitions));
    // Each definition's bytes are those of its schema.
    const configMap = fields(document[3]![1]).map(([, entry]) => fields(entry)).find(([name]) => text(name![1]) === "io.k8s.api.core.v1.ConfigMap")!;
    expect(Buffer.from(configMap[1]![1]).toString("base64")).toBe(samples.definitions["io.k8s.api.core.v1.ConfigMap"]);
    expect(openApiV2Protobuf(json as unknown as Record<string, unknown>)).toEqual(documents.v2Protobuf());
  });
});
