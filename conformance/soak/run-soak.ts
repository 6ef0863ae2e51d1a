/**
 * One soak run (issue 15): in a namespace of its own, the steady watchers open first, then the
 * cycling watchers, writers and readers work for the duration; then the writers and readers stop,
 * the watchers get the last events, their streams close, and the namespace is deleted. Everything
 * is recorded into an ApiHistory for the checkers (sim/history). The namespace is deleted whatever
 * happens, Ctrl-C (`signal`) included; the target is the caller's to close.
 */
import type { ApiHistory } from "../../sim/history/api-history.ts";
import { SoakConnection } from "./soak-connection.ts";
import type { SoakClientContext } from "./soak-client-context.ts";
import { awaitPublishedConfigMaps, createSoakNamespace, deleteSoakNamespace, soakNamespaceName, type NamespaceCleanup } from "./soak-namespace.ts";
import { SoakPlan } from "./soak-plan.ts";
import { runReader } from "./soak-reader.ts";
import { SoakRecorder } from "./soak-recorder.ts";
import { NAMESPACE_GONE_WAIT_MS, SETTLE_MAX_MS, SETTLE_QUIET_MS, STEADY_WATCHERS, type SoakSettings } from "./soak-settings.ts";
import type { SoakTarget } from "./soak-target.ts";
import { runCyclingWatcher, runSteadyWatcher, type SteadyWatcherMode } from "./soak-watcher.ts";
import { runWriter } from "./soak-writer.ts";

/** How long a run on a cluster waits for the root-CA ConfigMap in its new namespace. */
const PUBLISHED_CONFIG_MAPS_WAIT_MS = 5_000;

/** The steady watchers: one from now with bookmarks, one a reflector (list, then watch from its version). */
const STEADY_MODES: readonly SteadyWatcherMode[] = [
  { start: "now", bookmarks: true },
  { start: "list", bookmarks: false },
];

/** A run's settings and where it reports. */
export interface SoakRunOptions {
  readonly settings: SoakSettings;
  readonly target: SoakTarget;
  /** Ctrl-C: stops the workload at once (no settle wait); the namespace is still deleted. */
  readonly signal?: AbortSignal;
  /** A progress line about every `progressIntervalMs` (default 5 s). */
  readonly onProgress?: (line: string) => void;
  readonly progressIntervalMs?: number;
  /** Called once the namespace exists, with its name. */
  readonly onNamespace?: (namespace: string) => void;
}

/** What a run produced. */
export interface SoakRun {
  readonly history: ApiHistory;
  /** From the first request of the workload to the stop of the writers and readers. */
  readonly workloadMs: number;
  readonly interrupted: boolean;
  readonly namespace: NamespaceCleanup & { readonly name: string };
}

/** Runs the workload and returns its history. Throws SoakNamespaceError when the namespace cannot be created. */
export async function runSoak(options: SoakRunOptions): Promise<SoakRun> {
  const { settings, target } = options;
  if (settings.watchers < STEADY_WATCHERS) throw new RangeError(`a soak needs at least ${STEADY_WATCHERS} watchers, got ${settings.watchers}`);
  const plan = new SoakPlan(settings.seed, settings.keys);
  const connection = new SoakConnection(target.identity, target.url, soakNamespaceName(plan), settings.requestTimeoutMs);
  await createSoakNamespace(connection);
  options.onNamespace?.(connection.namespace);
  // The embedded server publishes nothing into namespaces; clusters do.
  if (target.kind !== "embedded") await awaitPublishedConfigMaps(connection, PUBLISHED_CONFIG_MAPS_WAIT_MS);
  const workloadStop = new AbortController();
  const watchStop = new AbortController();
  const recorder = new SoakRecorder();
  const context: SoakClientContext = { connection, recorder, plan, workloadStop: workloadStop.signal, watchStop: watchStop.signal };
  // A client that throws (a bug in the soak, never a server's answer) stops the run; the error is
  // rethrown once everything stopped and the namespace is deleted.
  let failure: { readonly error: unknown } | undefined;
  const stopAll = (error?: unknown) => {
    if (error !== undefined) failure ??= { error };
    workloadStop.abort();
    watchStop.abort();
  };
  const interrupt = () => stopAll();
  options.signal?.addEventListener("abort", interrupt, { once: true });
  if (options.signal?.aborted) interrupt();
  let workloadMs = 0;
  const watchers: Promise<void>[] = [];
  const workload: Promise<void>[] = [];
  try {
    const steadyReady: Promise<void>[] = [];
    for (let index = 0; index < STEADY_WATCHERS; index++) {
      const client = `watcher-${index}`;
      recorder.addClient(client, "watcher");
      steadyReady.push(new Promise((ready) => watchers.push(runSteadyWatcher(context, client, STEADY_MODES[index]!, ready).catch(stopAll))));
    }
    // The writers wait until the server's full order is being watched.
    await Promise.all(steadyReady);
    for (let index = STEADY_WATCHERS; index < settings.watchers; index++) {
      const client = `watcher-${index}`;
      recorder.addClient(client, "watcher");
      watchers.push(runCyclingWatcher(context, client, index).catch(stopAll));
    }
    for (let index = 0; index < settings.writers; index++) {
      recorder.addClient(`writer-${index}`, "writer");
      workload.push(runWriter(context, index).catch(stopAll));
    }
    for (let index = 0; index < settings.readers; index++) {
      recorder.addClient(`reader-${index}`, "reader");
      workload.push(runReader(context, index).catch(stopAll));
    }
    const started = performance.now();
    const progress = setInterval(() => options.onProgress?.(progressLine(recorder, performance.now() - started)), options.progressIntervalMs ?? 5_000);
    const timer = setTimeout(() => workloadStop.abort(), settings.durationMs);
    try {
      await Promise.all(workload);
    } finally {
      clearTimeout(timer);
      clearInterval(progress);
    }
    workloadMs = performance.now() - started;
    if (!watchStop.signal.aborted) await settle(recorder, watchStop.signal);
    watchStop.abort();
    await Promise.all(watchers);
  } catch (error) {
    stopAll(error);
  } finally {
    options.signal?.removeEventListener("abort", interrupt);
    // Every client has stopped before the history is taken (they catch their own errors).
    await Promise.all([...workload, ...watchers]);
  }
  const history = recorder.history({ namespace: connection.namespace, seed: settings.seed, target: target.description });
  const cleanup = await deleteSoakNamespace(connection, NAMESPACE_GONE_WAIT_MS);
  if (failure !== undefined) throw failure.error;
  return { history, workloadMs, interrupted: options.signal?.aborted === true, namespace: { ...cleanup, name: connection.namespace } };
}

/** Waits until no change reached a watcher for SETTLE_QUIET_MS (at most SETTLE_MAX_MS): the last writes' events have arrived. */
async function settle(recorder: SoakRecorder, stop: AbortSignal): Promise<void> {
  const deadline = performance.now() + SETTLE_MAX_MS;
  while (!stop.aborted && performance.now() < deadline && performance.now() - recorder.lastChangeAtMs < SETTLE_QUIET_MS) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function progressLine(recorder: SoakRecorder, elapsedMs: number): string {
  const { operations, events } = recorder.tally;
  const seconds = elapsedMs / 1000;
  return `${seconds.toFixed(0)} s: ${operations} operations (${(operations / seconds).toFixed(0)}/s), ${events} watch events`;
}
