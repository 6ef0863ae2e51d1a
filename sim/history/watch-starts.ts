/**
 * Where each watch starts in the server's order (doc 1 §4.7, watch table), which the gap and
 * bookmark checks measure from:
 *
 * - Get State (no resourceVersion, or 0): synthetic ADDED events of one state, then the changes
 *   after it. The synthetic events are the longest prefix of the leading ADDED events whose
 *   objects are exactly the (filtered) state right before the first change delivered after them:
 *   if nothing visible happened between the start and that change, the two states are equal. With
 *   no change delivered, the state is found by its hash. Without resourceVersion the state must
 *   reflect every write acknowledged before the watch was sent (Start at Most Recent); with 0 any
 *   state will do (Start at Any).
 * - Start at Exact from a known version: right after that change.
 * - Resumed from the last version its predecessor saw (an event's or a bookmark's, doc 1 §4.6.2):
 *   right after the last change the predecessor delivered. A bookmark says every change up to it
 *   was sent, so even when its version is a cluster-wide revision foreign to the namespace, the
 *   resumed watch must continue exactly there.
 * - Resumed from a list's version (a reflector's relist after 410): the list's items are the state
 *   at that version, so the watch's first change must come right after a state equal to them.
 *
 * Violations found on the way are returned for the initial-state and no-gap checks.
 */
import type { EventRef } from "./history-verdict.ts";
import type { CoreAnalysis } from "./history-analysis.ts";
import { hashKey, lowerBound } from "./namespace-states.ts";
import { sameLabels } from "./object-equality.ts";
import { isChangeEvent, type WatchStream } from "./watch-streams.ts";
import { describeEvent, describeObject, describeOperation, ms } from "./witness-text.ts";

/** Where one watch starts. */
export interface WatchStart {
  readonly stream: WatchStream;
  /** How many leading events are the synthetic state. */
  readonly synthetic: number;
  /** The cut after which the stream's changes come (its first change is at or after it), if known. */
  readonly cut: number | undefined;
  /** The change the start is anchored to (-1 when placed by content or unknown). */
  readonly anchor: number;
  /** How the start was found, for witnesses. */
  readonly how: string;
  /** Events that show it, for witnesses. */
  readonly shownBy: readonly EventRef[];
  readonly operations: readonly number[];
  /**
   * The synthetic count rests on leading events the order does not place yet (taken as changes
   * nobody else delivered): the analysis takes it one stream at a time (history-analysis.ts).
   */
  readonly tentative: boolean;
}

/** A violation found while placing a start. */
export interface StartFinding {
  readonly invariant: "history/watch-initial-state" | "watch/no-gap";
  readonly explanation: string;
  readonly operations: readonly number[];
  readonly events: readonly EventRef[];
}

export interface WatchStarts {
  readonly byOperation: ReadonlyMap<number, WatchStart>;
  readonly findings: readonly StartFinding[];
  /** Synthetic states checked (for the initial-state verdict's count). */
  readonly statesChecked: number;
  /** Resumptions from a list checked (counted by the no-gap verdict). */
  readonly listResumesChecked: number;
}

/**
 * The last change a stream delivered and its version (or, when it delivered none, its start and
 * the version it was opened with), and a bookmark's version after it.
 */
interface StreamEnd {
  readonly cut: number | undefined;
  readonly node: number;
  readonly event: number;
  readonly version: string | undefined;
  readonly bookmark: string | undefined;
}

