/**
 * The schema against a real kube-apiserver 1.26 (transcripts in spec/reference): every
 * recorded Protobuf response decodes to the JSON the same server sent for the same object, and our
 * encoding of that JSON is the server's bytes, byte for byte.
 */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { loadReferenceTranscripts, readTranscriptFile, referenceDir, SCALE_AND_REVIEWS_FILE, transcriptById, transcriptJson, type Transcript } from "../../../spec/reference-transcripts.ts";
import { decodeObject, encodeObject, type JsonObject } from "./envelope.ts";
import { encodeWatchEvent, WatchFrameReader } from "./watch-frames.ts";

const t = loadReferenceTranscripts();
const scaleAndReviews = new Map(readTranscriptFile(join(referenceDir, SCALE_AND_REVIEWS_FILE)).map((transcript) => [transcript.id, transcript]));

function bytesOf(transcript: Transcript): Uint8Array {
  const base64 = transcript.response.body.base64;
  if (base64 === undefined) throw new Error(`transcript ${transcript.id} has no binary body`);
  return new Uint8Array(Buffer.from(base64, "base64"));
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

/** Protobuf transcripts whose object the same server also sent as JSON (the twin's body text). */
const TWINS = [
  { protobuf: "protobuf-get-configmap", json: "accept-fallback", what: "ConfigMap cm-1 (GET as JSON, same resourceVersion 262)" },
  { protobuf: "protobuf-get-namespace", json: "namespace-create", what: "Namespace ref-main (POST answer, same resourceVersion 250)" },
  { protobuf: "protobuf-get-pod", json: "pod-create", what: "Pod p1 (POST answer, same resourceVersion 275)" },
  { protobuf: "protobuf-get-missing", json: "get-missing", what: "404 Status for configmaps/nope" },
] as const;

describe("Protobuf against kube-apiserver 1.26", () => {
  describe("decoding the recorded Protobuf gives the JSON the server sent for the same object", () => {
    for (const twin of TWINS) {
      it(`${twin.protobuf}: ${twin.what}, text for text`, () => {
        const decoded = decodeObject(bytesOf(transcriptById(t, twin.protobuf)));
        // The same text: values, and also the field order of Go's encoding/json.
        expect(JSON.stringify(decoded.object)).toBe(transcriptById(t, twin.json).response.body.text!.trimEnd());
      });
    }

    it("protobuf-list-configmaps: the items are list-page-1's; the list metadata is this list's own", () => {
      const decoded = decodeObject(bytesOf(transcriptById(t, "protobuf-list-configmaps")));
      const jsonList = transcriptJson(transcriptById(t, "list-page-1")) as JsonObject;
      expect(decoded.kind).toBe("ConfigMapList");
      // Recorded later than list-page-1 (after more writes): same first page, newer list resourceVersion.
      expect(decoded.object["items"]).toEqual(jsonList["items"]);
      expect(decoded.object["metadata"]).toEqual({
        resourceVersion: "275",
        continue: "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6Mjc1LCJzdGFydCI6ImNtLTFcdTAwMDAifQ",
        remainingItemCount: 4,
      });
      expect(JSON.parse(Buffer.from(String((decoded.object["metadata"] as JsonObject)["continue"]), "base64url").toString())).toEqual({
        v: "meta.k8s.io/v1",
        rv: 275,
        start: "cm-1\u0000",
      });
    });

    it("protobuf-get-lease: the spec node-lease-create sent and the metadata table-leases shows for it", () => {
      // No JSON GET of the Lease was recorded; its spec is the one the (409) create attempt sent and
      // its metadata is the PartialObjectMetadata row of the Lease table, both of the same object.
      const decoded = decodeObject(bytesOf(transcriptById(t, "protobuf-get-lease")));
      const createBody = transcriptById(t, "node-lease-create").request as unknown as { body: { spec: JsonObject } };
      const table = transcriptJson(transcriptById(t, "table-leases")) as { rows: Array<{ object: { metadata: JsonObject } }> };
      expect(decoded.object).toEqual({
        kind: "Lease",
        apiVersion: "coordination.k8s.io/v1",
        metadata: table.rows[0]!.object.metadata,
        spec: createBody.body.spec,
      });
      // MicroTime keeps its six fraction digits.
      expect((decoded.object["spec"] as JsonObject)["renewTime"]).toBe("2026-11-21T12:00:00.000000Z");
    });

    it("watch-protobuf: 4-byte big-endian length frames of a bare WatchEvent whose object is a full Protobuf body; the events are watch-from-rv's", () => {
      const stream = bytesOf(transcriptById(t, "watch-protobuf"));
      // The frame payload starts with WatchEvent field 1 (0x0a), not with the "k8s\0" prefix …
      expect(new DataView(stream.buffer, stream.byteOffset).getUint32(0, false)).toBe(210);
      expect(stream[4]).toBe(0x0a);
      // … and the object inside it does carry the prefix and the Unknown envelope.
      expect(hex(stream).indexOf(hex(Uint8Array.of(0x6b, 0x38, 0x73, 0x00, 0x0a)))).toBeGreaterThan(0);

      const reader = new WatchFrameReader();
      const events = reader.push(stream);
      reader.end();
      const jsonLines = transcriptById(t, "watch-from-rv").response.body.text!.split("\n").filter((line) => line !== "");
      expect(events.map((event) => event.type)).toEqual(["ADDED", "MODIFIED", "DELETED", "MODIFIED"]);
      // The JSON watch from the same resourceVersion saw the same first four events.
      expect(events.map((event) => JSON.stringify({ type: event.type, object: event.object }))).toEqual(jsonLines.slice(0, 4));
    });
  });

  describe("our encoding is the server's bytes", () => {
    for (const id of ["protobuf-get-configmap", "protobuf-get-namespace", "protobuf-list-configmaps", "protobuf-get-pod", "protobuf-get-lease", "protobuf-get-missing"]) {
      it(`${id}: decode, encode again, same bytes`, () => {
        const recorded = bytesOf(transcriptById(t, id));
        const { apiVersion, kind, object } = decodeObject(recorded);
        expect(hex(encodeObject(apiVersion, kind, object))).toBe(hex(recorded));
      });
    }

    for (const twin of TWINS) {
      it(`${twin.json} (the JSON) encodes to ${twin.protobuf}'s bytes, and decodes back to itself`, () => {
        const json = transcriptJson(transcriptById(t, twin.json)) as JsonObject;
        const encoded = encodeObject(String(json["apiVersion"]), String(json["kind"]), json);
        expect(hex(encoded)).toBe(hex(bytesOf(transcriptById(t, twin.protobuf))));
        expect(decodeObject(encoded).object).toEqual(json);
      });
    }

    // Objects the server sent only as JSON: through Protobuf and back, the same text (Go's field order included).
    for (const id of ["sar", "create-invalid-name", "get-rv-future", "get-finalizing", "service-create", "list-unpaged", "delete-plain", "namespace-terminating"]) {
      it(`${id}: the JSON answer round-trips through Protobuf text for text`, () => {
        const text = transcriptById(t, id).response.body.text!.trimEnd();
        const json = JSON.parse(text) as JsonObject;
        const decoded = decodeObject(encodeObject(String(json["apiVersion"]), String(json["kind"]), json));
        expect(JSON.stringify(decoded.object)).toBe(text);
      });
    }

    // The scale subresource and the reviews (transcripts-scale-and-reviews.jsonl, recorded 2026-11-28).
    for (const [protobuf, json, what] of [
      ["scale-get-protobuf", "scale-get", "Deployment web's Scale (GET as JSON, same resourceVersion 202)"],
      ["ssr-v1alpha1-protobuf-gate", "ssr-v1alpha1-restricted-gate", "the ServiceAccount's SelfSubjectReview (same second)"],
    ] as const) {
      it(`${json} (the JSON) encodes to ${protobuf}'s bytes: ${what}`, () => {
        const jsonText = transcriptById(scaleAndReviews, json).response.body.text!.trimEnd();
        const object = JSON.parse(jsonText) as JsonObject;
        const recorded = bytesOf(transcriptById(scaleAndReviews, protobuf));
        expect(hex(encodeObject(String(object["apiVersion"]), String(object["kind"]), object))).toBe(hex(recorded));
        expect(JSON.stringify(decodeObject(recorded).object)).toBe(jsonText);
      });
    }

    for (const id of ["scale-put-protobuf-accept", "ssrr-protobuf"]) {
      it(`${id}: decode, encode again, same bytes`, () => {
        const recorded = bytesOf(transcriptById(scaleAndReviews, id));
        const { apiVersion, kind, object } = decodeObject(recorded);
        expect(hex(encodeObject(apiVersion, kind, object))).toBe(hex(recorded));
      });
    }

    it("ssrr-protobuf holds the rules ssrr-restricted sent as JSON (non-resource rules in Go's map order, which varies)", () => {
      const decoded = decodeObject(bytesOf(transcriptById(scaleAndReviews, "ssrr-protobuf"))).object as { status: { resourceRules: unknown[]; nonResourceRules: unknown[] } };
      const json = transcriptJson(transcriptById(scaleAndReviews, "ssrr-restricted")) as typeof decoded;
      expect(decoded.status.resourceRules).toEqual(json.status.resourceRules);
      const sorted = (rules: unknown[]) => rules.map((rule) => JSON.stringify(rule)).sort();
      expect(sorted(decoded.status.nonResourceRules)).toEqual(sorted(json.status.nonResourceRules));
      expect(JSON.stringify({ ...decoded, status: { ...decoded.status, nonResourceRules: json.status.nonResourceRules } })).toBe(JSON.stringify(json));
    });

    it("watch-protobuf: the four events, encoded as frames, are the recorded stream", () => {
      const recorded = bytesOf(transcriptById(t, "watch-protobuf"));
      const reader = new WatchFrameReader();
      const frames = reader.push(recorded).map((event) => encodeWatchEvent(event.type, event.apiVersion, event.kind, event.object));
      expect(hex(Buffer.concat(frames))).toBe(hex(recorded));
    });
  });
});
