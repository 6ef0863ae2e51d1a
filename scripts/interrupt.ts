/**
 * Ctrl-C as the long-running commands (conformance, soak, load, record) take it: the first stops
 * the work cleanly (the command deletes what it made and writes its reports), with a line saying
 * so; a second exits at once with 130, as shells expect of an interrupted program.
 */
import type { CliOutput } from "./cli-command.ts";

/** The exit code of an interrupted command (128 + SIGINT). */
export const INTERRUPTED_EXIT = 130;

/** A command's hold on Ctrl-C: `signal` aborts at the first; `release` gives Ctrl-C back. */
export interface InterruptHold {
  readonly signal: AbortSignal;
  release(): void;
}

/** Takes Ctrl-C until released: the first calls `onInterrupt`, prints `message` and aborts `signal`. */
export function holdInterrupt(output: Pick<CliOutput, "err">, message: string, onInterrupt: () => void = () => undefined): InterruptHold {
  const controller = new AbortController();
  const onSigint = () => {
    onInterrupt();
    output.err(message);
    controller.abort();
    process.once("SIGINT", () => process.exit(INTERRUPTED_EXIT));
  };
  process.once("SIGINT", onSigint);
  return { signal: controller.signal, release: () => void process.removeListener("SIGINT", onSigint) };
}
