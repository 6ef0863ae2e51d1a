/**
 * Waiting for a started server to answer: probe every 250 ms until it does, while watching the
 * processes it depends on, so that one that exits is reported at once with the tail of its log.
 */
import { ControlPlaneError } from "./kube-assets.ts";
import type { ManagedProcess } from "./managed-process.ts";

const PROBE_EVERY_MS = 250;

/** What to wait for. */
export interface ReadinessWait {
  /** For messages: "kube-apiserver to be ready". */
  readonly what: string;
  /** True once ready; a throw counts as not yet. */
  readonly probe: () => Promise<boolean>;
  readonly timeoutMs: number;
  /** Processes whose exit means the wait can never succeed. */
  readonly watched: readonly ManagedProcess[];
  /** Told the seconds waited so far, about once a second. */
  readonly onWaiting?: (waitedS: number) => void;
  readonly signal?: AbortSignal | undefined;
}

/** Resolves when `probe` says ready; throws ControlPlaneError on a timeout, an exit or an abort. */
export async function waitUntilReady(wait: ReadinessWait): Promise<void> {
  const started = performance.now();
  let reportedS = 0;
  for (;;) {
    if (wait.signal?.aborted) throw new ControlPlaneError(`interrupted while waiting for ${wait.what}`);
    const dead = wait.watched.find((process) => process.hasExited);
    if (dead !== undefined) throw new ControlPlaneError(`${dead.name} exited while waiting for ${wait.what}; the end of ${dead.logFile}:\n${dead.logTail()}`);
    if (await wait.probe().catch(() => false)) return;
    const waitedMs = performance.now() - started;
    if (waitedMs > wait.timeoutMs) {
      const logs = wait.watched.map((process) => `the end of ${process.logFile}:\n${process.logTail()}`).join("\n");
      throw new ControlPlaneError(`timed out after ${Math.round(waitedMs / 1000)} s waiting for ${wait.what}; ${logs}`);
    }
    const waitedS = Math.floor(waitedMs / 1000);
    if (waitedS > reportedS) {
      reportedS = waitedS;
      wait.onWaiting?.(waitedS);
    }
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
  }
}
