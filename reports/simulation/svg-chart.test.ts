import { describe, expect, it } from "vitest";
import { formatTick, timeStepS } from "./svg-chart.ts";

describe("time axis", () => {
  it("steps in the usual divisions of seconds, minutes and hours", () => {
    expect(timeStepS(3600 / 8)).toBe(600);
    expect(timeStepS(90 / 8)).toBe(15);
    expect(timeStepS(0.3)).toBe(1);
    expect(timeStepS(86400 * 3.5)).toBe(86400 * 4);
  });

  it("labels every tick of one axis in the step's unit", () => {
    const step = timeStepS(3600 / 8);
    expect([0, 1, 2, 3, 6].map((k) => formatTick(k * step, step))).toEqual(["0m", "10m", "20m", "30m", "60m"]);
    expect(formatTick(45, 15)).toBe("45s");
    expect(formatTick(7200, 3600)).toBe("2h");
  });
});
