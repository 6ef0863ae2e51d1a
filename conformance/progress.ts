/**
 * Progress of a run as people and CI logs want it: on a terminal, one line redrawn in place
 * (count, failures so far, the current area or the case waiting for the server), cut to the
 * terminal's width so that it never wraps; otherwise one line per finished case and one per wait.
 */
import type { ConformanceCase } from "./case-definition.ts";
import type { CaseResult } from "./results.ts";

/** Where progress goes. */
export interface ProgressSink {
  /** True for a terminal, where a line can be redrawn. */
  readonly isTTY: boolean;
  write(text: string): void;
  /** The terminal's width now, where known: the redrawn line is cut to it (a wrapped line cannot be redrawn). */
  readonly columns?: () => number | undefined;
}

/** Reports case starts and ends to `sink`. */
export class ProgressReporter {
  private finished = 0;
  private failed = 0;
  private current = "";
  /** What each waiting case awaits, by case id, in the order they began waiting. */
  private readonly waits = new Map<string, string>();

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
    this.waits.delete(result.id);
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
    this.waits.delete(testCase.id);
    this.waits.set(testCase.id, line);
    this.redraw();
  }

  /** Clears the progress line before the summary. */
  done(): void {
    if (this.sink.isTTY) this.sink.write("\r\x1b[2K");
  }

  private redraw(): void {
    const waits = [...this.waits.values()];
    const doing = waits.length === 0 ? this.current : `${waits[waits.length - 1]}${waits.length > 1 ? ` (${waits.length - 1} more waiting)` : ""}`;
    const line = `[${this.finished}/${this.total}] ${this.failed} failed so far · ${doing}`;
    this.sink.write(`\r\x1b[2K${fitToTerminal(line, this.sink.columns?.())}`);
  }
}

/** A line to redraw in place, cut to the terminal's width when known (a wrapped line cannot be redrawn). */
export function fitToTerminal(line: string, width: number | undefined): string {
  return width !== undefined && width > 1 && line.length >= width ? `${line.slice(0, width - 2)}…` : line;
}

function formatSeconds(ms: number): string {
  return ms >= 120_000 ? `${(ms / 60_000).toFixed(1)} min` : `${Math.round(ms / 1000)} s`;
}
