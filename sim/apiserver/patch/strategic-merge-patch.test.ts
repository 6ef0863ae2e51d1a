import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyMergePatch, type JsonValue } from "./json-merge-patch.ts";
import { jsonPatchApplyFailedMessage } from "./json-patch.ts";
import {
  applyStrategicMergePatch,
  StrategicMergePatchError,
  strategicMergePatchKinds,
  supportsStrategicMergePatch,
  type JsonObject,
} from "./strategic-merge-patch.ts";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** The patch applied to frozen inputs (so any mutation throws), checked to leave them as they were. */
function apply(kind: string, document: JsonObject, patch: JsonObject): JsonObject {
  const before = structuredClone([document, patch]);
  const result = applyStrategicMergePatch(kind, deepFreeze(document), deepFreeze(patch));
  expect([document, patch]).toEqual(before);
  return result;
}

function failureOf(run: () => unknown): StrategicMergePatchError {
  try {
    run();
  } catch (error) {
    if (error instanceof StrategicMergePatchError) return error;
    throw error;
  }
  throw new Error("expected a StrategicMergePatchError");
}

const names = (list: unknown): unknown[] => (list as { name: unknown }[]).map((item) => item.name);

function deployment(containers: JsonValue[], extra: JsonObject = {}): JsonObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "patch-demo", namespace: "default" },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: "nginx" } },
      template: { metadata: { labels: { app: "nginx" } }, spec: { containers, ...extra } },
    },
  };
}

const podSpecOf = (object: JsonObject): JsonObject => ((object["spec"] as JsonObject)["template"] as JsonObject)["spec"] as JsonObject;

