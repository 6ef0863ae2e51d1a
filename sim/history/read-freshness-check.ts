/**
 * history/read-freshness: reads are as fresh as doc 1 §4.7 promises, and never from the future.
 * Each get or complete list has a window of cuts it may show: from the smallest cut holding every
 * change it must reflect (Most Recent: every write acknowledged before it was sent; Not older than
 * and Exact: the version asked for; Any: nothing) to the largest holding no change whose write was
 * sent after it was answered. A get shows its object's interval of cuts (or the intervals where
 * the name had no object, for a 404); a list its version's cut, or the cuts whose state hashes
 * like its items. An Exact list must answer the very version it asked for.
 */
import type { GetOperation, ListOperation } from "./api-history.ts";
import type { HistoryVerdict } from "./history-verdict.ts";
import type { HistoryAnalysis } from "./history-analysis.ts";
import { lowerBound } from "./namespace-states.ts";
import { VerdictBuilder } from "./verdict-builders.ts";
import { describeObject, describeOperation, describeWrite, ms } from "./witness-text.ts";

/**
 * Of ascending cuts, the ones `judge` looks at, as intervals: one in [low, high], else the last
 * below low and the first above high. Searched, not scanned: a state may recur at many cuts.
 */
function nearestCuts(cuts: readonly number[], low: number, high: number): (readonly [number, number])[] {
  const fromLow = lowerBound(cuts, low);
  const aboveHigh = lowerBound(cuts, high + 1);
  if (fromLow < aboveHigh) return [[cuts[fromLow]!, cuts[fromLow]!]];
  const near: (readonly [number, number])[] = [];
  if (fromLow > 0) near.push([cuts[fromLow - 1]!, cuts[fromLow - 1]!]);
  if (aboveHigh < cuts.length) near.push([cuts[aboveHigh]!, cuts[aboveHigh]!]);
  return near;
}

/** What a read asked for (doc 1 §4.7, the get and list tables). */
type Semantic =
  | { readonly kind: "most-recent" }
  | { readonly kind: "any" }
  | { readonly kind: "not-older-than"; readonly version: string }
  | { readonly kind: "exact"; readonly version: string };

function getSemantic(get: GetOperation): Semantic {
  if (get.resourceVersion === undefined) return { kind: "most-recent" };
  if (get.resourceVersion === "0") return { kind: "any" };
  return { kind: "not-older-than", version: get.resourceVersion };
}

/** The list table of doc 1 §4.7 (combinations marked Invalid are answered 400 and never reach here). */
export function listSemantic(list: ListOperation): Semantic {
  const version = list.resourceVersion;
  if (list.resourceVersionMatch === "Exact") return version === undefined ? { kind: "most-recent" } : { kind: "exact", version };
  if (list.resourceVersionMatch === "NotOlderThan") {
    if (version === undefined) return { kind: "most-recent" };
    return version === "0" ? { kind: "any" } : { kind: "not-older-than", version };
  }
  if (version === undefined) return { kind: "most-recent" };
  if (version === "0") return { kind: "any" };
  return list.limit === undefined ? { kind: "not-older-than", version } : { kind: "exact", version };
}

