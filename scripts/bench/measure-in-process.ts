/**
 * The benchmarks that run inside the benchmark's own process, on the model: the kernel's event
 * queue, the 5,000-node simulation, the store, the history checkers, the store fuzzer and the
 * conformance suite against the embedded server. Each returns its figures by key (bench-catalog.ts).
 * Wall time is read here, in scripts/, never inside sim/.
 */
import { performance } from "node:perf_hooks";
import { Simulation } from "../../sim/kernel/simulation.ts";
import { MvccStore } from "../../sim/store/mvcc-store.ts";
import type { StoredObject } from "../../sim/store/stored-object.ts";
import { checkHistory } from "../../sim/history/check-history.ts";
import { simulateHistory, simulatedWorkload } from "../../sim/history/simulated-history.ts";
import { runStoreFuzz } from "../../sim/fuzz/store/run-store-fuzz.ts";
import { parseFaultSpec } from "../../sim/faults/fault-spec.ts";
import { runNodeEvictionScenario } from "../../sim/scenarios/node-eviction-scenario.ts";
import { agentParameters, lifecycleParameters } from "../../sim/scenarios/scenario-parameters.ts";
import { runConformanceSuite } from "../library/conformance-suite.ts";

export type Figures = Record<string, number>;

/** Events a chain of self-rescheduling timers makes the bare kernel run, per second. */
export async function measureKernel(events: number): Promise<Figures> {
  const sim = new Simulation({ seed: "bench-kernel" });
  let left = events;
  // 1,000 chains at 97 different periods: a queue of 1,000 pending events, always reordering.
  for (let chain = 0; chain < 1_000; chain++) {
    const period = 1 + (chain % 97);
    const fire = (): void => {
      if (--left > 0) sim.setTimer(period, fire);
    };
    sim.setTimer(period, fire);
  }
  const started = performance.now();
  const result = await sim.run({ maxEvents: events });
  const seconds = (performance.now() - started) / 1000;
  return { "kernel.eventsPerSecond": result.eventsRun / seconds };
}

/** The node-eviction simulation (a zone cut off for a sixth of the run): virtual over wall time of the run itself, and kernel events per second. */
export async function measureSimulation(size: { nodes: number; zones: number; pods: number; durationMs: number }): Promise<Figures> {
  let started = 0;
  let ended = 0;
  const cutAt = Math.round(size.durationMs / 3 / 60_000);
  const result = await runNodeEvictionScenario({
    seed: 1,
    durationMs: size.durationMs,
    nodes: size.nodes,
    zones: size.zones,
    pods: size.pods,
    dialect: "orb",
    lifecycle: lifecycleParameters("orb", undefined),
    agent: agentParameters("orb"),
    faults: parseFaultSpec(`partition:zone-a@${cutAt}m+${Math.max(1, Math.round(cutAt / 2))}m`),
    onStarted: () => (started = performance.now()),
    onRunEnded: () => (ended = performance.now()),
  });
  if (result.verdicts.some((verdict) => !verdict.held)) throw new Error("an invariant of the simulation was violated");
  const seconds = (ended - started) / 1000;
  return { "sim.timeCompression": size.durationMs / 1000 / seconds, "sim.eventsPerSecond": result.kernelEvents / seconds };
}

const PADDING = "x".repeat(1_900);

function storedPod(index: number): StoredObject {
  return { metadata: { name: `pod-${String(index).padStart(6, "0")}`, namespace: `ns-${index % 10}`, labels: { app: "bench" } }, spec: { padding: PADDING } };
}

/** Creates of ~2 KiB objects per second, and a list of all of them at a revision every one has since moved past. */
export function measureStore(objects: number): Figures {
  const sim = new Simulation({ seed: "bench-store" });
  const store = new MvccStore({ clock: sim, tokenKey: sim.rng.fork("token").bytes(32) });
  const key = (index: number) => ({ resource: "pods", namespace: `ns-${index % 10}`, name: storedPod(index).metadata.name });
  const started = performance.now();
  for (let i = 0; i < objects; i++) store.create(key(i), storedPod(i));
  const writeSeconds = (performance.now() - started) / 1000;
  const past = store.revision;
  for (let i = 0; i < objects; i++) store.update(key(i), storedPod(i));
  store.list({ prefix: "pods/", revision: past }); // warm-up
  const listStarted = performance.now();
  const listed = store.list({ prefix: "pods/", revision: past });
  const listMs = performance.now() - listStarted;
  if (listed.items.length !== objects) throw new Error(`the store listed ${listed.items.length} of ${objects} objects`);
  return { "store.writesPerSecond": objects / writeSeconds, "store.listAtRevisionMs": listMs };
}

/** Seconds the history checkers take per 100,000 operations of a soak-shaped history. */
export function measureHistory(durationMs: number): Figures {
  const workload = simulatedWorkload(7, { durationMs, writers: 9, readers: 10, watchers: 20, steadyWatchers: 18, names: 300, hotNames: 20, retentionMs: 3_000, bookmarkIntervalMs: 500, foreignRevisions: true });
  const { history } = simulateHistory(workload);
  const started = performance.now();
  const verdicts = checkHistory(history);
  const seconds = (performance.now() - started) / 1000;
  if (verdicts.length === 0) throw new Error("the history checkers gave no verdict");
  return { "history.checkSecondsPer100kOps": (seconds * 100_000) / history.operations.length };
}

/** Runs of the store's property-based fuzzer per second (every property, `runs` each). */
export async function measureFuzz(runs: number): Promise<Figures> {
  const started = performance.now();
  const result = await runStoreFuzz({ seed: 1, runs });
  const seconds = (performance.now() - started) / 1000;
  const total = result.outcomes.reduce((sum, outcome) => sum + outcome.runs, 0);
  if (result.outcomes.some((outcome) => !outcome.passed)) throw new Error("the store fuzzer found a failure");
  return { "fuzz.runsPerSecond": total / seconds };
}

/** Wall seconds of the whole conformance suite against the embedded server. */
export async function measureConformance(): Promise<Figures> {
  const started = performance.now();
  const result = await runConformanceSuite({});
  const seconds = (performance.now() - started) / 1000;
  if (result.totals.fail + result.totals.error > 0) throw new Error(`the conformance suite failed ${result.totals.fail + result.totals.error} cases against the embedded server`);
  return { "conformance.wallSeconds": seconds };
}
