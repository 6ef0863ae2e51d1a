/**
 * The DeleteOptions of a DELETE (doc 1 §1 delete and deletecollection; the body is Kubernetes',
 * doc 1 does not show it): from the body when there is one (JSON, or the dialect's Protobuf), else
 * from the query, as Kubernetes reads them: with a body, every DeleteOptions query parameter is
 * ignored, `dryRun` included, unless the dialect reads the query's `dryRun` too (deviation
 * delete-query-dry-run-with-body, spec/dialects.ts). Values are checked as Kubernetes checks them:
 * - a query value that does not parse is 400 BadRequest (`strconv.ParseInt: …`);
 * - a body value of the wrong JSON type is 400 too (Kubernetes 1.26 answers it with a 500, the kind
 *   of answer spec/reference/kube-apiserver-1.26/README.md says not to imitate);
 * - `propagationPolicy` other than Foreground, Background or Orphan, or set together with
 *   `orphanDependents`, is 422 Invalid of kind DeleteOptions (apimachinery's ValidateDeleteOptions).
 * `gracePeriodSeconds` and `propagationPolicy` are accepted and have no further effect here: there
 * are no kubelets to wait for and no garbage collector.
 */
import type { StatusCause } from "../../../spec/doc1/errors.ts";
import { badRequest, failure } from "../responses/api-error.ts";
import { invalidValueMessage } from "../validation/object-names.ts";
import { jsonToMessage } from "../protobuf/convert.ts";
import { ProtobufEncodeError } from "../protobuf/errors.ts";
import { dryRun, int64Parameter } from "./query-options.ts";
import { decodeJson, decodeObject, mediaTypeOf, readBody } from "./request-body.ts";
import type { ResourceRequest, ServerContext } from "../server-context.ts";
import { goQuote } from "../responses/go-text.ts";

/** Preconditions a DeleteOptions body may carry. */
export interface DeletePreconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

/** The parts of DeleteOptions the server reads. */
export interface DeleteOptions {
  /** Where they were read from: the body when the request has one, else the query. */
  readonly source: "body" | "query";
  readonly preconditions?: DeletePreconditions;
  /** From the body; the query's `dryRun` is read by `isDryRunDelete`. */
  readonly dryRun?: readonly string[];
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: string;
  readonly orphanDependents?: boolean;
}

const PROPAGATION_POLICIES = ["Foreground", "Background", "Orphan"];
const TRUE_WORDS = ["1", "t", "T", "TRUE", "true", "True"];
const FALSE_WORDS = ["0", "f", "F", "FALSE", "false", "False"];

/** The request's DeleteOptions, checked. */
export async function readDeleteOptions(context: ServerContext, target: ResourceRequest): Promise<DeleteOptions> {
  const bytes = await readBody(target.request);
  // Any body counts, even `{}` or `null` (kube-apiserver 1.26.4 ignores the query beside them;
  // transcripts delete-options-i-query-dryrun-body-empty-object, delete-options-j-query-dryrun-body-null).
  const options = bytes.byteLength === 0 ? fromQuery(target.query) : fromBody(context, target, bytes);
  validate(options, context.dialect.metaGroup);
  return options;
}

/**
 * Whether a DELETE (or deletecollection) with these options is a dry run, its dryRun values checked
 * (422 Invalid of kind DeleteOptions for any value but All; doc 1 §4.4.4's bare one where the
 * dialect accepts it). Without a body, the query's dryRun decides. With one, Kubernetes reads the
 * body's alone: `?dryRun=All` beside a body without dryRun deletes, and `?dryRun=Bogus` beside one
 * is not refused (kube-apiserver 1.26.4, recorded 2026-11-25: transcripts-delete-options.jsonl,
 * cases c, f, h, i, j, k, s, v); the orb dialect reads the query's too, since doc 1 §4.2 and
 * §4.4.1 make any DELETE with dryRun a dry run (deviation delete-query-dry-run-with-body).
 */
export function isDryRunDelete(context: ServerContext, target: ResourceRequest, options: DeleteOptions): boolean {
  const readsQuery = options.source === "query" || context.dialect.answers["delete-query-dry-run-with-body"] === "dry-run";
  const query = readsQuery ? target.query : new URLSearchParams();
  return dryRun(query, "DeleteOptions", context.dialect.metaGroup, context.dialect.answers["bare-dry-run"] === "accept", options.dryRun ?? []);
}

