/**
 * report.html of a campaign (a shard's, or the merge of its shards): one self-contained page
 * (reports/self-contained-head.ts: nothing loaded, no script) with what ran, the verdict and
 * speed, every failed run with its summary, seed, trace hash and replay command, the runs missing
 * from a merge, and a table of the runs. A campaign of a million runs would make a page no
 * browser opens, so the table holds at most MAX_RUN_ROWS rows; failures are always listed whole.
 */
import { campaignTraceHash, type CampaignResults, type CampaignRunRecord } from "../conformance/campaign/campaign.ts";
import { campaignRateLine, runListText } from "./campaign-text.ts";
import { escapeMarkupAttr as attr, escapeMarkupText as text } from "./markup-escape.ts";
import { redactSecrets, redactText, type RedactionOptions } from "./redaction.ts";
import { REPORT_LAYOUT_STYLE, selfContainedHead } from "./self-contained-head.ts";

/** Rows of the run table; past it the page says how many it left out. */
export const MAX_RUN_ROWS = 5_000;

/** The page; `missingRuns` are a merge's. */
export function campaignHtml(results: CampaignResults, missingRuns: readonly number[] = [], options: RedactionOptions = {}): string {
  const failed = results.records.filter((record) => record.verdict === "failed");
  const scope = results.shard === undefined ? "" : ` (shard ${results.shard.index}/${results.shard.count})`;
  const title = `orb-harness campaign${scope}: ${results.command}`;
  const body = [
    `<header><h1>${text(title)}</h1>${facts(results, failed.length, missingRuns)}</header>`,
    `<nav><a href="#failures">Failed runs</a> · <a href="#runs">Runs</a></nav>`,
    "<main>",
    failureSection(failed),
    ...(missingRuns.length === 0 ? [] : [`<section id="missing"><h2>Missing runs (${missingRuns.length})</h2><p>No merged shard holds them: ${text(runListText(missingRuns))}.</p></section>`]),
    runSection(results.records),
    "</main>",
  ];
  const page = [...selfContainedHead(title, STYLE), ...body, "</body>", "</html>", ""].join("\n");
  return redactSecrets(page, options.secrets ?? []);
}

function facts(results: CampaignResults, failed: number, missingRuns: readonly number[]): string {
  const verdict =
    failed > 0
      ? `<span class="failed">${failed} of ${results.records.length} runs failed</span>`
      : missingRuns.length > 0
        ? `<span class="missing">every run made passed; ${missingRuns.length} missing</span>`
        : `<span class="passed">every run passed</span>`;
  const rows: Array<[string, string]> = [
    ["command", `<code>${text(results.command)}</code>`],
    ["target", `<code>${text(results.target)}</code>`],
    ...(results.options === undefined ? [] : [["options", `<code>${text(results.options)}</code>`] as [string, string]]),
    ["campaign seed", text(String(results.campaignSeed))],
    ["runs", `${results.records.length} made of ${results.runs}${results.shard === undefined ? "" : ` (shard ${results.shard.index}/${results.shard.count})`}`],
    ["speed", text(campaignRateLine(results))],
    ["trace hash", `<code>${campaignTraceHash(results.records)}</code>`],
    ["verdict", verdict],
  ];
  return `<dl class="facts">${rows.map(([name, value]) => `<dt>${name}</dt><dd>${value}</dd>`).join("")}</dl>`;
}

function failureSection(failed: readonly CampaignRunRecord[]): string {
  if (failed.length === 0) return `<section id="failures"><h2>Failed runs</h2><p>None.</p></section>`;
  const articles = failed.map((record) =>
    [
      `<article class="failure" id="run-${record.run}">`,
      `<h3>Run ${record.run} (seed ${record.seed})</h3>`,
      `<pre>${text(redactText(record.summary ?? "(no summary)"))}</pre>`,
      `<p>trace hash <code>${text(record.traceHash)}</code></p>`,
      ...(record.replayCommand === undefined ? [] : [`<p>replay: <code>${text(redactText(record.replayCommand))}</code></p>`]),
      `</article>`,
    ].join("\n"),
  );
  return [`<section id="failures"><h2>Failed runs (${failed.length})</h2>`, ...articles, `</section>`].join("\n");
}

function runSection(records: readonly CampaignRunRecord[]): string {
  const shown = records.slice(0, MAX_RUN_ROWS);
  const rows = shown.map((record) => {
    const verdict = record.verdict === "failed" ? `<a class="failed" href="#${attr(`run-${record.run}`)}">failed</a>` : `<span class="passed">passed</span>`;
    return `<tr${record.verdict === "failed" ? ` class="bad"` : ""}><td class="num">${record.run}</td><td class="num">${record.seed}</td><td>${verdict}</td><td><code>${text(record.traceHash)}</code></td><td class="num">${(record.durationMs / 1000).toFixed(3)} s</td></tr>`;
  });
  const more = records.length > shown.length ? `<p class="note">The first ${shown.length} of ${records.length} runs; the failed ones are all listed above.</p>` : "";
  return [
    `<section id="runs"><h2>Runs (${records.length})</h2>`,
    `<table><thead><tr><th>run</th><th>seed</th><th>verdict</th><th>trace hash</th><th>duration</th></tr></thead><tbody>`,
    ...rows,
    `</tbody></table>${more}</section>`,
  ].join("\n");
}

const STYLE = `
:root{--fg:#1f2328;--muted:#59636e;--bg:#fff;--line:#d1d9e0;--bad:#cf222e;--good:#1a7f37;--warn:#9a6700;--code:#f6f8fa;--badbg:#ffebe9}
${REPORT_LAYOUT_STYLE}
.passed{color:var(--good);font-weight:600}.failed{color:var(--bad);font-weight:700}.missing{color:var(--warn);font-weight:700}
article.failure{border:1px solid var(--line);border-left:4px solid var(--bad);border-radius:6px;padding:.5rem .75rem;margin:1rem 0}
.note{color:var(--muted)}
`;
