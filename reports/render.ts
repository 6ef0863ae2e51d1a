/** The report formats by name: what `orb-harness report --format` and writeReports produce. */
import type { RunResults } from "../conformance/results.ts";
import { reportHtml } from "./html.ts";
import { junitXml } from "./junit.ts";
import { summaryMarkdown } from "./markdown.ts";
import type { RedactionOptions } from "./redaction.ts";
import { formatResultsJson } from "./results-file.ts";

/** The name of a report format. */
export type ReportFormat = "json" | "junit" | "md" | "html";

/** Every format with the file name it has in a report directory, in the order they are written. */
export const reportFiles: Readonly<Record<ReportFormat, string>> = {
  json: "results.json",
  junit: "junit.xml",
  md: "summary.md",
  html: "report.html",
};

/** The format names, for usage text and validation. */
export const reportFormats = Object.keys(reportFiles) as readonly ReportFormat[];

/** True when `name` is a report format. */
export function isReportFormat(name: string): name is ReportFormat {
  return Object.hasOwn(reportFiles, name);
}

/** The text of one report of `results`, redacted. */
export function renderReport(results: RunResults, format: ReportFormat, options: RedactionOptions = {}): string {
  switch (format) {
    case "json":
      return formatResultsJson(results, options);
    case "junit":
      return junitXml(results, options);
    case "md":
      return summaryMarkdown(results, options);
    case "html":
      return reportHtml(results, options);
  }
}
