/**
 * Deterministic, seeded generation of VALID histories (issue 15): a concurrent workload of
 * writers, watchers and readers against the namespace model of simulated-namespace.ts, recorded
 * in the shape of api-history.ts, with what the server really did (the truth) beside it, for the
 * planted-violation functions and the tests.
 *
 * - Writers (event-driven in virtual time, each request committed at one instant between send
 *   and answer, in commit order): create, update and merge patch with and without a
 *   resourceVersion precondition (their last known version, sometimes an older one), label flips
 *   (objects entering and leaving selectors), deletes, on a few hot names; some answers are lost
 *   or 504 with the write committed or not.
 * - Watchers: steady watchers see the whole namespace for the whole run (as soak's do); the
 *   others cycle: from now (synthetic ADDED), from Any ("0"), or a reflector's list then watch,
 *   with or without selector and bookmarks, closing and resuming from the last version seen, and
 *   on 410 (the version was compacted) relisting.
 * - Readers: gets and lists at Most Recent, Any, Not older than and Exact, and paged lists whose
 *   later pages come while writers write (or after their snapshot expired: 410).
 *
 * Inside sim/ nothing reads the clock or global randomness: everything comes from the seed.
 */
import { Rng } from "../kernel/rng.ts";
import type {
  ApiHistory,
  GetOperation,
  HistoryClient,
  ListOperation,
  ListPage,
  ObjectState,
  Operation,
  WatchEvent,
  WatchOperation,
  WriteOperation,
} from "./api-history.ts";
import { SimulatedNamespace, decimalVersions, opaqueVersions, type SimulatedChange } from "./simulated-namespace.ts";

/** The shape of a simulated workload. */
export interface SimulatedWorkload {
  readonly seed: number;
  readonly durationMs: number;
  readonly writers: number;
  readonly readers: number;
  /** Watch clients; the first `steadyWatchers` watch the whole namespace throughout, unless `selectorWatchersOnly`. */
  readonly watchers: number;
  readonly steadyWatchers: number;
  readonly names: number;
  readonly hotNames: number;
  /** Writes in other namespaces between the namespace's own: lists and bookmarks may carry foreign versions. */
  readonly foreignRevisions: boolean;
  /** Versions as strings in no useful order. */
  readonly opaqueVersions: boolean;
  /** What a DELETED event carries for an object leaving a selector: its new state or its previous content. */
  readonly leavingContent: "new" | "previous";
  /** What a delete's answer carries: the object at its last write's version, or at the deletion's. */
  readonly deleteAnswer: "last-write" | "deletion";
  /** Share of writes whose outcome the client does not learn. */
  readonly uncertainRate: number;
  /** How long a revision stays readable and watchable after it was replaced. */
  readonly retentionMs: number;
  readonly bookmarkIntervalMs: number;
  /** An object no write of the workload made, there before anything starts (kube-root-ca.crt). */
  readonly foreignObject: boolean;
  /** No watcher without selector: the order is learned from partial streams only. */
  readonly selectorWatchersOnly: boolean;
}

/** A small workload with every feature on; `overrides` changes any of it. */
export function simulatedWorkload(seed: number, overrides: Partial<SimulatedWorkload> = {}): SimulatedWorkload {
  return {
    seed,
    durationMs: 400,
    writers: 3,
    readers: 2,
    watchers: 4,
    steadyWatchers: 2,
    names: 8,
    hotNames: 2,
    foreignRevisions: false,
    opaqueVersions: false,
    leavingContent: "previous",
    deleteAnswer: "last-write",
    uncertainRate: 0.03,
    retentionMs: 150,
    bookmarkIntervalMs: 40,
    foreignObject: false,
    selectorWatchersOnly: false,
    ...overrides,
  };
}

/** What the server did, for planting violations into a generated history. */
export interface SimulationTruth {
  readonly namespace: SimulatedNamespace;
  /** The change each operation's write made (by operation id). */
  readonly changeOfWrite: ReadonlyMap<number, SimulatedChange>;
  /** The cut each successful read answered (by operation id; for a paged list, its snapshot). */
  readonly cutOfRead: ReadonlyMap<number, number>;
  /** The cut right before each watch's first change (its start; by operation id). */
  readonly startCutOfWatch: ReadonlyMap<number, number>;
}

