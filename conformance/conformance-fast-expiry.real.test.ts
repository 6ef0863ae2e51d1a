/**
 * The whole suite, time-dependent cases included, against a real kube-apiserver in the fast-expiry
 * profile (watch cache off, compaction every 10 s): no case may fail (real-server tier, issue #13).
 */
import { describe, it } from "vitest";
import { expectCleanRealRun } from "./real-run-check.ts";

describe("the suite against a real control plane, profile fast-expiry", () => {
  it("passes every case, --slow included", async () => {
    await expectCleanRealRun("fast-expiry");
  });
});
