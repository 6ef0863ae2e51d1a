/**
 * What a load run must show (issue #14, "Load and slow readers"), as named checks: every reading
 * watcher got every event in order exactly once and was not cut off; the write rate with the
 * watchers open stayed within the allowed factor of the rate without them; every paused watcher
 * was cut off once more was written than any buffer between it and the server could hold; the
 * server's memory stayed under the bound.
 */
import type { WatchLoadResult } from "./watch-load-run.ts";

/** The bounds a run is held to. */
export interface LoadBounds {
  /** Least fanout/alone write-rate ratio (0.5: "within 2×"). */
  readonly minRateRatio: number;
  /** Largest resident memory of the server, in bytes. */
  readonly maxMemoryBytes: number;
  /** Bytes a paused watcher's connection can hold before the server must cut it off (socket-buffer-bound.ts); below it no cut-off is expected. */
  readonly pausedBufferBytes: number;
}

/** One check's outcome. */
export interface LoadCheck {
  readonly name: string;
  readonly passed: boolean;
  readonly detail: string;
}

/** The checks of one run; `eventBytes` is the approximate size of one event on the wire. */
export function loadChecks(result: WatchLoadResult, bounds: LoadBounds, eventBytes: number): LoadCheck[] {
  const checks: LoadCheck[] = [
    {
      name: "every event to every reading watcher, in order, exactly once",
      passed: result.lost + result.duplicated + result.reordered + result.unexpected + result.differing === 0 && result.events > 0,
      detail:
        `${result.events} events to ${result.watchers} watchers (${result.verifiedWatchers} checked event by event, the others' streams compared with theirs): ` +
        `${result.lost} lost, ${result.duplicated} duplicated, ${result.reordered} reordered, ${result.unexpected} unexpected, ${result.differing} streams different`,
    },
    {
      name: "no reading watcher cut off",
      passed: result.readersCutOff === 0,
      detail: `${result.readersCutOff} of ${result.watchers} cut off`,
    },
    {
      name: `write rate with watchers within ${(1 / bounds.minRateRatio).toFixed(1)}× of the rate without`,
      passed: result.rateRatio >= bounds.minRateRatio,
      detail: `${result.fanout.writesPerSecond.toFixed(0)}/s with, ${result.alone.writesPerSecond.toFixed(0)}/s without (ratio ${result.rateRatio.toFixed(2)})`,
    },
  ];
  if (result.watchesLeftOpen !== undefined) {
    checks.push({ name: "no watch left open on the server after its client went", passed: result.watchesLeftOpen === 0, detail: `${result.watchesLeftOpen} left open` });
  }
  const pausedBytes = result.fanout.writes * eventBytes;
  if (result.paused.watchers > 0 && pausedBytes > bounds.pausedBufferBytes) {
    checks.push({
      name: "every paused watcher cut off",
      passed: result.paused.cutOff === result.paused.watchers,
      detail: `${result.paused.cutOff} of ${result.paused.watchers} cut off, after at most ${result.paused.mostEventsBeforeCutOff} of ${result.fanout.writes} events`,
    });
  }
  if (result.peakMemoryBytes !== undefined) {
    checks.push({
      name: `server memory under ${mib(bounds.maxMemoryBytes)}`,
      passed: result.peakMemoryBytes <= bounds.maxMemoryBytes,
      detail: `peak ${mib(result.peakMemoryBytes)} (${mib(result.memoryBeforeBytes ?? 0)} before)`,
    });
  }
  return checks;
}

/** Bytes as MiB, for people. */
export function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(0)} MiB`;
}
