/**
 * The checks of the representations cases against what a real kube-apiserver 1.26 answered
 * (spec/reference/kube-apiserver-1.26: transcripts table-*, accept-*, protobuf-*,
 * watch-protobuf, watch-as-table): every check a case makes must hold on those answers, and must
 * refuse the answers a broken server would give.
 */
import { describe, expect, it } from "vitest";
import { loadReferenceTranscripts, transcriptById, transcriptJson, type Transcript } from "../../../spec/reference-transcripts.ts";
import { dialectByName } from "../../../spec/dialects.ts";
import { tableForList } from "../../../sim/apiserver/table/table.ts";
import { CaseFailure } from "../../case-outcome.ts";
import type { ApiResponse } from "../../client/conformance-client.ts";
import { fieldAt, recordOf } from "../../client/json-fields.ts";
import { checkContentType } from "./media-types.ts";
import { metadataOf } from "./object-body.ts";
import { checkProtobufObject, checkSameObject, firstDifference, protobufWatchFrames, readEnvelope } from "./protobuf-envelope.ts";
import { checkFailure } from "./status-answers.ts";
import { checkDefaultTable, checkTable, rowNames } from "./tables.ts";

const transcripts = loadReferenceTranscripts();
const PROTOBUF = "application/vnd.kubernetes.protobuf";
const META = "meta.k8s.io";

function bytesOf(transcript: Transcript): Uint8Array {
  const base64 = transcript.response.body.base64;
  if (base64 === undefined) throw new Error(`transcript ${transcript.id} has no binary body`);
  return new Uint8Array(Buffer.from(base64, "base64"));
}

/** A transcript's response in the shape the case checks read. */
function response(transcript: Transcript): ApiResponse {
  const text = transcript.response.body.text ?? "";
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: transcript.response.status, headers: new Headers(transcript.response.headers), bytes: new TextEncoder().encode(text), text, json };
}

describe("representations checks on the reference answers of kube-apiserver 1.26", () => {
  const get = (id: string) => transcriptById(transcripts, id);

  it("Tables of lists and of one object pass checkTable; rows name their objects", () => {
    for (const id of ["table-pods", "table-nodes", "table-configmaps", "table-configmap-one", "table-leases", "table-kubectl-accept", "table-namespaces-none"]) {
      const transcript = get(id);
      checkContentType(response(transcript), "application/json", id);
      const table = checkTable(transcriptJson(transcript), META, id);
      const names = rowNames(table, table.columns!, id);
      expect(names.length, id).toBe(table.rows.length);
      for (const [index, row] of table.rows.entries()) if (row.object !== null) expect(names[index], id).toBe(metadataOf(row.object).name);
    }
    const one = checkTable(transcriptJson(get("table-configmap-one")), META, "table-configmap-one");
    expect(rowNames(one, one.columns!, "table-configmap-one")).toEqual(["cm-1"]);
  });

  it("every event of watch-as-table is a one-row Table; only the first carries the columns", () => {
    const lines = get("watch-as-table").response.body.text!.split("\n").filter((line) => line.trim() !== "");
    // The recording is cut at 24,000 characters; the lines kept whole parse.
    const events = lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as unknown];
      } catch {
        return [];
      }
    });
    expect(events.length).toBeGreaterThanOrEqual(3);
    for (const [index, event] of events.entries()) {
      const table = checkTable(recordOf(event).object, META, `event ${index + 1}`, index === 0 ? "required" : "optional");
      expect(table.rows.length).toBe(1);
    }
    expect(fieldAt(events[1], "object", "columnDefinitions")).toBeNull();
  });

  it("the Protobuf answers pass the envelope checks and decode to the JSON object", () => {
    const cases: Array<[string, string, string]> = [
      ["protobuf-get-configmap", "v1", "ConfigMap"],
      ["protobuf-get-namespace", "v1", "Namespace"],
      ["protobuf-get-pod", "v1", "Pod"],
      ["protobuf-get-lease", "coordination.k8s.io/v1", "Lease"],
      ["protobuf-list-configmaps", "v1", "ConfigMapList"],
      ["protobuf-get-missing", "v1", "Status"],
    ];
    for (const [id, apiVersion, kind] of cases) {
      const transcript = get(id);
      checkContentType(response(transcript), PROTOBUF, id);
      const envelope = readEnvelope(bytesOf(transcript), id);
      expect(envelope.typeMeta, id).toEqual({ apiVersion, kind });
      checkProtobufObject(bytesOf(transcript), { apiVersion, kind }, PROTOBUF, id);
    }
    // cm-1 at resourceVersion 262 in both: protobuf-get-configmap and accept-fallback (JSON).
    const decoded = checkProtobufObject(bytesOf(get("protobuf-get-configmap")), { apiVersion: "v1", kind: "ConfigMap" }, PROTOBUF, "configmap");
    checkSameObject(decoded, transcriptJson(get("accept-fallback")), "cm-1");
    const status = checkProtobufObject(bytesOf(get("protobuf-get-missing")), { apiVersion: "v1", kind: "Status" }, PROTOBUF, "missing");
    expect([status.status, status.reason, status.code]).toEqual(["Failure", "NotFound", 404]);
  });

  it("the binary watch splits into frames whose objects pass the envelope checks", () => {
    const transcript = get("watch-protobuf");
    checkContentType(response(transcript), PROTOBUF, "watch-protobuf");
    const frames = protobufWatchFrames(bytesOf(transcript), "watch-protobuf");
    const seen = frames.map((frame) => {
      const object = checkProtobufObject(frame.object, { apiVersion: "v1", kind: "ConfigMap" }, PROTOBUF, frame.type);
      return [frame.type, metadataOf(object).name];
    });
    expect(seen.slice(0, 3)).toEqual([
      ["ADDED", "w-1"],
      ["MODIFIED", "w-1"],
      ["DELETED", "w-1"],
    ]);
  });

  it("negotiation answers: fallback to JSON, 406 Status for nothing served", () => {
    checkContentType(response(get("accept-fallback")), "application/json", "accept-fallback");
    expect(recordOf(response(get("accept-fallback")).json).kind).toBe("ConfigMap");
    checkFailure(response(get("accept-xml")), 406, "NotAcceptable", "accept-xml");
    checkFailure(response(get("table-sar-only")), 406, "NotAcceptable", "table-sar-only");
  });
});

