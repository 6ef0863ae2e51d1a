/**
 * Writes a soak's reports into a directory (`soak --report-dir`, default reports/out/soak):
 * history.json (the recorded history, to check again with `soak --check`), results.json,
 * junit.xml, soak.md and timeline.html (a lane per client, the witnesses highlighted:
 * reports/history-timeline.ts), each with the run's secrets removed, and appends soak.md to
 * `$GITHUB_STEP_SUMMARY` when that is set, as the suite's reports do.
 */
import type { ApiHistory } from "../sim/history/api-history.ts";
import type { HistoryVerdict } from "../sim/history/history-verdict.ts";
import { renderHistoryTimeline } from "./history-timeline.ts";
import { writeReportDirectory } from "./report-directory.ts";
import { soakJunitXml } from "./soak-junit.ts";
import { soakMarkdown } from "./soak-markdown.ts";
import type { SoakResults } from "./soak-results.ts";

/** Where soak reports go when `--report-dir` is not given (beside, not over, the suite's reports/out). */
export const DEFAULT_SOAK_REPORT_DIR = "reports/out/soak";

/** The file names of a soak report directory. */
export const SOAK_REPORT_FILES = { history: "history.json", results: "results.json", junit: "junit.xml", markdown: "soak.md", timeline: "timeline.html" } as const;

/** What to write. */
export interface SoakReportInput {
  readonly results: SoakResults;
  readonly history: ApiHistory;
  readonly verdicts: readonly HistoryVerdict[];
  /** Write history.json (not when the history was read from a file to check it again). */
  readonly writeHistory: boolean;
}

/** Options: the run's secrets, and the environment (process.env in the CLI). */
export interface SoakReportOptions {
  readonly secrets?: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Writes the reports; returns the paths written. */
export async function writeSoakReports(dir: string, input: SoakReportInput, options: SoakReportOptions = {}): Promise<string[]> {
  const secrets = options.secrets ?? [];
  const markdown = soakMarkdown(input.results, { secrets });
  const timelineTitle = `orb-harness soak: ${input.results.target.description}, seed ${input.results.seed}`;
  const files: Array<[string, string]> = [
    ...(input.writeHistory ? [[SOAK_REPORT_FILES.history, `${JSON.stringify(input.history)}\n`] as [string, string]] : []),
    [SOAK_REPORT_FILES.results, `${JSON.stringify(input.results, null, 2)}\n`],
    [SOAK_REPORT_FILES.junit, soakJunitXml(input.results, { secrets })],
    [SOAK_REPORT_FILES.markdown, markdown],
    [SOAK_REPORT_FILES.timeline, renderHistoryTimeline(input.history, input.verdicts, { title: timelineTitle, replayCommand: input.results.replayCommand })],
  ];
  return writeReportDirectory(dir, files, { markdown, secrets, env: options.env });
}
