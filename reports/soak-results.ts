/**
 * The results of a soak run or of a re-check of a saved history (issue 15): one versioned JSON
 * document (results.json in the soak's report directory) from which soak.md and junit.xml are
 * made: the target, the seed, the workload's figures and counts, and one entry per history
 * invariant with its verdict and, when violated, its witness in words.
 */
import type { SoakCounts } from "../conformance/soak/soak-counts.ts";
import type { ApiHistory } from "../sim/history/api-history.ts";
import type { HistoryVerdict, HistoryWitness } from "../sim/history/history-verdict.ts";
import { witnessLines } from "./soak-witness-text.ts";

/** Bumped when a field changes meaning or goes away; new optional fields do not bump it. */
export const SOAK_RESULTS_SCHEMA_VERSION = 1;

/** One invariant's verdict. */
export interface SoakInvariantResult {
  readonly id: string;
  readonly rule: string;
  readonly clauses: readonly string[];
  readonly held: boolean;
  readonly checked: number;
  /** The witness of a violation, with its operations and events in words. */
  readonly witness?: HistoryWitness & { readonly lines: readonly string[] };
}

/** A whole soak's results. */
export interface SoakResults {
  readonly schemaVersion: typeof SOAK_RESULTS_SCHEMA_VERSION;
  readonly kind: "soak";
  readonly harnessVersion: string;
  /** "run": a workload recorded now; "check": a saved history checked again (`soak --check`). */
  readonly source: "run" | "check";
  /** The target as the history names it (never a credential), and the server's /version. */
  readonly target: { readonly description: string; readonly serverVersion: string };
  readonly seed: number;
  readonly namespace: string;
  /** RFC 3339. */
  readonly startedAt: string;
  readonly finishedAt: string;
  /** The command that runs the same workload again (seed and flags, no credentials). */
  readonly replayCommand: string;
  /** From the first request of the workload to the stop of its writers and readers. */
  readonly workloadSeconds: number;
  readonly operationsPerSecond: number;
  readonly counts: SoakCounts;
  readonly invariants: readonly SoakInvariantResult[];
  readonly violations: number;
}

/** An invariant's words, as spec/invariants-history.ts gives them. */
export interface InvariantDescription {
  readonly id: string;
  readonly rule: string;
  readonly clauses: readonly string[];
}

/** The invariant results of `verdicts`, in the catalog's order, each with its rule and witness lines. */
export function invariantResults(history: ApiHistory, verdicts: readonly HistoryVerdict[], catalog: readonly InvariantDescription[]): SoakInvariantResult[] {
  return verdicts.map((verdict) => {
    const described = catalog.find((invariant) => invariant.id === verdict.id);
    return {
      id: verdict.id,
      rule: described?.rule ?? "(not in spec/invariants-history.ts)",
      clauses: described?.clauses ?? [],
      held: verdict.held,
      checked: verdict.checked,
      ...(verdict.witness !== undefined && { witness: { ...verdict.witness, lines: witnessLines(history, verdict.witness) } }),
    };
  });
}