describe("representations checks refuse broken answers", () => {
  const fails = (work: () => unknown, pattern: RegExp) => {
    expect(work).toThrow(CaseFailure);
    expect(work).toThrow(pattern);
  };

  it("a Protobuf body with another prefix is rejected, as a client must", () => {
    const body = Uint8Array.of(0x6b, 0x38, 0x73, 0x01, 0x0a, 0x00);
    fails(() => readEnvelope(body, "body"), /must start with the bytes 6b 38 73 00, this one starts with 6b 38 73 01/);
    fails(() => checkProtobufObject(body, { apiVersion: "v1", kind: "ConfigMap" }, PROTOBUF, "body"), /client must reject/);
  });

  it("an envelope with a field Unknown does not have, or an encoding, is refused", () => {
    fails(() => readEnvelope(Uint8Array.of(0x6b, 0x38, 0x73, 0x00, 0x2a, 0x00), "body"), /field 5/);
    // typeMeta {apiVersion "v1", kind "ConfigMap"}, raw "x", contentEncoding "gzip".
    const typeMeta = [0x0a, 0x02, 0x76, 0x31, 0x12, 0x09, ...Buffer.from("ConfigMap")];
    const body = Uint8Array.of(0x6b, 0x38, 0x73, 0x00, 0x0a, typeMeta.length, ...typeMeta, 0x12, 0x01, 0x78, 0x1a, 0x04, ...Buffer.from("gzip"));
    expect(readEnvelope(body, "body").contentEncoding).toBe("gzip");
    fails(() => checkProtobufObject(body, { apiVersion: "v1", kind: "ConfigMap" }, PROTOBUF, "body"), /contentEncoding is "gzip"/);
  });

  it("a Table of the wrong apiVersion, or a column without a type, is refused", () => {
    const dialect = dialectByName("kubernetes");
    const object = { metadata: { name: "x", creationTimestamp: "2026-11-21T12:54:46Z", uid: "u", resourceVersion: "1" }, data: { k: "v" } };
    const table = tableForList({ group: "", version: "v1", kind: "ConfigMap", resource: "configmaps" }, [object], { resourceVersion: "1" }, undefined, { nowMs: () => 0 }, dialect);
    checkTable(table, META, "table");
    fails(() => checkTable({ ...table, apiVersion: `${META}/v1beta1` }, META, "table"), /apiVersion/);
    fails(() => checkTable({ ...table, columnDefinitions: [{ name: "Name" }] }, META, "table"), /has no type/);
    fails(() => checkTable({ ...table, kind: "ConfigMapList" }, META, "table"), /kind/);
  });

  it("the default Table check accepts Name and Created At only", () => {
    const dialect = dialectByName("kubernetes");
    const object = { metadata: { name: "x", creationTimestamp: "2026-11-21T12:54:46Z", uid: "u", resourceVersion: "1" } };
    // A type without columns of its own gets the default Table (as CustomResourceDefinitions do in Kubernetes).
    const table = tableForList({ group: "example.com", version: "v1", kind: "Widget", resource: "widgets" }, [object], { resourceVersion: "1" }, undefined, { nowMs: () => 0 }, dialect);
    const checked = checkTable(table, META, "default");
    checkDefaultTable(checked, "default");
    fails(() => checkDefaultTable({ ...checked, columns: checked.columns!.slice(0, 1) }, "default"), /Created At/);
    fails(() => checkDefaultTable({ ...checked, rows: [{ ...checked.rows[0]!, cells: ["x", "2020-01-01T00:00:00Z"] }] }, "default"), /Created At cell/);
  });

  it("firstDifference names the path where two objects differ", () => {
    expect(firstDifference({ a: { b: [1, 2] } }, { a: { b: [1, 3] } })).toBe("a.b[1]: 2 vs 3");
    expect(firstDifference({ a: 1 }, { a: 1 })).toBeUndefined();
    expect(firstDifference({ a: 1 }, {})).toBe("a: 1 vs absent");
  });
});
