/**
 * The access check of one request, in kube-apiserver's filter order: authentication
 * (authenticate.ts), then impersonation (impersonate.ts), then authorization (authorize.ts).
 */
import type { ApiError } from "../responses/api-error.ts";
import { authenticate, type RequestHeaders } from "./authenticate.ts";
import { forbiddenError, skipsAuthorization, type RequestAttributes } from "./authorize.ts";
import { policyAuthorizer, type Authorizer } from "./authorizer.ts";
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
  /**
   * `--authorization-mode`: RBAC (the server's Roles, ClusterRoles and bindings decide, with the
   * policy file's rules as a second authorizer when both are given; the server then sets
   * `authorizer`), or AlwaysAllow (every authenticated or anonymous request is allowed, as without
   * a policy file). Absent: the policy file decides when there is one.
   */
  readonly authorizationMode?: AuthorizationMode;
  /** The authorizer the server built for `authorizationMode` RBAC (rbac-authorizer.ts); callers set mode, not this. */
  readonly authorizer?: Authorizer;
}

/** The values of `--authorization-mode`. */
export const AUTHORIZATION_MODES = ["RBAC", "AlwaysAllow"] as const;
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

/** Who decides requests under `config`: undefined when every request is allowed (authorization off). */
export function authorizerOf(config: AuthConfig | undefined): Authorizer | undefined {
  if (config === undefined || config.authorizationMode === "AlwaysAllow") return undefined;
  if (config.authorizer !== undefined) return config.authorizer;
  return config.policy === undefined ? undefined : policyAuthorizer(config.policy);
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
 * - no authorizer (no policy file, no RBAC, or AlwaysAllow): allowed; otherwise the authorizer
 *   (authorizer.ts), and 403 `forbiddenError` with its reason when it does not allow.
 */
export function checkAccess(config: AuthConfig | undefined, headers: RequestHeaders, attributes: RequestAttributes): AccessDecision {
  const authorizer = authorizerOf(config);
  if (config === undefined || (config.tokens === undefined && authorizer === undefined)) {
    return { allowed: true, user: undefined, reason: "authentication and authorization are off" };
  }
  let user = anonymousUser;
  if (config.tokens !== undefined) {
    const result = authenticate(headers, config.tokens);
    if (result.outcome === "unauthorized") return { allowed: false, error: result.error };
    user = result.user;
  }
  const impersonation = impersonate(user, headers, authorizer);
  if (impersonation.outcome === "refused") return { allowed: false, error: impersonation.error };
  const requester = user;
  if (impersonation.outcome === "impersonated") user = impersonation.user;
  const impersonating = impersonation.outcome === "impersonated" ? { impersonatedBy: requester } : {};

  if (attributes.kind === "nonResource" && skipsAuthorization(attributes.path)) {
    return { allowed: true, user, reason: "health endpoint: authorization skipped", ...impersonating };
  }
  if (authorizer === undefined) return { allowed: true, user, reason: "no policy file: every request allowed", ...impersonating };
  const decision = authorizer.authorize(user, attributes);
  if (!decision.allowed) return { allowed: false, error: forbiddenError(user, attributes, decision.reason) };
  return { allowed: true, user, reason: decision.reason, ...impersonating };
}
