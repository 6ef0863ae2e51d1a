/**
 * Progress of a run as people and CI logs want it: on a terminal, one line redrawn in place
 * (count, current area, failures so far); otherwise one line per finished case.
 */
import type { ConformanceCase } from "./case-definition.ts";
import type { CaseResult } from "./results.ts";

/** Where progress goes. */
export interface ProgressSink {
  /** True for a terminal, where a line can be redrawn. */
  readonly isTTY: boolean;
  write(text: string): void;
}

/** Reports case starts and ends to `sink`. */
export class ProgressReporter {
  private finished = 0;
  private failed = 0;
  private current = "";

  constructor(
    private readonly sink: ProgressSink,
    private readonly total: number,
  ) {}

  /** A case started. */
  started(testCase: ConformanceCase): void {
    this.current = testCase.area;
    if (this.sink.isTTY) this.redraw();
  }

  /** A case ended. */
  ended(result: CaseResult): void {
    this.finished++;
    if (result.status === "fail" || result.status === "error") this.failed++;
    if (!this.sink.isTTY) {
      this.sink.write(`${result.status.toUpperCase().padEnd(5)} ${result.id} (${result.durationMs} ms)${result.message ? ` — ${result.message}` : ""}\n`);
      return;
    }
    if (result.status === "fail" || result.status === "error") this.sink.write(`\r\x1b[2K${result.status.toUpperCase()} ${result.id} — ${result.message}\n`);
    this.redraw();
  }

  /** A case started waiting for the server: say which, for what, and until when at most. */
  waiting(testCase: ConformanceCase, what: string, withinMs: number): void {
    const line = `${testCase.id} waits for ${what}, at most ${formatSeconds(withinMs)}`;
    if (!this.sink.isTTY) {
      this.sink.write(`WAIT  ${line}\n`);
      return;
    }
    this.current = line;
    this.redraw();
  }

  /** Clears the progress line before the summary. */
  done(): void {
    if (this.sink.isTTY) this.sink.write("\r\x1b[2K");
  }

  private redraw(): void {
    this.sink.write(`\r\x1b[2K[${this.finished}/${this.total}] ${this.current}  ${this.failed} failed so far`);
  }
}

function formatSeconds(ms: number): string {
  return ms >= 120_000 ? `${(ms / 60_000).toFixed(1)} min` : `${Math.round(ms / 1000)} s`;
}
