/**
 * The orb-harness CLI: `npx tsx scripts/cli.ts <command> [flags]`. Parsing and wiring only; each
 * command lives in scripts/commands/. Exit codes: 0 success, 1 a check failed, 2 usage.
 */
import { pathToFileURL } from "node:url";
import { UsageError, type CliOutput } from "./cli-command.ts";
import { commands } from "./commands/index.ts";

/** The top-level help text. */
export function mainUsage(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    "usage: orb-harness <command> [flags]",
    "",
    "commands:",
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    "",
    "Run `orb-harness <command> --help` for a command's flags.",
  ].join("\n");
}

/** Runs the CLI with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: readonly string[], output: CliOutput): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? output.err : output.out)(mainUsage());
    return name === undefined ? 2 : 0;
  }
  const entry = commands.find((candidate) => candidate.name === name);
  if (entry === undefined) {
    output.err(`orb-harness: unknown command ${JSON.stringify(name)}\n\n${mainUsage()}`);
    return 2;
  }
  const command = await entry.load();
  // Arguments after `--` belong to someone else (validate passes them to a daemon's flag set).
  const own = args.includes("--") ? args.slice(0, args.indexOf("--")) : args;
  if (own.includes("--help") || own.includes("-h")) {
    output.out(command.usage);
    return 0;
  }
  try {
    return await command.run(args, output);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.err(`orb-harness ${command.name}: ${error.message}\n\n${command.usage}`);
    return 2;
  }
}

const processOutput: CliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

// Run as a program (tsx scripts/cli.ts, or node dist/scripts/cli.js from the npm package), not imported.
const entry = process.argv[1];
if (entry !== undefined && (import.meta.url === pathToFileURL(entry).href || /\/scripts\/cli\.[jt]s$/.test(entry))) {
  // A reader that stops early (`conformance --list | head`) closes the pipe: stop quietly, as Unix tools do.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      process.exit(process.exitCode ?? 0);
    });
  }
  main(process.argv.slice(2), processOutput).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`orb-harness: internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 70;
    },
  );
}
