/** Authentication and authorization (doc 1 §5, issue #4). Pure: the router wires them in. */
export { authenticate, bearerToken, unauthorizedError, type AuthenticationResult, type RequestHeaders } from "./authenticate.ts";
export {
  AUTHORIZATION_FREE_PATHS,
  authorize,
  BUILTIN_RULES,
  checkAccess,
  forbiddenError,
  skipsAuthorization,
  type AccessDecision,
  type AuthConfig,
  type AuthorizationDecision,
  type NonResourceAttributes,
  type RequestAttributes,
  type ResourceAttributes,
} from "./authorize.ts";
export {
  NON_RESOURCE_VERBS,
  parsePolicyFile,
  PolicyFileError,
  RESOURCE_VERBS,
  type NonResourceRule,
  type Policy,
  type PolicyRule,
  type PolicySubject,
  type ResourceRule,
} from "./policy-file.ts";
export {
  SUBJECT_ACCESS_REVIEW_KIND,
  SUBJECT_ACCESS_REVIEWS_RESOURCE,
  subjectAccessReview,
  type SarNonResourceAttributes,
  type SarResourceAttributes,
  type SarSpec,
  type SarStatus,
  type SubjectAccessReview,
  type SubjectAccessReviewResponse,
} from "./subject-access-review.ts";
export { parseStaticTokenFile, TokenFileError, type StaticTokenFile, type TokenTable } from "./token-file.ts";
export { ANONYMOUS_USER, anonymousUser, AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP, type UserInfo } from "./user.ts";
