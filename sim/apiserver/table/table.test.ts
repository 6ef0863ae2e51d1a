import { describe, expect, it } from "vitest";
import { dialectByName } from "../../../spec/dialects.ts";
import { loadReferenceTranscripts, transcriptById, transcriptJson, type Transcript } from "../../../spec/reference-transcripts.ts";
import { ApiError } from "../responses/api-error.ts";

import { resourceTypes, type ResourceType } from "../routing/resource-types.ts";
import { configMapColumns, defaultColumns, leaseColumns, namespaceColumns, nodeColumns, podColumns } from "./columns.ts";
import { parseTimestamp } from "./human-duration.ts";
import { asPartialObjectMetadataList, partialObjectMetadataMismatch } from "./partial-object-metadata.ts";
import { parseIncludeObject, tableForList, tableForObject, tableForWatchEvent, watchTableTransform, type ApiObject, type Table } from "./table.ts";
import { goJson } from "../responses/go-text.ts";

const kubernetes = dialectByName("kubernetes");
const orb = dialectByName("orb");

function typeOf(resource: string, dialect = kubernetes): ResourceType {
  const found = resourceTypes(dialect).find((type) => type.resource === resource);
  if (found === undefined) throw new Error(`no type ${resource}`);
  return found;
}

function clockAt(iso: string): { nowMs(): number } {
  const ms = parseTimestamp(iso)!;
  return { nowMs: () => ms };
}

const all = loadReferenceTranscripts();

/**
 * Every full object the transcripts show (responses, list items, watch events), by uid and
 * resourceVersion: the Table transcripts carry only metadata, so their rows are recomputed from
 * the objects as they were at that resourceVersion.
 */
function objectIndex(all: ReadonlyMap<string, Transcript>): Map<string, ApiObject> {
  const index = new Map<string, ApiObject>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (value === null || typeof value !== "object") return;
    const object = value as Record<string, unknown>;
    const metadata = object["metadata"] as Record<string, unknown> | undefined;
    const kind = object["kind"];
    if (metadata?.["uid"] !== undefined && kind !== "PartialObjectMetadata" && kind !== "Table") {
      index.set(`${String(metadata["uid"])}@${String(metadata["resourceVersion"])}`, object);
    }
    Object.values(object).forEach(visit);
  };
  for (const transcript of all.values()) {
    const text = transcript.response.body.text;
    if (text === undefined) continue;
    for (const line of text.split("\n")) {
      try {
        visit(JSON.parse(line));
      } catch {
        // not JSON (YAML, plain text)
      }
    }
  }
  return index;
}

/** The objects behind a Table transcript's rows: found in the index, else the row's metadata alone. */
function rowObjects(table: Table, index: Map<string, ApiObject>, extra: Readonly<Record<string, ApiObject>> = {}): ApiObject[] {
  return (table.rows ?? []).map((row) => {
    const metadata = (row.object as { metadata: Record<string, unknown> }).metadata;
    const found = index.get(`${String(metadata["uid"])}@${String(metadata["resourceVersion"])}`);
    return { ...(found ?? { metadata }), ...(extra[String(metadata["name"])] ?? {}) };
  });
}

// The transcripts were recorded at 12:54:56.x: p1, created 12:54:56, is "0s" old, and node-a,
// created 12:53:27, is "89s" old (table-pods, table-nodes); the configmaps of 12:54:46 are "10s".
const RECORDED_AT = "2026-11-21T12:54:56.500Z";
// The watch-as-table events went out at 12:54:53.x: w-1 (12:54:53) is "0s", cm-2 (12:54:46) "7s".
const WATCH_RECORDED_AT = "2026-11-21T12:54:53.500Z";

