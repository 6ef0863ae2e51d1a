/**
 * Properties: random ConfigMaps, Secrets and Leases in the JSON form a server writes come back
 * unchanged through Protobuf, and their bytes are a pure function of the object (deterministic,
 * independent of the JSON's key order), as Kubernetes' are.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeObject, encodeObject, type JsonObject } from "./envelope.ts";
import { formatMicroTime, formatTime, MAX_SECONDS, MIN_SECONDS } from "./json-values.ts";

const text = fc.string({ unit: "grapheme", maxLength: 12 });
const key = fc.stringMatching(/^[-._a-zA-Z0-9]{1,12}$/);
const seconds = fc.integer({ min: MIN_SECONDS + 1, max: MAX_SECONDS });
const time = seconds.map(formatTime);
const microTime = fc.tuple(seconds, fc.integer({ min: 0, max: 999_999 })).map(([s, micros]) => formatMicroTime(s, micros * 1000));
const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const dict = <T>(value: fc.Arbitrary<T>) => fc.dictionary(key, value, { maxKeys: 4, minKeys: 1, noNullPrototype: true });

/** Optional fields: each either absent or present with a value. */
function optional<T>(fields: { [K in keyof T]: fc.Arbitrary<T[K]> }): fc.Arbitrary<Partial<T>> {
  return fc.record(fields, { requiredKeys: [], noNullPrototype: true }) as fc.Arbitrary<Partial<T>>;
}

const managedFields = fc.array(
  optional({
    manager: fc.constantFrom("kubectl", "unknown"),
    operation: fc.constantFrom("Update", "Apply"),
    apiVersion: fc.constant("v1"),
    time,
    fieldsType: fc.constant("FieldsV1"),
    fieldsV1: fc.dictionary(fc.constantFrom("f:data", "f:metadata", "."), fc.constant({}), { maxKeys: 2, noNullPrototype: true }),
    subresource: fc.constantFrom("status", "scale"),
  }),
  { minLength: 1, maxLength: 2 },
);

const objectMeta = fc
  .tuple(
    fc.record({ name: key, creationTimestamp: time }),
    optional({
      generateName: key,
      namespace: key,
      uid: fc.uuid(),
      resourceVersion: fc.nat().map(String),
      generation: fc.integer({ min: 1, max: 2 ** 40 }),
      deletionTimestamp: time,
      deletionGracePeriodSeconds: fc.integer({ min: 0, max: 3600 }),
      labels: dict(text),
      annotations: dict(text),
      ownerReferences: fc.array(
        fc.tuple(
          fc.record({ apiVersion: fc.constant("apps/v1"), kind: fc.constant("ReplicaSet"), name: key, uid: fc.uuid() }),
          optional({ controller: fc.boolean(), blockOwnerDeletion: fc.boolean() }),
        ).map(([required, rest]) => ({ ...required, ...rest })),
        { minLength: 1, maxLength: 2 },
      ),
      finalizers: fc.array(key, { minLength: 1, maxLength: 3 }),
      managedFields,
    }),
  )
  .map(([required, rest]) => ({ ...required, ...rest }));

const base64 = fc.uint8Array({ maxLength: 16 }).map((bytes) => Buffer.from(bytes).toString("base64"));

const configMap = fc
  .tuple(objectMeta, optional({ immutable: fc.boolean(), data: dict(text), binaryData: dict(base64) }))
  .map(([metadata, rest]): JsonObject => ({ kind: "ConfigMap", apiVersion: "v1", metadata, ...rest }));

const secret = fc
  .tuple(objectMeta, optional({ immutable: fc.boolean(), data: dict(base64), type: fc.constantFrom("Opaque", "kubernetes.io/tls") }))
  .map(([metadata, rest]): JsonObject => ({ kind: "Secret", apiVersion: "v1", metadata, ...rest }));

const lease = fc
  .tuple(
    objectMeta,
    fc.constantFrom("coordination.k8s.io/v1", "coordination.orb.io/v1"),
    optional({ holderIdentity: text, leaseDurationSeconds: int32, acquireTime: microTime, renewTime: microTime, leaseTransitions: int32 }),
  )
  .map(([metadata, apiVersion, spec]): JsonObject => ({ kind: "Lease", apiVersion, metadata, spec }));

/** The same object with its keys in reverse order, at every level but inside fieldsV1 (raw JSON bytes in Go, kept as written). */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).reverse()) {
    Object.defineProperty(out, k, { value: k === "fieldsV1" ? v : reversedKeys(v), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function roundTrips(object: JsonObject): void {
  const apiVersion = String(object["apiVersion"]);
  const kind = String(object["kind"]);
  const bytes = encodeObject(apiVersion, kind, object);
  const decoded = decodeObject(bytes);
  expect(decoded.apiVersion).toBe(apiVersion);
  expect(decoded.kind).toBe(kind);
  expect(decoded.object).toEqual(object);
  // Canonical bytes: again from the decoded JSON, and from the JSON with its keys reordered.
  expect(encodeObject(apiVersion, kind, decoded.object)).toEqual(bytes);
  expect(encodeObject(apiVersion, kind, reversedKeys(object) as JsonObject)).toEqual(bytes);
}

describe("round trips (properties)", () => {
  it("random ConfigMaps: JSON → Protobuf → JSON is the identity, and the bytes are canonical", () => {
    fc.assert(fc.property(configMap, roundTrips), { numRuns: 300 });
  });

  it("random Secrets", () => {
    fc.assert(fc.property(secret, roundTrips), { numRuns: 200 });
  });

  it("random Leases (MicroTime to the microsecond, pointer fields kept at zero)", () => {
    fc.assert(fc.property(lease, roundTrips), { numRuns: 300 });
  });
});
