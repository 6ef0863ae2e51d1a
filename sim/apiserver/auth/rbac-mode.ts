/**
 * `--authorization-mode RBAC` put together as kube-apiserver's `--authorization-mode=RBAC[,…]`:
 * the privileged group and RBAC first, then the policy file's rules when one is given too (a
 * shortcut for grants that need no objects), each allowing what it allows (union).
 */
import { policyAuthorizer, unionAuthorizer } from "./authorizer.ts";
import type { AuthConfig } from "./check-access.ts";
import { rbacModeAuthorizer, type RbacObjects } from "./rbac-authorizer.ts";

/** `config` with the authorizer of RBAC mode over `objects`. */
export function withRbacAuthorizer(config: AuthConfig, objects: RbacObjects): AuthConfig {
  const rbac = rbacModeAuthorizer(objects);
  return { ...config, authorizer: config.policy === undefined ? rbac : unionAuthorizer([rbac, policyAuthorizer(config.policy)]) };
}
