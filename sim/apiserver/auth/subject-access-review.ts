/**
 * SubjectAccessReview: the permission check of doc 1 §1 and §4.1, a virtual type (POST only,
 * nothing stored), answered from the same rules as real requests (transcript sar).
 *
 * Request: `{apiVersion: "<authorization group>/v1", kind: "SubjectAccessReview", spec: {user?,
 * groups?, uid?, extra?, resourceAttributes?: {namespace, verb, group, version, resource,
 * subresource, name}, nonResourceAttributes?: {path, verb}}}`. Answer: 201 Created with the review
 * echoed (metadata gains `creationTimestamp: null`; spec fields in Kubernetes' order, empty ones
 * dropped) and `status: {allowed, reason?}`: `reason` names the allowing rule or RBAC binding, and
 * is absent on a denial, as in the transcript, unless RBAC says why (a binding naming a role that
 * does not exist). `denied` never appears: policy rules and RBAC only allow.
 *
 * The review is judged for exactly the user and groups the spec names: Kubernetes adds no
 * `system:authenticated` to them. Without an authorizer (authorization off) every review is
 * allowed. Whether the caller may create reviews is the router's question (verb create on
 * subjectaccessreviews in the authorization group, cluster scope).
 *
 * Kubernetes also returns `metadata.managedFields` (the field manager's bookkeeping, with the wall
 * time of the request); the embedded server keeps no managed fields, so the answer has none.
 */
import type { Dialect } from "../../../spec/dialects.ts";
import type { StatusCause } from "../../../spec/doc1/errors.ts";
import { badRequest, invalid, invalidValue, type ApiError } from "../responses/api-error.ts";

import type { RequestAttributes } from "./authorize.ts";
import { asAuthorizer, type Authorizer } from "./authorizer.ts";
import type { Policy } from "./policy-file.ts";
import type { UserInfo } from "./user.ts";
import { goQuote } from "../responses/go-text.ts";

/** The kind of the review. */
export const SUBJECT_ACCESS_REVIEW_KIND = "SubjectAccessReview";
/** The kind of the review a caller asks about itself. */
export const SELF_SUBJECT_ACCESS_REVIEW_KIND = "SelfSubjectAccessReview";
/** Its resource (plural) in the authorization group. */
export const SUBJECT_ACCESS_REVIEWS_RESOURCE = "subjectaccessreviews";

/** `spec.resourceAttributes`, Kubernetes' field order. */
export interface SarResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

/** `spec.nonResourceAttributes`. */
export interface SarNonResourceAttributes {
  path?: string;
  verb?: string;
}

/** `spec`, Kubernetes' field order. */
export interface SarSpec {
  resourceAttributes?: SarResourceAttributes;
  nonResourceAttributes?: SarNonResourceAttributes;
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}

/** `status`. */
export interface SarStatus {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
}

/** The answered review. */
export interface SubjectAccessReview {
  kind: typeof SUBJECT_ACCESS_REVIEW_KIND;
  apiVersion: string;
  metadata: Record<string, unknown>;
  spec: SarSpec;
  status: SarStatus;
}

/** What the router sends: 201 and the review, as JSON. */
export interface SubjectAccessReviewResponse {
  readonly status: 201;
  readonly body: SubjectAccessReview;
}

/**
 * Answers a decoded SubjectAccessReview body under `authorization`: the server's authorizer (or a
 * policy; undefined: authorization off), the same one that judges requests.
 * Throws an ApiError: 400 for a body of another kind or apiVersion or with fields of the wrong
 * type, 422 Invalid for a spec that names no subject, or both or neither kind of attributes.
 */
export function subjectAccessReview(body: Record<string, unknown>, authorization: Authorizer | Policy | undefined, dialect: Dialect): SubjectAccessReviewResponse {
  const apiVersion = `${dialect.groups.authorization}/v1`;
  checkTypeMeta(body, apiVersion);
  const spec = readSpec(body["spec"]);
  validateSpec(spec, dialect);

  const metadata = readMetadata(body["metadata"]);
  let status: SarStatus = { allowed: true };
  const authorizer = asAuthorizer(authorization);
  if (authorizer !== undefined) {
    const decision = authorizer.authorize({ name: spec.user ?? "", uid: spec.uid ?? "", groups: spec.groups ?? [] }, attributesOf(spec));
    status = decision.reason === "" ? { allowed: decision.allowed } : { allowed: decision.allowed, reason: decision.reason };
  }
  return {
    status: 201,
    body: { kind: SUBJECT_ACCESS_REVIEW_KIND, apiVersion, metadata: { ...metadata, creationTimestamp: null }, spec, status },
  };
}

