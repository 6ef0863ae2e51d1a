import { describe, expect, it } from "vitest";
import { FaultSpecError, formatFaultSpec, isFaultSpec, parseFaultSpec } from "./fault-spec.ts";

describe("fault specs", () => {
  it("parses every kind and formats back to the same text", () => {
    const text = "pause:leader@40s+20s,crash:candidate-1@1m0s+30s,crash:node-3@2m0s,drift:controller@0s=500,step:node-3@1m0s=-5s,partition:zone-a|zone-b@5m0s+2m0s,latency:candidate-0@1m0s+30s=2ms/20ms/400ms,drop:candidate-0@1m0s+1m0s=0.5";
    const faults = parseFaultSpec(text);
    expect(faults).toHaveLength(8);
    expect(faults[0]).toEqual({ kind: "pause", target: "leader", atMs: 40_000, durationMs: 20_000 });
    expect(faults[2]).toEqual({ kind: "crash", target: "node-3", atMs: 120_000 });
    expect(faults[4]).toEqual({ kind: "step", target: "node-3", atMs: 60_000, stepMs: -5000 });
    expect(faults[6]).toMatchObject({ latency: { minMs: 2, meanExtraMs: 20, maxMs: 400 } });
    expect(formatFaultSpec(faults)).toBe(text);
    expect(parseFaultSpec(formatFaultSpec(faults))).toEqual(faults);
  });

  it("rejects malformed faults with a message naming the fault", () => {
    expect(() => parseFaultSpec("pause:leader@40s")).toThrow(FaultSpecError);
    expect(() => parseFaultSpec("pause:leader@40s")).toThrow(/pause needs \+duration/);
    expect(() => parseFaultSpec("explode:leader@1s")).toThrow(/unknown kind explode/);
    expect(() => parseFaultSpec("drift:leader@1s=fast")).toThrow(/not a number/);
    expect(() => parseFaultSpec("pause:leader@soon+1s")).toThrow(/not a duration/);
  });

  it("tells explicit faults from fault class names", () => {
    expect(isFaultSpec("pause:leader@1s+1s")).toBe(true);
    expect(isFaultSpec("pauses,drift")).toBe(false);
  });
});