describe("applyStrategicMergePatch: the Kubernetes documentation's examples", () => {
  // kubernetes.io, "Update API Objects in Place Using kubectl patch".
  it("adds a container to the list, merged by name; the new one comes first, as the task page shows", () => {
    const original = deployment([{ name: "patch-demo-ctr", image: "nginx" }], { tolerations: [{ effect: "NoSchedule", key: "dedicated", value: "test-team" }] });
    const result = apply("Deployment", original, { spec: { template: { spec: { containers: [{ name: "patch-demo-ctr-2", image: "redis" }] } } } });
    expect(podSpecOf(result)["containers"]).toEqual([
      { name: "patch-demo-ctr-2", image: "redis" },
      { name: "patch-demo-ctr", image: "nginx" },
    ]);
    expect(podSpecOf(result)["tolerations"]).toEqual([{ effect: "NoSchedule", key: "dedicated", value: "test-team" }]);
    expect((result["spec"] as JsonObject)["replicas"]).toBe(2);
  });

  it("replaces tolerations whole: the field has no patch strategy", () => {
    const original = deployment([{ name: "patch-demo-ctr", image: "nginx" }], { tolerations: [{ effect: "NoSchedule", key: "dedicated", value: "test-team" }] });
    const result = apply("Deployment", original, { spec: { template: { spec: { tolerations: [{ effect: "NoSchedule", key: "disktype", value: "ssd" }] } } } });
    expect(podSpecOf(result)["tolerations"]).toEqual([{ effect: "NoSchedule", key: "disktype", value: "ssd" }]);
    expect(names(podSpecOf(result)["containers"])).toEqual(["patch-demo-ctr"]);
  });

  it("switches a Deployment from RollingUpdate to Recreate with $retainKeys", () => {
    const original: JsonObject = {
      kind: "Deployment",
      metadata: { name: "retainkeys-demo" },
      spec: { strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: "30%" } }, template: { spec: { containers: [{ name: "c", image: "nginx" }] } } },
    };
    const result = apply("Deployment", original, { spec: { strategy: { $retainKeys: ["type"], type: "Recreate" } } });
    expect((result["spec"] as JsonObject)["strategy"]).toEqual({ type: "Recreate" });
    // Without the directive the map merges and rollingUpdate stays (the server then refuses it).
    const merged = apply("Deployment", original, { spec: { strategy: { type: "Recreate" } } });
    expect((merged["spec"] as JsonObject)["strategy"]).toEqual({ type: "Recreate", rollingUpdate: { maxSurge: "30%" } });
  });

  // Devel doc "Strategic Merge Patch" (kubernetes/community, sig-api-machinery).
  it("replaces a merged list through a `$patch: replace` item", () => {
    const original = deployment([{ name: "nginx", image: "nginx-0.9" }, { name: "log-tailer", image: "log-tailer-1.0" }]);
    const result = apply("Deployment", original, {
      spec: { template: { spec: { containers: [{ name: "nginx", image: "nginx-1.0" }, { $patch: "replace" }] } } },
    });
    expect(podSpecOf(result)["containers"]).toEqual([{ name: "nginx", image: "nginx-1.0" }]);
  });

  it("replaces a map with `$patch: replace`", () => {
    const original = deployment([{ name: "nginx", image: "nginx-0.9" }], { nodeSelector: { disk: "ssd" }, hostname: "h" });
    const result = apply("Deployment", original, {
      spec: { template: { spec: { $patch: "replace", containers: [{ name: "nginx", image: "nginx-1.0" }] } } },
    });
    expect(podSpecOf(result)).toEqual({ containers: [{ name: "nginx", image: "nginx-1.0" }] });
  });

  it("deletes a container with `$patch: delete`, keeping the others", () => {
    const original = deployment([
      { name: "nginx", image: "nginx-1.0" },
      { name: "log-tailer", image: "log-tailer-1.0" },
      { name: "sidecar", image: "s" },
    ]);
    const result = apply("Deployment", original, { spec: { template: { spec: { containers: [{ name: "log-tailer", $patch: "delete" }] } } } });
    expect(names(podSpecOf(result)["containers"])).toEqual(["nginx", "sidecar"]);
  });

  it("deletes a map with `$patch: delete`, as `null` would", () => {
    const original: JsonObject = { kind: "Deployment", spec: { strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1 } } } };
    const result = apply("Deployment", original, { spec: { strategy: { rollingUpdate: { $patch: "delete" } } } });
    expect(result).toEqual({ kind: "Deployment", spec: { strategy: { type: "RollingUpdate" } } });
    expect(apply("Deployment", original, { spec: { strategy: { rollingUpdate: null } } })).toEqual(result);
  });

  it("removes finalizers with $deleteFromPrimitiveList/finalizers", () => {
    const result = apply("ConfigMap", { metadata: { name: "c", finalizers: ["a", "b", "c"] } }, { metadata: { "$deleteFromPrimitiveList/finalizers": ["b", "c"] } });
    expect(result).toEqual({ metadata: { name: "c", finalizers: ["a"] } });
  });

  it("reorders finalizers and containers with $setElementOrder", () => {
    const finalizers = apply("Pod", { metadata: { finalizers: ["a", "b", "c"] } }, { metadata: { "$setElementOrder/finalizers": ["b", "c", "a"] } });
    expect(finalizers).toEqual({ metadata: { finalizers: ["b", "c", "a"] } });
    const pod: JsonObject = { spec: { containers: [{ name: "a", image: "ia" }, { name: "b", image: "ib" }, { name: "c", image: "ic" }] } };
    const reordered = apply("Pod", pod, { spec: { "$setElementOrder/containers": [{ name: "b" }, { name: "c" }, { name: "a" }] } });
    expect((reordered["spec"] as JsonObject)["containers"]).toEqual([
      { name: "b", image: "ib" },
      { name: "c", image: "ic" },
      { name: "a", image: "ia" },
    ]);
  });

  // Design proposal "Preserve Order in Strategic Merge Patch".
  it("without $setElementOrder, keeps the patch's order and puts server-only items first where they came first", () => {
    const live: JsonObject = { spec: { containers: [{ name: "B", v: 1 }, { name: "C", v: 1 }, { name: "A", v: 1 }] } };
    const result = apply("Pod", live, { spec: { containers: [{ name: "A", v: 2 }, { name: "B", v: 2 }, { name: "D", v: 2 }] } });
    expect((result["spec"] as JsonObject)["containers"]).toEqual([
      { name: "C", v: 1 },
      { name: "A", v: 2 },
      { name: "B", v: 2 },
      { name: "D", v: 2 },
    ]);
  });

  it("applies a kubectl apply patch: $setElementOrder, an added env var and a deleted one", () => {
    const original: JsonObject = {
      spec: {
        containers: [
          {
            name: "app",
            env: [
              { name: "ENV1", value: "foo" },
              { name: "ENV2", value: "bar" },
              { name: "ENV3", value: "baz" },
            ],
          },
        ],
      },
    };
    const patch: JsonObject = {
      spec: {
        "$setElementOrder/containers": [{ name: "app" }],
        containers: [
          {
            name: "app",
            "$setElementOrder/env": [{ name: "ENV1" }, { name: "ENV2" }, { name: "ENV6" }],
            env: [{ name: "ENV3", $patch: "delete" }, { name: "ENV6", value: "new-env" }],
          },
        ],
      },
    };
    const result = apply("Pod", original, patch);
    expect((result["spec"] as JsonObject)["containers"]).toEqual([
      {
        name: "app",
        env: [
          { name: "ENV1", value: "foo" },
          { name: "ENV2", value: "bar" },
          { name: "ENV6", value: "new-env" },
        ],
      },
    ]);
  });
});

