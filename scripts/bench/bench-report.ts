/**
 * bench.json and bench.html: the figures as data, and a self-contained page (no external assets)
 * with the table and a chart per group: each figure's runs as dots on a bar to its median, and for
 * the server figures the real kube-apiserver's bar under the embedded server's.
 */
import { BENCHMARKS, FIGURES } from "./bench-catalog.ts";
import { formatFigure, type BenchFigure, type BenchResults } from "./bench-run.ts";

const WIDTH = 640;
const BAR = 18;
const LABEL = 70;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The rows of the terminal table: figure, median, spread, unit (and real, ratio when measured). */
export function benchTable(results: BenchResults): string[] {
  const withReal = results.real !== undefined;
  const header = ["figure", "median", "min – max", "unit", ...(withReal ? ["real", "speed-up vs real"] : [])];
  const rows = FIGURES.filter((spec) => results.figures[spec.key] !== undefined).map((spec) => {
    const figure = results.figures[spec.key]!;
    const real = results.figures[`real.${spec.key}`];
    const ratio = results.ratios[`ratio.${spec.key}`];
    return [
      spec.key,
      formatFigure(figure.median),
      `${formatFigure(figure.min)} – ${formatFigure(figure.max)}`,
      spec.unit,
      ...(withReal ? [real === undefined ? "" : formatFigure(real.median), ratio === undefined ? "" : `${ratio.toFixed(2)}×`] : []),
    ];
  });
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, column) => (column === 0 || column === 3 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ").trimEnd();
  return [line(header), ...rows.map(line)];
}

function figureChart(key: string, figure: BenchFigure, real: BenchFigure | undefined): string {
  const scaleMax = Math.max(figure.max, real?.max ?? 0) * 1.1 || 1;
  const x = (value: number) => LABEL + (value / scaleMax) * (WIDTH - LABEL - 110);
  const bars = [{ name: real === undefined ? "" : "embedded", figure, color: "#2b6cb0" }, ...(real === undefined ? [] : [{ name: "real", figure: real, color: "#c05621" }])];
  const top = 22;
  const height = top + bars.length * (BAR + 8);
  const parts = bars.map(({ name, figure: shown, color }, index) => {
    const y = top + index * (BAR + 8);
    const dots = shown.runs.map((run) => `<circle cx="${x(run).toFixed(1)}" cy="${y + BAR / 2}" r="3" fill="#1a202c"><title>${escapeHtml(formatFigure(run))}</title></circle>`).join("");
    return (
      (name === "" ? "" : `<text x="0" y="${y + BAR - 5}" font-size="12" fill="#4a5568">${escapeHtml(name)}</text>`) +
      `<rect x="${LABEL}" y="${y}" width="${(x(shown.median) - LABEL).toFixed(1)}" height="${BAR}" fill="${color}" opacity="0.75"><title>median ${escapeHtml(formatFigure(shown.median))}</title></rect>` +
      `<line x1="${x(shown.min).toFixed(1)}" x2="${x(shown.max).toFixed(1)}" y1="${y + BAR / 2}" y2="${y + BAR / 2}" stroke="#1a202c"/>` +
      dots +
      `<text x="${(x(shown.max) + 6).toFixed(1)}" y="${y + BAR - 5}" font-size="12">${escapeHtml(formatFigure(shown.median))} ${escapeHtml(figure.unit)}</text>`
    );
  });
  const heading = `<text x="0" y="14" font-size="13" font-weight="600">${escapeHtml(key)}</text>`;
  return `<svg role="img" aria-label="${escapeHtml(key)}" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}">${heading}${parts.join("")}</svg>`;
}

/** The self-contained HTML page. */
export function benchHtml(results: BenchResults): string {
  const groups = BENCHMARKS.map((benchmark) => {
    const charts = benchmark.figures
      .filter((key) => results.figures[key] !== undefined)
      .map((key) => {
        const figure = results.figures[key]!;
        const ratio = results.ratios[`ratio.${key}`];
        const note = `${escapeHtml(figure.what)}; ${figure.better} is better${ratio === undefined ? "" : `; the embedded server is <strong>${ratio.toFixed(2)}×</strong> as fast as the real one`}`;
        return `<figure>${figureChart(key, figure, results.figures[`real.${key}`])}<figcaption>${note}</figcaption></figure>`;
      });
    return charts.length === 0 ? "" : `<section><h2>${escapeHtml(benchmark.name)}</h2>${charts.join("")}</section>`;
  }).join("");
  const legend = results.real === undefined ? "" : `<p class="legend"><span style="background:#2b6cb0"></span> embedded server <span style="background:#c05621"></span> kube-apiserver ${escapeHtml(results.real.gitVersion)} (${escapeHtml(results.real.transport)})</p>`;
  const table = benchTable(results).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>orb-harness bench</title>
<style>body{font-family:system-ui,sans-serif;max-width:${WIDTH + 300}px;margin:1em auto;color:#1a202c}pre{overflow-x:auto;font-size:12px;background:#f7fafc;padding:.5em}figure{margin:.5em 0 1em}figcaption{font-size:12px;color:#4a5568}.legend span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;vertical-align:middle}</style>
</head><body>
<h1>orb-harness bench</h1>
<p>${escapeHtml(results.started)} · ${results.wallSeconds.toFixed(0)} s · ${results.machine.cpus} × ${escapeHtml(results.machine.model)} · Node ${escapeHtml(results.machine.node)} · load average at start ${results.machine.loadAverageAtStart.toFixed(2)}</p>
<p>${escapeHtml(results.mode)}. Bars: medians; dots: each run (a fresh process); lines: min to max.</p>
${legend}
<pre>${escapeHtml(table)}</pre>
${groups}
</body></html>
`;
}
