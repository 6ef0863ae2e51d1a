/**
 * Reading one page (or all) of a collection from the store: the list seam. The list handler and
 * deletecollection read through it, and the planted list defects wrap it
 * (defects/planted-lister.ts) rather than sit inside it. Store failures pass through as they are;
 * the caller answers them (410 for an expired version or token).
 */
import type { ListResult } from "../../store/mvcc-store.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import type { ListRead } from "../request/read-revision.ts";
import type { ServerContext } from "../server-context.ts";

/** One list read. */
export interface ListQuery {
  readonly prefix: string;
  readonly limit?: number;
  readonly filter?: (object: StoredObject) => boolean;
  /** Where to read: a revision (undefined: the latest), or a continue token. */
  readonly read: ListRead;
  /** Read at the latest state without a version asked for: Most Recent (doc 1 §4.7), first page or whole. */
  readonly mostRecent: boolean;
}

/** Reads pages of collections. */
export interface ObjectLister {
  list(query: ListQuery): Promise<ListResult>;
}

/** The lister over `context`'s store. */
export function objectLister(context: Pick<ServerContext, "store">): ObjectLister {
  return {
    list: async ({ prefix, limit, filter, read }) => {
      const common = { prefix, ...(limit !== undefined && { limit }), ...(filter !== undefined && { filter }) };
      if ("continueToken" in read) return context.store.list({ ...common, continueToken: read.continueToken });
      return context.store.list({ ...common, ...(read.revision !== undefined && { revision: read.revision }) });
    },
  };
}
