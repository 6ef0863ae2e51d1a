/**
 * The recorder of the Protobuf tables on a binary made here: a gzipped FileDescriptorProto and Go
 * struct tags among other bytes, as a Go binary holds them; then the rules that turn those facts
 * into field-model.ts's flags. (The real binary's tables are checked in the real tier,
 * record-protobuf-messages.real.test.ts, and field by field against kube-apiserver's bytes in
 * sim/apiserver/protobuf/reference.test.ts and recorded-types-protobuf.test.ts.)
 */
import { gzipSync } from "node:zlib";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { readDescriptors, readJsonTags, type DescriptorField, type DescriptorFile, type JsonTag } from "./go-binary-protobuf.ts";
import { deriveMessages } from "./record-protobuf-messages.ts";

// FieldDescriptorProto.Type and Label values.
const STRING = 9;
const INT32 = 5;
const MESSAGE = 11;
const OPTIONAL = 1;
const REPEATED = 3;

function fieldBytes(name: string, number: number, label: number, type: number, typeName?: string, notNullable = false): Uint8Array {
  const writer = protobuf.Writer.create().uint32(0x0a).string(name).uint32(0x18).int32(number).uint32(0x20).int32(label).uint32(0x28).int32(type);
  if (typeName !== undefined) writer.uint32(0x32).string(typeName);
  // FieldOptions with gogoproto.nullable (65001) = false: tag (65001 << 3) | 0 as a varint, then 0.
  if (notNullable) writer.uint32(0x42).bytes(protobuf.Writer.create().uint32(65001 << 3).uint32(0).finish());
  return writer.finish();
}

function messageBytes(name: string, fields: Uint8Array[], nested: Uint8Array[] = []): Uint8Array {
  const writer = protobuf.Writer.create().uint32(0x0a).string(name);
  for (const field of fields) writer.uint32(0x12).bytes(field);
  for (const message of nested) writer.uint32(0x1a).bytes(message);
  return writer.finish();
}

function fileBytes(name: string, protoPackage: string, messages: Uint8Array[]): Uint8Array {
  const writer = protobuf.Writer.create().uint32(0x0a).string(name).uint32(0x12).string(protoPackage);
  for (const message of messages) writer.uint32(0x22).bytes(message);
  return writer.finish();
}

/** Some bytes, a gzipped descriptor as Go embeds it, struct tags after a length byte each. */
function fakeBinary(): Buffer {
  const descriptor = fileBytes("k8s.io/api/demo/v1/generated.proto", "k8s.io.api.demo.v1", [
    messageBytes(
      "Widget",
      [
        fieldBytes("replicas", 1, OPTIONAL, INT32),
        fieldBytes("name", 2, OPTIONAL, STRING, undefined, true),
        fieldBytes("labels", 3, REPEATED, MESSAGE, ".k8s.io.api.demo.v1.Widget.LabelsEntry"),
      ],
      [messageBytes("LabelsEntry", [fieldBytes("key", 1, OPTIONAL, STRING), fieldBytes("value", 2, OPTIONAL, STRING)])],
    ),
  ]);
  const tags = [
    'Replicas,json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"',
    // The length byte before a tag may be a letter: "a" + json:... must still read as json.
    'Namea json:"name" patchStrategy:"merge" protobuf:"bytes,2,opt,name=name"',
    'Otherajson:"name,omitempty" protobuf:"bytes,2,opt,name=name"',
    'Common%json:",inline" protobuf:"bytes,1,req"',
    'Ref3json:"apiGroup,omitempty" protobuf:"bytes,1,opt,name=aPIGroup"',
  ];
  return Buffer.concat([Buffer.from("\u0000ELF junk \u001f\u008b not gzip"), gzipSync(descriptor), Buffer.from(tags.join("\u0000"), "latin1")]);
}

describe("reading a Go binary", () => {
  it("finds the gzipped generated.proto descriptors, their nested messages and gogoproto's nullable=false", () => {
    const files = readDescriptors(fakeBinary());
    expect([...files.keys()]).toEqual(["k8s.io.api.demo.v1"]);
    const widget = files.get("k8s.io.api.demo.v1")!.messages.get("k8s.io.api.demo.v1.Widget")!;
    expect(widget.map((field) => [field.name, field.number, field.label, field.type, field.notNullable])).toEqual([
      ["replicas", 1, OPTIONAL, INT32, false],
      ["name", 2, OPTIONAL, STRING, true],
      ["labels", 3, REPEATED, MESSAGE, false],
    ]);
    expect(files.get("k8s.io.api.demo.v1")!.messages.has("k8s.io.api.demo.v1.Widget.LabelsEntry")).toBe(true);
  });

  it("reads the json part of struct tags by the protobuf part's number and name, keeping disagreements", () => {
    const tags = readJsonTags(fakeBinary());
    expect(tags.get("1 replicas")).toEqual([{ name: "replicas", omitempty: true, inline: false }]);
    expect(tags.get("2 name")).toEqual([
      { name: "name", omitempty: false, inline: false },
      { name: "name", omitempty: true, inline: false },
    ]);
    expect(tags.get("1 *")).toEqual([{ name: "", omitempty: false, inline: true }]);
    expect(tags.get("1 aPIGroup")).toEqual([{ name: "apiGroup", omitempty: true, inline: false }]);
  });
});

