/**
 * SelfSubjectReview (`kubectl auth whoami`): who the server takes the caller to be, a virtual type
 * (POST only, nothing stored).
 *
 * Which version is served, and why: kube-apiserver 1.26 has SelfSubjectReview only as
 * authentication.k8s.io/v1alpha1, behind the APISelfSubjectReview feature gate (off by default,
 * with `--runtime-config=authentication.k8s.io/v1alpha1=true`); by default it answers 404 for
 * every version, and kubectl prints "the selfsubjectreviews API is not enabled in the cluster"
 * and exits 1 (recorded from kube-apiserver 1.26.4, transcripts ssr-v1-admin, ssr-v1beta1-admin,
 * ssr-v1alpha1-admin in transcripts-scale-and-reviews.jsonl). The API went beta in 1.27 and GA (v1)
 * in 1.28. kubectl 1.32 asks for v1, then v1beta1, then v1alpha1, taking a 404 as "try the next".
 * This server serves v1alpha1, as 1.26 does with the gate on: the installed kubectl (1.32) reaches
 * it after two 404s, and so does every kubectl that has `auth whoami` (1.26 and 1.27 clients do
 * not ask for v1), so `auth whoami` works with any of them; the v1 and v1beta1 paths answer the
 * same 404 as 1.26.
 *
 * Answer (transcripts ssr-v1alpha1-*-gate): 201, `metadata: {creationTimestamp: <now>}` (the
 * request's metadata is not echoed), `status.userInfo: {username, uid?, groups?, extra?}` of the
 * caller, the impersonated user when the request impersonates; a body of another kind is 400.
 */
import type { Clock } from "../../kernel/clock.ts";
import { rfc3339 } from "../registry/object-stamping.ts";
import { checkTypeMeta } from "./subject-access-review.ts";
import type { UserInfo } from "./user.ts";

/** The kind of the review. */
export const SELF_SUBJECT_REVIEW_KIND = "SelfSubjectReview";
/** The group/version it is served in (see above). */
export const SELF_SUBJECT_REVIEW_API_VERSION = "authentication.k8s.io/v1alpha1";

/** authentication/v1 UserInfo, Kubernetes' field order, empty fields left out. */
export interface ReviewUserInfo {
  readonly username?: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** The answered review. */
export interface SelfSubjectReview {
  readonly kind: typeof SELF_SUBJECT_REVIEW_KIND;
  readonly apiVersion: typeof SELF_SUBJECT_REVIEW_API_VERSION;
  readonly metadata: { readonly creationTimestamp: string };
  readonly status: { readonly userInfo: ReviewUserInfo };
}

/** Answers a decoded SelfSubjectReview body for `caller`; throws a 400 ApiError for a body of another kind or apiVersion. */
export function selfSubjectReview(body: Record<string, unknown>, caller: UserInfo, clock: Clock): { readonly status: 201; readonly body: SelfSubjectReview } {
  checkTypeMeta(body, SELF_SUBJECT_REVIEW_API_VERSION, SELF_SUBJECT_REVIEW_KIND);
  const extra = Object.entries(caller.extra ?? {});
  const userInfo: ReviewUserInfo = {
    ...(caller.name !== "" && { username: caller.name }),
    ...(caller.uid !== "" && { uid: caller.uid }),
    ...(caller.groups.length > 0 && { groups: [...caller.groups] }),
    ...(extra.length > 0 && { extra: Object.fromEntries(extra.map(([key, values]) => [key, [...values]])) }),
  };
  return {
    status: 201,
    body: { kind: SELF_SUBJECT_REVIEW_KIND, apiVersion: SELF_SUBJECT_REVIEW_API_VERSION, metadata: { creationTimestamp: rfc3339(clock) }, status: { userInfo } },
  };
}