export interface SimulatedRun {
  readonly history: ApiHistory;
  readonly truth: SimulationTruth;
}

/** The label selectors of the workload, with their own matching (not the checkers'). */
const SELECTORS: readonly { readonly text: string; readonly matches: (labels: Readonly<Record<string, string>>) => boolean }[] = [
  { text: "team=a", matches: (labels) => labels["team"] === "a" },
  { text: "team in (a,b)", matches: (labels) => labels["team"] === "a" || labels["team"] === "b" },
  { text: "tier", matches: (labels) => Object.hasOwn(labels, "tier") },
];

/** The workload's own matching of one of its selectors (everything for none). */
export function workloadSelector(text: string | undefined): (object: ObjectState) => boolean {
  if (text === undefined) return () => true;
  const selector = SELECTORS.find((candidate) => candidate.text === text);
  if (selector === undefined) throw new Error(`not a selector of the workload: ${text}`);
  return (object) => selector.matches(object.labels);
}

const TEAMS = ["a", "b", "c"] as const;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Draft<T extends Operation> = Mutable<Omit<T, "id" | "resumes">> & { seq: number; id: number; resumesDraft?: { kind: "watch" | "list"; draft: Draft<Operation> } };

/** Generates one valid history and its truth. */
export function simulateHistory(workload: SimulatedWorkload): SimulatedRun {
  const rng = new Rng(`simulated-history/${workload.seed}`);
  const namespace = new SimulatedNamespace(
    1000 + rng.fork("base").int(0, 5000),
    workload.opaqueVersions ? opaqueVersions : decimalVersions,
    (() => {
      const gaps = rng.fork("foreign");
      return () => (workload.foreignRevisions ? gaps.int(0, 3) : 0);
    })(),
  );
  const drafts: Draft<Operation>[] = [];
  let seq = 0;
  const add = <T extends Draft<Operation>>(draft: Omit<T, "seq" | "id">): T => {
    const made = { ...draft, seq: seq++, id: -1 } as T;
    drafts.push(made);
    return made;
  };
  const writeChange = new Map<number, SimulatedChange>();
  const readCut = new Map<number, number>();
  const watchStart = new Map<number, number>();
  const end = workload.durationMs;

  if (workload.foreignObject) {
    // Made with the namespace, before anything of the run: no read or watch starts before it.
    namespace.commit(0, "kube-root-ca.crt", { name: "kube-root-ca.crt", uid: namespace.newUid(), value: undefined, labels: {} }, -1);
  }
  const firstCut = workload.foreignObject ? 1 : 0;
  runWriters(workload, rng, namespace, add, writeChange);
  runWatchers(workload, rng, namespace, add, watchStart, firstCut);
  runReaders(workload, rng, namespace, add, readCut, firstCut);

  // Ids in the order operations started (ties by creation), resumes pointing at them.
  drafts.sort((a, b) => a.startMs - b.startMs || a.seq - b.seq);
  drafts.forEach((draft, i) => (draft.id = i));
  const operations = drafts.map((draft) => {
    const { seq: _seq, resumesDraft, ...rest } = draft;
    if (rest.kind !== "watch") return rest as Operation;
    const resumes = resumesDraft === undefined ? undefined : { kind: resumesDraft.kind, operation: resumesDraft.draft.id };
    return { ...rest, resumes } as Operation;
  });
  const bySeq = <V>(map: ReadonlyMap<number, V>): Map<number, V> => {
    const result = new Map<number, V>();
    for (const draft of drafts) if (map.has(draft.seq)) result.set(draft.id, map.get(draft.seq)!);
    return result;
  };
  const clients: HistoryClient[] = [
    ...Array.from({ length: workload.writers }, (_, i) => ({ id: `writer-${i}`, role: "writer" as const })),
    ...Array.from({ length: workload.watchers }, (_, i) => ({ id: `watcher-${i}`, role: "watcher" as const })),
    ...Array.from({ length: workload.readers }, (_, i) => ({ id: `reader-${i}`, role: "reader" as const })),
  ];
  const history: ApiHistory = {
    namespace: `orb-soak-sim-${workload.seed}`,
    seed: workload.seed,
    target: "simulated",
    clients,
    operations,
    startMs: 0,
    endMs: end,
  };
  return {
    history,
    truth: {
      namespace,
      changeOfWrite: bySeq(writeChange),
      cutOfRead: bySeq(readCut),
      startCutOfWatch: bySeq(watchStart),
    },
  };
}

