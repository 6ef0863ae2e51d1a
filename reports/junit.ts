/**
 * junit.xml: the JUnit XML that Jenkins, GitLab and GitHub test reporters read. One `<testsuite>`
 * per area, one `<testcase>` per case (classname = area, time in seconds), `<failure>` for fail,
 * `<error>` for error, `<skipped>` for skip; only attributes of the common JUnit schema (valid
 * against Jenkins' junit-10.xsd: no `skipped` on `<testsuites>`, whose `time` is the run's wall
 * time, startedAt to finishedAt, not the sum of the cases'). A failure's
 * text holds the message, the clauses, a rerun command and the transcript. No CDATA: everything is
 * entity-escaped, and characters XML 1.0 forbids are replaced (markup-escape.ts).
 */
import { totals, type CaseResult, type RunResults } from "../conformance/results.ts";
import { isClauseId, clauseById } from "../spec/doc1/clauses.ts";
import { areaSummaries } from "./areas.ts";
import { escapeMarkupAttr, escapeMarkupText } from "./markup-escape.ts";
import { redactResults, redactSecrets, type RedactionOptions } from "./redaction.ts";
import { rerunCommand } from "./rerun-command.ts";
import { transcriptText } from "./transcript-text.ts";

// A message attribute longer than this is cut (the full message is in the element's text).
const MESSAGE_ATTRIBUTE_CHARS = 1024;

/** The JUnit XML document of a run, redacted. */
export function junitXml(results: RunResults, options: RedactionOptions = {}): string {
  const run = redactResults(results, options);
  const counts = totals(run);
  const areas = areaSummaries(run);
  const timestamp = junitTimestamp(run.startedAt);
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites${attrs({
      name: `orb-harness conformance: ${run.target.url} (${run.target.dialect})`,
      tests: counts.total,
      failures: counts.fail,
      errors: counts.error,
      time: seconds(wallMs(run, areas)),
    })}>`,
  ];
  for (const area of areas) {
    lines.push(
      `  <testsuite${attrs({
        name: area.area,
        tests: area.counts.total,
        failures: area.counts.fail,
        errors: area.counts.error,
        skipped: area.counts.skip,
        time: seconds(area.durationMs),
        ...(timestamp !== undefined && { timestamp }),
      })}>`,
      `    <properties>`,
      ...Object.entries(runProperties(run)).map(([name, value]) => `      <property${attrs({ name, value })}/>`),
      `    </properties>`,
    );
    for (const result of area.cases) lines.push(...testcase(run, result));
    lines.push(`  </testsuite>`);
  }
  lines.push(`</testsuites>`, "");
  return redactSecrets(lines.join("\n"), options.secrets ?? []);
}

function testcase(run: RunResults, result: CaseResult): string[] {
  const open = `    <testcase${attrs({ name: result.id, classname: result.area, time: seconds(result.durationMs) })}`;
  if (result.status === "pass") return [`${open}/>`];
  if (result.status === "skip") {
    return [`${open}>`, `      <skipped${attrs({ message: clipMessage(result.message || "skipped") })}/>`, `    </testcase>`];
  }
  const element = result.status === "fail" ? "failure" : "error";
  const message = clipMessage(result.message || (result.status === "fail" ? "failed" : "error"));
  return [
    `${open}>`,
    `      <${element}${attrs({ message, type: result.status === "fail" ? "ConformanceFailure" : "ConformanceError" })}>${escapeMarkupText(failureText(run, result))}</${element}>`,
    `    </testcase>`,
  ];
}

// The text of a failure or error element: message, clauses, rerun command, transcript.
function failureText(run: RunResults, result: CaseResult): string {
  const clauseLines = result.clauses.map((id) => `  ${id}: ${isClauseId(id) ? clauseById(id).text : "(not in the doc 1 catalog)"}`);
  return [
    result.message || "(no message)",
    "",
    `clauses:${clauseLines.length === 0 ? " (none named)" : ""}`,
    ...clauseLines,
    "",
    `rerun: ${rerunCommand(run, result.id)}`,
    "",
    "transcript:",
    transcriptText(result.transcript),
  ].join("\n");
}

function runProperties(run: RunResults): Record<string, string> {
  return {
    "target.url": run.target.url,
    "target.kind": run.target.kind,
    "target.dialect": run.target.dialect,
    "target.serverVersion": run.target.serverVersion,
    harnessVersion: run.harnessVersion,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
  };
}

function attrs(values: Readonly<Record<string, string | number>>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeMarkupAttr(String(value))}"`)
    .join("");
}

// The run's wall time, startedAt to finishedAt (cases run in parallel, so the sum of their times
// overstates it); the sum of the areas' times when either stamp does not parse.
function wallMs(run: RunResults, areas: readonly { readonly durationMs: number }[]): number {
  const ms = Date.parse(run.finishedAt) - Date.parse(run.startedAt);
  return Number.isFinite(ms) ? Math.max(0, ms) : areas.reduce((sum, area) => sum + area.durationMs, 0);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function clipMessage(message: string): string {
  return message.length <= MESSAGE_ATTRIBUTE_CHARS ? message : `${message.slice(0, MESSAGE_ATTRIBUTE_CHARS)}…`;
}

// The JUnit schema's timestamp is ISO 8601 without a zone: UTC, to the second.
function junitTimestamp(rfc3339: string): string | undefined {
  const ms = Date.parse(rfc3339);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString().slice(0, 19);
}
