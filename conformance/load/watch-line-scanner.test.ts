import { describe, expect, it } from "vitest";
import { LatencyHistogram } from "./latency-histogram.ts";
import { WatchLineScanner } from "./watch-line-scanner.ts";

describe("WatchLineScanner", () => {
  it("reads type and resourceVersion of lines split anywhere across chunks", () => {
    const lines = ['{"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"17"},"data":{"resourceVersion":"x"}}}', '{"type":"DELETED","object":{"metadata":{"resourceVersion":"18"}}}'];
    const text = `${lines.join("\n")}\n`;
    for (const cut of [1, 10, 60, text.length - 3]) {
      const scanner = new WatchLineScanner();
      const events = [...scanner.push(text.slice(0, cut)), ...scanner.push(text.slice(cut))];
      expect(events, `cut at ${cut}`).toEqual([
        { type: "ADDED", resourceVersion: "17" },
        { type: "DELETED", resourceVersion: "18" },
      ]);
    }
  });

  it("marks a field it cannot find with ?", () => {
    expect(new WatchLineScanner().push('{"object":{}}\n')).toEqual([{ type: "?", resourceVersion: "?" }]);
  });
});

describe("LatencyHistogram", () => {
  it("gives percentiles within 2% of the exact ones", () => {
    const histogram = new LatencyHistogram();
    for (let ms = 1; ms <= 1000; ms++) histogram.record(ms);
    expect(histogram.count).toBe(1000);
    expect(histogram.percentile(0.5)).toBeGreaterThanOrEqual(500);
    expect(histogram.percentile(0.5)).toBeLessThanOrEqual(510);
    expect(histogram.percentile(0.99)).toBeGreaterThanOrEqual(990);
    expect(histogram.percentile(0.99)).toBeLessThanOrEqual(1000);
    expect(new LatencyHistogram().percentile(0.99)).toBe(0);
  });
});
