/**
 * `orb-harness report`: regenerate one report from a results.json, or merge the results of a
 * campaign's shards (`report merge DIR…`) (wiring only; logic in reports/ and conformance/campaign/).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { campaignTraceHash } from "../../conformance/campaign/campaign.ts";
import { CampaignMergeError, mergeCampaignResults, type CampaignMergeInput } from "../../conformance/campaign/merge-campaign.ts";
import { closestName } from "../../sim/config/did-you-mean.ts";
import { CAMPAIGN_REPORT_FILES, writeCampaignReports } from "../../reports/campaign-reports.ts";
import { CampaignFileError, readCampaignResults } from "../../reports/campaign-results-file.ts";
import { campaignCountLine, campaignRateLine, failedRunLines, runListText } from "../../reports/campaign-text.ts";
import { isReportFormat, renderReport, reportFiles, reportFormats, type ReportFormat } from "../../reports/render.ts";
import { readResultsFile, ResultsFileError } from "../../reports/results-file.ts";
import { UsageError, type CliCommand, type CliOutput } from "../cli-command.ts";
import { parseFlags, type FlagSpec } from "../parse-flags.ts";

/** The flags of `report merge` (exported so the examples' command lines are checked against them). */
export const MERGE_FLAGS = { out: "string" } as const satisfies FlagSpec;

/** Where `report merge` writes when no --out is given. */
const DEFAULT_MERGE_DIR = "reports/out/merged";

/** The report command. */
export const reportCommand: CliCommand = {
  name: "report",
  summary: "regenerate a report (junit, md, html, json) from a results.json",
  usage: [
    `usage: orb-harness report --from results.json --format ${reportFormats.join("|")} [--out FILE]`,
    `       orb-harness report merge DIR… [--out DIR]`,
    "",
    "  --from     the results JSON of a conformance run",
    `  --format   ${reportFormats.map((format) => `${format} (${reportFiles[format]})`).join(", ")}`,
    "  --out      the file to write, its directory created if missing (default: standard output)",
    "",
    "Credentials are scrubbed from every report. Exit 0 when the report was written, also for a run",
    "with failures (use the conformance command's exit code to gate CI); 2 for usage errors, a",
    "missing --from file or one that is not a valid results file (the message names the bad field),",
    "and an --out file that cannot be written.",
    "",
    "report merge DIR…: the results.json of each DIR (or the file given), the shards of one campaign of",
    "`fuzz --shard I/N` or `soak --shard I/N`, merged into one campaign's results: they must agree on",
    "command, target, options, campaign seed and runs, and hold no run twice. Writes",
    `${Object.values(CAMPAIGN_REPORT_FILES).join(", ")} into --out DIR (default ${DEFAULT_MERGE_DIR}; junit.xml has one`,
    "testcase per run, failures with their summary and replay command) and prints every failed run, the",
    "counts, `N runs in T s (R runs/s)` and `trace-hash: <hex>`, which equals the unsharded campaign's when",
    "every shard is there. Runs no DIR holds are a warning naming them (and the shards not given), listed as",
    "skipped in junit.xml: the exit code stays 0 when nothing failed, since a shard that wrote no results",
    "has already failed its own job. Exit 1 when a merged run failed; 2 for usage errors and for inputs",
    "that are missing, unreadable, not campaign results, or not shards of one campaign (the message says which).",
  ].join("\n"),
  async run(args, output) {
    if (args[0] === "merge") return merge(args.slice(1), output);
    return regenerate(reportOptions(args), output);
  },
};

/** What `report` (not `report merge`) does: render `from` as `format` into `out` (standard output when undefined or "-"). */
interface ReportOptions {
  readonly from: string;
  readonly format: ReportFormat;
  readonly out: string | undefined;
}

