/**
 * The answers of /healthz, /livez, /readyz and /<endpoint>/<check> (doc 1 §4.5), byte for byte as
 * kube-apiserver 1.26 writes them (k8s.io/apiserver/pkg/server/healthz; transcripts health-*):
 *
 * - every check passes, no `verbose`: 200, body `ok` (no newline);
 * - every check passes, `verbose` (any value, even `verbose=false`: only its presence counts):
 *   200, one line per check, `[+]<check> ok` or `[+]<check> excluded: ok`, then a
 *   `warn: some health checks cannot be excluded: no matches for "a","b"` line when an `exclude`
 *   names no check of the endpoint (names sorted, Go-quoted), then the dialect's last line
 *   (`<endpoint> check passed` in kubernetes, `healthz check passed` everywhere in orb);
 * - a check fails: 500, always verbose, its line `[-]<check> failed: reason withheld`, last line
 *   `<endpoint> check failed` (orb: `healthz check failed`), then a newline (Go's http.Error);
 * - `exclude=<check>` (repeatable) skips the check: it cannot fail the answer;
 * - `/<endpoint>/<check>`: 200 `ok`, or 500 `internal server error: <reason>\n`; query ignored;
 * - `/<endpoint>/<name>` naming no check of that endpoint (also `/<endpoint>/`): 404
 *   `404 page not found\n`, Go's mux answer (transcript health-readyz-unknown-check).
 *
 * Every answer is `text/plain; charset=utf-8`. Kubernetes also sends `X-Content-Type-Options:
 * nosniff` on all but the single-check 200; the transcripts do not record it.
 */

import { healthChecks, healthEndpoints, type HealthEndpoint } from "./checks.ts";
import type { HealthState } from "./health-state.ts";
import { goQuote } from "../responses/go-text.ts";

/** What the router sends for a health request. */
export interface HealthResponse {
  readonly status: 200 | 404 | 500;
  readonly contentType: string;
  readonly body: string;
}

/** The Content-Type of every health answer. */
export const HEALTH_CONTENT_TYPE = "text/plain; charset=utf-8";

/** The health endpoint and check a path names: `/readyz` → readyz, `/livez/poststarthook/x` → livez + "poststarthook/x". */
export interface HealthPath {
  readonly endpoint: HealthEndpoint;
  /** The text after `/<endpoint>/` (may hold slashes, may be ""), or undefined for the endpoint itself. */
  readonly checkName: string | undefined;
}

/** The health endpoint a request path (without query) names, or undefined when it is not a health path. */
export function parseHealthPath(pathname: string): HealthPath | undefined {
  for (const endpoint of healthEndpoints) {
    const root = `/${endpoint}`;
    if (pathname === root) return { endpoint, checkName: undefined };
    if (pathname.startsWith(`${root}/`)) return { endpoint, checkName: pathname.slice(root.length + 1) };
  }
  return undefined;
}

/**
 * The answer of `/<endpoint>` (checkName undefined) or `/<endpoint>/<checkName>`, for the query
 * of the request (`verbose`, `exclude`; only the endpoint itself reads them).
 */
export function healthResponse(
  state: HealthState,
  endpoint: HealthEndpoint,
  checkName: string | undefined,
  query: URLSearchParams,
): HealthResponse {
  return checkName === undefined ? rootResponse(state, endpoint, query) : singleCheckResponse(state, endpoint, checkName);
}

function rootResponse(state: HealthState, endpoint: HealthEndpoint, query: URLSearchParams): HealthResponse {
  const unmatched = new Set(query.getAll("exclude"));
  let lines = "";
  let failed = false;
  for (const check of healthChecks(state.dialect, endpoint)) {
    if (unmatched.has(check.name)) {
      unmatched.delete(check.name);
      lines += `[+]${check.name} excluded: ok\n`;
    } else if (state.checkError(endpoint, check.name) !== undefined) {
      failed = true;
      // The reason is withheld because the endpoint is public; the single-check path tells it.
      lines += `[-]${check.name} failed: reason withheld\n`;
    } else {
      lines += `[+]${check.name} ok\n`;
    }
  }
  if (unmatched.size > 0) {
    // Go's sets.String.List() is sorted; names are quoted with %q.
    const names = [...unmatched].sort(compareBytes).map(goQuote).join(",");
    lines += `warn: some health checks cannot be excluded: no matches for ${names}\n`;
  }
  const passedLine = state.dialect.health.verboseLastLine[endpoint];
  if (failed) return text(500, `${lines}${failedLine(passedLine)}\n`);
  if (!query.has("verbose")) return text(200, "ok");
  return text(200, `${lines}${passedLine}\n`);
}

function singleCheckResponse(state: HealthState, endpoint: HealthEndpoint, checkName: string): HealthResponse {
  if (!healthChecks(state.dialect, endpoint).some((check) => check.name === checkName)) return healthNotFound();
  const error = state.checkError(endpoint, checkName);
  return error === undefined ? text(200, "ok") : text(500, `internal server error: ${error}\n`);
}

/** The 404 of a single-check path naming no check (transcript health-readyz-unknown-check). */
export function healthNotFound(): HealthResponse {
  return text(404, "404 page not found\n");
}

/**
 * The last line of a failing body: the passing line with "passed" turned into "failed"
 * (Kubernetes: `<endpoint> check failed`; orb, whose passing line is `healthz check passed` on
 * every endpoint per doc 1 §4.5.2: `healthz check failed`).
 */
function failedLine(passedLine: string): string {
  return passedLine.replace(/ passed$/, " failed");
}

function text(status: HealthResponse["status"], body: string): HealthResponse {
  return { status, contentType: HEALTH_CONTENT_TYPE, body };
}

function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}
