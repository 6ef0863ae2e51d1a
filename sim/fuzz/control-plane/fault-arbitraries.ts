/**
 * fast-check arbitraries of fault schedules, by class (issue #6: `--faults
 * pauses|drift|partitions|all`; here also `crashes`). Each fault shrinks toward an earlier start,
 * a shorter duration and the first target (`leader` for leader election), so a failure shrinks to
 * a minimal schedule. Bounds keep every class but `pauses` within the documented assumptions:
 * drift within ±500 ppm, steps within ±10 s, latency capped well below the leader election slack.
 */
import fc from "fast-check";
import type { Fault } from "../../faults/fault-schedule.ts";

/** The fault classes. */
export const FAULT_CLASSES = ["pauses", "drift", "partitions", "crashes"] as const;

/** A fault class. */
export type FaultClass = (typeof FAULT_CLASSES)[number];

/** The classes fuzzed when none is named: all but pauses (under which safety must hold). */
export const DEFAULT_FAULT_CLASSES: readonly FaultClass[] = ["drift", "partitions", "crashes"];

/** What a schedule may target and when. */
export interface FaultShape {
  /** Targets, most interesting first (shrinking goes toward the first). */
  readonly targets: readonly string[];
  /** Faults start within [0, latestStartMs]. */
  readonly latestStartMs: number;
  /** Longest pause, partition, latency or drop window. */
  readonly longestMs: number;
  /** Most faults in one schedule. */
  readonly maxFaults: number;
}

/** Parses `pauses,drift` / `all` into classes; throws on an unknown name. */
export function parseFaultClasses(text: string): FaultClass[] {
  const names = text.split(",").map((name) => name.trim()).filter((name) => name !== "");
  const classes = new Set<FaultClass>();
  for (const name of names) {
    if (name === "all") FAULT_CLASSES.forEach((known) => classes.add(known));
    else if ((FAULT_CLASSES as readonly string[]).includes(name)) classes.add(name as FaultClass);
    else throw new RangeError(`unknown fault class "${name}"; one of ${[...FAULT_CLASSES, "all"].join(", ")}`);
  }
  return FAULT_CLASSES.filter((known) => classes.has(known));
}

/** Schedules of faults of `classes` over `shape`. */
export function faultScheduleArbitrary(classes: readonly FaultClass[], shape: FaultShape): fc.Arbitrary<Fault[]> {
  const choices = classes.flatMap((faultClass) => arbitrariesOf(faultClass, shape));
  if (choices.length === 0) return fc.constant([]);
  return fc.array(fc.oneof(...choices), { minLength: 1, maxLength: shape.maxFaults });
}

function arbitrariesOf(faultClass: FaultClass, shape: FaultShape): fc.Arbitrary<Fault>[] {
  const target = fc.constantFrom(...shape.targets);
  const atMs = fc.integer({ min: 0, max: shape.latestStartMs });
  const durationMs = fc.integer({ min: 1000, max: shape.longestMs });
  switch (faultClass) {
    case "pauses":
      return [fc.record({ kind: fc.constant("pause" as const), target, atMs, durationMs })];
    case "drift":
      return [
        fc.record({ kind: fc.constant("drift" as const), target, atMs, ppm: fc.integer({ min: -500, max: 500 }) }),
        fc.record({ kind: fc.constant("step" as const), target, atMs, stepMs: fc.integer({ min: -10_000, max: 10_000 }) }),
      ];
    case "partitions":
      return [
        fc.record({ kind: fc.constant("partition" as const), target, atMs, durationMs }),
        fc.record({ kind: fc.constant("drop" as const), target, atMs, durationMs, probability: fc.integer({ min: 1, max: 9 }).map((tenths) => tenths / 10) }),
        fc.record({
          kind: fc.constant("latency" as const),
          target,
          atMs,
          durationMs,
          latency: fc.integer({ min: 2, max: 200 }).map((maxMs) => ({ minMs: 1, meanExtraMs: Math.ceil(maxMs / 4), maxMs })),
        }),
      ];
    case "crashes":
      return [fc.record({ kind: fc.constant("crash" as const), target, atMs, restartAfterMs: fc.option(durationMs, { nil: undefined }) }).map(withoutUndefined)];
  }
}

// fc.record keeps a key whose value is undefined; a crash without restart has no restartAfterMs.
function withoutUndefined(fault: { kind: "crash"; target: string; atMs: number; restartAfterMs: number | undefined }): Fault {
  const { restartAfterMs, ...rest } = fault;
  return restartAfterMs === undefined ? rest : { ...rest, restartAfterMs };
}
