/**
 * Proof of teeth for soak (issue 15): each planted defect that only concurrency shows
 * (sim/apiserver/defects/defects.ts, `caughtBy: "soak"`) is found by a short soak with the default
 * workload against the embedded server with that defect, through the history invariant the defect
 * names; the same soak without a defect holds (run-soak.test.ts).
 */
import { describe, expect, it } from "vitest";
import { soakDefects, type DefectName } from "../../sim/apiserver/defects/defects.ts";
import { checkHistory } from "../../sim/history/check-history.ts";
import { startEmbeddedSoakServer } from "./embedded-soak-server.ts";
import { runSoak } from "./run-soak.ts";
import { DEFAULT_SOAK_SETTINGS } from "./soak-settings.ts";

// Long enough for each defect to show several times at the default pace; the full 60 s of
// `soak --defect NAME` finds each one many times over (see the note).
const DURATION_MS = 6_000;

describe("soak finds every concurrency defect, naming its rule", () => {
  it.each(soakDefects.map((defect) => [defect.name, defect.historyRule] as const))("%s: %s violated", async (name, rule) => {
    const target = await startEmbeddedSoakServer({ defects: new Set([name as DefectName]) });
    try {
      const run = await runSoak({ settings: { ...DEFAULT_SOAK_SETTINGS, seed: 15, durationMs: DURATION_MS }, target });
      const violated = checkHistory(run.history)
        .filter((verdict) => !verdict.held)
        .map((verdict) => verdict.id);
      expect(violated).toContain(rule);
    } finally {
      await target.close();
    }
  }, 60_000);
});