describe("applyStrategicMergePatch: lists with merge keys", () => {
  it("merges containers by name, keeping the others and their order", () => {
    const original = deployment([
      { name: "a", image: "registry.example/a:1" },
      { name: "b", image: "registry.example/b:1", args: ["x"] },
    ]);
    const result = apply("Deployment", original, { spec: { template: { spec: { containers: [{ name: "b", image: "registry.example/b:2" }] } } } });
    expect(podSpecOf(result)["containers"]).toEqual([
      { name: "a", image: "registry.example/a:1" },
      { name: "b", image: "registry.example/b:2", args: ["x"] },
    ]);
  });

  it("merges env by name within a container; args (no strategy) are replaced", () => {
    const original: JsonObject = {
      spec: {
        containers: [
          { name: "app", args: ["--a", "--b"], env: [{ name: "A", value: "1" }, { name: "B", value: "2" }, { name: "C", valueFrom: { fieldRef: { fieldPath: "x" } } }] },
          { name: "side", env: [{ name: "A", value: "s" }] },
        ],
      },
    };
    const result = apply("Pod", original, {
      spec: { containers: [{ name: "app", args: ["--c"], env: [{ name: "B", value: "20" }, { name: "C", value: "3", valueFrom: null }] }] },
    });
    expect((result["spec"] as JsonObject)["containers"]).toEqual([
      { name: "app", args: ["--c"], env: [{ name: "A", value: "1" }, { name: "B", value: "20" }, { name: "C", value: "3" }] },
      { name: "side", env: [{ name: "A", value: "s" }] },
    ]);
  });

  it("adds a finalizer as a set union: the new one first, as Kubernetes orders it; $setElementOrder (kubectl apply) puts it last", () => {
    const original: JsonObject = { metadata: { name: "n", finalizers: ["a", "b"] } };
    expect(apply("ConfigMap", original, { metadata: { finalizers: ["c", "a"] } })).toEqual({ metadata: { name: "n", finalizers: ["c", "a", "b"] } });
    expect(apply("ConfigMap", original, { metadata: { finalizers: ["b"] } })).toEqual(original);
    expect(apply("ConfigMap", original, { metadata: { "$setElementOrder/finalizers": ["a", "b", "c"], finalizers: ["c"] } })).toEqual({
      metadata: { name: "n", finalizers: ["a", "b", "c"] },
    });
  });

  it("replaces a Namespace's spec.finalizers (no strategy) but unions its metadata.finalizers", () => {
    const namespace: JsonObject = { metadata: { finalizers: ["x"] }, spec: { finalizers: ["kubernetes"] } };
    expect(apply("Namespace", namespace, { metadata: { finalizers: ["y"] }, spec: { finalizers: ["other"] } })).toEqual({
      metadata: { finalizers: ["y", "x"] },
      spec: { finalizers: ["other"] },
    });
  });

  it("merges ownerReferences by uid", () => {
    const original: JsonObject = { metadata: { ownerReferences: [{ uid: "1", kind: "ReplicaSet", name: "rs" }] } };
    const result = apply("Pod", original, { metadata: { ownerReferences: [{ uid: "1", controller: true }, { uid: "2", kind: "Node", name: "n" }] } });
    expect((result["metadata"] as JsonObject)["ownerReferences"]).toEqual([
      { uid: "1", kind: "ReplicaSet", name: "rs", controller: true },
      { uid: "2", kind: "Node", name: "n" },
    ]);
  });

  it("merges Pod and Node status conditions by type; node addresses by type", () => {
    const pod = apply("Pod", { status: { conditions: [{ type: "Ready", status: "False" }, { type: "PodScheduled", status: "True" }] } }, { status: { conditions: [{ type: "Ready", status: "True" }] } });
    expect((pod["status"] as JsonObject)["conditions"]).toEqual([
      { type: "Ready", status: "True" },
      { type: "PodScheduled", status: "True" },
    ]);
    const node = apply(
      "Node",
      { status: { addresses: [{ type: "InternalIP", address: "10.0.0.1" }, { type: "Hostname", address: "n1" }] } },
      { status: { addresses: [{ type: "InternalIP", address: "10.0.0.2" }] } },
    );
    expect((node["status"] as JsonObject)["addresses"]).toEqual([
      { type: "InternalIP", address: "10.0.0.2" },
      { type: "Hostname", address: "n1" },
    ]);
  });

  it("replaces Node taints (no strategy)", () => {
    const node = apply("Node", { spec: { taints: [{ key: "a", effect: "NoSchedule" }] } }, { spec: { taints: [{ key: "b", effect: "NoExecute" }] } });
    expect(node).toEqual({ spec: { taints: [{ key: "b", effect: "NoExecute" }] } });
  });

  it("merges Service ports by port alone, so TCP and UDP 53 collapse (a known Kubernetes quirk)", () => {
    const service: JsonObject = { spec: { ports: [{ name: "dns-tcp", port: 53, protocol: "TCP" }, { name: "http", port: 80, protocol: "TCP" }] } };
    const result = apply("Service", service, { spec: { ports: [{ name: "dns-udp", port: 53, protocol: "UDP" }] } });
    expect((result["spec"] as JsonObject)["ports"]).toEqual([
      { name: "dns-udp", port: 53, protocol: "UDP" },
      { name: "http", port: 80, protocol: "TCP" },
    ]);
  });

  it("merges container ports by containerPort and volume mounts by mountPath", () => {
    const pod: JsonObject = {
      spec: { containers: [{ name: "c", ports: [{ containerPort: 80, name: "http" }], volumeMounts: [{ name: "v", mountPath: "/data" }] }], volumes: [{ name: "v", emptyDir: {} }] },
    };
    const result = apply("Pod", pod, {
      spec: {
        containers: [{ name: "c", ports: [{ containerPort: 80, protocol: "TCP" }], volumeMounts: [{ mountPath: "/data", readOnly: true }] }],
        volumes: [{ name: "w", configMap: { name: "cm" } }],
      },
    });
    expect(result).toEqual({
      spec: {
        containers: [{ name: "c", ports: [{ containerPort: 80, name: "http", protocol: "TCP" }], volumeMounts: [{ name: "v", mountPath: "/data", readOnly: true }] }],
        volumes: [{ name: "w", configMap: { name: "cm" } }, { name: "v", emptyDir: {} }],
      },
    });
  });

  it("switches a volume's source with $retainKeys inside the list item", () => {
    const pod: JsonObject = { spec: { volumes: [{ name: "v", emptyDir: {} }] } };
    const result = apply("Pod", pod, { spec: { volumes: [{ name: "v", $retainKeys: ["name", "configMap"], configMap: { name: "cm" } }] } });
    expect(result).toEqual({ spec: { volumes: [{ name: "v", configMap: { name: "cm" } }] } });
  });

  it("builds a missing list or map from the patch, dropping nulls and directives", () => {
    const result = apply("Pod", { metadata: { name: "p" } }, {
      metadata: { labels: { a: "1", b: null } },
      spec: { containers: [{ name: "c", image: null, env: [{ name: "X", $patch: "delete" }, { name: "Y", value: "y" }] }] },
    });
    expect(result).toEqual({ metadata: { name: "p", labels: { a: "1" } }, spec: { containers: [{ name: "c", env: [{ name: "Y", value: "y" }] }] } });
  });

  it("deletes members with null, as a merge patch does", () => {
    expect(apply("ConfigMap", { data: { a: "1", b: "2" }, metadata: { labels: { x: "y" } } }, { data: { a: null, c: "3" }, metadata: { labels: null } })).toEqual({
      data: { b: "2", c: "3" },
      metadata: {},
    });
  });

  it("returns an empty object for `$patch: delete` at the top and the patch for `$patch: replace`", () => {
    expect(apply("ConfigMap", { data: { a: "1" } }, { $patch: "delete" })).toEqual({});
    expect(apply("ConfigMap", { data: { a: "1" }, metadata: { name: "x" } }, { $patch: "replace", data: { b: "2" } })).toEqual({ data: { b: "2" } });
  });

  it("shares no structure with its inputs", () => {
    const document: JsonObject = { metadata: { finalizers: ["a"] }, spec: { containers: [{ name: "c", env: [{ name: "E", value: "1" }] }] } };
    const patch: JsonObject = { spec: { containers: [{ name: "d", env: [{ name: "F", value: "2" }] }] } };
    const result = applyStrategicMergePatch("Pod", document, patch);
    const containers = (result["spec"] as JsonObject)["containers"] as JsonObject[];
    (containers[0]!["env"] as JsonObject[])[0]!["value"] = "changed";
    (containers[1]!["env"] as JsonObject[])[0]!["value"] = "changed";
    ((result["metadata"] as JsonObject)["finalizers"] as string[]).push("z");
    expect(document).toEqual({ metadata: { finalizers: ["a"] }, spec: { containers: [{ name: "c", env: [{ name: "E", value: "1" }] }] } });
    expect(patch).toEqual({ spec: { containers: [{ name: "d", env: [{ name: "F", value: "2" }] }] } });
  });

  it("keeps a __proto__ member as an own member", () => {
    const patch = JSON.parse('{"data":{"__proto__":"x","a":"1"}}') as JsonObject;
    const result = apply("ConfigMap", { data: {} }, patch);
    const data = result["data"] as JsonObject;
    expect(Object.keys(data)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
  });
});

describe("applyStrategicMergePatch: errors", () => {
  it("refuses kinds it has no schema for (custom resources): 415", () => {
    expect(supportsStrategicMergePatch("Widget")).toBe(false);
    expect(strategicMergePatchKinds).toEqual(expect.arrayContaining(["Pod", "Deployment", "Service", "Node", "Namespace", "ConfigMap", "Secret", "Event", "Lease"]));
    for (const kind of strategicMergePatchKinds) expect(supportsStrategicMergePatch(kind)).toBe(true);
    const error = failureOf(() => applyStrategicMergePatch("Widget", {}, { spec: {} }));
    expect(error.failure).toBe("unsupported-kind");
    expect(error.message).toMatch(/strategic merge patch is not supported for kind Widget/);
    expect([error.code, error.reason]).toEqual([415, "UnsupportedMediaType"]);
    expect(error.statusMessage).toBe(
      "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
    );
    expect(supportsStrategicMergePatch("toString")).toBe(false);
  });

  it("refuses unknown directives with 400", () => {
    const unknownValue = failureOf(() => applyStrategicMergePatch("ConfigMap", { data: { a: "1" } }, { data: { $patch: "frobnicate", b: "2" } }));
    expect([unknownValue.failure, unknownValue.code, unknownValue.reason]).toEqual(["unknown-directive", 400, "BadRequest"]);
    expect(unknownValue.statusMessage).toBe("unknown patch type: frobnicate in map: map[$patch:frobnicate b:2]");
    const mergeInMap = failureOf(() => applyStrategicMergePatch("ConfigMap", { data: {} }, { data: { $patch: "merge" } }));
    expect(mergeInMap.message).toBe("unknown patch type: merge in map: map[$patch:merge]");
    const mergeInList = failureOf(() => applyStrategicMergePatch("Pod", { spec: { containers: [{ name: "a" }] } }, { spec: { containers: [{ name: "a", $patch: "merge" }] } }));
    expect(mergeInList.message).toBe("merging lists cannot yet be specified in the patch");
  });

  it("merges a `$` member that names no directive as data, as kube-apiserver 1.26.4 does (recorded 2026-11-25)", () => {
    expect(applyStrategicMergePatch("ConfigMap", { data: { a: "1" } }, { $frob: 1, data: { $bogus: "2" } })).toEqual({ $frob: 1, data: { a: "1", $bogus: "2" } });
  });

  it("refuses a merge-list item without its merge key, with Kubernetes' message", () => {
    const error = failureOf(() => applyStrategicMergePatch("Pod", { spec: { containers: [{ name: "a" }] } }, { spec: { containers: [{ image: "nginx:1.25" }] } }));
    expect([error.failure, error.code]).toEqual(["invalid-patch", 400]);
    expect(error.message).toBe("map: map[image:nginx:1.25] does not contain declared merge key: name");
  });

  it("refuses malformed $retainKeys, $setElementOrder and $deleteFromPrimitiveList with 400", () => {
    const notListed = failureOf(() => applyStrategicMergePatch("Deployment", { spec: { strategy: {} } }, { spec: { strategy: { $retainKeys: ["type"], rollingUpdate: {} } } }));
    expect([notListed.failure, notListed.code, notListed.message]).toEqual(["malformed-directive", 400, "invalid patch format of retainKeys"]);
    const notAList = failureOf(() => applyStrategicMergePatch("Deployment", {}, { spec: { $retainKeys: "type" } }));
    expect(notAList.message).toBe("invalid patch format of retainKeys");
    const noSlash = failureOf(() => applyStrategicMergePatch("Pod", {}, { metadata: { $setElementOrderfinalizers: ["a"] } }));
    expect([noSlash.failure, noSlash.message]).toEqual(["malformed-directive", "invalid patch format of setElementOrder list"]);
    const badDelete = failureOf(() => applyStrategicMergePatch("Pod", {}, { metadata: { $deleteFromPrimitiveListfinalizers: ["a"] } }));
    expect([badDelete.failure, badDelete.message]).toEqual(["malformed-directive", "invalid patch format of primitive list"]);
  });

  it("refuses a patch list whose order contradicts $setElementOrder", () => {
    const error = failureOf(() =>
      applyStrategicMergePatch("Pod", { metadata: { finalizers: ["a", "b"] } }, { metadata: { "$setElementOrder/finalizers": ["a", "b"], finalizers: ["b", "a"] } }),
    );
    expect(error.failure).toBe("invalid-patch");
    expect(error.message).toBe("The order in patch list:\n[b a]\n doesn't match $setElementOrder list:\n[a b]\n");
  });

  it("answers a list of lists in a merged list 422, with the generic message", () => {
    // Only a list first in line is "a list of lists"; after a string it is a mixed list.
    const error = failureOf(() => applyStrategicMergePatch("Pod", { metadata: { finalizers: [] } }, { metadata: { finalizers: [["b"]] } }));
    expect([error.failure, error.code, error.reason]).toEqual(["list-of-lists", 422, "Invalid"]);
    expect(error.statusMessage).toBe(jsonPatchApplyFailedMessage);
  });

  it("refuses items of mixed types in a merged list", () => {
    const error = failureOf(() => applyStrategicMergePatch("Pod", { metadata: { finalizers: ["a"] } }, { metadata: { finalizers: [1] } }));
    expect(error.message).toBe("list element types are not identical: [[a] [1]]");
  });
});

// --- Properties. ---

const keyPool = ["a", "b", "c", "metadata", "spec", "labels", "finalizers", "containers", "strategy", "data", "__proto__"];
const key = fc.oneof(fc.constantFrom(...keyPool), fc.string({ maxLength: 4 }).filter((k) => !k.startsWith("$")));
const scalar = fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -5, max: 5 }), fc.boolean());

