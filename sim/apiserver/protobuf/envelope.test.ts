/**
 * The envelope and the object codec without the reference transcripts: hand-assembled bytes,
 * rejections (wrong prefix, truncation, unknown kinds, wrong wire types), and the JSON forms of
 * times, bytes, int-or-string and quantities.
 */
import { describe, expect, it } from "vitest";
import { jsonToMessage } from "./convert.ts";
import { decodeEnvelope, decodeObject, encodeMessage, encodeObject, hasProtobufPrefix, PROTOBUF_PREFIX, wrapEnvelope, type JsonObject } from "./envelope.ts";
import { ProtobufDecodeError, ProtobufEncodeError } from "./errors.ts";
import { supportsProtobuf } from "./kinds.ts";
import { messageInfo } from "./schema.ts";

/** Protobuf wire helpers for hand-made vectors (independent of protobufjs). */
function varint(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return out;
}
const bytesField = (id: number, content: number[]): number[] => [...varint((id << 3) | 2), ...varint(content.length), ...content];
const stringField = (id: number, text: string): number[] => bytesField(id, [...Buffer.from(text, "utf8")]);
const varintField = (id: number, value: number): number[] => [...varint(id << 3), ...varint(value)];

/** prefix + Unknown{typeMeta{apiVersion, kind}, raw, "", ""} by hand. */
function body(apiVersion: string, kind: string, raw: number[]): Uint8Array {
  return Uint8Array.from([
    0x6b, 0x38, 0x73, 0x00,
    ...bytesField(1, [...stringField(1, apiVersion), ...stringField(2, kind)]),
    ...bytesField(2, raw),
    ...stringField(3, ""),
    ...stringField(4, ""),
  ]);
}

function decodeError(bytes: Uint8Array): ProtobufDecodeError {
  try {
    decodeObject(bytes);
  } catch (error) {
    if (error instanceof ProtobufDecodeError) return error;
    throw error;
  }
  throw new Error("decoded without an error");
}

function encodeError(run: () => unknown): ProtobufEncodeError {
  try {
    run();
  } catch (error) {
    if (error instanceof ProtobufEncodeError) return error;
    throw error;
  }
  throw new Error("encoded without an error");
}

const configMap: JsonObject = {
  kind: "ConfigMap",
  apiVersion: "v1",
  metadata: { name: "cm", namespace: "default", uid: "u-1", resourceVersion: "7", creationTimestamp: "2026-11-21T12:54:46Z" },
  data: { key: "value" },
};

