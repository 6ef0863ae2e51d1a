/** The second, restricted identity of the cases that need one (tag `needs-second-identity`). */
import type { CaseContext } from "../../case-context.ts";
import { check } from "../../check.ts";
import type { ApiResponse, ConformanceClient } from "../../client/conformance-client.ts";
import { brief } from "./status-answers.ts";

/** The client of the restricted identity; skips the case when the target has none. */
export function restrictedClient(context: CaseContext): ConformanceClient {
  return context.restricted ?? context.skip("needs a second identity: give --restricted-token or --restricted-kubeconfig");
}

/** A request the server refused for the credentials (401) ends the case: the identity is unusable. */
export function checkAuthenticated(response: ApiResponse, what: string): void {
  check(response.status !== 401, `${what}: 401 Unauthorized: the server did not accept the identity's credentials (${brief(response)})`);
}