/** A SelfSubjectAccessReview's spec: only the attributes (a self review is always about the caller). */
export type SelfSarSpec = Pick<SarSpec, "resourceAttributes" | "nonResourceAttributes">;

/** What the router sends for a SelfSubjectAccessReview: 201, the review, and the spec fields it dropped. */
export interface SelfSubjectAccessReviewResponse {
  readonly status: 201;
  readonly body: Omit<SubjectAccessReview, "kind" | "spec"> & { kind: typeof SELF_SUBJECT_ACCESS_REVIEW_KIND; spec: SelfSarSpec };
  /**
   * Spec fields a SelfSubjectAccessReviewSpec does not have (`spec.user`, `spec.groups`,
   * `spec.uid`, `spec.extra`, anything else), as paths in body order: dropped, never used, and
   * reported as unknown fields (kube-apiserver 1.26.4 answers with a Warning
   * `299 - "unknown field \"spec.user\""` each, transcript security-self-sar-names-other-user).
   */
  readonly unknownFields: readonly string[];
}

const SELF_SPEC_FIELDS: ReadonlySet<string> = new Set(["resourceAttributes", "nonResourceAttributes"]);

/**
 * Answers a SelfSubjectAccessReview for `caller` (the authenticated user, or the impersonated one)
 * under `authorization`. Whatever subject the spec names is ignored: the review is about the caller, so a
 * caller cannot learn another user's rights this way (transcript
 * security-self-sar-names-other-user: spec.user orb-harness-admin and spec.groups system:masters
 * give the caller's own `allowed: false`). The answer echoes only the attributes.
 */
export function selfSubjectAccessReview(body: Record<string, unknown>, caller: UserInfo, authorization: Authorizer | Policy | undefined, dialect: Dialect): SelfSubjectAccessReviewResponse {
  checkTypeMeta(body, `${dialect.groups.authorization}/v1`, SELF_SUBJECT_ACCESS_REVIEW_KIND);
  const rawSpec = body["spec"];
  const given = isObject(rawSpec) ? rawSpec : {};
  const unknownFields = Object.keys(given)
    .filter((field) => !SELF_SPEC_FIELDS.has(field))
    .map((field) => `spec.${field}`);
  const attributes = Object.fromEntries(Object.entries(given).filter(([field]) => SELF_SPEC_FIELDS.has(field)));
  const subject = {
    user: caller.name,
    groups: [...caller.groups],
    ...(caller.extra !== undefined && { extra: Object.fromEntries(Object.entries(caller.extra).map(([key, values]) => [key, [...values]])) }),
    ...(caller.uid !== "" && { uid: caller.uid }),
  };
  const review = subjectAccessReview(
    { ...body, kind: SUBJECT_ACCESS_REVIEW_KIND, spec: rawSpec === undefined || rawSpec === null ? subject : { ...attributes, ...subject } },
    authorization,
    dialect,
  );
  const { resourceAttributes, nonResourceAttributes } = review.body.spec;
  const spec: SelfSarSpec = { ...(resourceAttributes !== undefined && { resourceAttributes }), ...(nonResourceAttributes !== undefined && { nonResourceAttributes }) };
  return { status: 201, body: { ...review.body, kind: SELF_SUBJECT_ACCESS_REVIEW_KIND, spec }, unknownFields };
}

function attributesOf(spec: SarSpec): RequestAttributes {
  if (spec.nonResourceAttributes !== undefined) {
    return { kind: "nonResource", verb: spec.nonResourceAttributes.verb ?? "", path: spec.nonResourceAttributes.path ?? "" };
  }
  const attributes = spec.resourceAttributes ?? {};
  return {
    kind: "resource",
    verb: attributes.verb ?? "",
    apiGroup: attributes.group ?? "",
    resource: attributes.resource ?? "",
    ...(attributes.subresource !== undefined && { subresource: attributes.subresource }),
    ...(attributes.namespace !== undefined && { namespace: attributes.namespace }),
    ...(attributes.name !== undefined && { name: attributes.name }),
  };
}

