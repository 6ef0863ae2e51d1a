/**
 * Everything the checkers share, built once per history: the operations indexed, every change
 * named by its version, the server's order of changes, the states along it, the real-time bounds,
 * what each list's items say, and where each watch starts. Tests read it to see how a history was
 * understood.
 */
import type { ApiHistory } from "./api-history.ts";
import { buildChangeCatalog, markDeliveries, type ChangeCatalog } from "./change-catalog.ts";
import { SelectorCache } from "./label-selectors.ts";
import { readListContents, type ListContents } from "./list-contents.ts";
import { NamespaceStates } from "./namespace-states.ts";
import { OperationIndex } from "./operation-index.ts";
import { RealTimeBounds, writeOfNode } from "./real-time-bounds.ts";
import { buildServerOrder, type ServerOrder } from "./server-order.ts";
import { computeWatchStarts, type WatchStarts } from "./watch-starts.ts";
import { readWatchStreams, syntheticUpperBounds, type WatchStream } from "./watch-streams.ts";
import { describeChange } from "./witness-text.ts";

/** The shared structures, without the watch starts (which need them). */
export interface CoreAnalysis {
  readonly history: ApiHistory;
  readonly index: OperationIndex;
  readonly selectors: SelectorCache;
  readonly streams: ReadonlyMap<number, WatchStream>;
  /** How many leading events of each Get State stream are taken as synthetic (0 when absent). */
  readonly synthetic: ReadonlyMap<number, number>;
  readonly catalog: ChangeCatalog;
  readonly order: ServerOrder;
  readonly states: NamespaceStates;
  readonly bounds: RealTimeBounds;
  readonly lists: ReadonlyMap<number, ListContents>;
  /** A change in words, with the write that made it. */
  describeNode(node: number): string;
}

export interface HistoryAnalysis extends CoreAnalysis {
  readonly starts: WatchStarts;
  /** How many times the order was built (see analyzeHistory). */
  readonly rounds: number;
}

/**
 * Which leading ADDED events of a Get State watch are synthetic decides which changes it
 * delivered, which decides the order, which decides the states that tell the synthetic ones apart
 * (watch-starts.ts). So the analysis starts from an upper bound found by time, and rebuilds the
 * order while placing the starts finds fewer synthetic events than assumed (an empty namespace's
 * first watch: its leading ADDED events are all creations). Each round only lowers counts.
 */
const MAX_ROUNDS = 8;

export function analyzeHistory(history: ApiHistory): HistoryAnalysis {
  const index = new OperationIndex(history);
  const selectors = new SelectorCache();
  const streams = readWatchStreams(index.watches, selectors);
  const catalog = buildChangeCatalog(index, streams);
  let synthetic = syntheticUpperBounds(streams, (value) => (value === undefined ? undefined : index.writeByValue.get(value)?.startMs));
  for (let round = 1; ; round++) {
    markDeliveries(catalog, streams, synthetic);
    const order = buildServerOrder(catalog, streams, synthetic);
    const bounds = new RealTimeBounds(catalog, order, index);
    const states = new NamespaceStates(catalog, order, { index, streams, synthetic, bounds });
    // What the lists say is needed by the checkers and by watches resumed from a list; a round
    // that places no such watch and is followed by another does not read them.
    let lists: ReadonlyMap<number, ListContents> | undefined;
    const core: CoreAnalysis = {
      history,
      index,
      selectors,
      streams,
      synthetic,
      catalog,
      order,
      states,
      bounds,
      get lists() {
        return (lists ??= readListContents(index.lists, catalog, order, states, selectors));
      },
      describeNode: (node) => describeChange(catalog.nodes[node]!, writeOfNode(catalog, index, node)),
    };
    const starts = computeWatchStarts(core);
    // Lower every count the states show for certain, and one tentative count (the earliest
    // stream's: a later stream's split may rest on changes only that one will place).
    const refined = new Map(synthetic);
    let lowered = false;
    let tentativeTaken = false;
    for (const [operation, count] of synthetic) {
      const start = starts.byOperation.get(operation);
      if (start === undefined || start.cut === undefined || start.synthetic >= count) continue;
      if (start.tentative) {
        if (tentativeTaken) continue;
        tentativeTaken = true;
      }
      refined.set(operation, start.synthetic);
      lowered = true;
    }
    if (!lowered || round === MAX_ROUNDS) return { ...core, lists: core.lists, starts, rounds: round };
    synthetic = refined;
  }
}
