/**
 * summary.md of a campaign (also appended to `$GITHUB_STEP_SUMMARY`): the verdict, what ran and
 * how fast, the runs missing from a merge, and each failed run with its summary, seed and replay
 * command (the first MAX_FAILURES_LISTED; report.html and junit.xml have them all). Escaped as
 * the suite's summary.md is (reports/markdown.ts), redacted.
 */
import { campaignTraceHash, type CampaignResults, type CampaignRunRecord } from "../conformance/campaign/campaign.ts";
import { campaignRateLine, runListText } from "./campaign-text.ts";
import { codeSpan, escapeMarkdown, fenced, MAX_FAILURES_LISTED } from "./markdown.ts";
import { redactSecrets, redactText, type RedactionOptions } from "./redaction.ts";

/** The Markdown summary of a campaign; `missingRuns` are a merge's. */
export function campaignMarkdown(results: CampaignResults, missingRuns: readonly number[] = [], options: RedactionOptions = {}): string {
  const failed = results.records.filter((record) => record.verdict === "failed");
  const sections = [header(results, failed.length, missingRuns), ...failed.slice(0, MAX_FAILURES_LISTED).map(failure)];
  if (failed.length > MAX_FAILURES_LISTED) sections.push(`… and ${failed.length - MAX_FAILURES_LISTED} more failed runs (all of them are in junit.xml and report.html).`);
  return redactSecrets(`${sections.join("\n\n")}\n`, options.secrets ?? []);
}

function header(results: CampaignResults, failed: number, missingRuns: readonly number[]): string {
  const verdict = failed > 0 ? "❌" : missingRuns.length > 0 ? "⚠️" : "✅";
  const scope = results.shard === undefined ? "" : ` (shard ${results.shard.index}/${results.shard.count})`;
  const details = [
    `target ${codeSpan(results.target)}`,
    `campaign seed ${codeSpan(String(results.campaignSeed))}`,
    `${results.runs} runs`,
    ...(results.options === undefined ? [] : [`options ${codeSpan(results.options)}`]),
    `trace hash ${codeSpan(campaignTraceHash(results.records))}`,
  ];
  return [
    `# ${verdict} Campaign${escapeMarkdown(scope)}: ${codeSpan(results.command)}`,
    "",
    details.join(" · "),
    "",
    `**${results.records.length} runs: ${results.records.length - failed} passed, ${failed} failed${missingRuns.length === 0 ? "" : `, ${missingRuns.length} missing`}** · ${escapeMarkdown(campaignRateLine(results))}`,
    ...(missingRuns.length === 0 ? [] : ["", `**Missing runs** (no merged shard holds them): ${escapeMarkdown(runListText(missingRuns))}`]),
  ].join("\n");
}

function failure(record: CampaignRunRecord): string {
  return [
    `## ❌ Run ${record.run} (seed ${record.seed})`,
    "",
    fenced(redactText(record.summary ?? "(no summary)")),
    "",
    `**Trace hash:** ${codeSpan(record.traceHash)}`,
    ...(record.replayCommand === undefined ? [] : ["", `**Replay:** ${codeSpan(redactText(record.replayCommand))}`]),
  ].join("\n");
}
