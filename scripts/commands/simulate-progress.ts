/**
 * `simulate`'s progress line on long runs (issue 21): virtual time reached and kernel events per
 * wall second. On a terminal one line is rewritten in place (`\r`), at most every `ttyEveryMs`;
 * otherwise a whole line every `plainEveryMs` of wall time. Nothing is shown before `quietMs`
 * of wall time, so short runs print as before. Wall-clock reads stay here (scripts/), never in sim/.
 */
import { fitToTerminal, type ProgressSink } from "../../conformance/progress.ts";
import { goDuration } from "../../sim/faults/fault-spec.ts";
import type { ScenarioProgress } from "../../sim/scenarios/scenario-run-options.ts";

/** How progress is shown. */
export interface ProgressOptions {
  /** Where progress goes: on a terminal, `\r`-rewritten and cut to its width; otherwise whole lines ending in `\n`. */
  readonly stream: ProgressSink;
  /** Wall clock, ms (performance.now in the CLI; a fake in tests). */
  readonly now: () => number;
  readonly quietMs?: number;
  readonly ttyEveryMs?: number;
  readonly plainEveryMs?: number;
}

/** A progress reporter: `update` on each report from the scenario, `finish` when the run ended. */
export interface SimulateProgress {
  update(progress: ScenarioProgress): void;
  /** Clears a terminal line if one was drawn. */
  finish(): void;
}

/** The reporter; the wall clock starts at creation (when virtual time starts). */
export function simulateProgress(options: ProgressOptions): SimulateProgress {
  const { stream, now } = options;
  const quietMs = options.quietMs ?? 2_000;
  const everyMs = stream.isTTY ? (options.ttyEveryMs ?? 250) : (options.plainEveryMs ?? 5_000);
  const startedMs = now();
  let lastShownMs = Number.NEGATIVE_INFINITY;
  let drawn = false;
  return {
    update(progress) {
      const wallMs = now() - startedMs;
      if (wallMs < quietMs || wallMs - lastShownMs < everyMs) return;
      lastShownMs = wallMs;
      const line = progressLine(progress, wallMs);
      if (stream.isTTY) {
        stream.write(`\r\x1b[2K${fitToTerminal(line, stream.columns?.())}`);
        drawn = true;
      } else stream.write(`${line}\n`);
    },
    finish() {
      if (drawn) stream.write("\r\x1b[2K");
      drawn = false;
    },
  };
}

/** `progress: 20m0s of 1h0m0s virtual (33%), 123456 events, 4567 events/s, 12.3 s wall`. */
export function progressLine(progress: ScenarioProgress, wallMs: number): string {
  const percent = progress.durationMs > 0 ? Math.floor((progress.virtualMs / progress.durationMs) * 100) : 100;
  const rate = wallMs > 0 ? Math.round(progress.kernelEvents / (wallMs / 1000)) : 0;
  return `progress: ${virtualTime(progress.virtualMs)} of ${virtualTime(progress.durationMs)} virtual (${percent}%), ${progress.kernelEvents} events, ${rate} events/s, ${(wallMs / 1000).toFixed(1)} s wall`;
}

// Whole seconds, written as --duration takes them (a Go duration: `1h0m0s`, `1m30s`, `45s`).
function virtualTime(ms: number): string {
  return goDuration(Math.floor(ms / 1000) * 1000);
}
