/**
 * The list seam of the planted defects (defects.ts): the defects that break a rule of lists and
 * paging wrap the lister, so the list handler and the lister have no trace of them.
 */
import { ExpiredError } from "../../store/errors.ts";
import type { ListResult } from "../../store/mvcc-store.ts";
import type { ObjectLister } from "../registry/object-lister.ts";
import type { ServerContext } from "../server-context.ts";
import type { DefectName } from "./defects.ts";

/** How long the planted defect "paged-list-mixes-snapshots" takes between reading a first page and making its continue token. */
export const LATE_CONTINUE_TOKEN_MS = 2;

/** `lister` with the list defects among `defects` planted (the same lister when there are none). */
export function withPlantedListDefects(
  lister: ObjectLister,
  defects: ReadonlySet<DefectName>,
  context: Pick<ServerContext, "store" | "clock" | "writePipeline">,
): ObjectLister {
  let planted = lister;
  const wrap = (list: ObjectLister["list"]) => {
    planted = { list };
  };
  if (defects.has("exact-list-from-latest")) {
    const inner = planted;
    // Planted defect "exact-list-from-latest" (sim/apiserver/defects/defects.ts): Exact reads the latest state.
    wrap((query) => inner.list("revision" in query.read && query.read.exact ? { ...query, read: { revision: undefined, exact: true } } : query));
  }
  if (defects.has("most-recent-list-lags")) {
    const inner = planted;
    const { store } = context;
    // Planted defect "most-recent-list-lags" (sim/apiserver/defects/defects.ts): while writes are in flight, Most Recent is one write behind.
    wrap((query) =>
      inner.list(query.mostRecent && (context.writePipeline?.inFlight ?? 0) > 0 ? { ...query, read: { revision: Math.max(store.compactedRevision, store.revision - 1), exact: false } } : query),
    );
  }
  if (defects.has("paged-list-mixes-snapshots")) {
    const inner = planted;
    // Planted defect "paged-list-mixes-snapshots" (sim/apiserver/defects/defects.ts): a first page's items are
    // read at once, its continue token LATE_CONTINUE_TOKEN_MS later from the state then, so the next
    // pages read another snapshot when a write landed meanwhile. In sequence nothing lands then.
    wrap(async (query) => {
      const page = await inner.list(query);
      if ("continueToken" in query.read || page.continueToken === undefined) return page;
      await context.clock.sleep(LATE_CONTINUE_TOKEN_MS);
      const later = await inner.list({ ...query, read: { revision: undefined, exact: false } });
      return later.continueToken === undefined ? page : { ...page, continueToken: later.continueToken };
    });
  }
  if (defects.has("paging-skips-after-write")) {
    const inner = planted;
    // Planted defect "paging-skips-after-write" (sim/apiserver/defects/defects.ts): a write since the first chunk costs the page its first item.
    wrap(async (query) => {
      const page = await inner.list(query);
      return "continueToken" in query.read && context.store.revision > page.revision ? { ...page, items: page.items.slice(1) } : page;
    });
  }
  if (defects.has("continue-tokens-never-expire")) {
    const inner = planted;
    // Planted defect "continue-tokens-never-expire" (sim/apiserver/defects/defects.ts): go on at the latest state instead of 410.
    wrap(async (query) => {
      try {
        return await inner.list(query);
      } catch (error) {
        if (!(error instanceof ExpiredError) || error.continueToken === undefined) throw error;
        return inner.list({ ...query, read: { continueToken: error.continueToken } });
      }
    });
  }
  if (defects.has("remaining-item-count-off-by-one")) {
    const inner = planted;
    // Planted defect "remaining-item-count-off-by-one" (sim/apiserver/defects/defects.ts): one item too many left.
    wrap(async (query) => withCountOffByOne(await inner.list(query)));
  }
  return planted;
}

function withCountOffByOne(page: ListResult): ListResult {
  return page.remainingItemCount === undefined ? page : { ...page, remainingItemCount: page.remainingItemCount + 1 };
}
