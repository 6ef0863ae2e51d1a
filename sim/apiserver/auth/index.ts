/** Authentication and authorization (doc 1 §5, issue #4). Pure: the router wires them in. */
export { authenticate, bearerToken, unauthorizedError, type AuthenticationResult, type RequestHeaders } from "./authenticate.ts";
export {
  AUTHORIZATION_FREE_PATHS,
  authorize,
  rulesFor,
  BUILTIN_RULES,
  forbiddenError,
  skipsAuthorization,
  type AuthorizationDecision,
  type NonResourceAttributes,
  type RequestAttributes,
  type ResourceAttributes,
} from "./authorize.ts";
export { AUTHORIZATION_MODES, authorizerOf, checkAccess, type AccessDecision, type AuthConfig, type AuthorizationMode } from "./check-access.ts";
export { policyAuthorizer, unionAuthorizer, type Authorizer, type AuthorizerRules } from "./authorizer.ts";
export { PRIVILEGED_GROUP, rbacAuthorizer, rbacModeAuthorizer, type RbacObjects, type RbacRole } from "./rbac-authorizer.ts";
export { rbacTypes, storeRbacObjects, type RbacTypes } from "./rbac-store-objects.ts";
export { createRbacBootstrapPolicy, rbacBootstrapData } from "./rbac-bootstrap.ts";
export { withRbacAuthorizer } from "./rbac-mode.ts";
export { requestAttributes, sameRequest } from "./request-info.ts";
export { AUTHENTICATION_GROUP, IMPERSONATE_VERB, impersonate, impersonationAttributes, type ImpersonationResult } from "./impersonate.ts";
export {
  IMPERSONATE_EXTRA_HEADER_PREFIX,
  IMPERSONATE_GROUP_HEADER,
  IMPERSONATE_UID_HEADER,
  IMPERSONATE_USER_HEADER,
  readImpersonationHeaders,
  removeImpersonationHeaders,
  type ImpersonationHeaders,
  type ImpersonationRequest,
} from "./impersonation-headers.ts";
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
  SELF_SUBJECT_ACCESS_REVIEW_KIND,
  selfSubjectAccessReview,
  SUBJECT_ACCESS_REVIEW_KIND,
  SUBJECT_ACCESS_REVIEWS_RESOURCE,
  subjectAccessReview,
  type SelfSarSpec,
  type SelfSubjectAccessReviewResponse,
  type SarNonResourceAttributes,
  type SarResourceAttributes,
  type SarSpec,
  type SarStatus,
  type SubjectAccessReview,
  type SubjectAccessReviewResponse,
} from "./subject-access-review.ts";
export {
  SELF_SUBJECT_RULES_REVIEW_KIND,
  selfSubjectRulesReview,
  type ReviewNonResourceRule,
  type ReviewResourceRule,
  type SelfSubjectRulesReview,
  type SelfSubjectRulesReviewResponse,
} from "./subject-rules-review.ts";
export {
  SELF_SUBJECT_REVIEW_API_VERSION,
  SELF_SUBJECT_REVIEW_KIND,
  selfSubjectReview,
  type ReviewUserInfo,
  type SelfSubjectReview,
} from "./self-subject-review.ts";
export {
  ALL_SERVICE_ACCOUNTS_GROUP,
  SERVICE_ACCOUNT_GROUP_PREFIX,
  SERVICE_ACCOUNT_USERNAME_PREFIX,
  serviceAccountGroups,
  splitServiceAccountUsername,
  type ServiceAccountRef,
} from "./service-account-user.ts";
export { parseStaticTokenFile, TokenFileError, type StaticTokenFile, type TokenTable } from "./token-file.ts";
export { ANONYMOUS_USER, anonymousUser, AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP, type UserInfo } from "./user.ts";
