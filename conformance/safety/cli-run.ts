/**
 * `orb-harness` run as a user runs it: a child process (`node --import tsx scripts/cli.ts …`), its
 * stdout and stderr captured whole, so the safety tests see every byte the command prints, can
 * send it signals (Ctrl-C) at chosen moments, and see whether it exits by itself.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** How a run ended. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** performance.now() when the process exited. */
  readonly exitedAt: number;
}

/** Options of a run. */
export interface CliRunOptions {
  /** Added to the environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Called after each chunk of output, with everything printed so far: to interrupt at a chosen moment. */
  readonly onOutput?: (child: ChildProcess, stdout: string, stderr: string) => void;
  /** Called once the process is started. */
  readonly onStart?: (child: ChildProcess) => void;
}

/** Runs `orb-harness conformance …args` to its end. */
export function runConformanceCli(args: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  return runCli(["conformance", ...args], options);
}

/** Runs `orb-harness …args` to its end. */
export function runCli(args: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], {
    cwd: REPO,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    options.onOutput?.(child, stdout, stderr);
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
    options.onOutput?.(child, stdout, stderr);
  });
  options.onStart?.(child);
  // "close", not "exit": the output is read to its end.
  return new Promise((resolve, reject) => {
    let exitedAt = 0;
    child.on("error", reject);
    child.on("exit", () => (exitedAt = performance.now()));
    child.on("close", (code) => resolve({ code, stdout, stderr, exitedAt }));
  });
}