export function computeWatchStarts(analysis: CoreAnalysis): WatchStarts {
  // `analysis.lists` is read only where needed: it is built on first use (history-analysis.ts).
  const { streams, catalog, order } = analysis;
  const byOperation = new Map<number, WatchStart>();
  const ends = new Map<number, StreamEnd>();
  const findings: StartFinding[] = [];
  let statesChecked = 0;
  let listResumesChecked = 0;

  const unknownStart = (stream: WatchStream, synthetic: number): WatchStart => ({
    stream,
    synthetic,
    cut: undefined,
    anchor: -1,
    how: "an unknown point",
    shownBy: [],
    operations: [],
    tentative: false,
  });

  for (const stream of streams.values()) {
    if (!stream.usable) continue;
    const { operation } = stream;
    const eventNodes = catalog.eventNodes.get(operation.id)!;
    const events = operation.events;
    // The first change event at or after each index whose change has a place in the order.
    const nextPlaced = new Int32Array(events.length + 1).fill(-1);
    for (let i = events.length - 1; i >= 0; i--) {
      const node = eventNodes[i]!;
      nextPlaced[i] = isChangeEvent(events[i]!.type) && node >= 0 && order.positionOf[node]! >= 0 ? i : nextPlaced[i + 1]!;
    }
    const firstChangeCut = (from: number): { event: number; cut: number } | undefined => {
      const event = nextPlaced[from]!;
      return event < 0 ? undefined : { event, cut: order.positionOf[eventNodes[event]!]! };
    };

    let start: WatchStart;
    const version = operation.resourceVersion;
    if (stream.getsState) {
      statesChecked++;
      const bound = analysis.synthetic.get(operation.id) ?? 0;
      start = placeSyntheticState(analysis, stream, bound, eventNodes, firstChangeCut, findings) ?? unknownStart(stream, bound);
    } else {
      const anchor = version === undefined ? undefined : catalog.byVersion.get(version);
      const resumed = operation.resumes;
      if (anchor !== undefined && order.positionOf[anchor]! >= 0) {
        const deliveredBy = catalog.nodes[anchor]!.deliveredBy;
        start = {
          stream,
          synthetic: 0,
          cut: order.positionOf[anchor]! + 1,
          anchor,
          how: `rv ${version} (${analysis.describeNode(anchor)})`,
          shownBy: deliveredBy === undefined ? [] : [{ operation: deliveredBy.operation, index: deliveredBy.event }],
          operations: deliveredBy === undefined ? [] : [deliveredBy.operation],
          tentative: false,
        };
      } else if (resumed?.kind === "watch" && ends.has(resumed.operation)) {
        // The version names no known change here (else the branch above): the start is where the
        // predecessor stopped, which says what this stream must deliver only if both see the same
        // changes (the same selector).
        const before = ends.get(resumed.operation)!;
        const sameSelector = streams.get(resumed.operation)?.selector.key === stream.selector.key;
        const continues = sameSelector && before.cut !== undefined && (version === before.version || (version !== undefined && version === before.bookmark));
        start = continues
          ? {
              stream,
              synthetic: 0,
              cut: before.cut,
              anchor: before.node,
              how:
                before.node >= 0
                  ? `the last change watch #${resumed.operation} delivered (${analysis.describeNode(before.node)}), which it resumes from rv ${version}`
                  : `where watch #${resumed.operation}, which it resumes from rv ${version}, started`,
              shownBy: before.event >= 0 ? [{ operation: resumed.operation, index: before.event }] : [],
              operations: [resumed.operation],
              tentative: false,
            }
          : unknownStart(stream, 0);
      } else if (resumed?.kind === "list") {
        start = placeAfterList(analysis, stream, resumed.operation, firstChangeCut, findings) ?? unknownStart(stream, 0);
        if (analysis.lists.get(resumed.operation)?.version === version) listResumesChecked++;
      } else start = unknownStart(stream, 0);
    }
    byOperation.set(operation.id, start);

    // Where this stream ended, for a watch that resumes it: a stream that delivered nothing ends
    // where it started, at the version it was opened with.
    const openedWith = stream.getsState ? undefined : operation.resourceVersion;
    let end: StreamEnd = { cut: start.cut, node: start.anchor, event: -1, version: openedWith, bookmark: undefined };
    for (let i = start.synthetic; i < events.length; i++) {
      const event = events[i]!;
      if (event.type === "BOOKMARK") {
        end = { ...end, bookmark: event.bookmarkVersion };
        continue;
      }
      const node = eventNodes[i]!;
      if (!isChangeEvent(event.type) || node < 0) continue;
      const at = order.positionOf[node]!;
      end = { cut: at >= 0 ? at + 1 : undefined, node: at >= 0 ? node : -1, event: i, version: catalog.nodes[node]!.version, bookmark: undefined };
    }
    ends.set(operation.id, end);
  }
  return { byOperation, findings, statesChecked, listResumesChecked };
}

