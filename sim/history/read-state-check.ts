/**
 * history/read-state: an unpaged list is one state of the namespace (paged lists are the paging
 * check's): each name once, only objects its selector matches, the state at its version when the
 * version names a known change (else some state, found by hash), and the same items as any other
 * list at the same version with the same selector (a foreign version still names one state).
 */
import type { HistoryVerdict } from "./history-verdict.ts";
import type { HistoryAnalysis } from "./history-analysis.ts";
import { placeListItems } from "./list-placement.ts";
import { VerdictBuilder } from "./verdict-builders.ts";
import { describeObject, describeOperation } from "./witness-text.ts";

export function checkReadState(analysis: HistoryAnalysis): HistoryVerdict {
  const verdict = new VerdictBuilder("history/read-state");
  const atVersion = new Map<string, { key: number; list: number }>();
  for (const contents of analysis.lists.values()) {
    const { operation } = contents;
    if (operation.pages.length !== 1 || !contents.complete || !contents.selector.valid) continue;
    verdict.count();
    if (contents.duplicate !== undefined) {
      verdict.fail(`${describeOperation(operation)} returned ${contents.items[contents.duplicate]!.name} twice`, [operation.id]);
      continue;
    }
    if (contents.outsideSelector !== undefined) {
      verdict.fail(`${describeOperation(operation)} returned ${describeObject(contents.items[contents.outsideSelector])}, which its selector does not match`, [operation.id]);
      continue;
    }
    if (!contents.placeable) continue;
    const placed = placeListItems(analysis, contents);
    if (placed.kind === "wrong") {
      verdict.fail(`the items of ${describeOperation(operation)} are wrong: ${placed.why}`, [operation.id]);
      continue;
    }
    if (contents.version === undefined) continue;
    const same = `${contents.selector.key}\u0000${contents.version}`;
    const earlier = atVersion.get(same);
    if (earlier === undefined) atVersion.set(same, { key: contents.key, list: operation.id });
    else if (earlier.key !== contents.key) {
      const other = analysis.index.operation(earlier.list)!;
      verdict.fail(`${describeOperation(other)} and ${describeOperation(operation)} both answered rv ${contents.version} with the same selector, but with different items`, [
        earlier.list,
        operation.id,
      ]);
    }
  }
  return verdict.verdict();
}