describe("Tables against the kube-apiserver 1.26 transcripts", () => {
  const index = objectIndex(all);
  const body = (id: string): Table => transcriptJson(transcriptById(all, id)) as Table;

  it("has Kubernetes' column definitions for pods, nodes, configmaps, leases and namespaces", () => {
    expect(podColumns).toEqual(body("table-pods").columnDefinitions);
    expect(nodeColumns).toEqual(body("table-nodes").columnDefinitions);
    expect(configMapColumns).toEqual(body("table-configmaps").columnDefinitions);
    expect(configMapColumns).toEqual(body("table-configmap-one").columnDefinitions);
    expect(leaseColumns).toEqual(body("table-leases").columnDefinitions);
    expect(namespaceColumns).toEqual(body("table-namespaces-none").columnDefinitions);
  });

  it("answers the Table of pods exactly (table-pods)", () => {
    const expected = body("table-pods");
    const table = tableForList(typeOf("pods"), rowObjects(expected, index), { resourceVersion: "275" }, undefined, clockAt(RECORDED_AT), kubernetes);
    expect(table).toEqual(expected);
    expect(goJson(table)).toBe(transcriptById(all, "table-pods").response.body.text);
  });

  it("answers the Table of nodes exactly (table-nodes)", () => {
    const expected = body("table-nodes");
    const table = tableForList(typeOf("nodes"), rowObjects(expected, index), { resourceVersion: "275" }, "Metadata", clockAt(RECORDED_AT), kubernetes);
    expect(table).toEqual(expected);
  });

  it("answers the Table of configmaps exactly (table-configmaps, table-kubectl-accept)", () => {
    for (const id of ["table-configmaps", "table-kubectl-accept"]) {
      const expected = body(id);
      const table = tableForList(typeOf("configmaps"), rowObjects(expected, index), { resourceVersion: "275" }, undefined, clockAt(RECORDED_AT), kubernetes);
      expect(table).toEqual(expected);
      expect(table.rows!.map((row) => row.cells[1])).toEqual([1, 4, 1, 1, 0, 0]);
    }
  });

  it("answers the Table of one configmap with its resourceVersion (table-configmap-one)", () => {
    const expected = body("table-configmap-one");
    const [object] = rowObjects(expected, index);
    const table = tableForObject(typeOf("configmaps"), object!, undefined, clockAt(RECORDED_AT), kubernetes);
    expect(table).toEqual(expected);
    // Field order too: encoded as Kubernetes encodes JSON, the body is the recorded one byte for byte.
    expect(goJson(table)).toBe(transcriptById(all, "table-configmap-one").response.body.text);
  });

  it("answers the Table of leases exactly (table-leases)", () => {
    const expected = body("table-leases");
    // The lease's spec is the node-lease-create request body (that create found it already there).
    const spec = (transcriptById(all, "node-lease-create").request as unknown as { body: { spec: ApiObject } }).body.spec;
    const objects = rowObjects(expected, index, { "node-a": { spec } });
    expect(tableForList(typeOf("leases"), objects, { resourceVersion: "275" }, undefined, clockAt(RECORDED_AT), kubernetes)).toEqual(expected);
  });

  it("answers the Table of namespaces with includeObject=None (table-namespaces-none)", () => {
    const expected = body("table-namespaces-none");
    const refMain = transcriptJson(transcriptById(all, "namespace-create")) as ApiObject;
    // Only ref-main's creation is recorded; the system namespaces' times follow from their ages.
    const namespace = (name: string, createdAt: string): ApiObject => ({ metadata: { name, creationTimestamp: createdAt }, status: { phase: "Active" } });
    const objects = [
      namespace("default", "2026-11-21T12:53:11Z"),
      namespace("kube-node-lease", "2026-11-21T12:53:10Z"),
      namespace("kube-public", "2026-11-21T12:53:10Z"),
      namespace("kube-system", "2026-11-21T12:53:10Z"),
      refMain,
    ];
    const table = tableForList(typeOf("namespaces"), objects, { resourceVersion: "275" }, "None", clockAt(RECORDED_AT), kubernetes);
    expect(table).toEqual(expected);
  });

  it("answers each watch event as a one-row Table, headers on the first only (watch-as-table)", () => {
    const lines = transcriptById(all, "watch-as-table").response.body.text!.trim().split("\n").map((line) => JSON.parse(line) as { type: string; object: Table });
    const transform = watchTableTransform(typeOf("configmaps"), undefined, clockAt(WATCH_RECORDED_AT), kubernetes);
    for (const line of lines) {
      const [object] = rowObjects(line.object, index);
      expect({ type: line.type, object: transform(object!) }).toEqual(line);
    }
    expect(lines.map((line) => line.object.columnDefinitions === null)).toEqual([false, true, true, true]);
  });
});

