/**
 * The canonical results of a conformance run: one versioned JSON document from which every report
 * (JUnit, Markdown, HTML) is made. Credentials never appear in it: transcripts are redacted when
 * recorded (conformance/client/redaction.ts).
 */

/** Bumped when a field changes meaning or goes away; new optional fields do not bump it. */
export const RESULTS_SCHEMA_VERSION = 1;

/** How one case ended. */
export type CaseStatus = "pass" | "fail" | "skip" | "error";

/** One HTTP exchange of a case, as recorded for the report. */
export interface Exchange {
  readonly method: string;
  /** Path and query. */
  readonly path: string;
  /** Response status; 0 when no response came (connection error, timeout). */
  readonly status: number;
  /** The headers that matter to a reader (content-type, retry-after, warning, ...), redacted. */
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** At most 4 KiB of the request body, redacted; "" when none. */
  readonly requestBody: string;
  /** At most 4 KiB of the response body; "" when none. */
  readonly responseBody: string;
  /** True when a body was cut to 4 KiB. */
  readonly truncated: boolean;
  readonly durationMs: number;
}

/** The result of one case. */
export interface CaseResult {
  readonly id: string;
  readonly area: string;
  /** Clause ids of doc 1 (spec/doc1/clauses.ts) the case checks. */
  readonly clauses: readonly string[];
  readonly tags: readonly string[];
  readonly status: CaseStatus;
  readonly durationMs: number;
  /** Why it failed, errored or was skipped; "" when it passed. */
  readonly message: string;
  readonly transcript: readonly Exchange[];
}

/** A whole run. */
export interface RunResults {
  readonly schemaVersion: typeof RESULTS_SCHEMA_VERSION;
  readonly harnessVersion: string;
  readonly target: {
    /** The URL the cases ran against ("embedded" targets are served on loopback too). */
    readonly url: string;
    /** kube-assets: a control plane the harness started from binaries (--kube-assets). */
    readonly kind: "embedded" | "server" | "kubeconfig" | "kube-assets";
    /** "orb" or "kubernetes". */
    readonly dialect: string;
    /** The server's /version gitVersion, or "" when it did not say. */
    readonly serverVersion: string;
  };
  /** RFC 3339. */
  readonly startedAt: string;
  readonly finishedAt: string;
  /** The command line that reproduces the run (without credentials). */
  readonly command: string;
  readonly cases: readonly CaseResult[];
}

/** Counts of a run, by status. */
export function totals(results: Pick<RunResults, "cases">): Record<CaseStatus | "total", number> {
  const counts = { total: results.cases.length, pass: 0, fail: 0, skip: 0, error: 0 };
  for (const result of results.cases) counts[result.status]++;
  return counts;
}
