/** `orb-harness match-image`: which credential providers an image invokes, and in what order (doc 3 §2.1, §2.2). Wiring only. */
import { readFile } from "node:fs/promises";
import { formatFinding } from "../../sim/config/finding.ts";
import { SchemelessUrlError } from "../../sim/config/image-matching.ts";
import { formatImageMatchReport, matchProviders } from "../../sim/config/provider-matching.ts";
import { validateCredentialProviderConfigText } from "../../sim/config/validate-credential-provider-config.ts";
import { UsageError, type CliCommand } from "../cli-command.ts";
import { parseFlags } from "../parse-flags.ts";

/** The match-image command. */
export const matchImageCommand: CliCommand = {
  name: "match-image",
  summary: "show which credential providers match an image and in what order their results combine",
  usage: [
    "usage: orb-harness match-image --config FILE [--output text|json] IMAGE",
    "",
    "  --config   a CredentialProviderConfig file (YAML or JSON), validated first",
    "  --output   text (default) or json",
    "",
    "The image is normalized as the node agent looks it up (nginx is docker.io/library/nginx; tag and",
    "digest are dropped), then matched against every provider's matchImages patterns (doc 3 §2.2).",
    "Exit 0 when at least one provider matches, 1 when none does or the file is invalid, 2 for usage errors.",
  ].join("\n"),
  async run(args, output) {
    const { values, positionals } = parseFlags(args, { config: "string", output: "string" });
    const configPath = values.get("config");
    if (configPath === undefined) throw new UsageError("--config FILE is required");
    if (positionals.length !== 1) throw new UsageError("give exactly one IMAGE");
    const format = values.get("output") ?? "text";
    if (format !== "text" && format !== "json") throw new UsageError(`--output takes text or json, got ${JSON.stringify(format)}`);
    let text: string;
    try {
      text = await readFile(configPath, "utf8");
    } catch (error) {
      throw new UsageError(`cannot read ${configPath}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const validation = validateCredentialProviderConfigText(text);
    validation.findings.forEach((entry) => output.err(formatFinding(entry)));
    if (!validation.valid || validation.providers === undefined) {
      output.err(`${configPath} is invalid; fix it before matching`);
      return 1;
    }
    let report;
    try {
      report = matchProviders(validation.providers, positionals[0]!);
    } catch (error) {
      if (error instanceof SchemelessUrlError) throw new UsageError(error.message);
      throw error;
    }
    if (format === "json") output.out(JSON.stringify(report, null, 2));
    else formatImageMatchReport(report).forEach((line) => output.out(line));
    return report.precedence.length > 0 ? 0 : 1;
  },
};