type AddDraft = <T extends Draft<Operation>>(draft: Omit<T, "seq" | "id">) => T;

/** A request's two halves: to the instant the server acts, and back. */
function latency(rng: Rng): number {
  return 0.1 + rng.float() * 1.4;
}

// ---------------------------------------------------------------------------------------------
// Writers

interface WritePlan {
  readonly writer: number;
  readonly draft: Draft<WriteOperation>;
  readonly commitMs: number;
  /** How the answer goes: it comes, it is lost, or it is a 504; with the write committed or not. */
  readonly fate: "answered" | "lost" | "timeout";
  readonly commits: boolean;
}

function runWriters(workload: SimulatedWorkload, root: Rng, namespace: SimulatedNamespace, add: AddDraft, changes: Map<number, SimulatedChange>): void {
  const names = Array.from({ length: workload.names }, (_, i) => `cm-${String(i).padStart(3, "0")}`);
  const hot = names.slice(0, Math.max(1, workload.hotNames));
  const writers = Array.from({ length: workload.writers }, (_, i) => ({
    id: `writer-${i}`,
    rng: root.fork(`writer-${i}`),
    sequence: 0,
    known: new Map<string, string>(),
    older: new Map<string, string>(),
    /** Names the writer learned exist (an AlreadyExists) without learning their version. */
    existing: new Set<string>(),
  }));
  const pending: WritePlan[] = [];
  const schedule = (w: number, sendMs: number): void => {
    const writer = writers[w]!;
    const { rng } = writer;
    if (sendMs >= workload.durationMs - 5) return;
    const name = rng.bool(0.4) ? rng.pick(hot) : rng.pick(names);
    const exists = writer.known.has(name) || writer.existing.has(name);
    const roll = rng.float();
    const verb: WriteOperation["verb"] = exists
      ? roll < 0.05 ? "create" : roll < 0.45 ? "update" : roll < 0.85 ? "patch" : "delete"
      : roll < 0.7 ? "create" : roll < 0.8 ? "update" : roll < 0.9 ? "patch" : "delete";
    const value = verb === "delete" ? undefined : `${writer.id}-${++writer.sequence}`;
    let precondition: string | undefined;
    const conditioned = verb === "update" ? 0.7 : verb === "patch" ? 0.35 : verb === "delete" ? 0.3 : 0;
    if (rng.bool(conditioned)) precondition = rng.bool(0.15) ? (writer.older.get(name) ?? writer.known.get(name)) : writer.known.get(name);
    let labels: Record<string, string | null> | undefined;
    if (verb === "create" || verb === "update") {
      labels = { team: rng.pick(TEAMS) };
      if (rng.bool(0.5)) labels["tier"] = "x";
    } else if (verb === "patch") {
      const flip = rng.float();
      labels = flip < 0.5 ? { team: rng.pick(TEAMS) } : flip < 0.75 ? { tier: null } : flip < 0.9 ? { tier: "x" } : {};
    }
    const toServer = latency(rng);
    const uncertain = rng.bool(workload.uncertainRate);
    const draft = add<Draft<WriteOperation>>({
      kind: "write",
      client: writer.id,
      startMs: sendMs,
      endMs: undefined,
      verb,
      name,
      precondition,
      value,
      labels,
      answer: { type: "uncertain", error: "pending" },
    });
    pending.push({
      writer: w,
      draft,
      commitMs: sendMs + toServer,
      fate: uncertain ? (rng.bool(0.6) ? "lost" : "timeout") : "answered",
      commits: !uncertain || rng.bool(0.5),
    });
  };
  writers.forEach((writer, w) => schedule(w, 3 + writer.rng.float() * 2));

  while (pending.length > 0) {
    // Commit the earliest pending request (a handful pending at a time: a scan is enough).
    let first = 0;
    for (let i = 1; i < pending.length; i++) {
      const a = pending[i]!;
      const b = pending[first]!;
      if (a.commitMs < b.commitMs || (a.commitMs === b.commitMs && a.draft.seq < b.draft.seq)) first = i;
    }
    const plan = pending.splice(first, 1)[0]!;
    const writer = writers[plan.writer]!;
    const { draft } = plan;
    const answer = plan.commits ? apply(namespace, draft, plan.commitMs, workload, changes) : undefined;
    const back = latency(writer.rng);
    if (plan.fate === "lost") {
      draft.answer = { type: "uncertain", error: "context deadline exceeded" };
      draft.endMs = undefined;
    } else if (plan.fate === "timeout") {
      draft.answer = { type: "failed", code: 504, reason: "Timeout" };
      draft.endMs = plan.commitMs + back;
    } else {
      draft.answer = answer!;
      draft.endMs = plan.commitMs + back;
      if (answer!.type === "ok") {
        const previous = writer.known.get(draft.name);
        if (previous !== undefined) writer.older.set(draft.name, previous);
        writer.existing.delete(draft.name);
        if (draft.verb === "delete") writer.known.delete(draft.name);
        else writer.known.set(draft.name, answer!.object.resourceVersion);
      } else if (answer!.type === "failed" && answer!.code === 404) {
        writer.known.delete(draft.name);
        writer.existing.delete(draft.name);
      } else if (answer!.type === "failed" && answer!.reason === "AlreadyExists") writer.existing.add(draft.name);
    }
    const next = (draft.endMs ?? draft.startMs + 20) + writer.rng.float() * 2;
    schedule(plan.writer, next);
  }
}

