/**
 * The self-contained HTML page of a simulation run (issue #6): summary, verdicts with witnesses
 * (and, for a two-leader overlap, why lease election without fencing allows it), and the
 * inline-SVG timelines.
 */
import { escapeMarkupText } from "../markup-escape.ts";
import { evictionChart, leadershipChart, zoneHealthChart } from "./simulation-charts.ts";
import type { SimulationResults } from "./simulation-results.ts";

/** The page for `results`. */
export function simulationPage(results: SimulationResults): string {
  const text = escapeMarkupText;
  const violated = results.invariants.filter((invariant) => !invariant.held).length;
  const charts =
    results.scenario === "leader-election"
      ? section("Leadership", leadershipChart(results.series.leadership, results.series.faults, results.series.candidates, results.virtualSeconds))
      : [
          section("Ready nodes and zone states", zoneHealthChart(results.series.zones, results.virtualSeconds)),
          section("Evictions against the rate limit", evictionChart(results.series.zones, results.series.podEvictions, results.virtualSeconds)),
          section("Faults", results.series.faults.length === 0 ? "<p>none</p>" : `<ul>${results.series.faults.map((fault) => `<li>${text(fault.label)}: ${fault.from.toFixed(3)} s – ${fault.to.toFixed(3)} s</li>`).join("")}</ul>`),
        ].join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${text(`simulate ${results.scenario} (seed ${results.seed})`)}</title>
<style>body{font-family:sans-serif;max-width:1000px;margin:1em auto;color:#222}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}.held{color:#2a7a2a}.violated{color:#b00020;font-weight:bold}code{background:#f4f4f4;padding:1px 3px}pre{white-space:pre-wrap;background:#f8f8f8;padding:6px}.vacuous{color:#777;white-space:nowrap}.legend{font-size:12px;margin:4px 0}.legend-item{display:inline-block;margin-right:14px;white-space:nowrap}.swatch-line{display:inline-block;width:26px;height:0;vertical-align:middle}.swatch-box{display:inline-block;width:14px;height:10px;vertical-align:middle}</style>
</head><body>
<h1>${text(results.scenario)} — ${violated === 0 ? "every invariant held" : `${violated} invariant${violated === 1 ? "" : "s"} violated`}</h1>
<p>seed <code>${text(results.seed)}</code>, ${results.virtualSeconds} s of virtual time in ${(results.wall.runMs / 1000).toFixed(3)} s (time compression ${results.timeCompression.toFixed(1)}×, ${Math.round(results.eventsPerSecond)} wake-ups/s; ${results.kernelEvents} kernel events). Trace hash <code>${text(results.traceHash)}</code>.</p>
<p>faults: <code>${text(results.faults || "none")}</code></p>
<ul>${[...results.summary, ...results.notes].map((line) => `<li>${text(line)}</li>`).join("")}</ul>
${section("Invariants", invariantsTable(results))}
${charts}
</body></html>
`;
}

function invariantsTable(results: SimulationResults): string {
  const text = escapeMarkupText;
  const rows = results.invariants.map((invariant) => {
    const witness = invariant.witness === undefined ? "" : `<p>${text(invariant.witness.explanation)}</p><pre>${text(JSON.stringify(invariant.witness.events, null, 1))}</pre>`;
    const verdict = !invariant.held ? ["violated", "VIOLATED"] : invariant.checked === 0 ? ["vacuous", "vacuous (0 checked)"] : ["held", "held"];
    return `<tr><td class="${verdict[0]}">${verdict[1]}</td><td><code>${text(invariant.id)}</code><br>${text(invariant.rule)}${witness}</td><td>${invariant.checked}</td></tr>`;
  });
  return `<table><tr><th>verdict</th><th>invariant</th><th>checked</th></tr>${rows.join("")}</table>`;
}

function section(title: string, body: string): string {
  return `<h2>${escapeMarkupText(title)}</h2>\n${body}`;
}
