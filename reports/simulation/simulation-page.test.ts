import { describe, expect, it } from "vitest";
import { parseFaultSpec } from "../../sim/faults/fault-spec.ts";
import { runLeaderElectionScenario } from "../../sim/scenarios/leader-election-scenario.ts";
import { runNodeEvictionScenario } from "../../sim/scenarios/node-eviction-scenario.ts";
import { agentParameters, electionParameters, lifecycleParameters } from "../../sim/scenarios/scenario-parameters.ts";
import { simulationPage } from "./simulation-page.ts";
import { simulationResults } from "./simulation-results.ts";

const wall = { setupMs: 1, runMs: 100, checksMs: 1 };

describe("simulation report", () => {
  it("leader election: one lane per candidate, the overlap explained, text escaped", async () => {
    const result = await runLeaderElectionScenario({ seed: 2, durationMs: 90_000, candidates: 3, dialect: "orb", election: electionParameters("controller-manager", "orb"), faults: parseFaultSpec("pause:leader@10s+30s") });
    const results = simulationResults(result, wall);
    expect(results.timeCompression).toBe(900);
    expect(results.series.leadership.length).toBe(2);
    const page = simulationPage({ ...results, seed: "<script>" });
    expect(page).toContain("&lt;script&gt;");
    expect(page).not.toContain("<script>");
    expect(page.match(/<svg /g)).toHaveLength(1);
    expect(page).toMatch(/VIOLATED[\s\S]*fencing token/);
    expect(page).toMatch(/candidate-0[\s\S]*candidate-1[\s\S]*candidate-2/);
  });

  it("node eviction: ready nodes per zone, evictions against the rate-limit envelope, pod evictions", async () => {
    const result = await runNodeEvictionScenario({
      seed: 2, durationMs: 600_000, nodes: 9, zones: 3, pods: 45, dialect: "orb", lifecycle: lifecycleParameters("orb", undefined), agent: agentParameters("orb"),
      faults: parseFaultSpec("partition:zone-b@1m+5m"),
    });
    const results = simulationResults(result, wall);
    const zoneB = results.series.zones.find((zone) => zone.zone === "zone-b")!;
    expect(zoneB.ready.some((point) => point.value === 0)).toBe(true);
    expect(zoneB.evictions.at(-1)!.value).toBe(3);
    expect(zoneB.envelope.at(-1)!.value).toBeGreaterThanOrEqual(3);
    const page = simulationPage(results);
    expect(page.match(/<svg /g)).toHaveLength(3);
    expect(page).toContain("FullDisruption");
  });
});
