/**
 * What the suite concludes from a compaction interval or a measurement (retention.ts): a version
 * lives between one and two intervals, so the shortest lifetime is one interval and the deadline
 * two and a margin; a measured time T to 410 lies between I and 2I.
 */
import { describe, expect, it } from "vitest";
import { DOCUMENTED_RETENTION, describeRetention, retentionFromMeasurement, retentionOfCompactionInterval, retentionOfEmbeddedServer } from "./retention.ts";

describe("retention", () => {
  it("of a compaction interval: kept one interval, gone within two and a margin (at least 5 s, else a tenth)", () => {
    expect(retentionOfCompactionInterval(10_000, "kube-profile")).toEqual({ source: "kube-profile", minimumMs: 10_000, certainlyGoneMs: 25_000 });
    expect(retentionOfCompactionInterval(300_000, "flag")).toEqual({ source: "flag", minimumMs: 300_000, certainlyGoneMs: 630_000 });
    expect(DOCUMENTED_RETENTION).toEqual({ source: "documented", minimumMs: 300_000, certainlyGoneMs: 630_000 });
  });

  it("of an embedded server: its window, then up to two compaction intervals", () => {
    expect(retentionOfEmbeddedServer(10_000, 10_000)).toEqual({ source: "embedded", minimumMs: 10_000, certainlyGoneMs: 30_000 });
  });

  it("from a measurement T: kept at least T/2, gone within 2T and a margin; none within the bound: the documented default", () => {
    expect(retentionFromMeasurement(16_000)).toEqual({ source: "measured", minimumMs: 8_000, certainlyGoneMs: 37_000 });
    expect(retentionFromMeasurement(undefined)).toBe(DOCUMENTED_RETENTION);
  });

  it("reads as one line", () => {
    expect(describeRetention(retentionOfCompactionInterval(10_000, "kube-profile"))).toBe("versions kept at least 10 s, gone within 25 s (kube-profile)");
  });
});