/** Places the synthetic state of a Get State watch; records a finding when it is no state. */
function placeSyntheticState(
  analysis: CoreAnalysis,
  stream: WatchStream,
  bound: number,
  eventNodes: Int32Array,
  firstChangeCut: (from: number) => { event: number; cut: number } | undefined,
  findings: StartFinding[],
): WatchStart | undefined {
  const { catalog, order, states, bounds } = analysis;
  const { operation } = stream;
  const events = operation.events;
  // At most `bound` of the leading ADDED events are synthetic: the rest are known to be changes.
  const leading = bound;
  const table = states.selectorStates(stream.selector);

  // Prefix hashes of the leading ADDED objects, as long as they can be one state.
  const prefixA = new Int32Array(leading + 1);
  const prefixB = new Int32Array(leading + 1);
  const earliest = new Int32Array(leading + 1);
  const names = new Set<string>();
  let placeable = 0;
  for (let i = 0; i < leading; i++) {
    const node = eventNodes[i]!;
    const name = events[i]!.object!.name;
    if (!states.isPlaced(node) || names.has(name)) break;
    names.add(name);
    prefixA[i + 1] = (prefixA[i]! + catalog.nodes[node]!.hashA) | 0;
    prefixB[i + 1] = (prefixB[i]! + catalog.nodes[node]!.hashB) | 0;
    earliest[i + 1] = Math.max(earliest[i]!, order.positionOf[node]! + 1);
    placeable = i + 1;
  }

  // Events after the synthetic ones are changes, delivered in the order of changes: a split at m
  // is possible only if those of the leading events from m on that have a place are in order.
  const increasingFrom = new Uint8Array(leading + 1).fill(1);
  let placedAfter = Infinity;
  for (let i = leading - 1; i >= 0; i--) {
    const here = order.positionOf[eventNodes[i]!] ?? -1;
    increasingFrom[i] = increasingFrom[i + 1]! === 1 && (here < 0 || here < placedAfter) ? 1 : 0;
    if (here >= 0) placedAfter = here;
  }
  // The synthetic events are known to be all there only when something followed them (a change
  // or a bookmark): a stream may end in the middle of them.
  const finished = firstChangeCut(leading) !== undefined || events.slice(leading).some((event) => event.type === "BOOKMARK");
  // Without resourceVersion the state is read after the request arrived: an object made before the
  // request was sent (its write acknowledged, or the object seen by anyone, before then) is in it,
  // so that event is synthetic, and so is every event before it.
  let atLeast = 0;
  if (operation.resourceVersion === undefined) {
    for (let i = 0; i < leading; i++) {
      const value = events[i]!.object!.value;
      const write = value === undefined ? undefined : analysis.index.writeByValue.get(value);
      const acknowledged = write?.answer.type === "ok" && write.endMs !== undefined && write.endMs < operation.startMs;
      const node = eventNodes[i]!;
      const seen = node >= 0 && catalog.nodes[node]!.seenByMs < operation.startMs;
      if (acknowledged || seen) atLeast = i + 1;
    }
  }
  // A split at m is tentative when some of events m.. (taken as changes) have no place: nobody else
  // delivered them, so the order lacks them, and a doubt about the state is harmless when it is
  // about a name they create. The next round places them and checks the split again.
  // An event that names no change (NO_NODE) has no place either.
  const unplaced = (i: number): boolean => eventNodes[i]! < 0 || order.positionOf[eventNodes[i]!]! < 0;
  const unplacedFrom = (m: number): boolean => {
    for (let i = m; i < leading; i++) if (unplaced(i)) return true;
    return false;
  };
  const explained = (doubtful: Set<string> | "uncertain", m: number): boolean => {
    if (doubtful === "uncertain") return false;
    for (const name of doubtful) {
      let found = false;
      for (let i = m; i < leading && !found; i++) found = events[i]!.object!.name === name && unplaced(i);
      if (!found) return false;
    }
    return true;
  };
  let latestStart = analysis.bounds.mayInclude(events[leading]?.atMs ?? Infinity);
  for (let i = leading; i < events.length; i++) {
    const version = events[i]!.type === "BOOKMARK" ? events[i]!.bookmarkVersion : undefined;
    const node = version === undefined ? undefined : catalog.byVersion.get(version);
    if (node !== undefined && order.positionOf[node]! >= 0) {
      latestStart = Math.min(latestStart, order.positionOf[node]! + 1);
      break;
    }
  }
  // The largest split the states confirm. A split the states cannot decide (the state at the cut
  // is doubtful) stops the search: a smaller split that happens to fit is then no evidence.
  let chosen: { synthetic: number; cut: number; tentative: boolean } | undefined;
  let undecided = false;
  for (let m = placeable; m >= atLeast && chosen === undefined && !undecided; m--) {
    if (m < leading && increasingFrom[m] === 0) continue;
    const key = hashKey(prefixA[m]!, prefixB[m]!);
    const next = firstChangeCut(m);
    if (next !== undefined) {
      const doubtful = states.doubtfulNamesAt(next.cut);
      const clean = doubtful !== "uncertain" && doubtful.size === 0;
      if (table.keyAt(next.cut) !== key) {
        undecided = !clean;
        continue;
      }
      const tentative = unplacedFrom(m);
      if (!tentative && clean) chosen = { synthetic: m, cut: next.cut, tentative };
      else if (tentative && operation.resourceVersion === undefined && explained(doubtful, m)) chosen = { synthetic: m, cut: next.cut, tentative };
      else undecided = true;
    } else if (m === placeable && finished) {
      // No change delivered after the state: an equal state read before the first event after the
      // synthetic ones arrived, and not after a bookmark's version. The latest such one is the
      // most lenient for what follows it.
      const cuts = table.cutsWithKey(key).filter((cut) => cut >= earliest[m]! && cut <= latestStart && !states.anyDoubtful(cut, cut));
      if (cuts.length > 0) chosen = { synthetic: m, cut: cuts[cuts.length - 1]!, tentative: false };
    }
  }

  if (chosen === undefined) {
    if (undecided) return undefined;
    const next = firstChangeCut(leading);
    // Nothing to conclude when some object has no place or the states around are not known.
    if (!finished || placeable < leading) return undefined;
    if (next === undefined ? states.anyDoubtful(0, states.changes) : states.anyDoubtful(next.cut, next.cut)) return undefined;
    findings.push(syntheticMismatch(analysis, stream, leading, eventNodes, next));
    return undefined;
  }

  const { synthetic, cut, tentative } = chosen;
  for (let i = 0; i < synthetic; i++) {
    // The hash names the changes; the labels must be the ones those changes wrote.
    const object = events[i]!.object!;
    const made = catalog.nodes[eventNodes[i]!]!.object;
    if (!sameLabels(object.labels, made.labels) || object.uid !== made.uid) {
      findings.push({
        invariant: "history/watch-initial-state",
        explanation: `${describeOperation(operation)} sent the synthetic ${describeEvent(events[i]!)}, but the change that made ${object.name}=${object.value ?? "?"} wrote labels ${JSON.stringify(made.labels)} and uid ${made.uid}`,
        operations: [operation.id],
        events: [{ operation: operation.id, index: i }],
      });
      break;
    }
  }
  if (operation.resourceVersion === undefined) {
    // Start at Most Recent: a consistent read, so every write acknowledged before the request.
    const needed = bounds.mustInclude(operation.startMs);
    if (cut < needed && !states.anyDoubtful(cut, needed)) {
      const change = order.order[needed - 1]!;
      const write = bounds.writeAt[needed - 1];
      findings.push({
        invariant: "history/watch-initial-state",
        explanation: `${describeOperation(operation)} began with a state that lacks ${analysis.describeNode(change)}, although that write was acknowledged at ${ms(write?.endMs)}, before the watch was sent`,
        operations: [operation.id, ...(write === undefined ? [] : [write.id])],
        events: synthetic > 0 ? [{ operation: operation.id, index: 0 }] : [],
      });
    }
  }
  return {
    stream,
    synthetic,
    cut,
    anchor: -1,
    how: `the state its ${synthetic} synthetic ADDED event(s) showed`,
    shownBy: [],
    operations: [],
    tentative,
  };
}