describe("the envelope (doc 1 §2.6)", () => {
  it("decodes a hand-assembled ConfigMap body", () => {
    // ConfigMap {1: ObjectMeta {1: name, 3: namespace, 8: Time {1: seconds}}, 2: {1: key, 2: value}}
    const raw = [
      ...bytesField(1, [...stringField(1, "cm"), ...stringField(3, "ns"), ...bytesField(8, varintField(1, 1795265686))]),
      ...bytesField(2, [...stringField(1, "k"), ...stringField(2, "v")]),
    ];
    expect(decodeObject(body("v1", "ConfigMap", raw))).toEqual({
      apiVersion: "v1",
      kind: "ConfigMap",
      object: {
        kind: "ConfigMap",
        apiVersion: "v1",
        metadata: { name: "cm", namespace: "ns", creationTimestamp: "2026-11-21T12:54:46Z" },
        data: { k: "v" },
      },
    });
  });

  it("writes the prefix, then Unknown with typeMeta {1: apiVersion, 2: kind}, raw, and empty contentEncoding/contentType", () => {
    const encoded = encodeObject("v1", "ConfigMap", configMap);
    expect([...encoded.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
    const raw = encodeMessage("ConfigMap", configMap);
    expect([...encoded]).toEqual([...body("v1", "ConfigMap", [...raw])]);
    expect(decodeEnvelope(encoded)).toEqual({ apiVersion: "v1", kind: "ConfigMap", raw });
    expect(hasProtobufPrefix(encoded)).toBe(true);
    expect(PROTOBUF_PREFIX).toEqual(Uint8Array.of(0x6b, 0x38, 0x73, 0x00));
  });

  it("rejects a body with another prefix, as a client must", () => {
    const good = encodeObject("v1", "ConfigMap", configMap);
    for (const bad of [
      Uint8Array.of(0x6b, 0x38, 0x73, 0x01, ...good.subarray(4)),
      Uint8Array.of(0x00, 0x38, 0x73, 0x00, ...good.subarray(4)),
      good.subarray(4), // the envelope without the prefix
      new TextEncoder().encode(JSON.stringify(configMap)),
      Uint8Array.of(0x6b, 0x38, 0x73),
      new Uint8Array(0),
    ]) {
      const error = decodeError(bad);
      expect(error.code).toBe("wrong-prefix");
      expect(error.httpStatus).toBe(400);
      expect(hasProtobufPrefix(bad)).toBe(false);
    }
  });

  it("rejects a truncated envelope at every cut inside its typeMeta and raw fields", () => {
    const good = encodeObject("v1", "ConfigMap", configMap);
    // Unknown field 1 (typeMeta): tag, one-byte length; field 2 (raw): tag, one-byte length.
    const typeMetaEnd = 4 + 2 + good[5]!;
    expect(good[typeMetaEnd]).toBe(0x12);
    expect(good[typeMetaEnd + 1]).toBeLessThan(0x80);
    const rawEnd = typeMetaEnd + 2 + good[typeMetaEnd + 1]!;
    for (let length = 5; length < rawEnd; length++) {
      if (length === typeMetaEnd) continue;
      expect(decodeError(good.subarray(0, length)).code, `cut at ${length}`).toBe("truncated-envelope");
    }
    // Cut between fields, the envelope is well formed, as Go would also find: no raw is an empty object.
    expect(decodeObject(good.subarray(0, typeMetaEnd)).object).toEqual({ kind: "ConfigMap", apiVersion: "v1", metadata: { creationTimestamp: null } });
    // Just the prefix is an empty Unknown: no kind.
    expect(decodeError(good.subarray(0, 4)).code).toBe("missing-kind");
  });

  it("rejects a kind without a Protobuf form (custom resources are JSON only), decoding and encoding", () => {
    const error = decodeError(body("example.com/v1", "Widget", []));
    expect(error.code).toBe("unknown-kind");
    expect(error.message).toContain("Widget");
    expect(supportsProtobuf("example.com/v1", "Widget")).toBe(false);
    expect(encodeError(() => encodeObject("example.com/v1", "Widget", { spec: {} })).code).toBe("unknown-kind");
    // A served kind in a group it is not served in is unknown too.
    expect(decodeError(body("apps/v1", "ConfigMap", [])).code).toBe("unknown-kind");
  });

  it("rejects wrong wire types and fields running past the end of raw", () => {
    // ObjectMeta.name (1) as a varint.
    expect(decodeError(body("v1", "ConfigMap", bytesField(1, varintField(1, 5)))).code).toBe("malformed-object");
    // ConfigMap.immutable (4) as a string.
    expect(decodeError(body("v1", "ConfigMap", stringField(4, "yes"))).code).toBe("malformed-object");
    // A metadata field announcing more bytes than raw holds.
    expect(decodeError(body("v1", "ConfigMap", [0x0a, 0x10, 0x0a, 0x02, 0x63])).code).toBe("malformed-object");
    // Wire types 6 and 7 do not exist.
    expect(decodeError(body("v1", "ConfigMap", [0x0e, 0x00])).code).toBe("malformed-object");
  });

  it("skips fields it does not know (a newer server's fields), as Go and protobufjs do", () => {
    const raw = [...bytesField(1, stringField(1, "cm")), ...stringField(99, "from the future"), ...varintField(98, 7)];
    expect(decodeObject(body("v1", "ConfigMap", raw)).object).toEqual({
      kind: "ConfigMap",
      apiVersion: "v1",
      metadata: { name: "cm", creationTimestamp: null },
    });
  });

  it("rejects a contentEncoding and a non-Protobuf contentType; accepts a Protobuf contentType", () => {
    const envelope = (encoding: string, type: string) =>
      Uint8Array.from([
        ...PROTOBUF_PREFIX,
        ...bytesField(1, [...stringField(1, "v1"), ...stringField(2, "ConfigMap")]),
        ...bytesField(2, []),
        ...stringField(3, encoding),
        ...stringField(4, type),
      ]);
    expect(decodeError(envelope("gzip", "")).code).toBe("unsupported-content");
    expect(decodeError(envelope("", "application/json")).code).toBe("unsupported-content");
    expect(decodeObject(envelope("", "application/vnd.kubernetes.protobuf")).kind).toBe("ConfigMap");
  });

  it("serves Lease under each dialect's coordination group, and Status, DeleteOptions, Eviction", () => {
    const lease = { metadata: { name: "node-a", creationTimestamp: "2026-11-21T12:00:00Z" }, spec: { holderIdentity: "node-a" } };
    for (const apiVersion of ["coordination.k8s.io/v1", "coordination.orb.io/v1"]) {
      expect(decodeObject(encodeObject(apiVersion, "Lease", lease)).object).toEqual({ kind: "Lease", apiVersion, ...lease });
    }
    expect(supportsProtobuf("v1", "Status")).toBe(true);
    expect(supportsProtobuf("meta.k8s.io/v1", "DeleteOptions")).toBe(true);
    expect(supportsProtobuf("meta.orb.io/v1", "DeleteOptions")).toBe(true);
    const eviction = { metadata: { name: "p1", namespace: "ns", creationTimestamp: null }, deleteOptions: { gracePeriodSeconds: 0, dryRun: ["All"] } };
    expect(decodeObject(encodeObject("policy/v1", "Eviction", eviction)).object).toEqual({ kind: "Eviction", apiVersion: "policy/v1", ...eviction });
  });
});

describe("objects: fields the schema lacks, and values of the wrong type", () => {
  it("refuses fields the schema does not cover, naming them; or drops them when asked", () => {
    const pod = {
      metadata: { name: "p" },
      spec: { containers: [{ name: "c", image: "i", futureField: 1 }], volumes: [{ name: "v", futureVolumeSource: { pdName: "d" } }] },
      bogus: true,
    };
    const error = encodeError(() => encodeObject("v1", "Pod", pod));
    expect(error.code).toBe("unknown-field");
    expect(error.paths).toEqual(["spec.volumes[0].futureVolumeSource", "spec.containers[0].futureField", "bogus"]);
    const dropped = decodeObject(encodeObject("v1", "Pod", pod, { unknownFields: "drop" })).object;
    expect(dropped["spec"]).toMatchObject({ containers: [{ name: "c", image: "i", resources: {} }], volumes: [{ name: "v" }] });
    expect(dropped).not.toHaveProperty("bogus");
  });

  it("refuses values of the wrong type or out of range", () => {
    const cases: Array<[JsonObject, string]> = [
      [{ metadata: { name: 5 } }, "metadata.name"],
      [{ metadata: { generation: 1.5 } }, "metadata.generation"],
      [{ metadata: { creationTimestamp: "yesterday" } }, "metadata.creationTimestamp"],
      [{ metadata: { creationTimestamp: "2026-02-30T00:00:00Z" } }, "metadata.creationTimestamp"],
      [{ metadata: { labels: ["a"] } }, "metadata.labels"],
      [{ data: { k: 1 } }, 'data["k"]'],
      [{ binaryData: { k: "not base64!" } }, 'binaryData["k"]'],
      [{ immutable: "true" }, "immutable"],
      [{ metadata: { finalizers: "a" } }, "metadata.finalizers"],
    ];
    for (const [object, path] of cases) {
      const error = encodeError(() => encodeObject("v1", "ConfigMap", object));
      expect(error.code, path).toBe("invalid-value");
      expect(error.paths).toEqual([path]);
    }
    expect(encodeError(() => encodeObject("v1", "Service", { spec: { ports: [{ port: 2 ** 31 }] } })).paths).toEqual(["spec.ports[0].port"]);
    expect(encodeError(() => encodeObject("v1", "ConfigMap", [] as unknown as JsonObject)).code).toBe("invalid-value");
  });
});

describe("JSON forms of Protobuf values", () => {
  const roundTrip = (apiVersion: string, kind: string, object: JsonObject) => decodeObject(encodeObject(apiVersion, kind, object)).object;

  it("Time: RFC 3339 in UTC, whole seconds; an offset is converted, a fraction dropped; zero is null", () => {
    const out = roundTrip("v1", "ConfigMap", { metadata: { creationTimestamp: "2026-11-21T14:54:46.75+02:00", deletionTimestamp: "0001-01-02T00:00:00Z" } });
    expect(out["metadata"]).toEqual({ creationTimestamp: "2026-11-21T12:54:46Z", deletionTimestamp: "0001-01-02T00:00:00Z" });
    // A missing non-pointer Time is Go's zero time: an empty message, JSON null.
    expect(roundTrip("v1", "ConfigMap", { metadata: { name: "x" } })["metadata"]).toEqual({ name: "x", creationTimestamp: null });
    const meta = jsonToMessage("ObjectMeta", { name: "x" });
    expect(meta["creationTimestamp"]).toEqual({});
    // Go writes whole seconds and nanos 0.
    expect(jsonToMessage("ObjectMeta", { creationTimestamp: "2026-11-21T12:54:46.9Z" })["creationTimestamp"]).toEqual({ seconds: 1795265686, nanos: 0 });
  });

  it("MicroTime: six fraction digits, kept to the microsecond", () => {
    const spec = { acquireTime: "2026-11-21T12:00:00.123456789Z", renewTime: "1969-12-31T23:59:59.5Z" };
    expect(roundTrip("coordination.k8s.io/v1", "Lease", { metadata: {}, spec })["spec"]).toEqual({
      acquireTime: "2026-11-21T12:00:00.123456Z",
      renewTime: "1969-12-31T23:59:59.500000Z",
    });
  });

  it("bytes: standard base64; Secret data and ConfigMap binaryData", () => {
    const data = { a: Buffer.from([0, 255, 1, 2]).toString("base64"), empty: "" };
    const secret = roundTrip("v1", "Secret", { metadata: { creationTimestamp: null }, data, type: "Opaque" });
    expect(secret).toEqual({ kind: "Secret", apiVersion: "v1", metadata: { creationTimestamp: null }, data, type: "Opaque" });
    expect(roundTrip("v1", "ConfigMap", { binaryData: data })["binaryData"]).toEqual(data);
  });

  it("int-or-string: a number or a string (type 0 intVal / type 1 strVal); quantities: strings", () => {
    const service = roundTrip("v1", "Service", {
      metadata: {},
      spec: { ports: [{ port: 80, targetPort: 8080 }, { name: "web", port: 443, targetPort: "https" }] },
    });
    expect((service["spec"] as JsonObject)["ports"]).toEqual([
      { port: 80, targetPort: 8080 },
      { name: "web", port: 443, targetPort: "https" },
    ]);
    expect(jsonToMessage("ServicePort", { port: 1, targetPort: "x" })["targetPort"]).toEqual({ type: 1, intVal: 0, strVal: "x" });
    const node = roundTrip("v1", "Node", { metadata: {}, status: { capacity: { cpu: "4", memory: "16Gi", pods: 110 } } });
    expect((node["status"] as JsonObject)["capacity"]).toEqual({ cpu: "4", memory: "16Gi", pods: "110" });
  });

  it("writes map entries in Go's sorted key order (UTF-8 bytes), whatever the JSON order", () => {
    const labels = { b: "1", "10": "2", "9": "3", A: "4", "\u{1F600}": "5", "\uFF5E": "6" };
    const entries = jsonToMessage("ObjectMeta", { labels })["labels"] as Array<{ key: string }>;
    expect(entries.map((entry) => entry.key)).toEqual(["10", "9", "A", "b", "\uFF5E", "\u{1F600}"]);
  });

  it("keeps a `__proto__` key as data", () => {
    const data = JSON.parse('{"__proto__": "x", "constructor": "y"}') as JsonObject;
    const out = roundTrip("v1", "ConfigMap", { data })["data"] as JsonObject;
    expect(Object.keys(out)).toEqual(["__proto__", "constructor"]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out["__proto__"]).toBe("x");
  });

  it("follows Go's pointer and omitempty rules: set pointers kept at zero, zero values dropped, structs always written", () => {
    const pod = roundTrip("v1", "Pod", {
      metadata: { name: "p", creationTimestamp: "2026-11-21T12:00:00Z" },
      spec: {
        containers: [{ name: "c", image: "i", stdin: false, ports: [{ containerPort: 0 }] }],
        hostNetwork: false,
        priority: 0,
        automountServiceAccountToken: false,
        tolerations: [{ key: "k", operator: "Exists", tolerationSeconds: 0 }],
      },
    });
    expect(pod).toEqual({
      kind: "Pod",
      apiVersion: "v1",
      metadata: { name: "p", creationTimestamp: "2026-11-21T12:00:00Z" },
      spec: {
        containers: [{ name: "c", image: "i", ports: [{ containerPort: 0 }], resources: {} }],
        automountServiceAccountToken: false,
        tolerations: [{ key: "k", operator: "Exists", tolerationSeconds: 0 }],
        priority: 0,
      },
      status: {},
    });
    // `containers` has no omitempty: an empty list is null, as Go writes a nil slice.
    expect((roundTrip("v1", "Pod", { metadata: {} })["spec"] as JsonObject)["containers"]).toBeNull();
    // A list's items are always a list.
    expect(roundTrip("v1", "PodList", { metadata: { resourceVersion: "5" }, items: [] })).toEqual({
      kind: "PodList",
      apiVersion: "v1",
      metadata: { resourceVersion: "5" },
      items: [],
    });
  });

  it("inlines Go embedded structs in JSON: probe handlers, volume sources, key selectors", () => {
    const container = {
      name: "c",
      env: [{ name: "A", valueFrom: { configMapKeyRef: { name: "cm", key: "k", optional: true } } }],
      resources: { limits: { cpu: "500m" }, requests: { memory: "64Mi" } },
      volumeMounts: [{ name: "v", mountPath: "/v", readOnly: true }],
      livenessProbe: { httpGet: { path: "/healthz", port: 8080, scheme: "HTTP" }, periodSeconds: 10, failureThreshold: 3 },
      readinessProbe: { exec: { command: ["true"] }, initialDelaySeconds: 1 },
    };
    const volumes = [
      { name: "v", configMap: { name: "cm", defaultMode: 420 } },
      { name: "w", emptyDir: { sizeLimit: "1Gi" } },
      {
        name: "kube-api-access",
        projected: {
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
            { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
            { downwardAPI: { items: [{ path: "namespace", fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } }] } },
          ],
          defaultMode: 420,
        },
      },
    ];
    const pod = { metadata: { creationTimestamp: null }, spec: { volumes, containers: [container] }, status: {} };
    const out = roundTrip("v1", "Pod", pod);
    expect(out).toEqual({ kind: "Pod", apiVersion: "v1", ...pod });
    // The inline struct is its own field on the wire: Probe {1: ProbeHandler {2: HTTPGetAction}}.
    const probe = jsonToMessage("Probe", container.livenessProbe);
    expect(Object.keys(probe)).toEqual(["handler", "initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"]);
  });

  it("covers Deployment, Node, Event and Namespace status fields", () => {
    const deployment = {
      metadata: { name: "d", creationTimestamp: "2026-11-21T12:00:00Z", generation: 2 },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: "x" }, matchExpressions: [{ key: "tier", operator: "In", values: ["a"] }] },
        template: { metadata: { labels: { app: "x" }, creationTimestamp: null }, spec: { containers: [{ name: "c", image: "i", resources: {} }] } },
        strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: "25%", maxSurge: 1 } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
      },
      status: {
        observedGeneration: 2,
        replicas: 3,
        conditions: [
          { type: "Available", status: "True", lastUpdateTime: "2026-11-21T12:00:01Z", lastTransitionTime: "2026-11-21T12:00:01Z", reason: "MinimumReplicasAvailable" },
        ],
      },
    };
    expect(roundTrip("apps/v1", "Deployment", deployment)).toEqual({ kind: "Deployment", apiVersion: "apps/v1", ...deployment });

    const node = {
      metadata: { name: "n", creationTimestamp: "2026-11-21T12:00:00Z" },
      spec: { podCIDR: "10.0.0.0/24", podCIDRs: ["10.0.0.0/24"], unschedulable: true, taints: [{ key: "node.kubernetes.io/not-ready", effect: "NoSchedule", timeAdded: "2026-11-21T12:00:00Z" }] },
      status: {
        capacity: { cpu: "4" },
        allocatable: { cpu: "3900m" },
        conditions: [{ type: "Ready", status: "False", lastHeartbeatTime: "2026-11-21T12:00:00Z", lastTransitionTime: null, reason: "KubeletNotReady" }],
        addresses: [{ type: "InternalIP", address: "10.1.0.5" }],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: {
          machineID: "m", systemUUID: "s", bootID: "b", kernelVersion: "k", osImage: "o", containerRuntimeVersion: "c",
          kubeletVersion: "v1.26.4", kubeProxyVersion: "v1.26.4", operatingSystem: "linux", architecture: "amd64",
        },
      },
    };
    expect(roundTrip("v1", "Node", node)).toEqual({ kind: "Node", apiVersion: "v1", ...node });

    const event = {
      metadata: { name: "e", namespace: "ns", creationTimestamp: "2026-11-21T12:00:00Z" },
      involvedObject: { kind: "Pod", namespace: "ns", name: "p", uid: "u", apiVersion: "v1" },
      reason: "Scheduled",
      message: "assigned",
      source: { component: "default-scheduler" },
      firstTimestamp: null,
      lastTimestamp: null,
      type: "Normal",
      eventTime: "2026-11-21T12:00:00.000001Z",
      action: "Binding",
      reportingComponent: "default-scheduler",
      reportingInstance: "",
    };
    expect(roundTrip("v1", "Event", event)).toEqual({ kind: "Event", apiVersion: "v1", ...event });

    const namespace = {
      metadata: { name: "ns", creationTimestamp: "2026-11-21T12:00:00Z", deletionTimestamp: "2026-11-21T12:00:05Z" },
      spec: { finalizers: ["kubernetes"] },
      status: { phase: "Terminating", conditions: [{ type: "NamespaceDeletionContentFailure", status: "False", lastTransitionTime: "2026-11-21T12:00:05Z", reason: "ContentDeleted", message: "ok" }] },
    };
    expect(roundTrip("v1", "Namespace", namespace)).toEqual({ kind: "Namespace", apiVersion: "v1", ...namespace });
  });

  it("writes repeated scalars unpacked (proto2, as Go does) and reads them packed too", () => {
    const context = { supplementalGroups: [1, 300] };
    const bytes = messageInfo("PodSecurityContext").type.encode(jsonToMessage("PodSecurityContext", context)).finish();
    expect([...bytes]).toEqual([...varintField(4, 1), ...varintField(4, 300)]);
    const packed = bytesField(4, [...varint(1), ...varint(300)]);
    const spec = bytesField(2, bytesField(14, packed));
    expect(decodeObject(body("v1", "Pod", spec)).object["spec"]).toMatchObject({ securityContext: context });
  });

  it("wraps already-encoded objects", () => {
    const raw = encodeMessage("Status", { metadata: {}, status: "Success", code: 201 });
    expect(decodeObject(wrapEnvelope("v1", "Status", raw)).object).toEqual({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 });
  });
});
