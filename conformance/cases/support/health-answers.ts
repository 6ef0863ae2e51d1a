/** The health endpoints (doc 1 §4.1, §4.5): their paths, how they are asked, and a healthy answer. */
import type { CaseContext } from "../../case-context.ts";
import { check } from "../../check.ts";
import type { ApiResponse } from "../../client/conformance-client.ts";

/** The three health endpoints (doc 1 §4.1). */
export const HEALTH_ENDPOINTS = ["healthz", "livez", "readyz"] as const;
export type HealthEndpointName = (typeof HEALTH_ENDPOINTS)[number];

/** Health bodies are text; any Accept must do, and `*\/*` keeps the request what a human's would be. */
const ACCEPT = "text/plain, */*";

/** GET of a health path. */
export function getHealth(context: CaseContext, path: string): Promise<ApiResponse> {
  return context.client.get(path, { accept: ACCEPT });
}

/** The body, cut for a failure message. */
export function shown(response: ApiResponse): string {
  return JSON.stringify(response.text.length > 300 ? `${response.text.slice(0, 300)}…` : response.text);
}

/** A plain health answer: 200, and a body that says ok (machine callers rely on the status only, doc 1 §4.5.1). */
export function checkHealthy(response: ApiResponse, what: string): void {
  check(response.status === 200, `${what}: expected 200 (healthy, live or ready), got ${response.status}: ${shown(response)}`);
  check(/\bok\b/i.test(response.text), `${what}: the 200 answer should say ok (Kubernetes sends "ok"), got ${shown(response)}`);
}
