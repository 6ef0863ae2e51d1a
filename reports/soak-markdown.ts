/**
 * soak.md, also appended to `$GITHUB_STEP_SUMMARY`: the verdict, the workload's figures, one row
 * per history invariant, and each violation with its rule, witness (operations and events in
 * words), seed and replay command. Escaped as summary.md is (reports/markdown.ts), redacted.
 */
import { outcomeText, type OutcomeTally } from "../conformance/soak/soak-counts.ts";
import { codeSpan, escapeMarkdown, fenced } from "./markdown.ts";
import { redactSecrets, redactText, type RedactionOptions } from "./redaction.ts";
import type { SoakInvariantResult, SoakResults } from "./soak-results.ts";

/** The Markdown summary of a soak, redacted. */
export function soakMarkdown(results: SoakResults, options: RedactionOptions = {}): string {
  const sections = [header(results), figures(results), invariantTable(results), ...results.invariants.filter((result) => !result.held).map((result) => violation(results, result))];
  return redactSecrets(`${sections.join("\n\n")}\n`, options.secrets ?? []);
}

function header(results: SoakResults): string {
  const verdict = results.violations === 0 ? "✅" : "❌";
  const what = results.source === "check" ? "Soak history re-checked" : "Soak";
  const details = [
    `seed ${codeSpan(String(results.seed))}`,
    `namespace ${codeSpan(results.namespace)}`,
    `server ${results.target.serverVersion === "" ? "version unknown" : codeSpan(results.target.serverVersion)}`,
    `orb-harness ${codeSpan(results.harnessVersion)}`,
    escapeMarkdown(results.startedAt),
  ];
  const held = results.invariants.length - results.violations;
  return [
    `# ${verdict} ${what}: ${codeSpan(results.target.description)}`,
    "",
    details.join(" · "),
    "",
    `**${results.invariants.length} invariants: ${held} held, ${results.violations} violated**`,
  ].join("\n");
}

function figures(results: SoakResults): string {
  const { counts } = results;
  const group = (title: string, tallies: Readonly<Record<string, OutcomeTally>>) =>
    Object.entries(tallies).map(([sort, tally]) => `| ${escapeMarkdown(title)} | ${escapeMarkdown(sort)} | ${tally.total} | ${escapeMarkdown(outcomeText(tally))} |`);
  const details = counts.watchDetails;
  const events = Object.entries(details.eventTypes).map(([type, count]) => `${count} ${type}`).join(", ");
  const endings = Object.entries(details.endings).map(([ending, count]) => `${count} ${ending}`).join(", ");
  return [
    `**${counts.operations} operations in ${results.workloadSeconds.toFixed(1)} s: ${results.operationsPerSecond.toFixed(0)} operations/s**`,
    "",
    "| kind | sort | count | outcomes |",
    "| --- | --- | ---: | --- |",
    ...group("write", counts.writes),
    ...group("get", counts.gets),
    ...group("list", counts.lists),
    ...group("watch", counts.watches),
    "",
    escapeMarkdown(
      `${counts.pages.total} list pages (${counts.pages.multiPageLists} lists of more than one page); watches: ${details.withBookmarks} with bookmarks, ${details.withSelector} with a label selector; ${details.events} events (${events || "none"}); streams ended: ${endings || "none"}`,
    ),
  ].join("\n");
}

function invariantTable(results: SoakResults): string {
  return [
    "| invariant | verdict | checked |",
    "| --- | --- | ---: |",
    ...results.invariants.map((result) => `| ${escapeMarkdown(result.id)} | ${result.held ? "held" : "**VIOLATED**"} | ${result.checked} |`),
  ].join("\n");
}

function violation(results: SoakResults, result: SoakInvariantResult): string {
  const witness = result.witness;
  return [
    `## ❌ ${escapeMarkdown(result.id)}`,
    "",
    `**Rule:** ${escapeMarkdown(result.rule)}`,
    "",
    `**Clauses:** ${result.clauses.length === 0 ? "(none named)" : result.clauses.map(escapeMarkdown).join(", ")}`,
    "",
    `**Witness:** ${escapeMarkdown(redactText(witness?.explanation ?? "(no witness given)"))}`,
    ...(witness === undefined ? [] : ["", fenced(witness.lines.map((line) => redactText(line)).join("\n"))]),
    "",
    `**Seed:** ${codeSpan(String(results.seed))} · **Replay:** ${codeSpan(results.replayCommand)}`,
  ].join("\n");
}
