/**
 * One run of `fuzz --target api`: a program's steps on the target and on the model (the embedded
 * server in virtual time, without defects) side by side, in a fresh namespace on each.
 * - differential: after every step the target's observation must match the model's
 *   (observation-comparison.ts); watches are compared before a client stops or replaces its watch
 *   and at the end, once the target's stream has caught up with the model's;
 * - history: what the target answered is recorded and goes through the history checkers
 *   (sim/history), which judge what the model cannot determine alone: steps sent together.
 * The first divergence ends the run; the checkers run on what was recorded up to it.
 */
import { createHash } from "node:crypto";
import type { ApiHistory, Operation } from "../../sim/history/api-history.ts";
import { checkHistory } from "../../sim/history/check-history.ts";
import type { HistoryVerdict } from "../../sim/history/history-verdict.ts";
import { describeStep, FUZZ_CLIENTS, type ApiStep } from "./api-steps.ts";
import { FuzzSide, NoAnswerError, readsFromCache, type SideRecorder } from "./fuzz-side.ts";
import type { FuzzServer } from "./fuzz-server.ts";
import { eventsDifference, observationDifference, OpaquePairing } from "./observation-comparison.ts";
import type { Observation } from "./fuzz-observation.ts";

/** How long the target's watch may lag behind the model's before its missing events count as missing. */
const WATCH_CATCH_UP_MS = 5_000;

/** The two servers of a run. */
export interface RunServers {
  readonly model: FuzzServer;
  readonly target: FuzzServer;
  /** The target has no controller publishing the root CA ConfigMap (the embedded server): the run publishes it, as on the model. */
  readonly targetNeedsRootCa: boolean;
  /** The target is a shared server: delete the run's namespace at the end. */
  readonly deleteNamespace: boolean;
}

/** Where a run's target departed from the model. */
export interface Divergence {
  /** Index of the step in the program (for a watch comparison, the step before which it was made). */
  readonly step: number;
  readonly stepText: string;
  readonly difference: string;
}

/** What a run came to. */
export interface ProgramOutcome {
  readonly divergence: Divergence | undefined;
  /** History checkers' violated verdicts. */
  readonly violations: readonly HistoryVerdict[];
  /** The target did not answer (or could not be set up): the run fails with this. */
  readonly error: string | undefined;
  /** Hex digest of the program and of everything the target answered. */
  readonly traceHash: string;
  readonly history: ApiHistory;
}

/** True when an outcome is a failure. */
export function failed(outcome: ProgramOutcome): boolean {
  return outcome.divergence !== undefined || outcome.violations.length > 0 || outcome.error !== undefined;
}

/** Runs `program` on both servers in namespace `namespace`. Never throws for the target's misbehaviour. */
export async function runApiProgram(program: readonly ApiStep[], servers: RunServers, namespace: string, seed: number): Promise<ProgramOutcome> {
  const operations: Operation[] = [];
  let nextId = 0;
  // In virtual time steps one after another share an instant: a tick of a nanosecond per reading
  // keeps "answered before the next was sent" visible to the checkers' real-time rules.
  let ticks = 0;
  const now = () => servers.target.nowMs() + ++ticks * 1e-6;
  const recorder: SideRecorder = { now, begin: () => ({ id: nextId++, startMs: now() }), record: (operation) => operations.push(operation) };
  const startMs = servers.target.nowMs();
  const runStartMs = now();
  const modelStartMs = servers.model.nowMs();
  const model = new FuzzSide(servers.model, namespace, undefined);
  const target = new FuzzSide(servers.target, namespace, recorder);
  const pairing = new OpaquePairing();
  const trace = createHash("sha256").update(JSON.stringify(program));
  let divergence: Divergence | undefined;
  let error: string | undefined;
  try {
    await model.setUp(true);
    await target.setUp(servers.targetNeedsRootCa);
    await target.watchSteadily();
    for (let index = 0; index < program.length && divergence === undefined; index++) {
      const step = program[index]!;
      divergence = await compareWatchesBefore(step, index, model, target, pairing);
      if (divergence !== undefined) break;
      const { modelSaw, targetSaw } = await runBoth(step, index, model, target);
      trace.update(JSON.stringify(targetSaw));
      for (let at = 0; at < modelSaw.length && divergence === undefined; at++) {
        if (!modelSaw[at]!.compared) continue;
        const difference = observationDifference(modelSaw[at]!.observation, targetSaw[at]!.observation, pairing);
        if (difference !== undefined) divergence = { step: index, stepText: describeStep(step), difference };
      }
      await alignClocks(servers, startMs, modelStartMs);
    }
    if (divergence === undefined) {
      for (const client of model.comparedWatches()) {
        divergence = await compareWatch(client, program.length, "at the end", model, target, pairing);
        if (divergence !== undefined) break;
      }
    }
  } catch (caught) {
    if (!(caught instanceof NoAnswerError)) throw caught;
    error = caught.message;
  } finally {
    await target.tearDown(servers.deleteNamespace);
    await model.tearDown(false);
  }
  const history: ApiHistory = {
    namespace,
    seed,
    target: "fuzz",
    clients: Array.from({ length: FUZZ_CLIENTS + 1 }, (_, client) => ({ id: `c${client}`, role: client < FUZZ_CLIENTS ? ("writer" as const) : ("watcher" as const) })),
    operations: [...operations].sort((a, b) => a.startMs - b.startMs || a.id - b.id),
    startMs: runStartMs,
    endMs: now(),
  };
  // Finalizers keep a deleted object in place: outside what the history's model of writes covers.
  const checked = !program.some((step) => usesFinalizers(step));
  const violations = checked ? checkHistory(history).filter((verdict) => !verdict.held) : [];
  trace.update(JSON.stringify({ divergence, error, violations: violations.map((verdict) => verdict.id) }));
  return { divergence, violations, error, traceHash: trace.digest("hex"), history };
}

