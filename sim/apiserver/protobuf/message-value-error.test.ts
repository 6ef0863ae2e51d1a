/**
 * messageValueError finds the same first wrong value as jsonToMessage, which builds the whole
 * message: on random values placed where a Pod's fields go (fast-check prints the seed and path
 * to replay a failure).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonToMessage, messageValueError } from "./convert.ts";
import { ProtobufEncodeError } from "./errors.ts";

function encoderError(typeName: string, json: unknown): string | undefined {
  try {
    jsonToMessage(typeName, json, { unknownFields: "drop" });
    return undefined;
  } catch (error) {
    if (error instanceof ProtobufEncodeError) return error.message;
    throw error;
  }
}

// Values of every JSON type, and some that fit the Pod's own types (times, quantities, ports).
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom("2026-11-28T10:00:00Z", "100m", "1Gi", 8080, "http", true, [], {}, null),
);
const container = fc.dictionary(fc.constantFrom("name", "image", "args", "ports", "resources", "env", "livenessProbe", "securityContext"), value, { maxKeys: 4 });
const spec = fc.record(
  {
    containers: fc.oneof(fc.array(container, { maxLength: 3 }), value),
    nodeSelector: value,
    activeDeadlineSeconds: value,
    hostNetwork: value,
    tolerations: value,
    overhead: value,
  },
  { requiredKeys: [] },
);
const pod = fc.record(
  {
    metadata: fc.oneof(fc.record({ name: value, labels: value, creationTimestamp: value, managedFields: value }, { requiredKeys: [] }), value),
    spec: fc.oneof(spec, value),
    status: fc.oneof(fc.record({ phase: value, startTime: value, podIP: value }, { requiredKeys: [] }), value),
  },
  { requiredKeys: [] },
);

describe("the value check without building the message", () => {
  it("names the first wrong value jsonToMessage names, or none when it has none (property)", () => {
    fc.assert(
      fc.property(pod, (object) => {
        expect(messageValueError("Pod", object)?.message).toBe(encoderError("Pod", object));
      }),
      { numRuns: 2_000 },
    );
  });

  it("finds wrong values deep in a list and in a map, in the encoder's order", () => {
    const object = { spec: { containers: [{ name: "a" }, { name: "b", ports: [{ containerPort: "80" }] }], nodeSelector: { b: 1, a: 2 } } };
    expect(messageValueError("Pod", object)?.message).toBe("spec.containers[1].ports[0].containerPort: expected an integer, got \"80\"");
    expect(messageValueError("Pod", { spec: { nodeSelector: { b: 1, a: 2 } } })?.message).toBe('spec.nodeSelector["a"]: expected a string, got 2');
    expect(messageValueError("Pod", { spec: { containers: [{ name: "a" }] } })).toBeUndefined();
  });
});