function fromBody(context: ServerContext, target: ResourceRequest, bytes: Uint8Array): DeleteOptions {
  const protobuf = mediaTypeOf(target.request.headers.get("content-type")) === context.dialect.protobufMediaType.toLowerCase();
  // JSON null decodes to empty options, as Go's decoder reads it (kube-apiserver 1.26.4 deletes;
  // recorded 2026-11-25, found by comparing with `fuzz --target http`).
  const body = protobuf ? decodeObject(bytes, "protobuf", "DeleteOptions") : (decodeJson(bytes) ?? {});
  if (typeof body !== "object" || Array.isArray(body)) throw badRequest("DeleteOptions must be a JSON object");
  try {
    jsonToMessage("DeleteOptions", body, { unknownFields: "drop" });
  } catch (error) {
    if (error instanceof ProtobufEncodeError && error.code === "invalid-value") {
      throw badRequest(`DeleteOptions in version "v1" cannot be handled as a DeleteOptions: ${error.message}`);
    }
    throw error;
  }
  return deleteOptionsOf(body as Record<string, unknown>, "body");
}

/**
 * The DeleteOptions of a decoded object whose values already have Go's types (a DeleteOptions
 * body, or an Eviction's `deleteOptions`), checked as apimachinery's ValidateDeleteOptions does.
 */
export function checkedDeleteOptions(body: Record<string, unknown>, metaGroup: string): DeleteOptions {
  const options = deleteOptionsOf(body, "body");
  validate(options, metaGroup);
  return options;
}

function deleteOptionsOf(body: Record<string, unknown>, source: DeleteOptions["source"]): DeleteOptions {
  // Each field is absent, null, or of its Go type.
  const { preconditions, dryRun, gracePeriodSeconds, propagationPolicy, orphanDependents } = body as Record<string, any>;
  return {
    source,
    ...(preconditions != null && { preconditions: withoutNulls(preconditions) }),
    ...(dryRun != null && { dryRun }),
    ...(gracePeriodSeconds != null && { gracePeriodSeconds }),
    ...(propagationPolicy != null && { propagationPolicy }),
    ...(orphanDependents != null && { orphanDependents }),
  };
}

function withoutNulls(preconditions: Record<string, unknown>): DeletePreconditions {
  const { uid, resourceVersion } = preconditions;
  return { ...(typeof uid === "string" && { uid }), ...(typeof resourceVersion === "string" && { resourceVersion }) };
}

/**
 * DeleteOptions from the query, as kube-apiserver 1.26.4 converts them (recorded 2026-11-25; found
 * by comparing with `fuzz --target http`): gracePeriodSeconds with strconv.ParseInt (`""` and out
 * of range are 400), a present propagationPolicy even when empty (then 422), and `uid` and
 * `resourceVersion` as the preconditions they are in DeleteOptions (a stale one is 409).
 */
function fromQuery(query: URLSearchParams): DeleteOptions {
  const gracePeriodSeconds = int64Parameter(query, "gracePeriodSeconds");
  const orphan = query.get("orphanDependents");
  const policy = query.get("propagationPolicy");
  if (orphan !== null && orphan !== "" && ![...TRUE_WORDS, ...FALSE_WORDS].includes(orphan)) {
    throw badRequest(`strconv.ParseBool: parsing ${JSON.stringify(orphan)}: invalid syntax`);
  }
  const uid = query.get("uid");
  const resourceVersion = query.get("resourceVersion");
  const preconditions = { ...(uid !== null && uid !== "" && { uid }), ...(resourceVersion !== null && resourceVersion !== "" && { resourceVersion }) };
  return {
    source: "query",
    ...(gracePeriodSeconds !== undefined && { gracePeriodSeconds }),
    ...(orphan !== null && orphan !== "" && { orphanDependents: TRUE_WORDS.includes(orphan) }),
    ...(policy !== null && { propagationPolicy: policy }),
    ...(Object.keys(preconditions).length > 0 && { preconditions }),
  };
}

/** apimachinery's ValidateDeleteOptions (its dryRun rule is `isDryRun`'s). */
function validate(options: DeleteOptions, metaGroup: string): void {
  const causes: StatusCause[] = [];
  const policy = options.propagationPolicy;
  if (policy !== undefined && options.orphanDependents !== undefined) {
    causes.push({
      reason: "FieldValueInvalid",
      message: invalidValueMessage(policy, "orphanDependents and deletionPropagation cannot be both set"),
      field: "propagationPolicy",
    });
  }
  if (policy !== undefined && !PROPAGATION_POLICIES.includes(policy)) {
    const supported = [...PROPAGATION_POLICIES, "nil"].map(goQuote).join(", ");
    causes.push({ reason: "FieldValueNotSupported", message: `Unsupported value: ${goQuote(policy)}: supported values: ${supported}`, field: "propagationPolicy" });
  }
  if (causes.length === 0) return;
  const summary = causes.map((cause) => `${cause.field}: ${cause.message}`);
  const text = summary.length === 1 ? summary[0]! : `[${summary.join(", ")}]`;
  throw failure("Invalid", `DeleteOptions.${metaGroup} "" is invalid: ${text}`, { group: metaGroup, kind: "DeleteOptions", causes });
}
