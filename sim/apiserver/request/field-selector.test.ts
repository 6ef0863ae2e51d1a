import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadReferenceTranscripts, transcriptById, transcriptJson } from "../../../spec/reference-transcripts.ts";
import {
  defaultSelectableFields,
  escapeFieldSelectorValue,
  fieldsOf,
  formatFieldSelector,
  matchesFields,
  parseFieldSelector,
  supportedFieldSelectors,
  unescapeFieldSelectorValue,
} from "./field-selector.ts";
import { SelectorParseError } from "./label-selector.ts";

const transcripts = loadReferenceTranscripts();
const configmapFields = supportedFieldSelectors("configmaps");
const podFields = supportedFieldSelectors("pods");

function parseError(text: string, fields: readonly string[] = configmapFields): string {
  try {
    parseFieldSelector(text, fields);
  } catch (error) {
    expect(error).toBeInstanceOf(SelectorParseError);
    expect((error as SelectorParseError).code).toBe(400);
    expect((error as SelectorParseError).reason).toBe("BadRequest");
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(text)} parsed`);
}

describe("parseFieldSelector", () => {
  it("parses the transcript's metadata.name selector (list-field-selector)", () => {
    expect(parseFieldSelector("metadata.name=cm-2", configmapFields).requirements).toEqual([{ field: "metadata.name", operator: "=", value: "cm-2" }]);
  });

  it("parses =, == and !=, sorting the terms as text", () => {
    expect(parseFieldSelector("metadata.namespace!=b,metadata.name==a", configmapFields).requirements).toEqual([
      { field: "metadata.name", operator: "==", value: "a" },
      { field: "metadata.namespace", operator: "!=", value: "b" },
    ]);
  });

  it("treats the empty selector and empty terms as nothing to check", () => {
    expect(parseFieldSelector("", configmapFields).requirements).toEqual([]);
    expect(parseFieldSelector(",metadata.name=a,,", configmapFields).requirements).toEqual([{ field: "metadata.name", operator: "=", value: "a" }]);
  });

  it("splits at the first operator: the rest is the value, which may be empty", () => {
    expect(parseFieldSelector("metadata.name=", configmapFields).requirements).toEqual([{ field: "metadata.name", operator: "=", value: "" }]);
    expect(parseFieldSelector("metadata.name==", configmapFields).requirements).toEqual([{ field: "metadata.name", operator: "==", value: "" }]);
    expect(parseError("metadata.name===")).toBe("invalid field selector: unescaped character in value: 61");
    expect(parseFieldSelector("metadata.name!=!x", configmapFields).requirements).toEqual([{ field: "metadata.name", operator: "!=", value: "!x" }]);
  });

  it("unescapes \\\\, \\, and \\= in values, and splits terms only on unescaped commas", () => {
    expect(parseFieldSelector("metadata.name=a\\,b\\=c\\\\d", configmapFields).requirements).toEqual([
      { field: "metadata.name", operator: "=", value: "a,b=c\\d" },
    ]);
    expect(parseFieldSelector("metadata.name=a\\\\,metadata.namespace=b", configmapFields).requirements).toEqual([
      { field: "metadata.name", operator: "=", value: "a\\" },
      { field: "metadata.namespace", operator: "=", value: "b" },
    ]);
  });

  it("gives the transcript's message for an unsupported field on a default-conversion resource", () => {
    expect(parseError("data.key=x")).toBe('"data.key" is not a known field selector: only "metadata.name", "metadata.namespace"');
    expect(parseError("=x")).toBe('"" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it("matches transcript list-field-selector-bad exactly", () => {
    const transcript = transcriptById(transcripts, "list-field-selector-bad");
    const status = transcriptJson(transcript) as { message: string; reason: string; code: number };
    const text = new URL(transcript.request.path, "http://x").searchParams.get("fieldSelector")!;
    expect(parseError(text)).toBe(status.message);
    expect([status.code, status.reason]).toEqual([400, "BadRequest"]);
  });

  it("uses 'field label not supported' for resources with their own field list", () => {
    expect(parseError("spec.foo=x", podFields)).toBe("field label not supported: spec.foo");
    expect(parseError("metadata.namespace=x", supportedFieldSelectors("namespaces"))).toBe("field label not supported: metadata.namespace");
    expect(parseError("metadata.namespace=x", supportedFieldSelectors("nodes"))).toBe("field label not supported: metadata.namespace");
  });

  it("does not trim: 'metadata.name = x' names the field 'metadata.name '", () => {
    expect(parseError("metadata.name = x")).toBe('"metadata.name " is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it("reports the first unsupported field in sorted term order", () => {
    expect(parseError("zzz=1,aaa=2")).toBe('"aaa" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it("reports syntax errors with Kubernetes' messages, before any field check", () => {
    expect(parseError("data.key")).toBe("invalid selector: 'data.key'; can't understand 'data.key'");
    expect(parseError("metadata.name=a,oops")).toBe("invalid selector: 'metadata.name=a,oops'; can't understand 'oops'");
    expect(parseError("data.key=a=b")).toBe("invalid field selector: unescaped character in value: 61");
    expect(parseError("metadata.name!==b")).toBe("invalid field selector: unescaped character in value: 61");
    expect(parseError("metadata.name=a\\x")).toBe("invalid field selector: invalid escape sequence: \\x");
    expect(parseError("metadata.name=a\\")).toBe("invalid field selector: invalid escape sequence: \\");
  });

  it("reports the first syntax error in sorted term order", () => {
    expect(parseError("b,a")).toBe("invalid selector: 'b,a'; can't understand 'a'");
  });
});

describe("matchesFields", () => {
  const fields = { "metadata.name": "cm-2", "metadata.namespace": "ref-main" };

  it("matches =, == and != against the field value", () => {
    expect(matchesFields(parseFieldSelector("metadata.name=cm-2", configmapFields), fields)).toBe(true);
    expect(matchesFields(parseFieldSelector("metadata.name==cm-1", configmapFields), fields)).toBe(false);
    expect(matchesFields(parseFieldSelector("metadata.name!=cm-1", configmapFields), fields)).toBe(true);
    expect(matchesFields(parseFieldSelector("metadata.name!=cm-2", configmapFields), fields)).toBe(false);
  });

  it("reads an absent field as empty", () => {
    const pod = parseFieldSelector("spec.nodeName=", podFields);
    expect(matchesFields(pod, { "metadata.name": "p" })).toBe(true);
    expect(matchesFields(parseFieldSelector("spec.nodeName!=", podFields), { "metadata.name": "p" })).toBe(false);
    expect(matchesFields(parseFieldSelector("metadata.namespace=", configmapFields), { "metadata.name": "node-1" })).toBe(true);
  });

  it("requires every term, and matches everything with none", () => {
    const both = parseFieldSelector("metadata.name=cm-2,metadata.namespace=ref-main", configmapFields);
    expect(matchesFields(both, fields)).toBe(true);
    expect(matchesFields(both, { ...fields, "metadata.namespace": "other" })).toBe(false);
    expect(matchesFields(parseFieldSelector("", configmapFields), {})).toBe(true);
  });
});

describe("supportedFieldSelectors", () => {
  it("lists Kubernetes 1.26's selectable fields", () => {
    expect(supportedFieldSelectors("configmaps")).toEqual(["metadata.name", "metadata.namespace"]);
    expect(supportedFieldSelectors("leases")).toBe(defaultSelectableFields);
    expect(supportedFieldSelectors("pods")).toEqual(
      expect.arrayContaining(["spec.nodeName", "status.phase", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName", "status.podIP", "status.nominatedNodeName"]),
    );
    expect(supportedFieldSelectors("secrets")).toEqual(expect.arrayContaining(["type", "metadata.name", "metadata.namespace"]));
    expect(supportedFieldSelectors("namespaces")).toEqual(expect.arrayContaining(["status.phase", "metadata.name"]));
    expect(supportedFieldSelectors("nodes")).toEqual(expect.arrayContaining(["spec.unschedulable", "metadata.name"]));
    expect(supportedFieldSelectors("events")).toEqual(expect.arrayContaining(["involvedObject.name", "involvedObject.uid", "reason", "source", "type"]));
  });

  it("offers in fieldsOf every field it supports, for each resource with its own list", () => {
    for (const resource of ["configmaps", "pods", "nodes", "namespaces", "secrets", "events", "replicationcontrollers"]) {
      const offered = Object.keys(fieldsOf(resource, { metadata: { name: "x" } }));
      expect([...offered].sort(), resource).toEqual([...supportedFieldSelectors(resource)].sort());
    }
  });
});

describe("fieldsOf", () => {
  it("gives name and namespace for plain resources", () => {
    expect(fieldsOf("configmaps", { metadata: { name: "cm-2", namespace: "ref-main" }, data: { key: "x" } })).toEqual({
      "metadata.name": "cm-2",
      "metadata.namespace": "ref-main",
    });
    expect(fieldsOf("clusterroles", { metadata: { name: "admin" } })).toEqual({ "metadata.name": "admin", "metadata.namespace": "" });
  });

  it("gives a pod's spec and status fields, the first podIPs entry winning over podIP", () => {
    const pod = {
      metadata: { name: "p", namespace: "ns" },
      spec: { nodeName: "node-1", restartPolicy: "Always", schedulerName: "default-scheduler", serviceAccountName: "default" },
      status: { phase: "Running", podIP: "10.0.0.9", podIPs: [{ ip: "10.0.0.1" }, { ip: "fd00::1" }], nominatedNodeName: "node-2" },
    };
    expect(fieldsOf("pods", pod)).toEqual({
      "metadata.name": "p",
      "metadata.namespace": "ns",
      "spec.nodeName": "node-1",
      "spec.restartPolicy": "Always",
      "spec.schedulerName": "default-scheduler",
      "spec.serviceAccountName": "default",
      "status.phase": "Running",
      "status.podIP": "10.0.0.1",
      "status.nominatedNodeName": "node-2",
    });
    expect(fieldsOf("pods", { metadata: { name: "p" }, status: { podIP: "10.0.0.9" } })["status.podIP"]).toBe("10.0.0.9");
    expect(fieldsOf("pods", { metadata: { name: "p" } })["spec.nodeName"]).toBe("");
  });

  it("selects unscheduled pods with spec.nodeName= and running ones with status.phase", () => {
    const scheduled = fieldsOf("pods", { metadata: { name: "a" }, spec: { nodeName: "n1" }, status: { phase: "Running" } });
    const pending = fieldsOf("pods", { metadata: { name: "b" }, spec: {}, status: { phase: "Pending" } });
    const unscheduled = parseFieldSelector("spec.nodeName=", podFields);
    expect([matchesFields(unscheduled, scheduled), matchesFields(unscheduled, pending)]).toEqual([false, true]);
    const notRunning = parseFieldSelector("status.phase!=Running", podFields);
    expect([matchesFields(notRunning, scheduled), matchesFields(notRunning, pending)]).toEqual([false, true]);
  });

  it("gives nodes spec.unschedulable as true/false, namespaces status.phase, secrets type", () => {
    expect(fieldsOf("nodes", { metadata: { name: "n" }, spec: { unschedulable: true } })).toEqual({ "metadata.name": "n", "spec.unschedulable": "true" });
    expect(fieldsOf("nodes", { metadata: { name: "n" } })["spec.unschedulable"]).toBe("false");
    expect(fieldsOf("namespaces", { metadata: { name: "ns" }, status: { phase: "Terminating" } })).toEqual({ "metadata.name": "ns", "status.phase": "Terminating" });
    expect(fieldsOf("secrets", { metadata: { name: "s", namespace: "ns" }, type: "kubernetes.io/tls" })["type"]).toBe("kubernetes.io/tls");
    expect(fieldsOf("replicationcontrollers", { metadata: { name: "rc" }, status: { replicas: 3 } })["status.replicas"]).toBe("3");
  });

  it("gives events their involvedObject fields, and source falling back to the reporting controller", () => {
    const event = {
      metadata: { name: "e", namespace: "ns" },
      involvedObject: { kind: "Pod", namespace: "ns", name: "p", uid: "u-1", apiVersion: "v1", resourceVersion: "7", fieldPath: "spec.containers{c}" },
      reason: "Scheduled",
      source: { component: "default-scheduler" },
      reportingComponent: "kubelet",
      type: "Normal",
    };
    expect(fieldsOf("events", event)).toEqual({
      "metadata.name": "e",
      "metadata.namespace": "ns",
      "involvedObject.kind": "Pod",
      "involvedObject.namespace": "ns",
      "involvedObject.name": "p",
      "involvedObject.uid": "u-1",
      "involvedObject.apiVersion": "v1",
      "involvedObject.resourceVersion": "7",
      "involvedObject.fieldPath": "spec.containers{c}",
      reason: "Scheduled",
      reportingComponent: "kubelet",
      source: "default-scheduler",
      type: "Normal",
    });
    expect(fieldsOf("events", { metadata: { name: "e" }, reportingComponent: "kubelet" })["source"]).toBe("kubelet");
  });
});

describe("properties", () => {
  it("escape then parse gives any value back", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "\\", ",", "=", "!", " ", "é") }), (value) => {
        expect(unescapeFieldSelectorValue(escapeFieldSelectorValue(value))).toBe(value);
        const parsed = parseFieldSelector(`metadata.name=${escapeFieldSelectorValue(value)}`, configmapFields);
        expect(parsed.requirements).toEqual([{ field: "metadata.name", operator: "=", value }]);
      }),
    );
  });

  it("format then parse gives the selector back, and = and != disagree on every object", () => {
    const term = fc.record({
      field: fc.constantFrom(...podFields),
      operator: fc.constantFrom("=" as const, "==" as const, "!=" as const),
      value: fc.string({ unit: fc.constantFrom("a", "b", "\\", ",", "="), maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.array(term, { maxLength: 4 }), fc.dictionary(fc.constantFrom(...podFields), fc.constantFrom("", "a", "b", ",")), (terms, fields) => {
        const reparsed = parseFieldSelector(formatFieldSelector({ requirements: terms }), podFields);
        expect(reparsed.requirements).toHaveLength(terms.length);
        expect(new Set(reparsed.requirements.map((r) => JSON.stringify(r)))).toEqual(new Set(terms.map((r) => JSON.stringify(r))));
        for (const { field, value } of terms) {
          const equal = matchesFields(parseFieldSelector(`${field}=${escapeFieldSelectorValue(value)}`, podFields), fields);
          const notEqual = matchesFields(parseFieldSelector(`${field}!=${escapeFieldSelectorValue(value)}`, podFields), fields);
          expect(equal).toBe(!notEqual);
        }
      }),
    );
  });
});
