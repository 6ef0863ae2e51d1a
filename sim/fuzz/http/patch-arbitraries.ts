/**
 * PATCH bodies of the three patch types (issue #14: "patch documents of all three patch types
 * that fail or produce invalid objects"): merge patches and strategic merge patches that set
 * wrong types, null out what an object needs, rename it, set preconditions, or carry directives;
 * JSON patches with every operation, good and bad pointers, failing tests and absurd lengths;
 * documents that are not patches at all. Each comes with its Content-Type.
 */
import fc from "fast-check";
import { LANE_LABEL, type FuzzKind } from "./fuzz-kinds.ts";
import { PLACEHOLDERS } from "./fuzz-request.ts";
import type { GeneratedBody } from "./body-arbitraries.ts";
import { jsonObjects } from "./deep-bodies.ts";
import { formatFieldPath, withRawNumbers, withValueAt, wrongValueArbitrary } from "./wrong-types.ts";

const MERGE = "application/merge-patch+json";
const JSON_PATCH = "application/json-patch+json";
const STRATEGIC = "application/strategic-merge-patch+json";

/** A merge-style document (merge or strategic), as an object. */
function mergeDocumentArbitrary(kind: FuzzKind, lane: number): fc.Arbitrary<[string, unknown]> {
  const wrong = wrongValueArbitrary(kind.message);
  return fc.oneof(
    wrongValueArbitrary(kind.message).map((w): [string, unknown] => [`wrong type at ${formatFieldPath(w.path)}: ${withRawNumbers(JSON.stringify(w.value))}`, withValueAt({}, w.path, w.value)]),
    fc.constantFrom<[string, unknown]>(
      ["metadata null", { metadata: null }],
      ["spec null", { spec: null }],
      ["data null", { data: null }],
      ["name changed", { metadata: { name: `fz${lane}-b` } }],
      ["name emptied", { metadata: { name: "" } }],
      ["namespace changed", { metadata: { namespace: "default" } }],
      ["kind changed", { kind: "Secret" }],
      ["apiVersion changed", { apiVersion: "v2" }],
      ["apiVersion null", { apiVersion: null, kind: null }],
      ["stale resourceVersion", { metadata: { resourceVersion: "1" } }],
      ["resourceVersion precondition", { metadata: { resourceVersion: PLACEHOLDERS.resourceVersion }, data: { k: "w" } }],
      ["garbage resourceVersion", { metadata: { resourceVersion: "abc" } }],
      ["uid changed", { metadata: { uid: "0b3c1a9e-0000-4000-8000-000000000000" } }],
      ["bad label", { metadata: { labels: { "a b": "c" } } }],
      ["lane label removed", { metadata: { labels: { [LANE_LABEL]: null } } }],
      ["bad finalizer", { metadata: { finalizers: ["bad finalizer"] } }],
      ["valid finalizer", { metadata: { finalizers: ["example.com/fz"] } }],
      ["deletionTimestamp", { metadata: { deletionTimestamp: "2020-01-01T00:00:00Z" } }],
      ["generateName", { metadata: { generateName: "x" } }],
      ["unknown field", { extra: 1 }],
      ["__proto__", JSON.parse('{"__proto__":{"polluted":1},"metadata":{"__proto__":{"x":1}}}')],
      ["empty", {}],
      ["replicas negative", { spec: { replicas: -1 } }],
      ["replicas huge", { spec: { replicas: 2 ** 31 } }],
      ["ports emptied", { spec: { ports: [] } }],
      ["containers emptied", { spec: { containers: [] } }],
      ["container without name", { spec: { containers: [{ image: "x" }] } }],
      ["selector changed", { spec: { selector: { matchLabels: { other: "x" } } } }],
      ["clusterIP changed", { spec: { clusterIP: "10.0.0.250" } }],
      ["service type bogus", { spec: { type: "Bogus" } }],
      ["data key invalid", { data: { "a b": "c" } }],
      ["immutable", { immutable: true }],
      ["secret type changed", { type: "kubernetes.io/tls" }],
      ["status", { status: { phase: "Bogus" } }],
      ["huge data", { data: { k: "x".repeat(1_100_000) } }],
    ),
    fc.integer({ min: 2, max: 700 }).map((depth): [string, unknown] => [`data nested ${depth} deep`, { data: { k: JSON.parse(jsonObjects(depth)) } }]),
    wrong.map((w): [string, unknown] => [`wrong type under status at ${formatFieldPath(w.path)}`, { status: withValueAt({}, w.path, w.value) }]),
  );
}

/** Strategic merge directives, good and bad. */
const STRATEGIC_DOCUMENTS: readonly [string, unknown][] = [
  ["$patch delete", { $patch: "delete" }],
  ["$patch replace", { $patch: "replace", metadata: { name: "x" } }],
  ["$patch bogus", { $patch: "bogus" }],
  ["$patch on data", { data: { $patch: "replace" } }],
  ["$retainKeys", { spec: { $retainKeys: ["replicas"] } }],
  ["$retainKeys bogus", { spec: { $retainKeys: "x" } }],
  ["$setElementOrder", { spec: { template: { spec: { "$setElementOrder/containers": [{ name: "z" }] } } } }],
  ["$deleteFromPrimitiveList", { metadata: { "$deleteFromPrimitiveList/finalizers": ["x"] } }],
  ["$deleteFromPrimitiveList bogus", { metadata: { "$deleteFromPrimitiveList/finalizers": "x" } }],
  ["container $patch delete", { spec: { containers: [{ name: "c", $patch: "delete" }] } }],
  ["container list $patch replace", { spec: { containers: [{ $patch: "replace" }] } }],
  ["ports without merge key", { spec: { ports: [{ protocol: "TCP" }] } }],
  ["unknown directive", { $bogus: 1 }],
];

