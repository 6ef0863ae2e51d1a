/** `orb-harness report`: regenerate one report from a results.json (wiring only; logic in reports/). */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { closestName } from "../../sim/config/did-you-mean.ts";
import { isReportFormat, renderReport, reportFiles, reportFormats } from "../../reports/render.ts";
import { readResultsFile, ResultsFileError } from "../../reports/results-file.ts";
import { UsageError, type CliCommand } from "../cli-command.ts";
import { parseFlags } from "../parse-flags.ts";

/** The report command. */
export const reportCommand: CliCommand = {
  name: "report",
  summary: "regenerate a report (junit, md, html, json) from a results.json",
  usage: [
    `usage: orb-harness report --from results.json --format ${reportFormats.join("|")} [--out FILE]`,
    "",
    "  --from     the results JSON of a conformance run",
    `  --format   ${reportFormats.map((format) => `${format} (${reportFiles[format]})`).join(", ")}`,
    "  --out      the file to write, its directory created if missing (default: standard output)",
    "",
    "Credentials are scrubbed from every report. Exit 0 when the report was written, also for a run",
    "with failures (use the conformance command's exit code to gate CI); 2 for usage errors, a",
    "missing --from file or one that is not a valid results file (the message names the bad field),",
    "and an --out file that cannot be written.",
  ].join("\n"),
  async run(args, output) {
    const { values, positionals } = parseFlags(args, { from: "string", format: "string", out: "string" });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const from = values.get("from") as string | undefined;
    const format = values.get("format") as string | undefined;
    const out = values.get("out") as string | undefined;
    if (from === undefined) throw new UsageError("--from is required");
    if (format === undefined) throw new UsageError(`--format is required: one of ${reportFormats.join(", ")}`);
    if (!isReportFormat(format)) {
      const close = closestName(format, reportFormats);
      throw new UsageError(
        `unknown --format ${format}${close === undefined ? "" : ` (did you mean ${close}?)`}; one of ${reportFormats.join(", ")}`,
      );
    }
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
  },
};
