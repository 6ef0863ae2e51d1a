/**
 * User impersonation (`kubectl --as`, `--as-group`, `--as-uid`, `--as-user-extra`), as
 * kube-apiserver's WithImpersonation filter (k8s.io/apiserver pkg/endpoints/filters/
 * impersonation.go) does, between authentication and authorization:
 *
 * 1. each thing the headers ask for (impersonation-headers.ts) must be allowed to the
 *    authenticated requester as verb `impersonate` on: `users` (core group, name = the user),
 *    `serviceaccounts` (core group, in namespace NS, name NAME, for `system:serviceaccount:NS:NAME`),
 *    `groups` (core group, name = the group), `userextras/<key>` (group authentication.k8s.io,
 *    name = the value), `uids` (group authentication.k8s.io, name = the uid). They are checked in
 *    that order and the first denial is the answer: a 403 naming the requester, e.g.
 *    `users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group ""
 *    at the cluster scope` (recorded from kube-apiserver 1.26.4, also on /version and /readyz);
 * 2. the request then goes on as the impersonated user, whose groups are exactly the ones asked
 *    for (nothing is looked up: the user's own token-file groups do not apply), plus:
 *    - `system:authenticated`, unless the user is `system:anonymous` or the groups already hold
 *      `system:authenticated` or `system:unauthenticated`;
 *    - for `system:anonymous`, `system:unauthenticated` unless already there;
 *    - for a service account with no Impersonate-Group header, first `system:serviceaccounts` and
 *      `system:serviceaccounts:<ns>` (with such a header, only the groups given).
 *    Its uid is the Impersonate-Uid value ("" without one), its extras the Impersonate-Extra-* values.
 */
import type { ApiError } from "../responses/api-error.ts";
import { PlainInternalError } from "../responses/plain-internal-error.ts";
import type { RequestHeaders } from "./authenticate.ts";
import { forbiddenError, type ResourceAttributes } from "./authorize.ts";
import { asAuthorizer, type Authorizer } from "./authorizer.ts";
import { readImpersonationHeaders, type ImpersonationHeaders, type ImpersonationRequest } from "./impersonation-headers.ts";
import type { Policy } from "./policy-file.ts";
import { serviceAccountGroups } from "./service-account-user.ts";
import { ANONYMOUS_USER, AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP, type UserInfo } from "./user.ts";

/** The verb that grants impersonation. */
export const IMPERSONATE_VERB = "impersonate";
/** The group of the `uids` and `userextras` resources. */
export const AUTHENTICATION_GROUP = "authentication.k8s.io";

/** The outcome of impersonation. */
export type ImpersonationResult =
  /** No impersonation header asked for anything: the requester acts as themselves. */
  | { readonly outcome: "none" }
  | { readonly outcome: "impersonated"; readonly user: UserInfo }
  /** A missing `impersonate` permission (403), or groups, extras or a uid without a user (plain-text 500). */
  | { readonly outcome: "refused"; readonly error: ApiError };

/**
 * Whom a request acts as, given its authenticated `requester` and headers, under `authorization`
 * (an authorizer or a policy; undefined: authorization off, so every impersonation is allowed).
 */
export function impersonate(requester: UserInfo, headers: RequestHeaders, authorization: Authorizer | Policy | undefined): ImpersonationResult {
  const authorizer = asAuthorizer(authorization);
  let asked: ImpersonationHeaders;
  try {
    asked = readImpersonationHeaders(headers);
  } catch (error) {
    if (error instanceof PlainInternalError) return { outcome: "refused", error };
    throw error;
  }
  const { requests, groupsSpecified } = asked;
  if (requests.length === 0) return { outcome: "none" };

  let name = "";
  let uid = "";
  let groups: string[] = [];
  // A Map, not an object: an extra key comes from a header name and may be "__proto__".
  const extra = new Map<string, string[]>();
  for (const request of requests) {
    const attributes = impersonationAttributes(request);
    if (authorizer !== undefined) {
      const decision = authorizer.authorize(requester, attributes);
      if (!decision.allowed) return { outcome: "refused", error: forbiddenError(requester, attributes, decision.reason) };
    }
    switch (request.kind) {
      case "User":
        name = request.name;
        break;
      case "ServiceAccount":
        name = `system:serviceaccount:${request.namespace}:${request.name}`;
        // A service account's groups follow from its namespace, unless groups were given.
        if (!groupsSpecified) groups = serviceAccountGroups(request.namespace);
        break;
      case "Group":
        groups.push(request.name);
        break;
      case "UserExtra":
        extra.set(request.key, [...(extra.get(request.key) ?? []), request.value]);
        break;
      case "UID":
        uid = request.uid;
        break;
    }
  }
  const user: UserInfo = { name, uid, groups: withAuthenticationGroup(name, groups), ...(extra.size > 0 && { extra: Object.fromEntries(extra) }) };
  return { outcome: "impersonated", user };
}

/** The authorization attributes of one impersonation: verb `impersonate` on the thing asked for. */
export function impersonationAttributes(request: ImpersonationRequest): ResourceAttributes {
  const base = { kind: "resource", verb: IMPERSONATE_VERB } as const;
  switch (request.kind) {
    case "User":
      return { ...base, apiGroup: "", resource: "users", name: request.name };
    case "ServiceAccount":
      return { ...base, apiGroup: "", resource: "serviceaccounts", namespace: request.namespace, name: request.name };
    case "Group":
      return { ...base, apiGroup: "", resource: "groups", name: request.name };
    case "UserExtra":
      // The key is the subresource: a rule grants `userextras/<key>`; as RBAC matches
      // resource/subresource exactly, `userextras` alone covers no key.
      return { ...base, apiGroup: AUTHENTICATION_GROUP, resource: "userextras", subresource: request.key, name: request.value };
    case "UID":
      return { ...base, apiGroup: AUTHENTICATION_GROUP, resource: "uids", name: request.uid };
  }
}

/** Kubernetes adds system:authenticated (or, for the anonymous user, system:unauthenticated) unless given. */
function withAuthenticationGroup(name: string, groups: readonly string[]): string[] {
  if (name === ANONYMOUS_USER) return groups.includes(UNAUTHENTICATED_GROUP) ? [...groups] : [...groups, UNAUTHENTICATED_GROUP];
  if (groups.includes(AUTHENTICATED_GROUP) || groups.includes(UNAUTHENTICATED_GROUP)) return [...groups];
  return [...groups, AUTHENTICATED_GROUP];
}