/** Applies a write at its commit instant: the answer it gets, and the change when it takes effect. */
function apply(
  namespace: SimulatedNamespace,
  draft: Draft<WriteOperation>,
  atMs: number,
  workload: SimulatedWorkload,
  changes: Map<number, SimulatedChange>,
): WriteOperation["answer"] {
  const current = namespace.objectOf(draft.name);
  if (draft.verb === "create") {
    if (current !== undefined) return { type: "failed", code: 409, reason: "AlreadyExists" };
    const labels = definedLabels(draft.labels ?? {});
    const change = namespace.commit(atMs, draft.name, { name: draft.name, uid: namespace.newUid(), value: draft.value, labels }, draft.seq);
    changes.set(draft.seq, change);
    return { type: "ok", code: 201, object: change.after! };
  }
  if (current === undefined) return { type: "failed", code: 404, reason: "NotFound" };
  if (draft.precondition !== undefined && draft.precondition !== current.resourceVersion) return { type: "failed", code: 409, reason: "Conflict" };
  if (draft.verb === "delete") {
    const change = namespace.commit(atMs, draft.name, undefined, draft.seq);
    changes.set(draft.seq, change);
    return { type: "ok", code: 200, object: workload.deleteAnswer === "last-write" ? current : change.deleted! };
  }
  const labels = draft.verb === "update" ? definedLabels(draft.labels ?? {}) : mergedLabels(current.labels, draft.labels ?? {});
  const change = namespace.commit(atMs, draft.name, { name: draft.name, uid: current.uid, value: draft.value, labels }, draft.seq);
  changes.set(draft.seq, change);
  return { type: "ok", code: 200, object: change.after! };
}

function definedLabels(labels: Readonly<Record<string, string | null>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(labels)) if (value !== null) result[key] = value;
  return result;
}

