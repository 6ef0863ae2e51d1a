/**
 * How long the target keeps old versions (doc 1 §8: history and continue tokens last 5 minutes by
 * default), which the time-dependent cases wait toward instead of fixed minutes (issue #13). A
 * server compacts every interval I to the revision it saw one interval before (kube-apiserver's
 * etcd compactor; the embedded store keeps a window and compacts every interval), so a version
 * replaced at time t is still readable until t + I and certainly gone by t + 2I. The suite learns I:
 * - from the target, when it knows: the embedded servers, a control plane started with
 *   `--kube-assets` (its profile), `--server-compaction-interval`;
 * - else by measuring, once per run: the time T until an Exact read of a replaced version answers
 *   410, bounded by doc 1 §8's default (T lies between I and 2I, so I ≥ T/2).
 */
import { compactionIntervalMs as documentedCompactionIntervalMs } from "../spec/doc1/limits.ts";

/** Where the suite's knowledge of the target's retention comes from. */
export type RetentionSource = "embedded" | "kube-profile" | "flag" | "measured" | "documented";

/** The target's retention of old versions. */
export interface Retention {
  readonly source: RetentionSource;
  /** A replaced version stays readable at least this long (doc 1 §8: the history window). */
  readonly minimumMs: number;
  /** A replaced version is certainly compacted this long after it was replaced; the deadline of every expiry wait. */
  readonly certainlyGoneMs: number;
}

/** Slack for the compactor's timer and the requests around it. */
function marginMs(intervalMs: number): number {
  return Math.max(5_000, Math.round(intervalMs / 10));
}

/** The retention of a server that compacts every `intervalMs` (kube-apiserver's --etcd-compaction-interval). */
export function retentionOfCompactionInterval(intervalMs: number, source: RetentionSource): Retention {
  return { source, minimumMs: intervalMs, certainlyGoneMs: 2 * intervalMs + marginMs(intervalMs) };
}

/** The retention of an embedded server: a window of history, compacted every interval. */
export function retentionOfEmbeddedServer(historyWindowMs: number, compactionIntervalMs: number): Retention {
  return { source: "embedded", minimumMs: historyWindowMs, certainlyGoneMs: historyWindowMs + 2 * compactionIntervalMs };
}

/** When nothing is known: doc 1 §8's default, the upper bound of every measurement. */
export const DOCUMENTED_RETENTION: Retention = retentionOfCompactionInterval(documentedCompactionIntervalMs, "documented");

/** The retention implied by a measured time until a replaced version answered 410 (undefined: it never did within the documented bound). */
export function retentionFromMeasurement(goneAfterMs: number | undefined): Retention {
  if (goneAfterMs === undefined) return DOCUMENTED_RETENTION;
  // T lies between I and 2I: at least T/2 kept, and gone within 2I ≤ 2T.
  return { source: "measured", minimumMs: Math.floor(goneAfterMs / 2), certainlyGoneMs: 2 * goneAfterMs + marginMs(goneAfterMs) };
}

/** One line for progress and reports: "compaction every 10 s (kube-profile)". */
export function describeRetention(retention: Retention): string {
  return `versions kept at least ${seconds(retention.minimumMs)}, gone within ${seconds(retention.certainlyGoneMs)} (${retention.source})`;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
