/**
 * junit.xml of a soak: one `<testsuite name="soak">`, one `<testcase>` per history invariant
 * (classname `soak`, its id as name), `<failure>` for a violated one with the rule, the clauses,
 * the witness in words, the seed and the replay command. Escaped as the suite's junit.xml is
 * (reports/markup-escape.ts), redacted.
 */
import { escapeMarkupAttr, escapeMarkupText } from "./markup-escape.ts";
import { redactSecrets, redactText, type RedactionOptions } from "./redaction.ts";
import type { SoakInvariantResult, SoakResults } from "./soak-results.ts";

// A message attribute longer than this is cut (the full text is in the element).
const MESSAGE_ATTRIBUTE_CHARS = 1024;

/** The JUnit XML document of a soak, redacted. */
export function soakJunitXml(results: SoakResults, options: RedactionOptions = {}): string {
  const seconds = results.workloadSeconds.toFixed(3);
  const suite = {
    name: "soak",
    tests: results.invariants.length,
    failures: results.violations,
    errors: 0,
    skipped: 0,
    time: seconds,
    timestamp: new Date(Date.parse(results.startedAt)).toISOString().slice(0, 19),
  };
  const properties = {
    "target.description": results.target.description,
    "target.serverVersion": results.target.serverVersion,
    seed: String(results.seed),
    namespace: results.namespace,
    source: results.source,
    operations: String(results.counts.operations),
    operationsPerSecond: results.operationsPerSecond.toFixed(1),
    replayCommand: results.replayCommand,
    harnessVersion: results.harnessVersion,
  };
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    // No skipped on <testsuites>: Jenkins' junit-10.xsd allows it on <testsuite> only.
    `<testsuites${attrs({ name: `orb-harness soak: ${results.target.description}`, tests: suite.tests, failures: suite.failures, errors: 0, time: seconds })}>`,
    `  <testsuite${attrs(suite)}>`,
    `    <properties>`,
    ...Object.entries(properties).map(([name, value]) => `      <property${attrs({ name, value })}/>`),
    `    </properties>`,
    ...results.invariants.flatMap((result) => testcase(results, result)),
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ];
  return redactSecrets(lines.join("\n"), options.secrets ?? []);
}

function testcase(results: SoakResults, result: SoakInvariantResult): string[] {
  const open = `    <testcase${attrs({ name: result.id, classname: "soak", time: "0.000" })}`;
  if (result.held) return [`${open}/>`];
  const message = redactText(`${result.id}: ${result.witness?.explanation ?? result.rule}`);
  const text = [
    `rule: ${result.rule}`,
    `clauses: ${result.clauses.join(", ") || "(none named)"}`,
    "",
    `witness: ${result.witness?.explanation ?? "(no witness given)"}`,
    ...(result.witness?.lines ?? []).map((line) => `  ${line}`),
    "",
    `seed: ${results.seed}`,
    `replay: ${results.replayCommand}`,
  ].join("\n");
  return [
    `${open}>`,
    `      <failure${attrs({ message: message.length <= MESSAGE_ATTRIBUTE_CHARS ? message : `${message.slice(0, MESSAGE_ATTRIBUTE_CHARS)}…`, type: "HistoryInvariantViolated" })}>${escapeMarkupText(redactText(text))}</failure>`,
    `    </testcase>`,
  ];
}

function attrs(values: Readonly<Record<string, string | number>>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeMarkupAttr(String(value))}"`)
    .join("");
}
