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
    // The overlap of two leaders is shaded across the lanes, and the legend says so.
    expect(page.match(/<rect [^>]*class="overlap"/g)?.length ?? 0).toBeGreaterThan(0);
    expect(page).toMatch(/class="legend"[\s\S]*two or more leaders at once/);
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
    // Evictions never run above the rate-limit line the checker replays.
    for (const zone of results.series.zones) {
      for (const point of zone.evictions) {
        const limit = [...zone.envelope].reverse().find((candidate) => candidate.t <= point.t)!;
        expect(point.value, `${zone.zone} at ${point.t}s`).toBeLessThanOrEqual(limit.value + 1e-9);
      }
    }
    expect(Math.max(...results.series.zones.find((zone) => zone.zone === "zone-a")!.envelope.map((point) => point.value))).toBe(1);
    // A visible legend for the solid and dashed lines and the zone-state colours.
    expect(page).toMatch(/class="legend"[\s\S]*zone-b nodes evicted[\s\S]*dashed[^>]*><\/span> zone-b rate limit/);
    expect(page).toMatch(/class="legend"[\s\S]*PartialDisruption[\s\S]*FullDisruption/);
    // Start-up, before any node of a zone was Ready, is labelled, not counted as disruption.
    const startup = simulationPage({
      ...results,
      series: { ...results.series, zones: results.series.zones.map((zone) => ({ ...zone, states: [{ from: 0, to: 5, state: "FullDisruption" as const, startup: true }, ...zone.states] })) },
    });
    expect(startup).toContain("start-up (no node of the zone Ready yet)");
    expect(startup).toMatch(/<rect [^>]*class="startup"[^>]*><title>zone-a: start-up \(FullDisruption: no node of the zone Ready yet\)/);
    expect(page).not.toContain("start-up (no node");
    expect(results.summary.join("\n")).toContain("0 times every zone fully disrupted after start-up");
    // An invariant nothing exercised is vacuous, not held.
    const vacuous = results.invariants.filter((invariant) => invariant.held && invariant.checked === 0).length;
    expect(page.match(/vacuous \(0 checked\)/g)?.length ?? 0).toBe(vacuous);
  });

  it("shows an invariant with 0 checks as vacuous", async () => {
    const result = await runNodeEvictionScenario({
      seed: 1, durationMs: 120_000, nodes: 3, zones: 1, pods: 3, dialect: "orb", lifecycle: lifecycleParameters("orb", undefined), agent: agentParameters("orb"), faults: [],
    });
    const results = simulationResults(result, wall);
    expect(results.invariants.some((invariant) => invariant.checked === 0)).toBe(true);
    const page = simulationPage(results);
    expect(page).toContain('<td class="vacuous">vacuous (0 checked)</td>');
    // Row by row: a pattern spanning rows would also match a held row followed by any vacuous one.
    const heldRows = page.split("<tr>").filter((row) => row.startsWith('<td class="held">'));
    expect(heldRows.length).toBeGreaterThan(0);
    expect(heldRows.filter((row) => row.includes("<td>0</td></tr>"))).toEqual([]);
  });
});
