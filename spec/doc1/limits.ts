/**
 * Doc 1 §8 limits, plus the values doc 1 leaves open that the server needs, each taken from
 * Kubernetes 1.26 and marked so. Units are last in every name.
 */
import type { ClauseId } from "./clauses.ts";

const MINUTE_MS = 60_000;

/** History retained for watches and Exact reads: 5 minutes by default (doc 1 §8). */
export const historyWindowMs = 5 * MINUTE_MS;

/** Lifetime of a continue token: 5 minutes by default, then 410 (doc 1 §8). */
export const continueTokenLifetimeMs = 5 * MINUTE_MS;

/** Doc 1 §8's example load: tens of thousands of Pods at about 2 KiB of JSON give a 10-20 MB list. */
export const exampleLoad = {
  pods: "tens of thousands",
  podJsonBytes: 2 * 1024,
  unpagedListMinBytes: 10_000_000,
  unpagedListMaxBytes: 20_000_000,
} as const;

/** How often old history is compacted; not shown in doc 1; Kubernetes' --etcd-compaction-interval defaults to 5 minutes. */
export const compactionIntervalMs = 5 * MINUTE_MS;

/** Largest request body accepted; not shown in doc 1 (§8); Kubernetes refuses larger with 413 (transcript body-too-large). */
export const maxRequestBodyBytes = 3 * 1024 * 1024;

/**
 * Largest request line plus headers read; not shown in doc 1 (§8); kube-apiserver keeps Go's
 * http.DefaultMaxHeaderBytes (1 MiB, plus 4 KiB of slack Go allows) and answers more with a
 * plain-text 431 (transcript header-too-large), so a 16 KiB path or a 20 KB selector is parsed.
 */
export const maxRequestHeaderBytes = 1024 * 1024 + 4096;

/** Wait for a resourceVersion the server has not reached; not shown in doc 1 (§7 "reasonable time"); Kubernetes waits about 3 s. */
export const tooLargeResourceVersionWaitMs = 3_000;

/** Retry-After sent with the 504 for a too-large resourceVersion; not shown in doc 1; Kubernetes sends 1 (transcript list-rv-future). */
export const tooLargeResourceVersionRetryAfterSeconds = 1;

/** Interval between BOOKMARK events; doc 1 §6 promises none; Kubernetes sends one about every minute. */
export const watchBookmarkIntervalMs = 1 * MINUTE_MS;

/**
 * Shortest lifetime of a watch request; not shown in doc 1 (§7 "the request timeout"); Kubernetes'
 * --min-request-timeout is 1800 s and each watch draws its timeout between that and twice that.
 */
export const minWatchTimeoutMs = 30 * MINUTE_MS;

/** Concurrent non-mutating requests before 429; not shown in doc 1 (§8); Kubernetes' --max-requests-inflight is 400. */
export const maxRequestsInflight = 400;

/** Concurrent mutating requests before 429; not shown in doc 1 (§8); Kubernetes' --max-mutating-requests-inflight is 200. */
export const maxMutatingRequestsInflight = 200;

/**
 * Largest total of all annotation keys and values of one object, in bytes; not shown in doc 1
 * (doc1/2.2/other-fields); Kubernetes refuses more with 422 "must have at most 262144 bytes"
 * (transcripts annotations-total-exact, annotations-total-over).
 */
export const maxAnnotationsTotalBytes = 256 * 1024;

/**
 * Largest total of a ConfigMap's data and binaryData values, or of a Secret's data, in bytes; not
 * shown in doc 1; Kubernetes' MaxSecretSize, refused with 422 (transcripts configmap-size-*, secret-size-*).
 */
export const maxConfigDataBytes = 1024 * 1024;

/** One limit as a report shows it: value, unit, the clause it answers, and whose value it is. */
export interface Limit {
  readonly name: string;
  readonly value: number;
  readonly unit: "ms" | "s" | "bytes" | "requests";
  readonly clause: ClauseId;
  /** "doc1" when doc 1 gives the value; "kubernetes" when doc 1 leaves it open. */
  readonly source: "doc1" | "kubernetes";
}

/** Every limit above, for reports and for the server's configuration defaults. */
export const limits: readonly Limit[] = [
  { name: "historyWindowMs", value: historyWindowMs, unit: "ms", clause: "doc1/8/retained-history", source: "doc1" },
  { name: "continueTokenLifetimeMs", value: continueTokenLifetimeMs, unit: "ms", clause: "doc1/8/continue-token-lifetime", source: "doc1" },
  { name: "compactionIntervalMs", value: compactionIntervalMs, unit: "ms", clause: "doc1/8/retained-history", source: "kubernetes" },
  { name: "maxRequestBodyBytes", value: maxRequestBodyBytes, unit: "bytes", clause: "doc1/8/not-shown/request-size", source: "kubernetes" },
  { name: "maxRequestHeaderBytes", value: maxRequestHeaderBytes, unit: "bytes", clause: "doc1/8/not-shown/request-size", source: "kubernetes" },
  { name: "tooLargeResourceVersionWaitMs", value: tooLargeResourceVersionWaitMs, unit: "ms", clause: "doc1/7/504/too-large-resource-version", source: "kubernetes" },
  { name: "tooLargeResourceVersionRetryAfterSeconds", value: tooLargeResourceVersionRetryAfterSeconds, unit: "s", clause: "doc1/7/retry-after", source: "kubernetes" },
  { name: "watchBookmarkIntervalMs", value: watchBookmarkIntervalMs, unit: "ms", clause: "doc1/6/bookmark/no-interval", source: "kubernetes" },
  { name: "minWatchTimeoutMs", value: minWatchTimeoutMs, unit: "ms", clause: "doc1/7/watch-unrecognized-may-wait", source: "kubernetes" },
  { name: "maxRequestsInflight", value: maxRequestsInflight, unit: "requests", clause: "doc1/8/not-shown/rate-limits", source: "kubernetes" },
  { name: "maxMutatingRequestsInflight", value: maxMutatingRequestsInflight, unit: "requests", clause: "doc1/8/not-shown/rate-limits", source: "kubernetes" },
  { name: "maxAnnotationsTotalBytes", value: maxAnnotationsTotalBytes, unit: "bytes", clause: "doc1/2.2/other-fields", source: "kubernetes" },
  { name: "maxConfigDataBytes", value: maxConfigDataBytes, unit: "bytes", clause: "doc1/2.2/other-fields", source: "kubernetes" },
];
