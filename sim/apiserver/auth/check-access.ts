/**
 * The access check of one request, in kube-apiserver's filter order: authentication
 * (authenticate.ts), then impersonation (impersonate.ts), then authorization (authorize.ts).
 */
import type { ApiError } from "../responses/api-error.ts";
import { authenticate, type RequestHeaders } from "./authenticate.ts";
import { authorize, forbiddenError, skipsAuthorization, type RequestAttributes } from "./authorize.ts";
import { impersonate } from "./impersonate.ts";
import type { Policy } from "./policy-file.ts";
import type { TokenTable } from "./token-file.ts";
import { anonymousUser, type UserInfo } from "./user.ts";

/** Authentication and authorization settings: each off when absent. */
export interface AuthConfig {
  /** `--token-file`: with it, bearer tokens are checked (unknown → 401), requests without one are anonymous. */
  readonly tokens?: TokenTable;
  /** `--policy-file`: with it, every request except the health endpoints must be allowed by a rule. */
  readonly policy?: Policy;
}

/** The answer of `checkAccess`. */
export type AccessDecision =
  | {
      readonly allowed: true;
      /** Whom the request acts as: the impersonated user when it impersonates. */
      readonly user: UserInfo | undefined;
      readonly reason: string;
      /** The authenticated user, when the request impersonates `user` (its Impersonate-* headers are then spent). */
      readonly impersonatedBy?: UserInfo;
    }
  | { readonly allowed: false; readonly error: ApiError };

/**
 * Authentication, impersonation, then authorization of one request, the way the router should run them:
 * - no config (the embedded default): allowed, no user (impersonation headers are ignored: there
 *   are no users to tell apart);
 * - a token file: a bad bearer token is 401 (health endpoints included); no token is anonymous;
 *   without a token file every caller is anonymous;
 * - Impersonate-* headers: each impersonation must be allowed to the authenticated user (403
 *   naming them otherwise, on every path, the health endpoints included, as kube-apiserver runs
 *   impersonation before it looks at the path); groups, extras or a uid without a user are the
 *   plain-text 500 (PlainInternalError); the rest of the request is judged as the impersonated user;
 * - the three health endpoints skip authorization;
 * - no policy file: allowed; otherwise `authorize`, and 403 `forbiddenError` when it denies.
 */
export function checkAccess(config: AuthConfig | undefined, headers: RequestHeaders, attributes: RequestAttributes): AccessDecision {
  if (config === undefined || (config.tokens === undefined && config.policy === undefined)) {
    return { allowed: true, user: undefined, reason: "authentication and authorization are off" };
  }
  let user = anonymousUser;
  if (config.tokens !== undefined) {
    const result = authenticate(headers, config.tokens);
    if (result.outcome === "unauthorized") return { allowed: false, error: result.error };
    user = result.user;
  }
  const impersonation = impersonate(user, headers, config.policy);
  if (impersonation.outcome === "refused") return { allowed: false, error: impersonation.error };
  const requester = user;
  if (impersonation.outcome === "impersonated") user = impersonation.user;
  const impersonating = impersonation.outcome === "impersonated" ? { impersonatedBy: requester } : {};

  if (attributes.kind === "nonResource" && skipsAuthorization(attributes.path)) {
    return { allowed: true, user, reason: "health endpoint: authorization skipped", ...impersonating };
  }
  if (config.policy === undefined) return { allowed: true, user, reason: "no policy file: every request allowed", ...impersonating };
  const decision = authorize(user, attributes, config.policy);
  if (!decision.allowed) return { allowed: false, error: forbiddenError(user, attributes, decision.reason) };
  return { allowed: true, user, reason: decision.reason, ...impersonating };
}