describe("tableForList and tableForObject", () => {
  const clock = clockAt("2026-11-21T13:00:00Z");
  const configMap: ApiObject = {
    metadata: { name: "c", namespace: "ns", uid: "u", resourceVersion: "7", creationTimestamp: "2026-11-21T12:00:00Z", labels: { a: "b" } },
    data: { x: "1" },
    binaryData: { y: "AA==" },
  };

  it("carries the list's resourceVersion, continue and remainingItemCount", () => {
    const table = tableForList(typeOf("configmaps"), [configMap], { resourceVersion: "9", continue: "tok", remainingItemCount: 3 }, undefined, clock, kubernetes);
    expect(table.metadata).toEqual({ resourceVersion: "9", continue: "tok", remainingItemCount: 3 });
    expect(table.rows![0]!.cells).toEqual(["c", 2, "60m"]);
  });

  it("uses the meta group of the dialect, and v1beta1 when asked", () => {
    const table = tableForObject(typeOf("configmaps", orb), configMap, undefined, clock, orb, { version: "v1beta1" });
    expect(table.apiVersion).toBe("meta.orb.io/v1beta1");
    expect(table.rows![0]!.object).toEqual({
      kind: "PartialObjectMetadata",
      apiVersion: "meta.orb.io/v1beta1",
      metadata: configMap["metadata"],
    });
  });

  it("includes the whole object, with its kind and apiVersion, for includeObject=Object", () => {
    const table = tableForObject(typeOf("leases", orb), { metadata: { name: "l", creationTimestamp: "2026-11-21T12:59:00Z" }, spec: { holderIdentity: "h" } }, "Object", clock, orb);
    expect(table.rows![0]).toEqual({
      cells: ["l", "h", "60s"],
      object: { kind: "Lease", apiVersion: "coordination.orb.io/v1", metadata: { name: "l", creationTimestamp: "2026-11-21T12:59:00Z" }, spec: { holderIdentity: "h" } },
    });
  });

  it("writes creationTimestamp null in PartialObjectMetadata when unset, as Go marshals ObjectMeta", () => {
    const table = tableForObject(typeOf("configmaps"), { metadata: { name: "c", resourceVersion: "3" } }, undefined, clock, kubernetes);
    expect(table.rows![0]!.object).toEqual({ kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: { name: "c", resourceVersion: "3", creationTimestamp: null } });
    expect(table.rows![0]!.cells).toEqual(["c", 0, "<unknown>"]);
  });

  it("answers 400 for an unrecognized includeObject, only when there is a row (as Kubernetes)", () => {
    const attempt = () => tableForList(typeOf("configmaps"), [configMap], {}, "Everything", clock, kubernetes);
    expect(attempt).toThrow(ApiError);
    try {
      attempt();
    } catch (error) {
      expect((error as ApiError).status).toEqual({
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: 'unrecognized includeObject value: "Everything"',
        reason: "BadRequest",
        code: 400,
      });
    }
    expect(tableForList(typeOf("configmaps"), [], {}, "Everything", clock, kubernetes).rows).toEqual([]);
    expect(() => parseIncludeObject("metadata")).toThrow(ApiError);
    expect(parseIncludeObject(null)).toBe("Metadata");
    expect(parseIncludeObject("")).toBe("Metadata");
  });

  it("prints the default table (Name, Created At) for a type without columns of its own", () => {
    const widget = { group: "example.io", version: "v1", kind: "Widget", resource: "widgets" };
    const table = tableForList(widget, [{ metadata: { name: "w", creationTimestamp: "2026-11-21T12:00:00Z" } }], { resourceVersion: "5" }, "None", clock, orb);
    expect(table.columnDefinitions).toEqual(defaultColumns);
    expect(table.columnDefinitions!.map((column) => [column.name, column.type, column.format])).toEqual([
      ["Name", "string", "name"],
      ["Created At", "date", ""],
    ]);
    expect(table.rows).toEqual([{ cells: ["w", "2026-11-21T12:00:00Z"], object: null }]);
    // Kubernetes' default convertor leaves the rows of an empty list nil; the printers send [].
    expect(tableForList(widget, [], {}, undefined, clock, orb).rows).toBeNull();
    expect(tableForList(typeOf("pods"), [], {}, undefined, clock, orb).rows).toEqual([]);
  });
});

