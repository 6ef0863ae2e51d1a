import { describe, expect, it } from "vitest";
import { closestName, editDistance } from "./did-you-mean.ts";

describe("closestName", () => {
  it("suggests the nearest known name for a typo", () => {
    expect(closestName("sed", ["seed", "runs", "target"])).toBe("seed");
    expect(closestName("leader-elect-lease-duraton", ["leader-elect", "leader-elect-lease-duration"])).toBe("leader-elect-lease-duration");
    expect(closestName("nodeStatusUpdateFrequncy", ["nodeStatusUpdateFrequency", "nodeStatusReportFrequency"])).toBe("nodeStatusUpdateFrequency");
  });

  it("suggests nothing when no name is close", () => {
    expect(closestName("verbose", ["seed", "runs", "target"])).toBeUndefined();
    expect(closestName("x", [])).toBeUndefined();
  });
});

describe("editDistance", () => {
  it("counts insertions, deletions and substitutions", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("same", "same")).toBe(0);
  });
});