/** The finding for synthetic events that are no state: the first object that shows it. */
function syntheticMismatch(
  analysis: CoreAnalysis,
  stream: WatchStream,
  leading: number,
  eventNodes: Int32Array,
  next: { event: number; cut: number } | undefined,
): StartFinding {
  const { catalog, states } = analysis;
  const { operation } = stream;
  if (next === undefined) {
    return {
      invariant: "history/watch-initial-state",
      explanation: `the ${leading} synthetic ADDED event(s) of ${describeOperation(operation)} are no state of the namespace`,
      operations: [operation.id],
      events: leading > 0 ? [{ operation: operation.id, index: 0 }] : [],
    };
  }
  const firstChange = `its first change, ${describeEvent(operation.events[next.event]!)}`;
  const expected = states.stateAt(next.cut, stream.selector);
  for (let i = 0; i < leading; i++) {
    const object = operation.events[i]!.object!;
    const there = expected.get(object.name);
    if (there !== eventNodes[i]) {
      const instead = there === undefined ? `no ${object.name}` : describeObject(catalog.nodes[there]!.object);
      const write = there === undefined ? undefined : analysis.describeNode(there);
      return {
        invariant: "history/watch-initial-state",
        explanation: `${describeOperation(operation)} sent the synthetic ADDED ${describeObject(object)}, but right before ${firstChange}, the namespace had ${instead}${write === undefined ? "" : ` (${write})`}`,
        operations: [operation.id],
        events: [{ operation: operation.id, index: i }, { operation: operation.id, index: next.event }],
      };
    }
  }
  const sent = new Set(operation.events.slice(0, leading).map((event) => event.object!.name));
  for (const [name, node] of expected) {
    if (sent.has(name)) continue;
    const deliveredBy = catalog.nodes[node]!.deliveredBy;
    return {
      invariant: "history/watch-initial-state",
      explanation: `${describeOperation(operation)} sent no synthetic ADDED for ${describeObject(catalog.nodes[node]!.object)}, which the namespace had right before ${firstChange} (${analysis.describeNode(node)})`,
      operations: [operation.id, ...(deliveredBy === undefined ? [] : [deliveredBy.operation])],
      events: [{ operation: operation.id, index: next.event }],
    };
  }
  return {
    invariant: "history/watch-initial-state",
    explanation: `the synthetic ADDED events of ${describeOperation(operation)} are not the state right before ${firstChange}`,
    operations: [operation.id],
    events: [{ operation: operation.id, index: next.event }],
  };
}

