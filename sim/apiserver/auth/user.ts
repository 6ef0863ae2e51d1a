/** Who a request comes from (Kubernetes' user.Info), and the names Kubernetes gives the special users and groups. */

/** An authenticated (or anonymous, or impersonated) user. */
export interface UserInfo {
  readonly name: string;
  /** "" when unknown (anonymous users, SubjectAccessReviews without uid, impersonation without Impersonate-Uid). */
  readonly uid: string;
  readonly groups: readonly string[];
  /** Extra attributes (user.Info's Extra); only impersonation (Impersonate-Extra-*) sets them here. */
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** The user of a request that carries no credentials (Kubernetes' anonymous authenticator). */
export const ANONYMOUS_USER = "system:anonymous";
/** The group of every anonymous request. */
export const UNAUTHENTICATED_GROUP = "system:unauthenticated";
/** The group the server adds to every authenticated user (Kubernetes' AuthenticatedGroupAdder). */
export const AUTHENTICATED_GROUP = "system:authenticated";

/** The user of a request without credentials when authentication is on. */
export const anonymousUser: UserInfo = { name: ANONYMOUS_USER, uid: "", groups: [UNAUTHENTICATED_GROUP] };
