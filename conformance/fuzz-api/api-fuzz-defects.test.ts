/**
 * Teeth of `fuzz --target api` (issue 16): every planted defect of the embedded server (serve's
 * and soak's, sim/apiserver/defects/defects.ts) is found within 200 runs of one campaign seed, and shrunk
 * to at most 8 operations, but those a defect says are beyond its operations (custom types); without
 * defects the same campaign finds nothing.
 */
import { describe, expect, it } from "vitest";
import { defects } from "../../sim/apiserver/defects/defects.ts";
import { openApiFuzzTarget } from "./api-fuzz-target.ts";
import { flatSteps, describeStep } from "./api-steps.ts";
import { failureSummary, runApiFuzz } from "./run-api-fuzz.ts";

const CAMPAIGN_SEED = 7;
const RUNS = 200;


describe("fuzz --target api on the embedded server", () => {
  it(`finds nothing in ${RUNS} runs without a defect`, async () => {
    const target = await openApiFuzzTarget({ kind: "embedded" });
    const { records, failures } = await runApiFuzz({ target, campaignSeed: CAMPAIGN_SEED, runs: RUNS, replayCommand: () => "" });
    expect(records).toHaveLength(RUNS);
    expect(failures.map((failure) => `run ${failure.run}: ${failureSummary(failure)}`)).toEqual([]);
  });

  for (const defect of defects) {
    const beyond: string | undefined = "beyondApiFuzz" in defect ? defect.beyondApiFuzz : undefined;
    if (beyond !== undefined) {
      it.skip(`does not look for ${defect.name}: ${beyond} (the conformance suite catches it)`, () => undefined);
      continue;
    }
    it(`finds ${defect.name} within ${RUNS} runs, shrunk to at most 8 operations`, async () => {
      const target = await openApiFuzzTarget({ kind: "embedded", defects: new Set([defect.name]) });
      const { failures } = await runApiFuzz({ target, campaignSeed: CAMPAIGN_SEED, runs: RUNS, untilFailure: true, replayCommand: () => "" });
      expect(failures, `no run of ${RUNS} found ${defect.name}`).toHaveLength(1);
      const failure = failures[0]!;
      const printed = failure.program.map(describeStep).join("\n");
      expect(flatSteps(failure.program).length, `${failureSummary(failure)}\n${printed}`).toBeLessThanOrEqual(8);
    }, 120_000);
  }
});