/** Places a watch that resumes from a list's version (a reflector's relist) by the list's items. */
function placeAfterList(
  analysis: CoreAnalysis,
  stream: WatchStream,
  listId: number,
  firstChangeCut: (from: number) => { event: number; cut: number } | undefined,
  findings: StartFinding[],
): WatchStart | undefined {
  const { states } = analysis;
  const { operation } = stream;
  const contents = analysis.lists.get(listId);
  if (
    contents === undefined ||
    !contents.complete ||
    !contents.placeable ||
    contents.version !== operation.resourceVersion ||
    contents.selector.key !== stream.selector.key ||
    contents.duplicate !== undefined
  ) {
    return undefined;
  }
  const next = firstChangeCut(0);
  if (next === undefined) return undefined;
  const table = states.selectorStates(stream.selector);
  const placed: WatchStart = {
    stream,
    synthetic: 0,
    cut: next.cut,
    anchor: -1,
    how: `the state list #${listId} returned at rv ${contents.version}`,
    shownBy: [],
    operations: [listId],
    tentative: false,
  };
  if (table.keyAt(next.cut) === contents.key || states.anyDoubtful(next.cut, next.cut)) return placed;
  const cuts = table.cutsWithKey(contents.key); // ascending: searched, not scanned (a state may recur often)
  const atOrBelow = lowerBound(cuts, next.cut + 1);
  const below = atOrBelow > 0 ? cuts[atOrBelow - 1]! : -1;
  const firstEvent = { operation: operation.id, index: next.event };
  if (below >= 0) {
    if (states.anyDoubtful(below, next.cut)) return undefined;
    const missed = table.firstVisible(below, next.cut);
    if (missed < 0) return undefined;
    const node = analysis.order.order[missed]!;
    const deliveredBy = analysis.catalog.nodes[node]!.deliveredBy;
    findings.push({
      invariant: "watch/no-gap",
      explanation: `${describeOperation(operation)} resumed from the version of list #${listId} (rv ${contents.version}) but first delivered ${describeEvent(operation.events[next.event]!)}, missing ${analysis.describeNode(node)}, which came after the list's state and matches its selector`,
      operations: [operation.id, listId, ...(deliveredBy === undefined ? [] : [deliveredBy.operation])],
      events: [firstEvent, ...(deliveredBy === undefined ? [] : [{ operation: deliveredBy.operation, index: deliveredBy.event }])],
    });
    return undefined;
  }
  if (cuts.length > 0 && cuts[cuts.length - 1]! > next.cut && !states.anyDoubtful(next.cut, cuts[0]!)) {
    findings.push({
      invariant: "watch/no-gap",
      explanation: `${describeOperation(operation)} resumed from the version of list #${listId} (rv ${contents.version}) but delivered ${describeEvent(operation.events[next.event]!)}, a change the list's items already reflected`,
      operations: [operation.id, listId],
      events: [firstEvent],
    });
  }
  return undefined;
}
