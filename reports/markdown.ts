/**
 * summary.md, also appended to `$GITHUB_STEP_SUMMARY`: totals, a per-area table, spec coverage in
 * one line, each failure with its clauses (id and text), message and a one-line rerun command,
 * and skips grouped by reason. Text from the run is escaped (GitHub renders HTML in Markdown):
 * in prose every Markdown and HTML special character is backslash-escaped, table cells also
 * escape `|`, code spans and fences are made longer than any backtick run they hold.
 */
import { totals, type CaseResult, type RunResults } from "../conformance/results.ts";
import { clauseById, isClauseId } from "../spec/doc1/clauses.ts";
import { areaSummaries } from "./areas.ts";
import { clauseCoverage } from "./coverage.ts";
import { replaceForbiddenChars } from "./markup-escape.ts";
import { redactResults, redactSecrets, type RedactionOptions } from "./redaction.ts";
import { rerunCommand } from "./rerun-command.ts";
import { formatMs } from "./transcript-text.ts";
import { publishedSelfcheck, teethText } from "./suite-teeth.ts";

/** Failures listed in full; the rest are counted (a GitHub step summary holds at most 1 MiB). */
export const MAX_FAILURES_LISTED = 100;
// Case ids listed per skip reason before "and N more".
const MAX_IDS_PER_SKIP_REASON = 20;
// A failure message longer than this is cut (the full text is in junit.xml and report.html).
const MAX_MESSAGE_CHARS = 4000;

/** The Markdown summary of a run, redacted. */
export function summaryMarkdown(results: RunResults, options: RedactionOptions = {}): string {
  const run = redactResults(results, options);
  const sections = [header(run), areaTable(run), coverageLine(run), failures(run), skips(run)].filter((section) => section !== "");
  return redactSecrets(`${sections.join("\n\n")}\n`, options.secrets ?? []);
}

function header(run: RunResults): string {
  const counts = totals(run);
  const elapsed = Date.parse(run.finishedAt) - Date.parse(run.startedAt);
  const details = [
    `server ${run.target.serverVersion === "" ? "version unknown" : codeSpan(run.target.serverVersion)}`,
    `orb-harness ${codeSpan(run.harnessVersion)}`,
    `${escapeMarkdown(run.startedAt)}${Number.isFinite(elapsed) && elapsed >= 0 ? `, ${formatMs(elapsed)}` : ""}`,
  ];
  const verdict = counts.fail + counts.error === 0 ? "✅" : "❌";
  return [
    `# ${verdict} Conformance: ${codeSpan(run.target.url)} (${escapeMarkdown(run.target.dialect)})`,
    "",
    details.join(" · "),
    "",
    `**${counts.total} cases: ${counts.pass} passed, ${counts.fail} failed, ${counts.skip} skipped, ${counts.error} ${counts.error === 1 ? "error" : "errors"}**`,
    "",
    `The suite's teeth: ${escapeMarkdown(teethText(publishedSelfcheck()))}.`,
  ].join("\n");
}

function areaTable(run: RunResults): string {
  const areas = areaSummaries(run);
  if (areas.length === 0) return "No cases ran.";
  const counts = totals(run);
  return [
    "| area | pass | fail | skip | error |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...areas.map(({ area, counts: c }) => `| ${escapeMarkdown(area)} | ${c.pass} | ${c.fail} | ${c.skip} | ${c.error} |`),
    `| **total** | **${counts.pass}** | **${counts.fail}** | **${counts.skip}** | **${counts.error}** |`,
  ].join("\n");
}

function coverageLine(run: RunResults): string {
  const coverage = clauseCoverage(run);
  const testable = coverage.filter((entry) => entry.clause.testable);
  const covered = testable.filter((entry) => entry.covered).length;
  const failing = coverage.filter((entry) => entry.verdict === "fail").length;
  return `Spec coverage: ${covered} of ${testable.length} testable clauses of doc 1 covered; ${failing} with failing cases (see report.html).`;
}

function failures(run: RunResults): string {
  const failed = run.cases.filter((result) => result.status === "fail" || result.status === "error");
  if (failed.length === 0) return "";
  const listed = failed.slice(0, MAX_FAILURES_LISTED).map((result) => failure(run, result));
  const more = failed.length - listed.length;
  if (more > 0) listed.push(`… and ${more} more: see junit.xml or report.html.`);
  return [`## Failures (${failed.length})`, ...listed].join("\n\n");
}

function failure(run: RunResults, result: CaseResult): string {
  const clauseLines = result.clauses.map(
    (id) => `  - ${codeSpan(id)}: ${isClauseId(id) ? escapeMarkdown(clauseById(id).text) : "*not in the doc 1 catalog*"}`,
  );
  const message = result.message.length > MAX_MESSAGE_CHARS ? `${result.message.slice(0, MAX_MESSAGE_CHARS)}…` : result.message;
  return [
    `### ${result.status === "fail" ? "❌" : "💥"} ${codeSpan(result.id)} (${result.status}, area ${escapeMarkdown(result.area)})`,
    "",
    clauseLines.length === 0 ? "- clauses: none named" : ["- clauses:", ...clauseLines].join("\n"),
    `- rerun: ${codeSpan(rerunCommand(run, result.id))}`,
    "",
    fenced(message === "" ? "(no message)" : message),
  ].join("\n");
}

function skips(run: RunResults): string {
  const byReason = new Map<string, string[]>();
  for (const result of run.cases) {
    if (result.status !== "skip") continue;
    const reason = result.message.trim() === "" ? "(no reason given)" : result.message.trim();
    byReason.set(reason, [...(byReason.get(reason) ?? []), result.id]);
  }
  if (byReason.size === 0) return "";
  const groups = [...byReason].sort(([a, idsA], [b, idsB]) => idsB.length - idsA.length || (a < b ? -1 : a > b ? 1 : 0));
  const lines = groups.map(([reason, ids]) => {
    const shown = ids.slice(0, MAX_IDS_PER_SKIP_REASON).map(codeSpan).join(", ");
    const more = ids.length > MAX_IDS_PER_SKIP_REASON ? ` and ${ids.length - MAX_IDS_PER_SKIP_REASON} more` : "";
    return `- **${escapeMarkdown(reason)}** (${ids.length}): ${shown}${more}`;
  });
  return [`## Skipped (${totals(run).skip})`, "", ...lines].join("\n");
}

/**
 * Escapes text for Markdown prose and table cells: one line, every Markdown and HTML special
 * character backslash-escaped, `|` included, so a cell never splits.
 */
export function escapeMarkdown(text: string): string {
  return oneLine(text).replace(/[\\`*_{}[\]()<>#+!|~&"]/g, "\\$&");
}

/** `text` as an inline code span (outside tables): a fence longer than any backtick run inside. */
export function codeSpan(text: string): string {
  const line = oneLine(text);
  if (line === "") return "` `";
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = line.startsWith("`") || line.endsWith("`") || line.startsWith(" ") ? " " : "";
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** `text` as a fenced code block whose fence no line inside can close. */
export function fenced(text: string): string {
  const clean = replaceForbiddenChars(text);
  const longest = Math.max(0, ...(clean.match(/`{3,}/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}text\n${clean}\n${fence}`;
}

function oneLine(text: string): string {
  return replaceForbiddenChars(text).replace(/\s*[\r\n]+\s*/g, " ");
}
