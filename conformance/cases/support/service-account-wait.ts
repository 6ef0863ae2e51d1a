/**
 * Real-cluster hygiene before creating Pods (issue #13): Kubernetes' ServiceAccount admission
 * refuses a Pod (403 "error looking up service account …/default") until the controller manager
 * has created the namespace's default ServiceAccount, a moment after the namespace. The Kubernetes
 * E2E framework waits for it; so does the suite, bounded, where the server serves ServiceAccounts.
 */
import type { CaseContext } from "../../case-context.ts";
import { check } from "../../check.ts";
import { recordOf } from "../../client/json-fields.ts";
import { arrayOrEmpty } from "./json-guards.ts";

/** How long the controller manager may take to create the default ServiceAccount. */
const SERVICE_ACCOUNT_BOUND_MS = 30_000;

/** Resolves once the case's namespace has its default ServiceAccount, or at once where ServiceAccounts are not served. */
export async function awaitDefaultServiceAccount(context: CaseContext): Promise<void> {
  const discovery = await context.client.get("/api/v1");
  const served = arrayOrEmpty(recordOf(discovery.json).resources, "setup: discovery GET /api/v1: resources").some((resource) => recordOf(resource).name === "serviceaccounts");
  if (!served) return;
  const outcome = await context.pollUntil({
    what: `the default ServiceAccount of namespace ${context.namespace}`,
    withinMs: SERVICE_ACCOUNT_BOUND_MS,
    probe: async () => ((await context.client.get(`/api/v1/namespaces/${context.namespace}/serviceaccounts/default`)).status === 200 ? true : undefined),
  });
  check(
    outcome.value === true,
    `setup: namespace ${context.namespace} has no default ServiceAccount after ${SERVICE_ACCOUNT_BOUND_MS / 1000} s, so Pods cannot be created in it (is the controller manager's serviceaccount controller running?)`,
  );
}
