/**
 * One server process of a control plane: started with its output in a log file of the scratch
 * directory, watched for an early exit (so a binary that will not start is reported at once, with
 * the tail of its log, instead of after a readiness timeout), and stopped with SIGTERM, then
 * SIGKILL after a grace period.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";

/** How long a process gets to exit after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 5_000;
/** Lines of the log quoted when a process fails. */
const LOG_TAIL_LINES = 12;

/** A started process. */
export class ManagedProcess {
  private readonly child: ChildProcess;
  private exitCode: number | null | undefined;
  private readonly exited: Promise<void>;

  constructor(
    /** A short name for messages ("etcd", "kube-apiserver"). */
    readonly name: string,
    binary: string,
    args: readonly string[],
    /** The file stdout and stderr go to. */
    readonly logFile: string,
    env: NodeJS.ProcessEnv,
  ) {
    const log = openSync(logFile, "a");
    try {
      // A process group of its own: a Ctrl-C at the terminal reaches the harness only, which then
      // deletes the run's namespaces on a server still up, and stops it afterwards.
      this.child = spawn(binary, args, { stdio: ["ignore", log, log], env, detached: true });
    } finally {
      closeSync(log);
    }
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        this.exitCode = code ?? (signal === null ? null : -1);
        resolve();
      });
      // A spawn failure (ENOENT, EACCES) emits "error" and no "exit".
      this.child.once("error", () => {
        this.exitCode = -1;
        resolve();
      });
    });
  }

  /** The process id, once it started. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the process has exited. */
  get hasExited(): boolean {
    return this.exitCode !== undefined;
  }

  /** Resolves when the process exits. */
  whenExited(): Promise<void> {
    return this.exited;
  }

  /** The last lines of its log, indented, for an error message. */
  logTail(): string {
    let text = "";
    try {
      text = readFileSync(this.logFile, "utf8");
    } catch {
      return "  (no log)";
    }
    const lines = text.trimEnd().split("\n").slice(-LOG_TAIL_LINES);
    return lines.length === 0 || lines[0] === "" ? "  (the log is empty)" : lines.map((line) => `  ${line}`).join("\n");
  }

  /** SIGTERM, then SIGKILL after the grace period; resolves once it has exited. */
  async stop(): Promise<void> {
    if (this.hasExited || this.child.pid === undefined) return;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }

  /** Kills it at once, synchronously (for process exit handlers, which cannot wait). */
  killNow(): void {
    if (!this.hasExited && this.child.pid !== undefined) this.child.kill("SIGKILL");
  }
}
