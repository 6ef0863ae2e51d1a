/** The shape of a CLI command, and the error that means "bad usage, exit 2". */

/** Where a command writes; tests pass collectors, the CLI passes the process streams. */
export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

/** One `orb-harness <name>` command. */
export interface CliCommand {
  readonly name: string;
  /** One line for the command list of `--help`. */
  readonly summary: string;
  /** The command's own `--help` text. */
  readonly usage: string;
  /** Runs the command; resolves to the exit code. Throws UsageError for bad arguments. */
  run(args: readonly string[], output: CliOutput): Promise<number>;
}

/** Bad arguments: the CLI prints the message and the usage, and exits 2. */
export class UsageError extends Error {}