describe("Table watch events", () => {
  const clock = clockAt("2026-11-21T13:00:00Z");
  const object = { kind: "ConfigMap", apiVersion: "v1", metadata: { name: "c", resourceVersion: "4", creationTimestamp: "2026-11-21T12:59:59Z" } };

  it("passes an ERROR event's Status through, and it uses up the headers", () => {
    const transform = watchTableTransform(typeOf("configmaps"), undefined, clock, kubernetes);
    const status = { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: "gone", reason: "Expired", code: 410 };
    expect(transform(status)).toBe(status);
    expect((transform(object) as Table).columnDefinitions).toBeNull();
  });

  it("prints a BOOKMARK's object as Kubernetes 1.26 does: a row with an empty name", () => {
    const bookmark = { kind: "ConfigMap", apiVersion: "v1", metadata: { resourceVersion: "12", creationTimestamp: null } };
    const table = tableForWatchEvent(typeOf("configmaps"), bookmark, undefined, clock, kubernetes) as Table;
    expect(table.metadata).toEqual({ resourceVersion: "12" });
    expect(table.rows![0]!.cells).toEqual(["", 0, "<unknown>"]);
  });

  it("throws the 400 of a bad includeObject at the first event (Kubernetes ends the stream there)", () => {
    const transform = watchTableTransform(typeOf("configmaps"), "All", clock, kubernetes);
    expect(() => transform(object)).toThrow('unrecognized includeObject value: "All"');
  });
});

describe("PartialObjectMetadata", () => {
  it("reduces a list to its items' metadata, with the list's metadata", () => {
    const items = [{ metadata: { uid: "u", name: "a", creationTimestamp: "2026-11-21T12:00:00Z" }, data: { x: "1" } }];
    expect(asPartialObjectMetadataList(items, { resourceVersion: "8", continue: "c" }, kubernetes)).toEqual({
      kind: "PartialObjectMetadataList",
      apiVersion: "meta.k8s.io/v1",
      metadata: { resourceVersion: "8", continue: "c" },
      items: [{ kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: { name: "a", uid: "u", creationTimestamp: "2026-11-21T12:00:00Z" } }],
    });
    // Go order of ObjectMeta fields.
    expect(Object.keys(asPartialObjectMetadataList(items, {}, kubernetes).items[0]!.metadata)).toEqual(["name", "uid", "creationTimestamp"]);
  });

  it("answers Kubernetes' 406 when the form asked for does not fit the response", () => {
    expect(partialObjectMetadataMismatch("PartialObjectMetadata", typeOf("configmaps")).status.message).toBe(
      "you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)",
    );
    expect(partialObjectMetadataMismatch("PartialObjectMetadataList", typeOf("deployments")).status).toMatchObject({
      message: "you requested PartialObjectMetadataList, but the requested object is not a list (*apps.Deployment)",
      reason: "NotAcceptable",
      code: 406,
    });
  });
});