interface Seen {
  readonly observation: Observation;
  /** Compared with the model's: false for reads sent together with other steps, and for reads a cache may serve. */
  readonly compared: boolean;
}

/** Runs a step on both sides: the model first (its answers never wait), then the target. */
async function runBoth(step: ApiStep, index: number, model: FuzzSide, target: FuzzSide): Promise<{ modelSaw: Seen[]; targetSaw: Seen[] }> {
  if (step.op !== "together") {
    const value = `s${index}`;
    // A read a server may serve from a cache behind the latest write (doc 1 §4.4): the history
    // checkers judge it, not the model.
    const compared = !readsFromCache(step);
    return { modelSaw: [{ observation: await model.run(step, value), compared }], targetSaw: [{ observation: await target.run(step, value), compared }] };
  }
  const runGroup = async (side: FuzzSide): Promise<Seen[]> => {
    const observations = await Promise.all(
      step.steps.map(async (member, at) => {
        const lagMs = step.lagsMs[at] ?? 0;
        if (lagMs > 0) await side.server.pause(lagMs);
        return side.run(member as Exclude<ApiStep, { op: "together" }>, `g${index}.${at}`, true);
      }),
    );
    // Writes on distinct keys have one outcome whatever the order; reads depend on it.
    return observations.map((observation, at) => ({ observation, compared: isWrite(step.steps[at]!) }));
  };
  return { modelSaw: await runGroup(model), targetSaw: await runGroup(target) };
}

/** Before a step that stops or replaces watches: compares their events so far. */
async function compareWatchesBefore(step: ApiStep, index: number, model: FuzzSide, target: FuzzSide, pairing: OpaquePairing): Promise<Divergence | undefined> {
  const members = step.op === "together" ? step.steps : [step];
  for (const member of members) {
    if (member.op !== "watch" && member.op !== "stop-watch") continue;
    const divergence = await compareWatch(member.client, index, `before step ${index + 1}`, model, target, pairing);
    if (divergence !== undefined) return divergence;
  }
  return undefined;
}

async function compareWatch(client: number, step: number, when: string, model: FuzzSide, target: FuzzSide, pairing: OpaquePairing): Promise<Divergence | undefined> {
  const expected = model.watchEvents(client);
  if (expected === undefined) return undefined;
  await model.server.flush();
  // A real server's events come when they come: wait for as many as the model sent. In virtual
  // time whatever was sent has arrived once the streams are flushed.
  const deadline = performance.now() + WATCH_CATCH_UP_MS;
  const changes = (events: readonly { type: string }[] | undefined) => (events ?? []).filter((event) => event.type !== "BOOKMARK").length;
  while (!target.server.virtual && changes(target.watchEvents(client)) < changes(expected) && performance.now() < deadline) await target.server.pause(20);
  await target.server.flush();
  const received = target.watchEvents(client) ?? [];
  const difference = eventsDifference(expected, received, pairing);
  return difference === undefined ? undefined : { step, stepText: `c${client}'s watch, ${when}`, difference };
}

/** Keeps the two virtual clocks together (time since the run began): a planted delay moves the target's on alone. */
async function alignClocks(servers: RunServers, targetStartMs: number, modelStartMs: number): Promise<void> {
  const lag = servers.target.nowMs() - targetStartMs - (servers.model.nowMs() - modelStartMs);
  if (lag > 0) await servers.model.pause(lag);
  else if (lag < 0 && servers.target.virtual) await servers.target.pause(-lag);
}

function isWrite(step: ApiStep): boolean {
  return step.op === "create" || step.op === "update" || step.op === "patch" || step.op === "delete" || step.op === "apply" || step.op === "release";
}

function usesFinalizers(step: ApiStep): boolean {
  if (step.op === "together") return step.steps.some(usesFinalizers);
  return (step.op === "create" && step.finalizer) || step.op === "release";
}