/** 400 unless the body's kind and apiVersion, where given, are `expectedKind` and `apiVersion`. */
export function checkTypeMeta(body: Record<string, unknown>, apiVersion: string, expectedKind: string = SUBJECT_ACCESS_REVIEW_KIND): void {
  const kind = body["kind"];
  const version = body["apiVersion"];
  if ((kind !== undefined && kind !== expectedKind) || (version !== undefined && version !== apiVersion)) {
    const shownVersion = typeof version === "string" ? version.split("/").pop() : "v1";
    throw badRequest(`${String(kind ?? expectedKind)} in version "${shownVersion}" cannot be handled as a ${expectedKind}: expected apiVersion "${apiVersion}" and kind "${expectedKind}"`);
  }
}

function decodeError(detail: string): ApiError {
  return badRequest(`${SUBJECT_ACCESS_REVIEW_KIND} in version "v1" cannot be handled as a ${SUBJECT_ACCESS_REVIEW_KIND}: ${detail}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readMetadata(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw decodeError("metadata must be an object");
  return { ...value };
}

/** A string field, or undefined when absent, null or "" (Go's omitempty drops it on the way back). */
function optionalString(object: Record<string, unknown>, key: string, path: string): string | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw decodeError(`${path}.${key} must be a string`);
  return value === "" ? undefined : value;
}

function readSpec(value: unknown): SarSpec {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw decodeError("spec must be an object");
  const spec: SarSpec = {};
  const resource = value["resourceAttributes"];
  if (resource !== undefined && resource !== null) {
    if (!isObject(resource)) throw decodeError("spec.resourceAttributes must be an object");
    const attributes: SarResourceAttributes = {};
    for (const key of ["namespace", "verb", "group", "version", "resource", "subresource", "name"] as const) {
      const text = optionalString(resource, key, "spec.resourceAttributes");
      if (text !== undefined) attributes[key] = text;
    }
    spec.resourceAttributes = attributes;
  }
  const nonResource = value["nonResourceAttributes"];
  if (nonResource !== undefined && nonResource !== null) {
    if (!isObject(nonResource)) throw decodeError("spec.nonResourceAttributes must be an object");
    const attributes: SarNonResourceAttributes = {};
    for (const key of ["path", "verb"] as const) {
      const text = optionalString(nonResource, key, "spec.nonResourceAttributes");
      if (text !== undefined) attributes[key] = text;
    }
    spec.nonResourceAttributes = attributes;
  }
  const user = optionalString(value, "user", "spec");
  if (user !== undefined) spec.user = user;
  const groups = value["groups"];
  if (groups !== undefined && groups !== null) {
    if (!Array.isArray(groups) || !groups.every((group) => typeof group === "string")) throw decodeError("spec.groups must be a list of strings");
    if (groups.length > 0) spec.groups = [...(groups as string[])];
  }
  const extra = value["extra"];
  if (extra !== undefined && extra !== null) {
    if (!isObject(extra) || !Object.values(extra).every((v) => Array.isArray(v) && v.every((item) => typeof item === "string"))) {
      throw decodeError("spec.extra must map names to lists of strings");
    }
    if (Object.keys(extra).length > 0) spec.extra = extra as Record<string, string[]>;
  }
  const uid = optionalString(value, "uid", "spec");
  if (uid !== undefined) spec.uid = uid;
  return spec;
}

/** Kubernetes' ValidateSubjectAccessReviewSpec, its messages word for word. */
function validateSpec(spec: SarSpec, dialect: Dialect): void {
  const causes: StatusCause[] = [];
  if (spec.resourceAttributes !== undefined && spec.nonResourceAttributes !== undefined) {
    const { path, verb } = spec.nonResourceAttributes;
    causes.push({
      reason: "FieldValueInvalid",
      message: `Invalid value: authorization.NonResourceAttributes{Path:${goQuote(path ?? "")}, Verb:${goQuote(verb ?? "")}}: cannot be specified in combination with resourceAttributes`,
      field: "spec.nonResourceAttributes",
    });
  }
  if (spec.resourceAttributes === undefined && spec.nonResourceAttributes === undefined) {
    causes.push(invalidValue("spec.resourceAttributes", "null", "exactly one of nonResourceAttributes or resourceAttributes must be specified"));
  }
  if (spec.user === undefined && spec.groups === undefined) {
    causes.push(invalidValue("spec.user", "", "at least one of user or group must be specified"));
  }
  if (causes.length > 0) throw invalid(SUBJECT_ACCESS_REVIEW_KIND, "", causes, dialect.groups.authorization);
}
