/**
 * Writes a campaign's reports into a directory (a shard's `--report-dir`, or `report merge --out`):
 * results.json (what `report merge` reads), junit.xml, summary.md and report.html, each with the
 * run's secrets removed, and appends summary.md to `$GITHUB_STEP_SUMMARY` when that is set, as the
 * suite's and soak's reports do.
 */
import { appendFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CampaignResults } from "../conformance/campaign/campaign.ts";
import { campaignHtml } from "./campaign-html.ts";
import { campaignJunitXml } from "./campaign-junit.ts";
import { campaignMarkdown } from "./campaign-markdown.ts";
import { CAMPAIGN_RESULTS_FILE, formatCampaignResults } from "./campaign-results-file.ts";
import { redactSecrets } from "./redaction.ts";

/** The file names of a campaign report directory. */
export const CAMPAIGN_REPORT_FILES = { results: CAMPAIGN_RESULTS_FILE, junit: "junit.xml", markdown: "summary.md", html: "report.html" } as const;

/** Options: runs a merge lacks, the run's secrets, the environment (process.env in the CLI). */
export interface CampaignReportOptions {
  readonly missingRuns?: readonly number[];
  readonly secrets?: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Writes the four reports; returns the paths written. */
export async function writeCampaignReports(dir: string, results: CampaignResults, options: CampaignReportOptions = {}): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const secrets = options.secrets ?? [];
  const missing = options.missingRuns ?? [];
  const markdown = campaignMarkdown(results, missing, { secrets });
  const files: Array<[string, string]> = [
    [CAMPAIGN_REPORT_FILES.results, formatCampaignResults(results)],
    [CAMPAIGN_REPORT_FILES.junit, campaignJunitXml(results, missing, { secrets })],
    [CAMPAIGN_REPORT_FILES.markdown, markdown],
    [CAMPAIGN_REPORT_FILES.html, campaignHtml(results, missing, { secrets })],
  ];
  const written: string[] = [];
  for (const [name, content] of files) {
    const path = join(dir, name);
    await writeFile(path, redactSecrets(content, secrets), "utf8");
    written.push(path);
  }
  const stepSummary = options.env?.["GITHUB_STEP_SUMMARY"];
  if (stepSummary !== undefined && stepSummary !== "") await appendFile(stepSummary, `${markdown}\n`, "utf8");
  return written;
}
