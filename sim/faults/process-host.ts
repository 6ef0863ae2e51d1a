/**
 * The simulated processes: each runs an actor on its own ProcessClock and can be crashed and
 * restarted, paused, drifted and stepped (issue #6, "Faults"). A restart builds a fresh actor on a
 * fresh clock of the same machine: same drift, same wall offset, new incarnation.
 */
import type { Simulation } from "../kernel/simulation.ts";
import { ProcessClock } from "./process-clock.ts";
import type { WakeupBatcher } from "./wakeup-batcher.ts";

/** How to start one process: called for every incarnation (0, 1, …) with its clock. */
export type ProcessStart = (clock: ProcessClock, incarnation: number) => void;

interface Hosted {
  readonly start: ProcessStart;
  clock: ProcessClock;
  incarnation: number;
  driftPpm: number;
}

/** Every process of a scenario. */
export class ProcessHost {
  readonly #sim: Simulation;
  readonly #timers: WakeupBatcher;
  readonly #processes = new Map<string, Hosted>();

  constructor(sim: Simulation, timers: WakeupBatcher) {
    this.#sim = sim;
    this.#timers = timers;
  }

  /** Names of every process, in the order added. */
  get names(): readonly string[] {
    return [...this.#processes.keys()];
  }

  /** Adds and starts process `name`. */
  add(name: string, start: ProcessStart, driftPpm = 0): void {
    if (this.#processes.has(name)) throw new Error(`process ${name} exists already`);
    const clock = new ProcessClock(name, this.#sim, this.#timers, { driftPpm });
    this.#processes.set(name, { start, clock, incarnation: 0, driftPpm });
    start(clock, 0);
  }

  /** The current clock of `name`. */
  clock(name: string): ProcessClock {
    return this.#get(name).clock;
  }

  /** Whether `name` is running (not crashed). */
  alive(name: string): boolean {
    return this.#get(name).clock.alive;
  }

  /** Crashes `name`; with `restartAfterMs`, starts a new incarnation that much later. */
  crash(name: string, restartAfterMs: number | undefined, onRestart?: () => void): void {
    const hosted = this.#get(name);
    if (!hosted.clock.alive) return;
    hosted.clock.kill();
    if (restartAfterMs === undefined) return;
    this.#sim.setTimer(restartAfterMs, () => {
      hosted.incarnation++;
      hosted.clock = new ProcessClock(name, this.#sim, this.#timers, { driftPpm: hosted.driftPpm, wallOffsetMs: hosted.clock.wallOffsetMs });
      onRestart?.();
      hosted.start(hosted.clock, hosted.incarnation);
    });
  }

  /** Stops `name` for `durationMs` of true time. */
  pause(name: string, durationMs: number): void {
    this.#get(name).clock.pause(durationMs);
  }

  /** Sets the drift of `name`'s machine clock. */
  setDrift(name: string, ppm: number): void {
    const hosted = this.#get(name);
    hosted.driftPpm = ppm;
    hosted.clock.setDriftPpm(ppm);
  }

  /** Steps `name`'s wall clock. */
  step(name: string, stepMs: number): void {
    this.#get(name).clock.step(stepMs);
  }

  #get(name: string): Hosted {
    const hosted = this.#processes.get(name);
    if (hosted === undefined) throw new Error(`no process ${name}; processes: ${this.names.join(", ")}`);
    return hosted;
  }
}
