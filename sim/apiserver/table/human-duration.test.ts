import { describe, expect, it } from "vitest";
import { ageSince, formatTimestamp, humanDuration, parseTimestamp } from "./human-duration.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("humanDuration (k8s.io/apimachinery/pkg/util/duration.HumanDuration)", () => {
  it.each([
    // The cases of apimachinery's duration_test.go.
    [SECOND, "1s"],
    [70 * SECOND, "70s"],
    [190 * SECOND, "3m10s"],
    [70 * MINUTE, "70m"],
    [47 * HOUR, "47h"],
    [49 * HOUR, "2d1h"],
    [(8 * 24 + 2) * HOUR, "8d"],
    [367 * DAY, "367d"],
    [(365 * 2 * 24 + 25) * HOUR, "2y1d"],
    [(365 * 8 * 24 + 2) * HOUR, "8y"],
    // Boundaries.
    [0, "0s"],
    [999, "0s"],
    [119 * SECOND + 999, "119s"],
    [120 * SECOND, "2m"],
    [125 * SECOND, "2m5s"],
    [9 * MINUTE + 59 * SECOND, "9m59s"],
    [10 * MINUTE + 30 * SECOND, "10m"],
    [179 * MINUTE, "179m"],
    [3 * HOUR, "3h"],
    [3 * HOUR + 30 * MINUTE, "3h30m"],
    [8 * HOUR + 59 * MINUTE, "8h"],
    [48 * HOUR, "2d"],
    [7 * DAY + 23 * HOUR, "7d23h"],
    [729 * DAY, "729d"],
    [730 * DAY, "2y"],
    // Clock skew: up to one second ahead is "0s", more is invalid.
    [-1500, "0s"],
    [-2 * SECOND, "<invalid>"],
  ])("%d ms is %s", (ms, expected) => {
    expect(humanDuration(ms)).toBe(expected);
  });
});

describe("timestamps", () => {
  it("parses RFC 3339 times and MicroTimes, and reads zero or absent times as unset", () => {
    expect(parseTimestamp("2026-11-21T12:54:46Z")).toBe(Date.UTC(2026, 10, 21, 12, 54, 46));
    expect(parseTimestamp("2026-11-21T12:00:00.123456Z")).toBe(Date.UTC(2026, 10, 21, 12, 0, 0, 123));
    expect(parseTimestamp("2026-11-21T14:00:00+02:00")).toBe(Date.UTC(2026, 10, 21, 12, 0, 0));
    expect(parseTimestamp("0001-01-01T00:00:00Z")).toBeUndefined();
    expect(parseTimestamp(null)).toBeUndefined();
    expect(parseTimestamp("yesterday")).toBeUndefined();
  });

  it("ages a timestamp with the given clock, '<unknown>' when unset", () => {
    const clock = { nowMs: () => Date.UTC(2026, 10, 21, 12, 54, 56, 500) };
    expect(ageSince("2026-11-21T12:54:46Z", clock)).toBe("10s");
    expect(ageSince("2026-11-21T12:53:27Z", clock)).toBe("89s");
    expect(ageSince(undefined, clock)).toBe("<unknown>");
  });

  it("formats times as metav1.Time does: whole seconds, UTC", () => {
    expect(formatTimestamp(Date.UTC(2026, 10, 21, 12, 54, 46, 900))).toBe("2026-11-21T12:54:46Z");
    expect(formatTimestamp(undefined)).toBe("0001-01-01T00:00:00Z");
  });
});
