/**
 * The embedded server in a process of its own, for load runs: sharing the load generator's event
 * loop would measure the generator as much as the server, and its memory could not be told apart.
 * Started as `orb-harness serve --dialect kubernetes` on a free port; stopped (and waited for) by `stop`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { NODE_FLAGS } from "../../scripts/node-flags.mjs";

// From the sources the CLI runs through tsx; compiled (the npm package, dist/), it is plain JavaScript.
const COMPILED = !import.meta.url.endsWith(".ts");
const CLI = fileURLToPath(new URL(COMPILED ? "../../scripts/cli.js" : "../../scripts/cli.ts", import.meta.url));
const START_TIMEOUT_MS = 30_000;

/** A running `serve` process. */
export interface ServeProcess {
  readonly url: string;
  readonly pid: number;
  /** Everything it wrote to stderr so far (warnings included). */
  stderr(): string;
  /** SIGINT, then waits for the exit (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

/** Starts `serve` with these extra arguments and resolves once it prints its URL. */
export async function startServeProcess(extraArgs: readonly string[] = []): Promise<ServeProcess> {
  const loader = COMPILED ? [] : ["--import", import.meta.resolve("tsx")];
  // With the flags the orb-harness bin gives every process, so it runs as `orb-harness serve` does
  // (the benchmark measured a default young generation, and its lists' times scattered with the GC).
  const child = spawn(process.execPath, [...NODE_FLAGS, ...loader, CLI, "serve", "--dialect", "kubernetes", "--port", "0", ...extraArgs], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let output = "";
  let errors = "";
  child.stderr!.on("data", (data: Buffer) => (errors += data.toString("utf8")));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start within ${START_TIMEOUT_MS / 1000} s: ${output}`)), START_TIMEOUT_MS);
    const read = (data: Buffer) => {
      output += data.toString("utf8");
      const match = /serving on (\S+)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      resolve(match[1]!);
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before it listened: ${output}`));
    });
  });
  return { url, pid: child.pid!, stderr: () => errors, stop: () => stopChild(child, exited) };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGINT");
  const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(killer);
}