function mergedLabels(labels: Readonly<Record<string, string>>, patch: Readonly<Record<string, string | null>>): Record<string, string> {
  const result: Record<string, string> = { ...labels };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = value;
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Watchers

interface Resume {
  readonly version: string;
  readonly revision: number;
  readonly kind: "watch" | "list";
  readonly draft: Draft<Operation>;
}

function runWatchers(workload: SimulatedWorkload, root: Rng, namespace: SimulatedNamespace, add: AddDraft, starts: Map<number, number>, firstCut: number): void {
  for (let w = 0; w < workload.watchers; w++) {
    const rng = root.fork(`watcher-${w}`);
    const client = `watcher-${w}`;
    const steady = w < workload.steadyWatchers && !workload.selectorWatchersOnly;
    const selector = steady ? undefined : workload.selectorWatchersOnly || rng.bool(0.4) ? rng.pick(SELECTORS) : undefined;
    const bookmarks = rng.bool(0.7);
    const mode = steady ? "now" : rng.pick(["now", "list", "any"] as const);
    const delay = 0.3 + rng.float() * 2;
    let time = steady ? 1 : 1 + rng.float() * workload.durationMs * 0.2;
    let resume: Resume | undefined;
    let first = true;
    while (time < workload.durationMs - 1) {
      if (resume === undefined && (mode === "list" || !first)) {
        // A reflector's list: the state now, then a watch from the list's version.
        const sentMs = time;
        const atMs = sentMs + latency(rng);
        const revision = namespace.globalRevisionAt(atMs);
        const items = namespace.stateAt(namespace.cutOfRevision(revision), (object) => selector === undefined || selector.matches(object.labels));
        const endMs = atMs + latency(rng);
        const version = namespace.format(revision);
        const list = add<Draft<ListOperation>>({
          kind: "list",
          client,
          startMs: sentMs,
          endMs,
          labelSelector: selector?.text,
          resourceVersion: undefined,
          resourceVersionMatch: undefined,
          limit: undefined,
          pages: [{ startMs: sentMs, endMs, continueSent: undefined, answer: { type: "ok", resourceVersion: version, items, continue: undefined, remainingItemCount: undefined } }],
        });
        resume = { version, revision, kind: "list", draft: list };
        time = endMs + 0.1;
      }
      const from = first && mode === "now" ? undefined : first && mode === "any" ? "0" : resume!.version;
      const sentMs = time;
      const atMs = sentMs + latency(rng);
      const longStream = rng.bool(0.2);
      let streamEnd = steady ? workload.durationMs : sentMs + (longStream ? 30 + rng.float() * workload.durationMs * 0.25 : 5 + rng.float() * 30);
      let ending: WatchOperation["ending"] = rng.pick(["server-closed", "client-closed", "connection-lost"] as const);
      if (streamEnd >= workload.durationMs) {
        streamEnd = workload.durationMs;
        ending = "run-ended";
      }
      const draft = add<Draft<WatchOperation>>({
        kind: "watch",
        client,
        startMs: sentMs,
        endMs: ending === "run-ended" ? undefined : streamEnd,
        labelSelector: selector?.text,
        resourceVersion: from,
        allowWatchBookmarks: bookmarks,
        opened: { type: "ok" },
        events: [],
        ending,
      });
      if (resume !== undefined && from !== undefined && from !== "0") draft.resumesDraft = { kind: resume.kind, draft: resume.draft };
      const matches = (object: ObjectState | undefined): boolean => object !== undefined && (selector === undefined || selector.matches(object.labels));

      let startCut: number;
      const events: WatchEvent[] = [];
      let clock = atMs;
      const deliver = (event: Omit<WatchEvent, "atMs">, notBefore: number): boolean => {
        clock = Math.max(clock, notBefore + delay + rng.float() * 0.5);
        if (clock > streamEnd) return false;
        events.push({ atMs: clock, ...event } as WatchEvent);
        return true;
      };
      if (from === undefined || from === "0") {
        const now = namespace.cutOfRevision(namespace.globalRevisionAt(atMs));
        startCut = from === undefined ? now : Math.max(firstCut, now - rng.int(0, 6));
        for (const object of namespace.stateAt(startCut, matches)) {
          if (!deliver({ type: "ADDED", object, bookmarkVersion: undefined, status: undefined }, atMs)) break;
        }
      } else if (namespace.expired(resume!.revision, atMs, workload.retentionMs)) {
        // 410: the answer itself, or an ERROR event on an opened stream; then relist.
        const status = { code: 410, reason: "Expired" };
        if (rng.bool(0.5)) {
          draft.opened = { type: "failed", code: 410, reason: "Expired" };
          draft.events = [];
          draft.ending = "server-closed";
          draft.endMs = atMs + latency(rng);
        } else {
          draft.events = [{ atMs: atMs + delay, type: "ERROR", object: undefined, bookmarkVersion: undefined, status }];
          draft.ending = "server-closed";
          draft.endMs = atMs + delay + 0.1;
        }
        resume = undefined;
        time = draft.endMs! + 0.5 + rng.float() * 3;
        first = false;
        continue;
      } else startCut = namespace.cutOfRevision(resume!.revision);
      starts.set(draft.seq, startCut);

      // Changes after the start, with bookmarks between (each after every change at or before its version).
      let lastVersion: { version: string; revision: number } | undefined;
      let nextBookmark = bookmarks ? atMs + workload.bookmarkIntervalMs * (0.5 + rng.float()) : Infinity;
      const bookmark = (beforeMs: number): boolean => {
        while (nextBookmark < beforeMs && nextBookmark < streamEnd) {
          const revision = namespace.globalRevisionAt(nextBookmark);
          const version = namespace.format(revision);
          if (!deliver({ type: "BOOKMARK", object: undefined, bookmarkVersion: version, status: undefined }, nextBookmark)) return false;
          lastVersion = { version, revision };
          nextBookmark += workload.bookmarkIntervalMs;
        }
        return true;
      };
      let open = true;
      for (let c = startCut; c < namespace.changes.length && open; c++) {
        const change = namespace.changes[c]!;
        if (change.timeMs > streamEnd) break;
        if (!bookmark(change.timeMs)) {
          open = false;
          break;
        }
        const wasIn = matches(change.before);
        const isIn = matches(change.after);
        let event: Omit<WatchEvent, "atMs"> | undefined;
        if (wasIn && isIn) event = { type: "MODIFIED", object: change.after, bookmarkVersion: undefined, status: undefined };
        else if (isIn) event = { type: "ADDED", object: change.after, bookmarkVersion: undefined, status: undefined };
        else if (wasIn) {
          const object =
            change.after === undefined
              ? change.deleted
              : workload.leavingContent === "new"
                ? change.after
                : Object.freeze({ ...change.before!, resourceVersion: change.version });
          event = { type: "DELETED", object, bookmarkVersion: undefined, status: undefined };
        }
        if (event === undefined) continue;
        if (!deliver(event, change.timeMs)) {
          open = false;
          break;
        }
        lastVersion = { version: change.version, revision: change.revision };
      }
      if (open) bookmark(streamEnd);
      draft.events = events;
      if (lastVersion !== undefined) resume = { version: lastVersion.version, revision: lastVersion.revision, kind: "watch", draft };
      else if (from !== undefined && from !== "0") resume = { ...resume!, kind: "watch", draft };
      else resume = undefined;
      // Now and then a cycling watcher starts afresh (a new informer): from now, or list then watch.
      const afresh = !steady && rng.bool(0.15);
      first = afresh && mode !== "list" ? true : false;
      if (afresh) resume = undefined;
      // Usually resume at once; now and then after a pause long enough for the version to expire.
      time = streamEnd + (rng.bool(0.15) ? workload.retentionMs * 1.5 : 0.2 + rng.float() * 5);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Readers

function runReaders(workload: SimulatedWorkload, root: Rng, namespace: SimulatedNamespace, add: AddDraft, cuts: Map<number, number>, firstCut: number): void {
  const names = Array.from({ length: workload.names }, (_, i) => `cm-${String(i).padStart(3, "0")}`);
  for (let r = 0; r < workload.readers; r++) {
    const rng = root.fork(`reader-${r}`);
    const client = `reader-${r}`;
    const seen: { version: string; revision: number }[] = [];
    const remember = (version: string, revision: number): void => {
      seen.push({ version, revision });
      if (seen.length > 20) seen.shift();
    };
    let time = 4 + rng.float() * 3;
    while (time < workload.durationMs - 5) {
      const sentMs = time;
      const atMs = sentMs + latency(rng);
      const endMs = atMs + latency(rng);
      const nowCut = namespace.cutAtTime(atMs);
      const roll = rng.float();
      if (roll < 0.35) {
        // A get: Most Recent, Any, or Not older than a version seen before.
        const name = rng.pick(names);
        const mode = rng.float();
        let resourceVersion: string | undefined;
        let cut = nowCut;
        if (mode < 0.2) {
          resourceVersion = "0";
          cut = Math.max(firstCut, nowCut - rng.int(0, 5));
        } else if (mode < 0.5 && seen.length > 0) {
          const known = rng.pick(seen);
          resourceVersion = known.version;
          cut = rng.int(Math.min(nowCut, namespace.cutOfRevision(known.revision)), nowCut);
        }
        const object = namespace.objectAt(name, cut);
        const draft = add<Draft<GetOperation>>({
          kind: "get",
          client,
          startMs: sentMs,
          endMs,
          name,
          resourceVersion,
          answer: object === undefined ? { type: "failed", code: 404, reason: "NotFound" } : { type: "ok", object },
        });
        cuts.set(draft.seq, cut);
        if (object !== undefined) remember(object.resourceVersion, namespace.revisionOf(object.resourceVersion)!);
        time = endMs + rng.float() * 3;
        continue;
      }
      const selector = rng.bool(0.3) ? rng.pick(SELECTORS) : undefined;
      const matches = (object: ObjectState): boolean => selector === undefined || selector.matches(object.labels);
      if (roll < 0.85) {
        // An unpaged list.
        const mode = rng.float();
        let resourceVersion: string | undefined;
        let resourceVersionMatch: ListOperation["resourceVersionMatch"];
        let revision = namespace.globalRevisionAt(atMs);
        let answer: ListPage["answer"] | undefined;
        if (mode < 0.15) {
          resourceVersion = "0";
          revision = namespace.revisionOfCut(Math.max(firstCut, nowCut - rng.int(0, 5)));
        } else if (mode < 0.4 && seen.length > 0) {
          const known = rng.pick(seen);
          resourceVersion = known.version;
          resourceVersionMatch = rng.bool(0.5) ? "NotOlderThan" : undefined;
          if (rng.bool(0.3)) revision = known.revision;
        } else if (mode < 0.55 && seen.length > 0) {
          const known = rng.pick(seen);
          resourceVersion = known.version;
          resourceVersionMatch = "Exact";
          revision = known.revision;
          if (namespace.expired(revision, atMs, workload.retentionMs)) answer = { type: "failed", code: 410, reason: "Expired" };
        }
        const cut = namespace.cutOfRevision(revision);
        answer ??= { type: "ok", resourceVersion: namespace.format(revision), items: namespace.stateAt(cut, matches), continue: undefined, remainingItemCount: undefined };
        const draft = add<Draft<ListOperation>>({
          kind: "list",
          client,
          startMs: sentMs,
          endMs,
          labelSelector: selector?.text,
          resourceVersion,
          resourceVersionMatch,
          limit: undefined,
          pages: [{ startMs: sentMs, endMs, continueSent: undefined, answer }],
        });
        if (answer.type === "ok") {
          cuts.set(draft.seq, cut);
          remember(answer.resourceVersion, revision);
        }
        time = endMs + rng.float() * 3;
        continue;
      }
      // A paged list: a snapshot at the first page's revision, followed page by page; now and then
      // the reader stalls before one page, long enough for the snapshot to expire (410).
      const limit = rng.int(2, Math.max(4, Math.ceil(workload.names / 6)));
      const stallAt = rng.bool(0.03) ? rng.int(1, 3) : -1;
      let resourceVersion: string | undefined;
      let revision = namespace.globalRevisionAt(atMs);
      if (rng.bool(0.3) && seen.length > 0) {
        const known = rng.pick(seen);
        if (!namespace.expired(known.revision, atMs, workload.retentionMs)) {
          resourceVersion = known.version;
          revision = known.revision;
        }
      }
      const cut = namespace.cutOfRevision(revision);
      const items = namespace.stateAt(cut, matches);
      const version = namespace.format(revision);
      const pages: ListPage[] = [];
      let pageSent = sentMs;
      let pageAt = atMs;
      let pageEnd = endMs;
      for (let from = 0; ; from += limit) {
        const slice = items.slice(from, from + limit);
        const more = from + limit < items.length;
        const continueSent = from === 0 ? undefined : `token-${from}`;
        if (from > 0 && namespace.expired(revision, pageAt, workload.retentionMs)) {
          pages.push({ startMs: pageSent, endMs: pageEnd, continueSent, answer: { type: "failed", code: 410, reason: "Expired" } });
          break;
        }
        pages.push({
          startMs: pageSent,
          endMs: pageEnd,
          continueSent,
          answer: {
            type: "ok",
            resourceVersion: version,
            items: slice,
            continue: more ? `token-${from + limit}` : undefined,
            remainingItemCount: more && selector === undefined ? items.length - from - limit : undefined,
          },
        });
        if (!more) break;
        pageSent = pageEnd + (pages.length === stallAt ? workload.retentionMs * 1.5 : rng.float() * 3);
        pageAt = pageSent + latency(rng);
        pageEnd = pageAt + latency(rng);
      }
      const draft = add<Draft<ListOperation>>({
        kind: "list",
        client,
        startMs: sentMs,
        endMs: pageEnd,
        labelSelector: selector?.text,
        resourceVersion,
        resourceVersionMatch: undefined,
        limit,
        pages,
      });
      cuts.set(draft.seq, cut);
      remember(version, revision);
      time = pageEnd + rng.float() * 3;
    }
  }
}
