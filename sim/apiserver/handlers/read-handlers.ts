/** get and list (doc 1 §1, §2.3, §4.6.3, §4.7). */
import { parseListLimit } from "../../../spec/doc1/resource-version-tables.ts";
import { ExpiredError, StoreError } from "../../store/errors.ts";
import type { ListResult } from "../../store/mvcc-store.ts";
import { badRequest, expiredContinueToken, expiredResourceVersion, fromStoreError, notFound } from "../responses/api-error.ts";
import { objectFilter } from "../request/object-filter.ts";
import { flag, limitParameter, optional, timeoutSeconds } from "../request/query-options.ts";
import { getReadRevision, listRead, type ListRead } from "../request/read-revision.ts";
import { negotiateRepresentation } from "../responses/representation.ts";
import { apiVersionOf } from "../routing/resource-types.ts";
import type { ResourceRequest, ServerContext } from "../server-context.ts";
import { listItem, storageKey, storagePrefix, withTypeMeta } from "../registry/stored-resource.ts";

/** GET of one object (or its subresource, which for status is the whole object). */
export async function handleGet(context: ServerContext, target: ResourceRequest): Promise<Response> {
  // kube-apiserver 1.26.4 refuses `export` on a get unless it is "0" or false (recorded
  // 2026-11-25; found by comparing with `fuzz --target http`); a list ignores it.
  if (flag(target.query, "export")) throw badRequest("the export parameter, deprecated since v1.14, is no longer supported");
  const representation = negotiateRepresentation(context, target);
  const revision = await getReadRevision(context, target.query);
  const object = context.store.get(storageKey(target.type, target.namespace, target.name!), revision);
  if (object === undefined) throw notFound(target.type, target.name!);
  return representation.object(200, withTypeMeta(target.type, object));
}

/** GET of a collection: a whole list or one page of it. */
export async function handleList(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const representation = negotiateRepresentation(context, target, { collection: true });
  const page = await readList(context, target);
  const { type } = target;
  const resourceVersion = context.store.formatRevision(page.revision);
  const complete = page.continueToken === undefined;
  const metadata = {
    resourceVersion,
    // Doc 1 §2.3 says "" when complete; Kubernetes omits it (deviation continue-when-complete).
    ...(complete ? (context.dialect.answers["continue-when-complete"] === "empty" ? { continue: "" } : {}) : { continue: page.continueToken }),
    ...(page.remainingItemCount !== undefined && { remainingItemCount: page.remainingItemCount }),
  };
  return representation.storedList(200, { kind: `${type.kind}List`, apiVersion: apiVersionOf(type), metadata, items: page.items });
}

/** A list read at the latest state without a version asked for: Most Recent (doc 1 §4.7), first page or whole. */
function isMostRecent(target: ResourceRequest, read: ListRead): boolean {
  return "revision" in read && read.revision === undefined && optional(target.query, "resourceVersion") === undefined;
}

/** The page a list request asks for, with Kubernetes' errors. */
export async function readList(context: ServerContext, target: ResourceRequest): Promise<ListResult> {
  // Parsed for their 400s only, in the order Kubernetes converts ListOptions: a list is answered at
  // once, well within any timeout (transcript list-timeout-abc); the limit's meaning comes below.
  timeoutSeconds(target.query);
  limitParameter(target.query);
  const read = await listRead(context, target.query);
  const limit = parseListLimit(optional(target.query, "limit"));
  const filter = objectFilter(target.type, target.query);
  const prefix = storagePrefix(target.type, target.namespace);
  try {
    return await context.lists.list({ prefix, ...(limit.kind === "limit" && { limit: limit.limit }), ...(filter !== undefined && { filter }), read, mostRecent: isMostRecent(target, read) });
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    if (error instanceof ExpiredError) {
      throw error.continueToken !== undefined ? expiredContinueToken(error.continueToken) : expiredResourceVersion("list");
    }
    throw fromStoreError(error, target.type, "", (revision) => context.store.formatRevision(revision));
  }
}
