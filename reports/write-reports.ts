/**
 * Writes every report of a run into a directory (`--report-dir`, default reports/out/):
 * results.json, junit.xml, summary.md and report.html, each redacted, and appends summary.md to
 * the file `$GITHUB_STEP_SUMMARY` names when that variable is set (GitHub Actions' job summary).
 */
import { appendFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { RunResults } from "../conformance/results.ts";
import type { RedactionOptions } from "./redaction.ts";
import { renderReport, reportFiles, reportFormats } from "./render.ts";

/** Where reports go when `--report-dir` is not given. */
export const DEFAULT_REPORT_DIR = "reports/out";

/** Options of writeReports: the run's secrets, and the environment (process.env in the CLI). */
export interface WriteReportsOptions extends RedactionOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** What writeReports wrote: the report files and, when set, the step summary it appended to. */
export interface WrittenReports {
  readonly files: readonly string[];
  readonly stepSummary?: string;
}

/** Writes the four reports into `dir` (created if missing) and appends the summary to `$GITHUB_STEP_SUMMARY`. */
export async function writeReports(results: RunResults, dir: string, options: WriteReportsOptions = {}): Promise<WrittenReports> {
  await mkdir(dir, { recursive: true });
  const secrets = options.secrets === undefined ? {} : { secrets: options.secrets };
  const files: string[] = [];
  let summary = "";
  for (const format of reportFormats) {
    const path = join(dir, reportFiles[format]);
    const content = renderReport(results, format, secrets);
    if (format === "md") summary = content;
    await writeFile(path, content, "utf8");
    files.push(path);
  }
  const stepSummary = options.env?.["GITHUB_STEP_SUMMARY"];
  if (stepSummary === undefined || stepSummary === "") return { files };
  await appendFile(stepSummary, `${summary}\n`, "utf8");
  return { files, stepSummary };
}
