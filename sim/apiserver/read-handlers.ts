/** get and list (doc 1 §1, §2.3, §4.6.3, §4.7). */
import { parseListLimit } from "../../spec/doc1/resource-version-tables.ts";
import { ExpiredError, StoreError } from "../store/errors.ts";
import type { ListOptions, ListResult } from "../store/mvcc-store.ts";
import { badRequest, expiredContinueToken, expiredResourceVersion, fromStoreError, notFound } from "./api-error.ts";
import { objectFilter } from "./object-filter.ts";
import { flag, limitParameter, optional, timeoutSeconds } from "./query-options.ts";
import { getReadRevision, listRead, type ListRead } from "./read-revision.ts";
import { negotiateRepresentation } from "./representation.ts";
import { apiVersionOf } from "./resource-types.ts";
import type { ResourceRequest, ServerContext } from "./server-context.ts";
import { listItem, storageKey, storagePrefix, withTypeMeta } from "./stored-resource.ts";

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
    ...(page.remainingItemCount !== undefined && { remainingItemCount: remainingItemCount(context, page.remainingItemCount) }),
  };
  return representation.list(200, { kind: `${type.kind}List`, apiVersion: apiVersionOf(type), metadata, items: page.items.map(listItem) });
}

/** A list read at the latest state without a version asked for: Most Recent (doc 1 §4.7), first page or whole. */
function isMostRecent(target: ResourceRequest, read: ListRead): boolean {
  return "revision" in read && read.revision === undefined && optional(target.query, "resourceVersion") === undefined;
}

/** How long the planted defect "paged-list-mixes-snapshots" takes between reading a first page and making its continue token. */
export const LATE_CONTINUE_TOKEN_MS = 2;

/**
 * Planted defect "paged-list-mixes-snapshots" (sim/apiserver/defects.ts): the first page's items
 * are read at once, its continue token LATE_CONTINUE_TOKEN_MS later from the state then, so the
 * next pages read another snapshot when a write landed meanwhile. In sequence nothing lands then.
 */
async function withLateContinueToken(context: ServerContext, options: Omit<ListOptions, "revision">, page: ListResult): Promise<ListResult> {
  await context.clock.sleep(LATE_CONTINUE_TOKEN_MS);
  const later = context.store.list(options);
  return later.continueToken === undefined ? page : { ...page, continueToken: later.continueToken };
}

function remainingItemCount(context: ServerContext, count: number): number {
  // Planted defect "remaining-item-count-off-by-one" (sim/apiserver/defects.ts): one item too many left.
  return context.defects.has("remaining-item-count-off-by-one") ? count + 1 : count;
}

/** The page a list request asks for, with Kubernetes' errors. */
export async function readList(context: ServerContext, target: ResourceRequest): Promise<ListResult> {
  // Parsed for their 400s only, in the order Kubernetes converts ListOptions: a list is answered at
  // once, well within any timeout (transcript list-timeout-abc); the limit's meaning comes below.
  timeoutSeconds(target.query);
  limitParameter(target.query);
  let read = await listRead(context, target.query);
  // Planted defect "exact-list-from-latest" (sim/apiserver/defects.ts): Exact reads the latest state.
  if (context.defects.has("exact-list-from-latest") && "revision" in read && read.exact) read = { revision: undefined, exact: true };
  // Planted defect "most-recent-list-lags" (sim/apiserver/defects.ts): while writes are in flight, Most Recent is one write behind.
  if (context.defects.has("most-recent-list-lags") && isMostRecent(target, read) && (context.writePipeline?.inFlight ?? 0) > 0) {
    read = { revision: Math.max(context.store.compactedRevision, context.store.revision - 1), exact: false };
  }
  const limit = parseListLimit(optional(target.query, "limit"));
  const filter = objectFilter(target.type, target.query);
  const prefix = storagePrefix(target.type, target.namespace);
  const common = { prefix, ...(limit.kind === "limit" && { limit: limit.limit }), ...(filter !== undefined && { filter }) };
  try {
    if (!("continueToken" in read)) {
      const page = context.store.list({ ...common, ...(read.revision !== undefined && { revision: read.revision }) });
      // Planted defect "paged-list-mixes-snapshots" (sim/apiserver/defects.ts): the continue token is made later, from the state then.
      if (context.defects.has("paged-list-mixes-snapshots") && page.continueToken !== undefined) return await withLateContinueToken(context, common, page);
      return page;
    }
    const page = context.store.list({ ...common, continueToken: read.continueToken });
    // Planted defect "paging-skips-after-write" (sim/apiserver/defects.ts): a write since the first chunk costs the page its first item.
    if (context.defects.has("paging-skips-after-write") && context.store.revision > page.revision) return { ...page, items: page.items.slice(1) };
    return page;
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    // Planted defect "continue-tokens-never-expire" (sim/apiserver/defects.ts): go on at the latest state instead of 410.
    if (context.defects.has("continue-tokens-never-expire") && error instanceof ExpiredError && error.continueToken !== undefined) {
      return context.store.list({ ...common, continueToken: error.continueToken });
    }
    if (error instanceof ExpiredError) {
      throw error.continueToken !== undefined ? expiredContinueToken(error.continueToken) : expiredResourceVersion("list");
    }
    throw fromStoreError(error, target.type, "", (revision) => context.store.formatRevision(revision));
  }
}
