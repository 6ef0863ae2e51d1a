/**
 * The watchers of a soak run, as informers use watches (doc 1 §4.6, §4.7): from now (no
 * resourceVersion: synthetic ADDED events first), from Any ("0"), or a reflector's list then watch
 * from the list's version; with or without bookmarks and a label selector. A cycling watcher
 * closes its stream now and then and resumes from the last version it saw (an event's or a
 * bookmark's), as doc 1 §4.6.2 says; on a 410 (an ERROR event or the answer itself) it relists and
 * watches from the new list's version. Steady watchers watch the whole namespace for the whole
 * run and never close on purpose: they give the checkers the server's full order of writes.
 */
import type { WatchEvent, WatchOperation } from "../../sim/history/api-history.ts";
import { failedAnswer, watchEvent } from "./history-objects.ts";
import { interruptiblePause } from "./interruptible-pause.ts";
import { recordedList } from "./recorded-list.ts";
import type { SoakClientContext } from "./soak-client-context.ts";
import { SELECTED_SELECTOR, WATCH_RETRY_PAUSE_MS } from "./soak-settings.ts";
import { readWatchLines } from "./watch-stream-reader.ts";

/** A version to start from and the operation it came from. */
interface ResumePoint {
  readonly resourceVersion: string;
  readonly resumes: NonNullable<WatchOperation["resumes"]>;
}

/** One watcher's succession of streams with the same selector and bookmark setting. */
interface WatchChain {
  readonly selector: boolean;
  readonly bookmarks: boolean;
  /** Where the next stream resumes: the last version seen, by event, bookmark or list; undefined: relist first. */
  from: ResumePoint | undefined;
}

/** How one stream went. */
interface StreamOutcome {
  /** The server said 410: the version is gone (an ERROR event or the answer to the request). */
  readonly expired: boolean;
  /** The stream opened (200 and a body); false when refused or unanswered. */
  readonly opened: boolean;
}

/** What a steady watcher does: watch from now with bookmarks, or list then watch. */
export interface SteadyWatcherMode {
  readonly start: "now" | "list";
  readonly bookmarks: boolean;
}

/**
 * Runs steady watcher `client` until the watchers stop; `onReady` is called once its first stream
 * opened (or could not open), so the writers start only once it watches.
 */
export async function runSteadyWatcher(context: SoakClientContext, client: string, mode: SteadyWatcherMode, onReady: () => void): Promise<void> {
  const chain: WatchChain = { selector: false, bookmarks: mode.bookmarks, from: undefined };
  let ready = false;
  const readyOnce = () => {
    if (!ready) onReady();
    ready = true;
  };
  try {
    let first = true;
    while (!context.watchStop.aborted) {
      if ((mode.start === "list" || !first) && chain.from === undefined && !(await relist(context, client, chain))) {
        // A list that failed counts as the first try: the writers must not wait for it forever.
        readyOnce();
        await interruptiblePause(WATCH_RETRY_PAUSE_MS, context.watchStop);
        continue;
      }
      const start = first && mode.start === "now" ? { resourceVersion: undefined, resumes: undefined } : chain.from!;
      first = false;
      const outcome = await watchStream(context, client, chain, start, undefined, readyOnce);
      if (outcome.expired) chain.from = undefined;
      // The server ended or refused the stream: resume (or relist) after a pause, not in a hot loop.
      await interruptiblePause(WATCH_RETRY_PAUSE_MS, context.watchStop);
    }
  } finally {
    readyOnce();
  }
}

/** Runs cycling watcher `client` (plan stream `index`) until the watchers stop. */
export async function runCyclingWatcher(context: SoakClientContext, client: string, index: number): Promise<void> {
  const next = context.plan.watcher(index);
  let chain: WatchChain | undefined;
  while (!context.watchStop.aborted) {
    const cycle = next();
    await interruptiblePause(cycle.awayMs, context.watchStop);
    if (context.watchStop.aborted) break;
    let start: ResumePoint | { resourceVersion: string | undefined; resumes: undefined };
    if (cycle.fresh || chain === undefined) {
      chain = { selector: cycle.selector, bookmarks: cycle.bookmarks, from: undefined };
      if (cycle.start === "list") {
        if (!(await relist(context, client, chain))) {
          await interruptiblePause(WATCH_RETRY_PAUSE_MS, context.watchStop);
          continue;
        }
        start = chain.from!;
      } else {
        start = { resourceVersion: cycle.start === "any" ? "0" : undefined, resumes: undefined };
      }
    } else {
      if (chain.from === undefined && !(await relist(context, client, chain))) {
        await interruptiblePause(WATCH_RETRY_PAUSE_MS, context.watchStop);
        continue;
      }
      start = chain.from!;
    }
    if (context.watchStop.aborted) break;
    const outcome = await watchStream(context, client, chain, start, cycle.holdMs, () => undefined);
    // A reflector on 410: list again, and the next stream starts at the list's version.
    if (outcome.expired) {
      chain.from = undefined;
      if (!context.watchStop.aborted) await relist(context, client, chain);
    }
    if (!outcome.opened) await interruptiblePause(WATCH_RETRY_PAUSE_MS, context.watchStop);
  }
}

