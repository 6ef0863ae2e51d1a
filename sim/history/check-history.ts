/**
 * The history checkers (issue 15): `checkHistory` reads a recorded history and answers one
 * verdict per invariant of spec/invariants-history.ts, in the catalog's order, each with the
 * first violation found (deterministically) as a minimal witness. Pure: it reads the history and
 * nothing else, and the same history always gets the same verdicts.
 *
 * Against a correct server they must report nothing, so every verdict rests only on what the
 * history proves (history-analysis.ts builds the shared picture):
 * - Versions are compared for equality only; the order of changes comes from the watch streams,
 *   and where the streams leave it ambiguous, nothing is concluded from the ambiguous part
 *   (server-order.ts). Lists and bookmarks at cluster-wide versions foreign to the namespace are
 *   placed by their items, or by the watch that resumes from them.
 * - A stream's missing tail is no gap: a stream may end (closed, cut, run over) before it
 *   delivers what was committed; its resumption and the durability check judge what it missed.
 * - 410 Expired (on a watch, an ERROR event, a list page, an Exact read) is always allowed: doc 1
 *   gives the retention, the checkers cannot know the server's compaction. A 5xx or no answer to a
 *   write is uncertain: both branches (took effect once, or not) are accepted, never twice or half.
 * - Changes known but never delivered, and writes without answer that may have happened unseen,
 *   make the states of their name doubtful where they may lie (missing-changes.ts); a watch of the
 *   whole namespace throughout the run leaves only the tail doubtful.
 * - Objects no write of the workload made and no stream saw change (kube-root-ca.crt) are taken
 *   as present throughout.
 * Unknown writers of the namespace (other than such objects) are outside this model.
 */
import { historyInvariants, type HistoryInvariantId } from "../../spec/invariants-history.ts";
import type { ApiHistory } from "./api-history.ts";
import { checkBookmarkOrder } from "./bookmark-check.ts";
import { checkAcknowledgedWriteDurable } from "./durability-check.ts";
import { checkFailedWriteNoEffect } from "./failed-write-check.ts";
import { analyzeHistory, type HistoryAnalysis } from "./history-analysis.ts";
import type { HistoryVerdict } from "./history-verdict.ts";
import { checkPaging } from "./paging-check.ts";
import { checkStaleWriteRejected } from "./precondition-check.ts";
import { checkReadFreshness } from "./read-freshness-check.ts";
import { checkReadState } from "./read-state-check.ts";
import { checkWatchNoGap } from "./watch-check.ts";
import { checkWatchEventContent } from "./watch-content-check.ts";
import { checkWatchInitialState } from "./watch-initial-state-check.ts";
import { checkWriteAtomic } from "./write-atomic-check.ts";
import { checkWriteOrder } from "./write-order-check.ts";
import { checkWriteVersions } from "./write-versions-check.ts";

/** The checker of each invariant. */
const checkers: Readonly<Record<HistoryInvariantId, (analysis: HistoryAnalysis) => HistoryVerdict>> = {
  "history/write-versions": checkWriteVersions,
  "history/write-order": checkWriteOrder,
  "watch/no-gap": checkWatchNoGap,
  "history/watch-event-content": checkWatchEventContent,
  "history/watch-initial-state": checkWatchInitialState,
  "watch/bookmark-order": checkBookmarkOrder,
  "history/read-state": checkReadState,
  "history/read-freshness": checkReadFreshness,
  "store/paging-consistent": checkPaging,
  "store/stale-write-rejected": checkStaleWriteRejected,
  "history/failed-write-no-effect": checkFailedWriteNoEffect,
  "history/acknowledged-write-durable": checkAcknowledgedWriteDurable,
  "history/write-atomic": checkWriteAtomic,
};

/** Checks a history against every history invariant: one verdict each, in catalog order. */
export function checkHistory(history: ApiHistory): HistoryVerdict[] {
  const analysis = analyzeHistory(history);
  return historyInvariants.map((invariant) => checkers[invariant.id](analysis));
}

export { analyzeHistory, type HistoryAnalysis } from "./history-analysis.ts";