export function checkReadFreshness(analysis: HistoryAnalysis): HistoryVerdict {
  const verdict = new VerdictBuilder("history/read-freshness");
  const { catalog, order, states, bounds, index } = analysis;

  /** The smallest cut the read must show, and why (for witnesses). */
  const lowest = (semantic: Semantic, sentMs: number): { cut: number; because: string } => {
    if (semantic.kind === "any") return { cut: 0, because: "" };
    if (semantic.kind === "most-recent") {
      const cut = bounds.mustInclude(sentMs);
      const write = cut > 0 ? bounds.writeAt[cut - 1] : undefined;
      const because =
        cut === 0
          ? ""
          : `${analysis.describeNode(order.order[cut - 1]!)}${write === undefined ? "" : `, acknowledged at ${ms(write.endMs)}`}, before it was sent at ${ms(sentMs)}`;
      return { cut, because };
    }
    const node = catalog.byVersion.get(semantic.version);
    const at = node === undefined ? -1 : order.positionOf[node]!;
    return at < 0 ? { cut: 0, because: "" } : { cut: at + 1, because: `the version it asked for, rv ${semantic.version} (${analysis.describeNode(node!)})` };
  };
  /** The largest cut the read may show, and the first write it must not show. */
  const highest = (answeredMs: number): { cut: number; because: string; write: number | undefined } => {
    const cut = bounds.mayInclude(answeredMs);
    const write = cut < order.length ? bounds.writeAt[cut] : undefined;
    return {
      cut,
      because: write === undefined ? "" : `${describeWrite(write)}, sent after it was answered at ${ms(answeredMs)}`,
      write: write?.id,
    };
  };

  for (const get of index.gets) {
    if (get.endMs === undefined || verdict.violated) continue;
    let intervals: readonly (readonly [number, number])[];
    let shown: string;
    if (get.answer.type === "ok") {
      const interval = states.interval(catalog.nodeOfObject(get.answer.object));
      if (interval === undefined) continue;
      intervals = [interval];
      shown = describeObject(get.answer.object);
    } else if (get.answer.type === "failed" && get.answer.code === 404) {
      intervals = states.absentIntervals(get.name);
      shown = `404 NotFound for ${get.name}`;
    } else continue;
    const low = lowest(getSemantic(get), get.startMs);
    const high = highest(get.endMs);
    verdict.count();
    judge(intervals, low, high, get.id, shown, get, (lo, hi) => states.anyDoubtfulAbout(get.name, lo, hi));
  }

  const listDoubt = (lo: number, hi: number): boolean => states.anyDoubtful(lo, hi);
  for (const contents of analysis.lists.values()) {
    const list = contents.operation;
    const first = list.pages[0];
    if (!contents.complete || first === undefined || first.answer.type !== "ok" || verdict.violated) continue;
    const semantic = listSemantic(list);
    verdict.count();
    if (semantic.kind === "exact" && contents.version !== semantic.version) {
      verdict.fail(`${describeOperation(list)} asked for exactly rv ${semantic.version} and was answered rv ${contents.version ?? "none"}`, [list.id]);
      continue;
    }
    const answeredMs = first.endMs ?? list.endMs;
    if (answeredMs === undefined || semantic.kind === "exact") continue;
    const low = lowest(semantic, first.startMs);
    const high = highest(answeredMs);
    const versionNode = contents.version === undefined ? undefined : catalog.byVersion.get(contents.version);
    const versionAt = versionNode === undefined ? -1 : order.positionOf[versionNode]!;
    if (versionAt >= 0) {
      judge([[versionAt + 1, versionAt + 1]], low, high, list.id, `rv ${contents.version}`, list, listDoubt);
    } else if (contents.placeable && contents.selector.valid) {
      const cuts = states.selectorStates(contents.selector).cutsWithKey(contents.key);
      if (cuts.length > 0) judge(nearestCuts(cuts, low.cut, high.cut), low, high, list.id, "its items", list, listDoubt);
    }
  }
  return verdict.verdict();

  /** Fails the read unless one of the cut intervals it may show meets [low, high]. */
  function judge(
    intervals: readonly (readonly [number, number])[],
    low: { cut: number; because: string },
    high: { cut: number; because: string; write: number | undefined },
    read: number,
    shown: string,
    operation: GetOperation | ListOperation,
    doubtful: (lo: number, hi: number) => boolean,
  ): void {
    if (intervals.some(([from, to]) => from <= high.cut && to >= low.cut)) return;
    const below = intervals.filter(([, to]) => to < low.cut);
    const above = intervals.filter(([from]) => from > high.cut);
    const lastBelow = below.length === 0 ? undefined : Math.max(...below.map(([, to]) => to));
    const firstAbove = above.length === 0 ? undefined : Math.min(...above.map(([from]) => from));
    if (doubtful(Math.max(0, low.cut - 1), high.cut)) return;
    if (lastBelow !== undefined && !doubtful(lastBelow, low.cut)) {
      // The most telling witness: the change that ended what the read shows (a get's object was
      // replaced at cut lastBelow), when its write was acknowledged before the read was sent;
      // otherwise the last change the read had to reflect.
      const ended = lastBelow < order.length ? bounds.writeAt[lastBelow] : undefined;
      if (operation.kind === "get" && ended !== undefined && ended.endMs !== undefined && ended.answer.type === "ok" && ended.endMs < operation.startMs) {
        verdict.fail(
          `${describeOperation(operation)} returned ${shown}, which ${analysis.describeNode(order.order[lastBelow]!)} had replaced, acknowledged at ${ms(ended.endMs)}, before the get was sent`,
          [read, ended.id],
        );
        return;
      }
      const lowWrite = bounds.writeAt[low.cut - 1];
      verdict.fail(
        `${describeOperation(operation)} returned ${shown}, a state older than ${low.because}`,
        [read, ...(lowWrite === undefined ? [] : [lowWrite.id])],
      );
      return;
    }
    if (firstAbove !== undefined && !doubtful(high.cut, firstAbove)) {
      verdict.fail(`${describeOperation(operation)} returned ${shown}, a state that already reflects ${high.because}`, [read, ...(high.write === undefined ? [] : [high.write])]);
    }
  }
}
