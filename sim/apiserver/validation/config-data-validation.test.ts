import { describe, expect, it } from "vitest";
import { configKeyProblems, configMapDataCauses, secretDataCauses } from "./config-data-validation.ts";

// Expected texts from transcripts configmap-* and secret-* of spec/reference/kube-apiserver-1.26/transcripts-metadata-validation.jsonl.
const TOO_LONG = "Too long: must have at most 1048576 bytes";

describe("config keys", () => {
  it("accept up to 253 characters of [-._a-zA-Z0-9], not '.', '..' or a '..' start", () => {
    expect(configKeyProblems("x".repeat(253))).toEqual([]);
    expect(configKeyProblems(".a")).toEqual([]);
    expect(configKeyProblems("x".repeat(254))).toEqual(["must be no more than 253 characters"]);
    expect(configKeyProblems(".")).toEqual(["must not be '.'"]);
    expect(configKeyProblems("..")).toEqual(["must not be '..'"]);
    expect(configKeyProblems("..a")).toEqual(["must not start with '..'"]);
    expect(configKeyProblems("bad key")[0]).toMatch(/^a valid config key must consist of alphanumeric characters, '-', '_' or '\.' \(e\.g\. 'key\.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '\[-\._a-zA-Z0-9\]\+'\)$/);
  });
});

describe("ConfigMap data", () => {
  it("reports a key in data and binaryData once, on data[key]", () => {
    expect(configMapDataCauses({ data: { k: "v" }, binaryData: { k: "dg==" } })).toEqual([
      { reason: "FieldValueInvalid", message: 'Invalid value: "k": duplicate of key present in binaryData', field: "data[k]" },
    ]);
  });

  it("allows 1 MiB of values in all, counting UTF-8 bytes and decoded binaryData", () => {
    expect(configMapDataCauses({ data: { a: "x".repeat(1048574), b: "é" } })).toEqual([]);
    expect(configMapDataCauses({ data: { a: "x".repeat(1048575), b: "é" } })).toEqual([{ reason: "FieldValueTooLong", message: TOO_LONG, field: "[]" }]);
    expect(configMapDataCauses({ binaryData: { b: Buffer.alloc(1048577).toString("base64") } })).toHaveLength(1);
  });
});

describe("Secret data", () => {
  it("checks stringData keys as data keys and counts decoded bytes", () => {
    expect(secretDataCauses({ stringData: { "bad key": "v" } }).map((cause) => cause.field)).toEqual(["data[bad key]"]);
    expect(secretDataCauses({ data: { a: Buffer.alloc(1048576).toString("base64") } })).toEqual([]);
    expect(secretDataCauses({ data: { a: Buffer.alloc(1048576).toString("base64") }, stringData: { b: "x" } })).toEqual([
      { reason: "FieldValueTooLong", message: TOO_LONG, field: "data" },
    ]);
  });
});
