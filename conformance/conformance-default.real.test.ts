/**
 * The whole suite, time-dependent cases included, against a real kube-apiserver in its default
 * profile (watch cache on, compaction every 5 minutes): no case may fail (real-server tier, issue #13).
 */
import { describe, it } from "vitest";
import { expectCleanRealRun } from "./real-run-check.ts";

describe("the suite against a real control plane, profile default", () => {
  it("passes every case, --slow included", async () => {
    await expectCleanRealRun("default");
  });
});
