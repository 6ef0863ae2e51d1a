import { describe, expect, it } from "vitest";
import { recordedTypesData } from "../../sim/apiserver/routing/recorded-types.ts";
import { RECORDED_TYPES, SAMPLES, stabilized } from "./record-builtin-types.ts";

describe("record-builtin-types", () => {
  it("replaces the volatile values of an answer with placeholders and leaves out managedFields", () => {
    const answer = {
      metadata: { name: "once", namespace: "orb-record-types-x1", uid: "u-1", resourceVersion: "42", creationTimestamp: "2026-11-28T10:00:00Z", managedFields: [{ manager: "m" }] },
      spec: { selector: { matchLabels: { "controller-uid": "u-1" } }, schedule: "0 3 * * *" },
    };
    expect(stabilized(answer, "orb-record-types-x1", "u-1")).toEqual({
      metadata: { name: "once", namespace: "<namespace>", uid: "<uid>", resourceVersion: "<resourceVersion>", creationTimestamp: "<time>" },
      spec: { selector: { matchLabels: { "controller-uid": "<uid>" } }, schedule: "0 3 * * *" },
    });
  });

  it("wrote the data file the server reads: every listed type, a sample for each type with one", () => {
    const data = recordedTypesData();
    expect(Object.keys(data.types)).toEqual(RECORDED_TYPES.map(([, , resource]) => resource));
    for (const [group, version, resource] of RECORDED_TYPES) {
      const type = data.types[resource]!;
      expect([type.group, type.version, type.discovery.name]).toEqual([group, version, resource]);
      expect(type.columns.length).toBeGreaterThan(1);
      expect(type.sample?.sent).toEqual(SAMPLES[resource]);
    }
  });
});
