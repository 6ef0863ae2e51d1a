/**
 * Writes a report directory (soak's, a campaign's): every file with the run's secrets removed,
 * and the Markdown summary appended to `$GITHUB_STEP_SUMMARY` when that is set, so a GitHub
 * Actions job shows it on its page.
 */
import { appendFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { redactSecrets } from "./redaction.ts";

/** Writes `files` (name, content) into `dir`, creating it; returns the paths written. */
export async function writeReportDirectory(
  dir: string,
  files: readonly (readonly [string, string])[],
  summary: { readonly markdown: string; readonly secrets: readonly string[]; readonly env?: Readonly<Record<string, string | undefined>> | undefined },
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, content] of files) {
    const path = join(dir, name);
    await writeFile(path, redactSecrets(content, summary.secrets), "utf8");
    written.push(path);
  }
  const stepSummary = summary.env?.["GITHUB_STEP_SUMMARY"];
  if (stepSummary !== undefined && stepSummary !== "") await appendFile(stepSummary, `${redactSecrets(summary.markdown, summary.secrets)}\n`, "utf8");
  return written;
}
