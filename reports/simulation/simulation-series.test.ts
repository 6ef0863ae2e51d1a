import { describe, expect, it } from "vitest";
import { emptyHistory, type ControlPlaneHistory } from "../../sim/invariants/control-plane-history.ts";
import { overlapIntervals, rateLimitSeries, zoneSeries, type Point } from "./simulation-series.ts";

const T0 = 1_700_000_000_000;
// The controller's monotonic clock reads true time minus this.
const LOCAL = T0 - 5_000;

/** The value of a straight-line series at `t` (the last point at `t` for a jump). */
function valueAt(points: readonly Point[], t: number): number {
  let value = points[0]!.value;
  for (let index = 0; index < points.length; index++) {
    const point = points[index]!;
    if (point.t <= t) value = point.value;
    else {
      const before = points[index - 1]!;
      return before.value + ((point.value - before.value) * (t - before.t)) / (point.t - before.t);
    }
  }
  return value;
}

function history(): ControlPlaneHistory {
  const h = emptyHistory(T0);
  h.endMs = T0 + 300_000;
  h.nodes.set("a1", { name: "a1", zone: "zone-a", registeredAtMs: T0, heartbeatsMs: [], statusPostsMs: [] });
  const rate = (s: number, value: number, how: "created" | "swapped") =>
    h.zoneRates.push({ atMs: T0 + s * 1000, localMs: T0 + s * 1000 - LOCAL, incarnation: "c_0", zone: "zone-a", rate: value, state: value === 0.1 ? "Normal" : "PartialDisruption", how });
  const decide = (s: number) => h.decisions.push({ atMs: T0 + s * 1000, localMs: T0 + s * 1000 - LOCAL, incarnation: "c_0", zone: "zone-a", node: "a1" });
  rate(5, 0.1, "created");
  decide(100);
  decide(110);
  rate(112, 0.01, "swapped");
  return h;
}

describe("the rate-limit line (node-lifecycle/zone-eviction-rate's buckets)", () => {
  it("is tokens taken plus the bucket's tokens: full at creation, refilling at the zone's rate, drained by a swap from an empty bucket", () => {
    const line = rateLimitSeries(history(), "zone-a");
    expect(valueAt(line, 0)).toBe(0);
    expect(valueAt(line, 5)).toBe(1); // a new bucket: one token at once
    expect(valueAt(line, 60)).toBe(1); // full (burst 1): no more than one token waits
    expect(valueAt(line, 100)).toBe(1); // a token taken: 1 taken + 0 in the bucket
    expect(valueAt(line, 105)).toBeCloseTo(1.5); // 0.1/s
    expect(valueAt(line, 110)).toBe(2);
    expect(valueAt(line, 112)).toBe(2); // swapped to 0.01/s; the old bucket had no token, so the new one is drained
    expect(valueAt(line, 162)).toBeCloseTo(2.5);
    expect(valueAt(line, 212)).toBeCloseTo(3); // full again
    expect(valueAt(line, 300)).toBeCloseTo(3);
    expect(line.at(-1)).toEqual({ t: 300, value: 3 });
  });

  it("stays at one token for a zone that never evicts (not a line to the axis' top)", () => {
    const h = history();
    h.zoneRates.push({ atMs: T0 + 5_000, localMs: 0, incarnation: "c_0", zone: "zone-b", rate: 0.1, state: "Normal", how: "created" });
    expect(Math.max(...rateLimitSeries(h, "zone-b").map((point) => point.value))).toBe(1);
  });
});

describe("zone states", () => {
  it("marks the bands before any node of the zone was Ready as start-up", () => {
    const h = history();
    h.zoneStates.push({ atMs: T0 + 1_000, zone: "zone-a", state: "FullDisruption", ready: 0, notReady: 1 });
    h.conditions.push({ atMs: T0 + 3_000, node: "a1", status: "True", by: "a1" });
    h.zoneStates.push({ atMs: T0 + 5_000, zone: "zone-a", state: "Normal", ready: 1, notReady: 0 });
    h.zoneStates.push({ atMs: T0 + 100_000, zone: "zone-a", state: "FullDisruption", ready: 0, notReady: 1 });
    const [zone] = zoneSeries(h);
    expect(zone!.states).toEqual([
      { from: 1, to: 5, state: "FullDisruption", startup: true },
      { from: 5, to: 100, state: "Normal" },
      { from: 100, to: 300, state: "FullDisruption" },
    ]);
  });
});

describe("leadership overlaps", () => {
  it("are the spans with two or more leaders at once", () => {
    const lane = (candidate: string, ...spans: [number, number][]) => ({ candidate, intervals: spans.map(([from, to]) => ({ from, to, identity: candidate, ended: "stopped" })) });
    expect(overlapIntervals([lane("a", [0, 50], [80, 90]), lane("b", [40, 100]), lane("c", [45, 46])])).toEqual([
      { from: 40, to: 50, leaders: 3 },
      { from: 80, to: 90, leaders: 2 },
    ]);
    expect(overlapIntervals([lane("a", [0, 50]), lane("b", [50, 100])])).toEqual([]);
  });
});
