/**
 * A control plane must not outlive the harness, even one killed with SIGKILL (which runs no exit
 * handler): a small detached shell waits for the harness's process to end, then kills every
 * process whose id file (`*.pid`) is in the scratch directory and removes the directory. Stopped
 * normally, the owner stops the watchdog first. (The real-server tier's unpacked binaries use it too.)
 */
import { spawn, type ChildProcess } from "node:child_process";

const SCRIPT = [
  'parent="$1"; dir="$2"',
  'while kill -0 "$parent" 2>/dev/null; do sleep 1; done',
  'for f in "$dir"/*.pid; do [ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null; done',
  'rm -rf "$dir"',
].join("\n");

/** Starts the watchdog of `scratchDir` for this process; returns a function that stops it. */
export function startOrphanWatchdog(scratchDir: string): () => void {
  let watchdog: ChildProcess | undefined;
  try {
    watchdog = spawn("sh", ["-c", SCRIPT, "orb-harness-watchdog", String(process.pid), scratchDir], { detached: true, stdio: "ignore" });
    watchdog.on("error", () => undefined);
    watchdog.unref();
  } catch {
    // Without sh there is no watchdog; the exit handlers still stop the processes.
  }
  return () => {
    if (watchdog?.pid !== undefined && watchdog.exitCode === null) watchdog.kill("SIGKILL");
  };
}
