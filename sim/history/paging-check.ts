/**
 * store/paging-consistent, on a recorded history: the pages of one list (doc 1 §4.6.3) all carry
 * the first page's resourceVersion, repeat no name, hold only what the selector matches, and,
 * once the list is complete, concatenate to one state (the state at that version when it names a
 * known change), whatever was written between the pages. remainingItemCount, where a page gives
 * it (no selector, list not complete), is the number of items on the later pages (doc 1 §2.3).
 * A page answered 410 (the continue token expired, doc 1 §7) ends the list without a verdict on
 * its items.
 */
import type { HistoryVerdict } from "./history-verdict.ts";
import type { HistoryAnalysis } from "./history-analysis.ts";
import { placeListItems } from "./list-placement.ts";
import { VerdictBuilder } from "./verdict-builders.ts";
import { describeObject, describeOperation, ms } from "./witness-text.ts";

export function checkPaging(analysis: HistoryAnalysis): HistoryVerdict {
  const verdict = new VerdictBuilder("store/paging-consistent");
  for (const contents of analysis.lists.values()) {
    const { operation } = contents;
    const first = operation.pages[0];
    const paged = operation.pages.length > 1 || (first?.answer.type === "ok" && first.answer.continue !== undefined && first.answer.continue !== "");
    if (!paged || first === undefined || first.answer.type !== "ok" || !contents.selector.valid || verdict.violated) continue;
    verdict.count();
    const version = first.answer.resourceVersion;
    const pageOf: number[] = [];
    operation.pages.forEach((page, p) => {
      if (page.answer.type === "ok") for (let k = 0; k < page.answer.items.length; k++) pageOf.push(p);
    });
    const differing = operation.pages.findIndex((page) => page.answer.type === "ok" && page.answer.resourceVersion !== version);
    if (differing >= 0) {
      const page = operation.pages[differing]!;
      const answer = page.answer.type === "ok" ? page.answer.resourceVersion : "";
      verdict.fail(`page ${differing + 1} of ${describeOperation(operation)} (sent at ${ms(page.startMs)}) answered rv ${answer}, but the first page answered rv ${version}`, [operation.id]);
      continue;
    }
    if (contents.duplicate !== undefined) {
      const item = contents.items[contents.duplicate]!;
      const earlier = contents.items.findIndex((other) => other.name === item.name);
      verdict.fail(
        `${describeOperation(operation)} returned ${item.name} twice: ${describeObject(contents.items[earlier])} on page ${pageOf[earlier]! + 1} and ${describeObject(item)} on page ${pageOf[contents.duplicate]! + 1}`,
        [operation.id],
      );
      continue;
    }
    if (contents.outsideSelector !== undefined) {
      verdict.fail(`page ${pageOf[contents.outsideSelector]! + 1} of ${describeOperation(operation)} returned ${describeObject(contents.items[contents.outsideSelector])}, which its selector does not match`, [operation.id]);
      continue;
    }
    if (!contents.complete) continue;
    const placed = placeListItems(analysis, contents);
    if (placed.kind === "wrong") {
      verdict.fail(`the ${operation.pages.length} pages of ${describeOperation(operation)} do not concatenate to one snapshot: ${placed.why}`, [operation.id]);
      continue;
    }
    if (!contents.selector.everything) continue;
    let later = contents.items.length;
    operation.pages.forEach((page, p) => {
      if (page.answer.type !== "ok") return;
      later -= page.answer.items.length;
      const remaining = page.answer.remainingItemCount;
      if (remaining !== undefined && remaining !== later) {
        verdict.fail(`page ${p + 1} of ${describeOperation(operation)} says ${remaining} items remain, but the later pages hold ${later}`, [operation.id]);
      }
    });
  }
  return verdict.verdict();
}
