/**
 * The review virtual types: the permission checks of doc 1 §1, §4.1 (a SubjectAccessReview asks
 * whether a given user may do something; a SelfSubjectAccessReview asks it for the caller), the
 * caller's rules in a namespace (SelfSubjectRulesReview, `kubectl auth can-i --list`) and who the
 * caller is (SelfSubjectReview, `kubectl auth whoami`). Each answers 201 from the same user and
 * rules that authorize requests (doc 1 §5), and stores nothing.
 */
import {
  anonymousUser,
  authorizerOf,
  SELF_SUBJECT_REVIEW_KIND,
  SELF_SUBJECT_RULES_REVIEW_KIND,
  selfSubjectAccessReview,
  selfSubjectReview,
  selfSubjectRulesReview,
  subjectAccessReview,
} from "../auth/index.ts";
import { unknownFieldsWarning } from "../request/unknown-fields.ts";
import { negotiateRepresentation, requestSerialization } from "../responses/representation.ts";
import { decodeObject, readBody } from "../request/request-body.ts";
import type { ResourceRequest, ServerContext } from "../server-context.ts";

/** POST of a (Self)SubjectAccessReview, a SelfSubjectRulesReview or a SelfSubjectReview. */
export async function handleReview(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const { request, type } = target;
  // A virtual type has no Table: an Accept header that only takes one is 406 (transcript table-sar-only).
  const representation = negotiateRepresentation(context, target);
  const bytes = await readBody(request);
  const body = decodeObject(bytes, requestSerialization(context, target), type.kind);
  if (type.kind === "SubjectAccessReview") {
    const review = subjectAccessReview(body, authorizerOf(context.auth), context.dialect);
    return representation.object(review.status, review.body as unknown as Record<string, unknown>);
  }
  // A self review is a review of the caller (anonymous when authentication is off or absent), or
  // of the impersonated user when the request impersonates (recorded from kube-apiserver 1.26.4:
  // `auth can-i --as bob` answers for bob, whoever asks); a user or groups named in its spec are
  // dropped with a Warning (transcript security-self-sar-names-other-user).
  const caller = target.user ?? anonymousUser;
  if (type.kind === SELF_SUBJECT_REVIEW_KIND) {
    const review = selfSubjectReview(body, caller, context.clock);
    return representation.object(review.status, review.body as unknown as Record<string, unknown>);
  }
  if (type.kind === SELF_SUBJECT_RULES_REVIEW_KIND) {
    const review = selfSubjectRulesReview(body, caller, authorizerOf(context.auth), context.dialect);
    return representation.object(review.status, review.body as unknown as Record<string, unknown>, unknownFieldsWarning(review.unknownFields));
  }
  const review = selfSubjectAccessReview(body, caller, authorizerOf(context.auth), context.dialect);
  return representation.object(review.status, review.body as unknown as Record<string, unknown>, unknownFieldsWarning(review.unknownFields));
}
