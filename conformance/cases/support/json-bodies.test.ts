/**
 * The guards the cases read bodies with: on the shape a conforming server sends they give what the
 * cases read before (`any` bodies), and on another shape the case fails with a CaseFailure naming
 * what was expected and what came, never with a TypeError.
 */
import { describe, expect, it } from "vitest";
import { CaseFailure } from "../../case-outcome.ts";
import type { ApiResponse } from "../../client/conformance-client.ts";
import { checkCreated } from "./creates.ts";
import { arrayOrEmpty, describeJson, expectArray, expectRecord, expectString } from "./json-guards.ts";
import { itemNames, itemsOf, listItems } from "./list-body.ts";
import { expectObject, metadataOf } from "./object-body.ts";
import { checkFailure } from "./status-answers.ts";
import { causesOf, detailsOf, expectStatus, isStatus } from "./status-body.ts";

/** A response as the client builds it, from a status and a body text. */
function answer(status: number, text: string): ApiResponse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, headers: new Headers({ "content-type": "application/json" }), bytes: new TextEncoder().encode(text), text, json };
}

/** Fails unless `work` throws a CaseFailure whose message matches `pattern`. */
function failsWith(work: () => unknown, pattern: RegExp): void {
  expect(work).toThrow(CaseFailure);
  expect(work).toThrow(pattern);
}

const configMap = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm", uid: "u-1", resourceVersion: "7" }, data: { k: "v" } };
const notFound = { kind: "Status", apiVersion: "v1", status: "Failure", reason: "NotFound", code: 404, message: "configmaps \"cm\" not found", details: { name: "cm", kind: "configmaps" } };
const invalid = { ...notFound, reason: "Invalid", code: 422, details: { name: "Bad", kind: "ConfigMap", causes: [{ field: "metadata.name", reason: "FieldValueInvalid", message: "m" }] } };

describe("json guards", () => {
  it("pass the expected shape through unchanged", () => {
    expect(expectRecord(configMap, "x")).toBe(configMap);
    expect(expectArray([1], "x")).toEqual([1]);
    expect(arrayOrEmpty(undefined, "x")).toEqual([]);
    expect(arrayOrEmpty(null, "x")).toEqual([]);
    expect(expectString("s", "x")).toBe("s");
  });

  it("fail naming what was expected and what came", () => {
    failsWith(() => expectRecord([1, 2], "the answer"), /^the answer: expected a JSON object, got \[1,2\]$/);
    failsWith(() => expectRecord(undefined, "the answer"), /^the answer: expected a JSON object, got nothing$/);
    failsWith(() => expectArray({ a: 1 }, "items"), /^items: expected an array, got \{"a":1\}$/);
    failsWith(() => arrayOrEmpty("x", "items"), /^items: expected an array, got "x"$/);
    failsWith(() => expectString(5, "metadata.name"), /^metadata.name: expected a string, got 5$/);
    expect(describeJson("y".repeat(300))).toHaveLength(201);
  });
});

describe("object, list and Status bodies", () => {
  it("read a conforming object, list and Status", () => {
    expect(expectObject(configMap, "x").metadata.uid).toBe("u-1");
    expect(metadataOf(configMap).resourceVersion).toBe("7");
    const list = { kind: "ConfigMapList", metadata: { resourceVersion: "9", continue: "t" }, items: [configMap, { metadata: {} }] };
    expect(itemsOf(list)).toHaveLength(2);
    expect(listItems(list, "x")).toHaveLength(2);
    expect(itemNames(list)).toEqual(["cm", "?"]);
    expect(metadataOf(list).continue).toBe("t");
    expect(isStatus(notFound)).toBe(true);
    expect(detailsOf(notFound).kind).toBe("configmaps");
    expect(causesOf(invalid, "x").map((cause) => cause.field)).toEqual(["metadata.name"]);
    expect(causesOf(notFound, "x")).toEqual([]);
  });

  it("fail readably on another shape", () => {
    failsWith(() => expectObject({ kind: "ConfigMap" }, "the created object"), /^the created object: expected an object with metadata, got \{"kind":"ConfigMap"\}$/);
    failsWith(() => expectStatus(configMap, "the 404 answer"), /^the 404 answer: expected a Status, got \{"apiVersion":"v1","kind":"ConfigMap"/);
    failsWith(() => itemNames({ items: { a: 1 } }), /^the list: items: expected an array, got \{"a":1\}$/);
    failsWith(() => listItems({ kind: "ConfigMapList" }, "the list ?limit=1"), /^the list \?limit=1: items: expected an array, got nothing$/);
    failsWith(() => causesOf({ ...invalid, details: { causes: [null] } }, "create"), /^create: details.causes\[0\] of the Status: expected a JSON object, got null$/);
    // Lenient where the cases read optionally: nothing there is undefined, not a failure.
    expect(metadataOf(undefined).name).toBeUndefined();
    expect(itemsOf(undefined)).toEqual([]);
  });
});

describe("answer checks on a non-conforming server", () => {
  it("a create answered with no object fails the case, not with a TypeError", () => {
    expect(checkCreated(answer(201, JSON.stringify(configMap)), "creating cm").metadata.name).toBe("cm");
    failsWith(() => checkCreated(answer(201, "ok"), "creating cm"), /^creating cm: the create answered no JSON object: ok$/);
    failsWith(() => checkCreated(answer(201, '{"kind":"ConfigMap"}'), "creating cm"), /^creating cm: the created object: expected an object with metadata/);
  });

  it("an error answer must be a Status", () => {
    expect(checkFailure(answer(404, JSON.stringify(notFound)), 404, "NotFound", "GET").kind).toBe("Status");
    failsWith(() => checkFailure(answer(404, "[]"), 404, "NotFound", "GET"), /^GET: the 404 answer has no JSON object body/);
    failsWith(() => checkFailure(answer(404, JSON.stringify(configMap)), 404, "NotFound", "GET"), /^GET: kind of the error body: expected "Status", got "ConfigMap"$/);
  });
});
