/**
 * junit.xml of a campaign (a shard's, or the merge of its shards): one `<testsuite>` named for the
 * command, one `<testcase>` per run of the campaign (`run 3 (seed S)`): passed, `<failure>` with
 * the run's summary, seed, trace hash and replay command, or `<skipped>` for a run no merged shard
 * made, so a CI test view counts every run of the campaign. Escaped as the suite's junit.xml is
 * (reports/markup-escape.ts), redacted.
 */
import { runSeed, runsOfShard, type CampaignResults, type CampaignRunRecord } from "../conformance/campaign/campaign.ts";
import { escapeMarkupAttr, escapeMarkupText } from "./markup-escape.ts";
import { redactSecrets, redactText, type RedactionOptions } from "./redaction.ts";

// A message attribute longer than this is cut (the full text is in the element).
const MESSAGE_ATTRIBUTE_CHARS = 1024;

/** The JUnit XML document of a campaign; `missingRuns` (a merge's) become skipped test cases. */
export function campaignJunitXml(results: CampaignResults, missingRuns: readonly number[] = [], options: RedactionOptions = {}): string {
  const failures = results.records.filter((record) => record.verdict === "failed").length;
  const seconds = (results.records.reduce((sum, record) => sum + record.durationMs, 0) / 1000).toFixed(3);
  const missing = new Set(missingRuns);
  const recordByRun = new Map(results.records.map((record) => [record.run, record]));
  // A shard's file lists its own runs; a merge's, every run of the campaign.
  const runs = results.shard === undefined ? [...new Set([...recordByRun.keys(), ...missing])].sort((a, b) => a - b) : runsOfShard(results.runs, results.shard);
  const suite = { name: results.command, tests: runs.length, failures, errors: 0, skipped: runs.length - results.records.length, time: seconds };
  const properties = {
    command: results.command,
    target: results.target,
    ...(results.options !== undefined && { options: results.options }),
    campaignSeed: String(results.campaignSeed),
    runs: String(results.runs),
    shard: results.shard === undefined ? "" : `${results.shard.index}/${results.shard.count}`,
  };
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    // No skipped on <testsuites>: Jenkins' junit-10.xsd allows it on <testsuite> only.
    `<testsuites${attrs({ name: `orb-harness ${results.command}: ${results.target}`, tests: suite.tests, failures, errors: 0, time: seconds })}>`,
    `  <testsuite${attrs(suite)}>`,
    `    <properties>`,
    ...Object.entries(properties).map(([name, value]) => `      <property${attrs({ name, value })}/>`),
    `    </properties>`,
    ...runs.flatMap((run) => testcase(results, run, recordByRun.get(run))),
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ];
  return redactSecrets(lines.join("\n"), options.secrets ?? []);
}

function testcase(results: CampaignResults, run: number, record: CampaignRunRecord | undefined): string[] {
  const seed = record?.seed ?? runSeed(results.campaignSeed, run);
  const open = `    <testcase${attrs({ name: `run ${run} (seed ${seed})`, classname: results.command, time: ((record?.durationMs ?? 0) / 1000).toFixed(3) })}`;
  if (record === undefined) return [`${open}>`, `      <skipped${attrs({ message: "not made: no merged shard holds this run" })}/>`, `    </testcase>`];
  if (record.verdict === "passed") return [`${open}/>`];
  const summary = redactText(record.summary ?? "(no summary)");
  const headline = summary.split("\n")[0]!;
  const text = [summary, "", `seed: ${record.seed}`, `trace hash: ${record.traceHash}`, ...(record.replayCommand === undefined ? [] : [`replay: ${redactText(record.replayCommand)}`])].join("\n");
  return [
    `${open}>`,
    `      <failure${attrs({ message: headline.length <= MESSAGE_ATTRIBUTE_CHARS ? headline : `${headline.slice(0, MESSAGE_ATTRIBUTE_CHARS)}…`, type: "CampaignRunFailed" })}>${escapeMarkupText(text)}</failure>`,
    `    </testcase>`,
  ];
}

function attrs(values: Readonly<Record<string, string | number>>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeMarkupAttr(String(value))}"`)
    .join("");
}