const { document: documentArb } = fc.letrec<{ document: JsonObject; value: JsonValue }>((tie) => ({
  document: fc.dictionary(key, tie("value"), { maxKeys: 4 }) as fc.Arbitrary<JsonObject>,
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, fc.constant(null), fc.array(scalar, { maxLength: 3 }), tie("document")) as fc.Arbitrary<JsonValue>,
}));
// Patches without lists or directives.
const { patch: listFreePatch } = fc.letrec<{ patch: JsonObject; value: JsonValue }>((tie) => ({
  patch: fc.dictionary(key, tie("value"), { maxKeys: 4 }) as fc.Arbitrary<JsonObject>,
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, fc.constant(null), tie("patch")) as fc.Arbitrary<JsonValue>,
}));

describe("applyStrategicMergePatch: properties", () => {
  it("equals a JSON merge patch for patches without lists or directives", () => {
    fc.assert(
      fc.property(fc.constantFrom("ConfigMap", "Pod", "Deployment", "Node"), documentArb, listFreePatch, (kind, document, patch) => {
        expect(apply(kind, document, patch)).toEqual(applyMergePatch(document, patch));
      }),
      { numRuns: 500 },
    );
  });

  // Pods whose lists all have merge keys, and patches built from those lists and their directives.
  const containerName = fc.constantFrom("a", "b", "c", "d", "e");
  const envName = fc.constantFrom("E1", "E2", "E3", "E4");
  const finalizer = fc.constantFrom("f1", "f2", "f3", "f4");
  const envVar = fc.record({ name: envName, value: fc.string({ maxLength: 2 }) });
  const port = fc.record({ containerPort: fc.constantFrom(80, 443, 8080), name: fc.constantFrom("p", "q") });
  const byName = { selector: (item: { name: string }) => item.name, maxLength: 4 };
  const podArb = fc.record({
    metadata: fc.record({ name: fc.constant("p"), finalizers: fc.uniqueArray(finalizer, { maxLength: 4 }) }),
    spec: fc.record({
      containers: fc.uniqueArray(
        fc.record({
          name: containerName,
          image: fc.string({ maxLength: 2 }),
          env: fc.uniqueArray(envVar, byName),
          ports: fc.uniqueArray(port, { selector: (p) => p.containerPort, maxLength: 3 }),
        }),
        byName,
      ),
    }),
  }) as fc.Arbitrary<JsonObject>;

  const envPatchItem = fc.oneof(
    envVar,
    envName.map((name) => ({ name, $patch: "delete" })),
    fc.record({ name: envName, value: fc.constant(null), valueFrom: fc.constant({ fieldRef: { fieldPath: "x" } }) }),
  );
  const containerPatchItem = fc.oneof(
    fc.record(
      {
        name: containerName,
        image: fc.oneof(fc.string({ maxLength: 2 }), fc.constant(null)),
        env: fc.uniqueArray(envPatchItem, byName),
        ports: fc.uniqueArray(port, { selector: (p) => p.containerPort, maxLength: 2 }),
      },
      { requiredKeys: ["name"] },
    ),
    containerName.map((name) => ({ name, $patch: "delete" })),
  );
  const patchArb = fc
    .record(
      {
        finalizers: fc.uniqueArray(finalizer, { maxLength: 3 }),
        deleteFinalizers: fc.uniqueArray(finalizer, { maxLength: 2 }),
        containers: fc.uniqueArray(containerPatchItem, { ...byName, minLength: 1 }),
        extraOrder: fc.uniqueArray(containerName, { maxLength: 3 }),
        interleave: fc.array(fc.boolean(), { maxLength: 8 }),
        replaceEnv: fc.boolean(),
      },
      { requiredKeys: ["containers"] },
    )
    .map(({ finalizers, deleteFinalizers, containers, extraOrder, interleave, replaceEnv }) => {
      const metadata: JsonObject = {};
      if (finalizers !== undefined) metadata["finalizers"] = finalizers;
      if (deleteFinalizers !== undefined) metadata["$deleteFromPrimitiveList/finalizers"] = deleteFinalizers;
      const items = containers.map((item) => ({ ...item })) as JsonObject[];
      if (replaceEnv === true) {
        const first = items.find((item) => item["$patch"] === undefined && Array.isArray(item["env"]));
        if (first !== undefined) first["env"] = [...(first["env"] as JsonValue[]).filter((e) => (e as JsonObject)["$patch"] === undefined), { $patch: "replace" }];
      }
      const spec: JsonObject = { containers: items };
      if (extraOrder !== undefined && interleave !== undefined) {
        // A $setElementOrder list naming the patch's (non-deleted) containers in the patch's order, with others interleaved.
        const named = items.filter((item) => item["$patch"] === undefined).map((item) => item["name"] as string);
        const others = extraOrder.filter((name) => !named.includes(name));
        const order: string[] = [];
        let n = 0;
        let o = 0;
        for (const takeOther of interleave) {
          if (takeOther && o < others.length) order.push(others[o++]!);
          else if (n < named.length) order.push(named[n++]!);
        }
        order.push(...named.slice(n), ...others.slice(o));
        spec["$setElementOrder/containers"] = order.map((name) => ({ name }));
      }
      return { metadata, spec } as JsonObject;
    });

  it("is idempotent: applying a patch twice gives what applying it once gave", () => {
    fc.assert(
      fc.property(podArb, patchArb, (pod, patch) => {
        const once = apply("Pod", pod, patch);
        expect(apply("Pod", once, patch)).toEqual(once);
      }),
      { numRuns: 1000 },
    );
  });

  it("leaves merge-key lists free of duplicate keys and of directives", () => {
    fc.assert(
      fc.property(podArb, patchArb, (pod, patch) => {
        const result = apply("Pod", pod, patch);
        const directives: string[] = [];
        JSON.stringify(result, (name, value: unknown) => {
          if (name.startsWith("$")) directives.push(name);
          return value;
        });
        expect(directives).toEqual([]);
        const containers = (result["spec"] as JsonObject)["containers"] as JsonObject[];
        expect(new Set(names(containers)).size).toBe(containers.length);
        for (const container of containers) {
          const env = (container["env"] ?? []) as JsonObject[];
          expect(new Set(names(env)).size).toBe(env.length);
        }
        const finalizers = ((result["metadata"] as JsonObject)["finalizers"] ?? []) as string[];
        expect(new Set(finalizers).size).toBe(finalizers.length);
      }),
      { numRuns: 300 },
    );
  });
});