/** Lists the chain's objects at Most Recent and sets its resume point to the list's version; false when the list failed. */
async function relist(context: SoakClientContext, client: string, chain: WatchChain): Promise<boolean> {
  const list = await recordedList(context, client, { selector: chain.selector, resourceVersion: undefined, resourceVersionMatch: undefined, limit: undefined, pagePauseMs: 0 });
  const answer = list.pages[0]?.answer;
  if (answer?.type !== "ok" || answer.resourceVersion === "") return false;
  chain.from = { resourceVersion: answer.resourceVersion, resumes: { kind: "list", operation: list.id } };
  return true;
}

/**
 * One watch request, from its start to the end of its stream: held `holdMs` then closed by the
 * client (undefined: until the server ends it or the watchers stop), every event recorded, and
 * the chain's resume point moved to each version seen.
 */
async function watchStream(
  context: SoakClientContext,
  client: string,
  chain: WatchChain,
  start: { readonly resourceVersion: string | undefined; readonly resumes: WatchOperation["resumes"] },
  holdMs: number | undefined,
  onOpened: () => void,
): Promise<StreamOutcome> {
  const { connection, recorder } = context;
  const query = new URLSearchParams();
  if (start.resourceVersion !== undefined) query.set("resourceVersion", start.resourceVersion);
  if (chain.bookmarks) query.set("allowWatchBookmarks", "true");
  if (chain.selector) query.set("labelSelector", SELECTED_SELECTOR);
  const control = new AbortController();
  const { id, startMs } = recorder.begin();
  const common = {
    kind: "watch",
    id,
    client,
    startMs,
    labelSelector: chain.selector ? SELECTED_SELECTOR : undefined,
    resourceVersion: start.resourceVersion,
    allowWatchBookmarks: chain.bookmarks,
    resumes: start.resumes,
  } as const;
  const opening = await connection.openWatch(query.toString(), control);
  onOpened();
  if (opening.type === "uncertain") {
    recorder.record({ ...common, endMs: undefined, opened: { type: "uncertain", error: opening.error }, events: [], ending: "connection-lost" });
    return { expired: false, opened: false };
  }
  if (opening.type === "answer") {
    recorder.record({ ...common, endMs: opening.endMs, opened: failedAnswer(opening.status, opening.body), events: [], ending: "server-closed" });
    return { expired: opening.status === 410, opened: false };
  }
  const events: WatchEvent[] = [];
  let expired = false;
  let ending: WatchOperation["ending"] | undefined;
  const close = (why: "client-closed" | "run-ended") => {
    ending ??= why;
    control.abort();
  };
  const stop = () => close("run-ended");
  const holdTimer = holdMs === undefined ? undefined : setTimeout(() => close("client-closed"), holdMs);
  context.watchStop.addEventListener("abort", stop, { once: true });
  if (context.watchStop.aborted) stop();
  const end = await readWatchLines(
    opening.body,
    (line, atMs) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        return; // not an event: nothing the history can hold
      }
      const event = watchEvent(parsed, atMs);
      if (event === undefined) return;
      events.push(event);
      recorder.noteEvent(event.type);
      if (event.type === "ERROR") expired ||= event.status?.code === 410;
      const version = event.object?.resourceVersion ?? event.bookmarkVersion;
      if (version !== undefined && version !== "") chain.from = { resourceVersion: version, resumes: { kind: "watch", operation: id } };
    },
    control.signal,
  );
  clearTimeout(holdTimer);
  context.watchStop.removeEventListener("abort", stop);
  control.abort(); // frees the connection whatever ended the stream
  ending ??= end === "ended" ? "server-closed" : "connection-lost";
  recorder.record({ ...common, endMs: performance.now(), opened: { type: "ok" }, events, ending });
  return { expired, opened: true };
}