/** The options `args` give; throws UsageError for bad flags. */
function reportOptions(args: readonly string[]): ReportOptions {
  const { values, positionals } = parseFlags(args, { from: "string", format: "string", out: "string" });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const from = values.get("from");
  const format = values.get("format");
  if (from === undefined) throw new UsageError("--from is required");
  if (format === undefined) throw new UsageError(`--format is required: one of ${reportFormats.join(", ")}`);
  if (!isReportFormat(format)) {
    const close = closestName(format, reportFormats);
    throw new UsageError(
      `unknown --format ${format}${close === undefined ? "" : ` (did you mean ${close}?)`}; one of ${reportFormats.join(", ")}`,
    );
  }
  return { from, format, out: values.get("out") };
}

/** Reads the results file and writes the report. */
async function regenerate({ from, format, out }: ReportOptions, output: CliOutput): Promise<number> {
  let results;
  try {
    results = await readResultsFile(from);
  } catch (error) {
    if (!(error instanceof ResultsFileError)) throw error;
    // A missing file is a mistyped argument: show the usage. A bad file: the message says what is wrong.
    if (error.problem === "missing") throw new UsageError(`--from ${error.message}`);
    output.err(`orb-harness report: ${error.message}`);
    return 2;
  }
  const report = renderReport(results, format);
  if (out === undefined || out === "-") {
    output.out(report.endsWith("\n") ? report.slice(0, -1) : report);
    return 0;
  }
  try {
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, report, "utf8");
  } catch (error) {
    output.err(`orb-harness report: cannot write ${out}: ${(error as Error).message}`);
    return 2;
  }
  output.out(`wrote ${out}`);
  return 0;
}

/** `report merge DIR… [--out DIR]`. */
async function merge(args: readonly string[], output: CliOutput): Promise<number> {
  const { values, positionals } = parseFlags(args, MERGE_FLAGS);
  if (positionals.length === 0) throw new UsageError("report merge needs at least one report directory (or results.json) of a campaign's shard");
  const out = values.get("out") ?? DEFAULT_MERGE_DIR;
  const inputs: CampaignMergeInput[] = [];
  try {
    for (const source of positionals) inputs.push({ source, results: await readCampaignResults(source) });
  } catch (error) {
    if (!(error instanceof CampaignFileError)) throw error;
    output.err(`orb-harness report merge: ${error.message}`);
    return 2;
  }
  let merged;
  try {
    merged = mergeCampaignResults(inputs);
  } catch (error) {
    if (!(error instanceof CampaignMergeError)) throw error;
    output.err(`orb-harness report merge: ${error.message}`);
    return 2;
  }
  const { results, missingRuns, missingShards } = merged;
  output.out(`merging ${inputs.length} results of \`${results.command}\` (target ${results.target}, campaign seed ${results.campaignSeed}, ${results.runs} runs${results.options === undefined ? "" : `, ${results.options}`})`);
  for (const input of inputs) {
    const shard = input.results.shard === undefined ? "whole campaign" : `shard ${input.results.shard.index}/${input.results.shard.count}`;
    output.out(`  ${input.source}: ${shard}, ${input.results.records.length} runs`);
  }
  if (missingRuns.length > 0) {
    const shards = missingShards.length === 0 ? "" : ` (not given: shard ${missingShards.map((shard) => `${shard.index}/${shard.count}`).join(", ")})`;
    output.err(`warning: ${missingRuns.length} of ${results.runs} runs are in no input${shards}: ${runListText(missingRuns)}`);
  }
  for (const record of results.records) if (record.verdict === "failed") failedRunLines(record).forEach((line) => output.out(line));
  output.out(campaignCountLine(results, missingRuns));
  let written: string[];
  try {
    written = await writeCampaignReports(out, results, { missingRuns, env: process.env });
  } catch (error) {
    output.err(`orb-harness report merge: cannot write into ${out}: ${(error as Error).message}`);
    return 2;
  }
  output.out(`reports: ${written.join(", ")}`);
  output.out(campaignRateLine(results));
  output.out(`trace-hash: ${campaignTraceHash(results.records)}`);
  return results.records.some((record) => record.verdict === "failed") ? 1 : 0;
}
