/**
 * A list of the namespace's ConfigMaps, sent and recorded: one page, or a paged list followed
 * through its continue tokens (doc 1 §4.6) with a pause between pages, so that writes land
 * between them. Readers send every kind; watchers list before watching (a reflector) and relist
 * after a 410.
 */
import type { ListOperation, ListPage } from "../../sim/history/api-history.ts";
import { failedAnswer, objectState } from "./history-objects.ts";
import { interruptiblePause } from "./interruptible-pause.ts";
import type { SoakClientContext } from "./soak-client-context.ts";
import { SELECTED_SELECTOR } from "./soak-settings.ts";

/** What to list. */
export interface ListRequest {
  readonly selector: boolean;
  /** undefined: Most Recent; "0": Any; else a version, for resourceVersionMatch or (with a limit) Exact. */
  readonly resourceVersion: string | undefined;
  readonly resourceVersionMatch: "Exact" | "NotOlderThan" | undefined;
  readonly limit: number | undefined;
  readonly pagePauseMs: number;
}

/** Lists, follows every continue token, and records the list with all its pages. */
export async function recordedList(context: SoakClientContext, client: string, request: ListRequest): Promise<ListOperation> {
  const { connection, recorder } = context;
  const { id, startMs } = recorder.begin();
  const pages: ListPage[] = [];
  let continueToken: string | undefined;
  for (;;) {
    const query = new URLSearchParams();
    if (request.selector) query.set("labelSelector", SELECTED_SELECTOR);
    if (request.limit !== undefined) query.set("limit", String(request.limit));
    if (continueToken === undefined) {
      if (request.resourceVersion !== undefined) query.set("resourceVersion", request.resourceVersion);
      if (request.resourceVersionMatch !== undefined) query.set("resourceVersionMatch", request.resourceVersionMatch);
    } else {
      query.set("continue", continueToken);
    }
    const text = query.toString();
    const pageStartMs = pages.length === 0 ? startMs : performance.now();
    const exchange = await connection.request("GET", `${connection.collectionPath}${text === "" ? "" : `?${text}`}`);
    const page = listPage(pageStartMs, continueToken, exchange);
    pages.push(page);
    if (page.answer.type !== "ok" || page.answer.continue === undefined || page.answer.continue === "") break;
    continueToken = page.answer.continue;
    // A list started is followed to its end, without the pauses once the run is stopping.
    await interruptiblePause(request.pagePauseMs, context.workloadStop);
  }
  const operation: ListOperation = {
    kind: "list",
    id,
    client,
    startMs,
    endMs: pages.at(-1)!.endMs,
    labelSelector: request.selector ? SELECTED_SELECTOR : undefined,
    resourceVersion: request.resourceVersion,
    resourceVersionMatch: request.resourceVersionMatch,
    limit: request.limit,
    pages,
  };
  recorder.record(operation);
  return operation;
}

function listPage(startMs: number, continueSent: string | undefined, exchange: Awaited<ReturnType<SoakClientContext["connection"]["request"]>>): ListPage {
  if (exchange.type === "uncertain") return { startMs, endMs: undefined, continueSent, answer: { type: "uncertain", error: exchange.error } };
  if (exchange.status !== 200) return { startMs, endMs: exchange.endMs, continueSent, answer: failedAnswer(exchange.status, exchange.body) };
  const list = exchange.body as { metadata?: { resourceVersion?: unknown; continue?: unknown; remainingItemCount?: unknown }; items?: unknown };
  const items = Array.isArray(list?.items) ? list.items.map(objectState) : [];
  const metadata = list?.metadata ?? {};
  return {
    startMs,
    endMs: exchange.endMs,
    continueSent,
    answer: {
      type: "ok",
      resourceVersion: typeof metadata.resourceVersion === "string" ? metadata.resourceVersion : "",
      items,
      continue: typeof metadata.continue === "string" ? metadata.continue : undefined,
      remainingItemCount: typeof metadata.remainingItemCount === "number" ? metadata.remainingItemCount : undefined,
    },
  };
}
