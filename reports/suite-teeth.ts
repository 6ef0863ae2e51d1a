/**
 * How much a green run is worth: the mutation score `orb-harness selfcheck` measured on this
 * harness (defects caught of defects planted), as published in selfcheck-published.json by
 * `selfcheck --publish` after a run on every defect. The conformance reports show it beside the
 * harness version, with the version and date it was measured on.
 */
import { readFileSync } from "node:fs";

/** The published score: a summary of a whole selfcheck run. */
export interface PublishedSelfcheck {
  readonly harnessVersion: string;
  /** When the run started, ISO 8601. */
  readonly date: string;
  readonly score: { readonly caught: number; readonly planted: number; readonly suite: number; readonly fuzz: number; readonly soak: number };
  /** Each planted defect: whether it was caught, and by what. */
  readonly defects: ReadonlyArray<{ readonly name: string; readonly caught: boolean; readonly tools: readonly string[] }>;
}

export const PUBLISHED_SELFCHECK_FILE = new URL("./selfcheck-published.json", import.meta.url);

let published: PublishedSelfcheck | null | undefined;

/** The published score, or undefined when none was published (or the file is unreadable). */
export function publishedSelfcheck(): PublishedSelfcheck | undefined {
  if (published === undefined) {
    try {
      published = JSON.parse(readFileSync(PUBLISHED_SELFCHECK_FILE, "utf8")) as PublishedSelfcheck;
    } catch {
      published = null;
    }
  }
  return published ?? undefined;
}

/** One sentence for the reports, e.g. `caught 25 of 25 planted defects (suite 21, fuzz 24, soak 5), measured on orb-harness 0.1.0 on 2026-11-28`. */
export function teethText(score: PublishedSelfcheck | undefined): string {
  if (score === undefined) return "not measured (run orb-harness selfcheck)";
  const { caught, planted, suite, fuzz, soak } = score.score;
  return `caught ${caught} of ${planted} planted defects (suite ${suite}, fuzz ${fuzz}, soak ${soak}), measured by orb-harness selfcheck on orb-harness ${score.harnessVersion} on ${score.date.slice(0, 10)}`;
}