describe("deriving the tables", () => {
  const field = (name: string, number: number, type: number, rest: Partial<DescriptorField> = {}): DescriptorField => ({ name, number, label: OPTIONAL, type, notNullable: false, ...rest });
  const message = (typeName: string): Partial<DescriptorField> => ({ typeName: `.${typeName}` });
  const demo = "k8s.io.api.demo.v1";
  const other = "k8s.io.api.other.v1";
  const descriptors = new Map<string, DescriptorFile>([
    [
      demo,
      {
        name: "demo.proto",
        protoPackage: demo,
        messages: new Map<string, DescriptorField[]>([
          [`${demo}.Widget`, [field("spec", 1, MESSAGE, { ...message(`${demo}.WidgetSpec`), notNullable: true }), field("ref", 2, MESSAGE, message(`${other}.Ref`))]],
          [`${demo}.WidgetList`, [field("items", 2, MESSAGE, { ...message(`${demo}.Widget`), label: REPEATED })]],
          [
            `${demo}.WidgetSpec`,
            [
              field("common", 1, MESSAGE, { ...message(`${demo}.Common`), notNullable: true }),
              field("replicas", 2, INT32),
              field("mode", 3, STRING, { notNullable: true }),
              field("ports", 4, INT32, { label: REPEATED }),
              field("labels", 5, MESSAGE, { ...message(`${demo}.WidgetSpec.LabelsEntry`), label: REPEATED }),
              field("refs", 6, MESSAGE, { ...message(`${demo}.Ref`), label: REPEATED }),
            ],
          ],
          [`${demo}.WidgetSpec.LabelsEntry`, [field("key", 1, STRING), field("value", 2, STRING)]],
          [`${demo}.Common`, [field("name", 1, STRING, { notNullable: true })]],
          [`${demo}.Ref`, [field("aPIGroup", 1, STRING)]],
        ]),
      },
    ],
    [other, { name: "other.proto", protoPackage: other, messages: new Map([[`${other}.Ref`, [field("name", 1, STRING, { notNullable: true })]]]) }],
  ]);
  const tags = new Map<string, JsonTag[]>([
    // Ambiguous: the schema's `required` decides.
    ["1 name", [{ name: "name", omitempty: false, inline: false }, { name: "name", omitempty: true, inline: false }]],
    ["3 mode", [{ name: "mode", omitempty: false, inline: false }]],
    ["2 replicas", [{ name: "replicas", omitempty: true, inline: false }]],
    ["1 aPIGroup", [{ name: "apiGroup", omitempty: true, inline: false }]],
  ]);
  // Common's fields are WidgetSpec's in JSON (no tag says so here: the schema does).
  const schemas = { "io.k8s.api.demo.v1.WidgetSpec": { properties: { name: {}, replicas: {}, mode: {}, ports: {}, labels: {}, refs: {} }, required: ["name"] } };
  const kinds = [
    { apiVersion: "demo/v1", group: "demo", version: "v1", kind: "Widget" },
    { apiVersion: "demo/v1", group: "demo", version: "v1", kind: "WidgetList" },
    { apiVersion: "demo/v1", group: "demo", version: "v1", kind: "Gadget" },
  ];
  const derived = deriveMessages(kinds, descriptors, tags, schemas, []);
  const tables = Object.fromEntries(derived.packages.flatMap((pkg) => Object.entries(pkg.messages)));

  it("lists each kind with its message key, and says which kinds have no message", () => {
    expect(derived.kinds).toEqual([
      { apiVersion: "demo/v1", kind: "Widget", message: "Widget" },
      { apiVersion: "demo/v1", kind: "WidgetList", message: "WidgetList" },
    ]);
    expect(derived.missing).toEqual(["demo/v1 Gadget"]);
  });

  it("gives a short name where it is unique and a qualified one where two packages share it", () => {
    expect(Object.keys(tables).sort()).toEqual(["Common", "Widget", "WidgetList", "WidgetSpec", "demo.v1.Ref", "other.v1.Ref"]);
    expect(tables["Widget"]).toEqual([["spec", 1, "WidgetSpec"], ["ref", 2, "other.v1.Ref", "ptr"]]);
  });

  it("derives pointers, omitempty, maps, repeated, inline structs and list items", () => {
    expect(tables["WidgetSpec"]).toEqual([
      ["common", 1, "Common", "inline"],
      ["replicas", 2, "int32", "ptr"],
      ["mode", 3, "string", "keep"],
      ["ports", 4, "int32", "rep"],
      ["labels", 5, "string", "map"],
      ["refs", 6, "demo.v1.Ref", "rep"],
    ]);
    // Ambiguous tags: required in the schema of the message that inlines Common.
    expect(tables["Common"]).toEqual([["name", 1, "string", "keep"]]);
    expect(tables["WidgetList"]).toEqual([["items", 2, "Widget", "rep", "keep", "emptyArray"]]);
  });

  it("names a field by its json tag where that differs from the Protobuf name", () => {
    expect(tables["demo.v1.Ref"]).toEqual([["apiGroup", 1, "string", "ptr"]]);
  });
});
