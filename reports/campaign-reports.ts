/**
 * Writes a campaign's reports into a directory (a shard's `--report-dir`, or `report merge --out`):
 * results.json (what `report merge` reads), junit.xml, summary.md and report.html, each with the
 * run's secrets removed, and appends summary.md to `$GITHUB_STEP_SUMMARY` when that is set, as the
 * suite's and soak's reports do.
 */
import type { CampaignResults } from "../conformance/campaign/campaign.ts";
import { campaignHtml } from "./campaign-html.ts";
import { campaignJunitXml } from "./campaign-junit.ts";
import { campaignMarkdown } from "./campaign-markdown.ts";
import { CAMPAIGN_RESULTS_FILE, formatCampaignResults } from "./campaign-results-file.ts";
import { writeReportDirectory } from "./report-directory.ts";

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
  const secrets = options.secrets ?? [];
  const missing = options.missingRuns ?? [];
  const markdown = campaignMarkdown(results, missing, { secrets });
  const files: Array<[string, string]> = [
    [CAMPAIGN_REPORT_FILES.results, formatCampaignResults(results)],
    [CAMPAIGN_REPORT_FILES.junit, campaignJunitXml(results, missing, { secrets })],
    [CAMPAIGN_REPORT_FILES.markdown, markdown],
    [CAMPAIGN_REPORT_FILES.html, campaignHtml(results, missing, { secrets })],
  ];
  return writeReportDirectory(dir, files, { markdown, secrets, env: options.env });
}