/** One JSON patch operation. */
function operationArbitrary(kind: FuzzKind, lane: number): fc.Arbitrary<unknown> {
  const pointer = fc.constantFrom("/data/k", "/data/new", "/metadata/name", "/metadata/labels", `/metadata/labels/${LANE_LABEL}`, "/metadata/labels/a~1b", "/metadata/finalizers/-", "/metadata/finalizers/0", "/spec", "/spec/replicas", "/spec/containers/0/image", "/spec/ports/0/port", "", "/", "data/k", "/~2", "/data/~", "/metadata/resourceVersion", "/metadata/uid", "/kind", "/apiVersion", "/status", "/a/b/c/d", "/spec/containers/99", "/spec/containers/-1", "/spec/containers/01", "/metadata/annotations/" + "x".repeat(300));
  const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom("x", 1, null, `fz${lane}-b`, ["example.com/fz"], { a: "b" }, PLACEHOLDERS.resourceVersion));
  const op = fc.constantFrom("add", "remove", "replace", "move", "copy", "test", "bogus", "", "ADD");
  return fc.oneof(
    fc.tuple(op, pointer, value, pointer).map(([name, path, v, from]) => ({ op: name, path, value: v, from })),
    fc.tuple(op, pointer).map(([name, path]) => ({ op: name, path })),
    wrongValueArbitrary(kind.message).map((w) => ({ op: "add", path: `/${w.path.join("/")}`, value: w.value })),
    fc.constantFrom({ op: "add" }, { path: "/data/k" }, {}, [], "add", null, 1, { op: "add", path: "/data/k", value: "v", extra: true }, { op: "test", path: "/metadata/name", value: "not-this" }),
  );
}

/** A PATCH body of `kind` in `lane`, with its media type (mostly the right one for the document). */
export function patchBodyArbitrary(kind: FuzzKind, lane: number): fc.Arbitrary<GeneratedBody> {
  const merge = fc.tuple(mergeDocumentArbitrary(kind, lane), fc.constantFrom(MERGE, MERGE, MERGE, STRATEGIC)).map(
    ([[intent, document], type]): GeneratedBody => ({ body: { text: withRawNumbers(JSON.stringify(document)) }, writtenAs: type, intent: `${type === MERGE ? "merge" : "strategic"} patch: ${intent}` }),
  );
  const strategic = fc.constantFrom(...STRATEGIC_DOCUMENTS).map(([intent, document]): GeneratedBody => ({ body: { text: JSON.stringify(document) }, writtenAs: STRATEGIC, intent: `strategic patch: ${intent}` }));
  const jsonPatch = fc.array(operationArbitrary(kind, lane), { minLength: 0, maxLength: 5 }).map((operations): GeneratedBody => ({
    body: { text: withRawNumbers(JSON.stringify(operations)) },
    writtenAs: JSON_PATCH,
    intent: `json patch of ${operations.length} operations`,
  }));
  const manyOperations = fc.constantFrom(10_000, 20_000).map((count): GeneratedBody => ({
    body: { text: JSON.stringify(Array.from({ length: count }, () => ({ op: "test", path: "/kind", value: kind.kind }))) },
    writtenAs: JSON_PATCH,
    intent: `json patch of ${count} test operations`,
  }));
  const notAPatch = fc.tuple(fc.constantFrom("", "null", "1", '"x"', "[]", "{}", "[{", "{\"a\":", "\u0000", "[null]", "[[]]"), fc.constantFrom(MERGE, JSON_PATCH, STRATEGIC, "application/apply-patch+yaml", "application/json", "text/plain")).map(
    ([text, type]): GeneratedBody => ({ body: { text }, writtenAs: type, intent: `not a patch: ${JSON.stringify(text)} as ${type}` }),
  );
  const deep = fc.tuple(fc.constantFrom(MERGE, JSON_PATCH, STRATEGIC), fc.constantFrom(400, 511, 513, 1_000, 20_000)).map(([type, depth]): GeneratedBody => ({
    body: { text: type === JSON_PATCH ? `[{"op":"add","path":"/data/a","value":${jsonObjects(depth - 2)}}]` : `{"data":{"a":${jsonObjects(depth - 2)}}}` },
    writtenAs: type,
    intent: `patch nested ${depth} deep`,
  }));
  return fc.oneof(
    { weight: 6, arbitrary: merge },
    { weight: 2, arbitrary: strategic },
    { weight: 5, arbitrary: jsonPatch },
    { weight: 1, arbitrary: manyOperations },
    { weight: 2, arbitrary: notAPatch },
    { weight: 1, arbitrary: deep },
  );
}
