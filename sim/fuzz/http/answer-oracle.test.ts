/** The rules every answer must keep, and the documented exceptions to them (issue #14). */
import { describe, expect, it } from "vitest";
import { judgeAnswer, type Outcome } from "./answer-oracle.ts";
import { encodeObject } from "../../apiserver/protobuf/index.ts";
import type { FuzzRequest } from "./fuzz-request.ts";
import { changedObjects } from "./lane-objects.ts";

const request = (rest: Partial<FuzzRequest> = {}): FuzzRequest => ({ lane: 0, method: "GET", path: "/api/v1/namespaces/$NS$/configmaps", query: "", headers: [], intent: "test", ...rest });
const answer = (status: number, contentType: string | undefined, body: string | Uint8Array): Outcome => ({
  kind: "answer",
  status,
  headers: new Map(contentType === undefined ? [] : [["content-type", contentType]]),
  body: typeof body === "string" ? new TextEncoder().encode(body) : body,
  cut: false,
});
const status = (code: number, extra: Record<string, unknown> = {}) => JSON.stringify({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: "m", code, ...extra });
const rules = (outcome: Outcome, target: "embedded" | "remote" = "embedded", sent = request()) => judgeAnswer(sent, outcome, target).findings.map((finding) => finding.rule);

describe("judgeAnswer", () => {
  it("takes an error whose body is a Status with its own code, in JSON, YAML or Protobuf", () => {
    expect(judgeAnswer(request(), answer(404, "application/json", status(404)), "embedded")).toEqual({ findings: [], exceptions: [], statusBody: true });
    expect(rules(answer(422, "application/yaml", "kind: Status\napiVersion: v1\nstatus: Failure\ncode: 422\n"))).toEqual([]);
    const protobuf = encodeObject("v1", "Status", { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: "m", code: 409 });
    expect(rules(answer(409, "application/vnd.kubernetes.protobuf", protobuf))).toEqual([]);
  });

  it("finds an error that is not a Status, or whose code is not the HTTP status", () => {
    expect(rules(answer(400, undefined, ""))).toEqual(["error-is-status"]);
    expect(rules(answer(400, "application/json", status(422)))).toEqual(["error-is-status"]);
    expect(rules(answer(400, "application/json", '{"kind":"Status"'))).toEqual(["error-is-status"]);
    expect(judgeAnswer(request(), answer(400, "application/json", status(422)), "embedded").findings[0]?.signature).toBe("error-is-status:400:Status code 422");
  });

  it("finds a 5xx unless it is documented; Kubernetes' own 500s only from a remote server", () => {
    expect(rules(answer(500, "application/json", status(500, { message: "internal error: boom" })))).toEqual(["no-5xx"]);
    expect(rules(answer(504, "application/json", status(504, { message: "Timeout: Too large resource version: 9, current: 3" })))).toEqual([]);
    const unparseable = answer(500, "application/json", status(500, { message: 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax' }));
    expect(rules(unparseable, "embedded")).toEqual(["no-5xx"]);
    expect(judgeAnswer(request(), unparseable, "remote").exceptions).toEqual(["unparseable-resource-version-500"]);
  });

  it("counts Kubernetes' plain-text answers (404 page not found, Go's 400) instead of finding them", () => {
    expect(judgeAnswer(request(), answer(404, "text/plain; charset=utf-8", "404 page not found\n"), "embedded").exceptions).toEqual(["plain-404"]);
    expect(judgeAnswer(request(), answer(400, "text/plain; charset=utf-8", "400 Bad Request"), "embedded").exceptions).toEqual(["go-plain-400"]);
    expect(rules(answer(404, "text/plain; charset=utf-8", "not here"))).toEqual(["error-is-status"]);
  });

  it("finds a missing answer, except where the request promised more body than it sent", () => {
    const none: Outcome = { kind: "no-answer", why: "timeout", detail: "no answer within 1000 ms" };
    expect(rules(none)).toEqual(["answers"]);
    expect(judgeAnswer(request({ method: "POST", body: { text: "{}" }, lengthLie: "long" }), none, "embedded").exceptions).toEqual(["declared-length-longer"]);
    // Kubernetes' own dropped connection (a JSON patch test without a value) is counted only for a remote server.
    const panic = request({ method: "PATCH", body: { text: '[{"op":"test","path":"data/k"}]' } });
    expect(judgeAnswer(panic, none, "remote").exceptions).toEqual(["json-patch-without-value-no-answer"]);
    expect(rules(none, "embedded", panic)).toEqual(["answers"]);
    expect(rules(none, "remote", request({ method: "PATCH", body: { text: '[{"op":"test","path":"/data/k","value":"v"}]' } }))).toEqual(["answers"]);
  });

  it("finds a success body that does not decode in its media type, and reads JSON lines and indented JSON", () => {
    expect(rules(answer(200, "application/json", "{not json"))).toEqual(["success-decodes"]);
    expect(rules(answer(200, "application/json", '{"type":"ADDED"}\n{"type":"DELETED"}\n'))).toEqual([]);
    expect(rules(answer(200, "application/json", '{\n  "kind": "ConfigMapList"\n}'))).toEqual([]);
    expect(rules(answer(200, "application/vnd.kubernetes.protobuf", "plain text"))).toEqual(["success-decodes"]);
  });
});

describe("changedObjects", () => {
  it("names objects added, removed or changed between two snapshots", () => {
    const snapshot = (objects: Record<string, object>) => ({ objects: new Map(Object.entries(objects)), resourceVersion: "1" });
    const before = snapshot({ a: { metadata: { resourceVersion: "5" } }, b: { metadata: { resourceVersion: "6" } } });
    expect(changedObjects(before, snapshot({ a: { metadata: { resourceVersion: "5" } }, b: { metadata: { resourceVersion: "6" } } }))).toEqual([]);
    expect(changedObjects(before, snapshot({ a: { metadata: { resourceVersion: "7" } }, c: {} }))).toEqual(["a", "b", "c"]);
  });
});
