/**
 * fast-check arbitraries of `fuzz --target api` programs (api-steps.ts). Shrinking removes steps
 * and simplifies the rest (fewer flags, smaller waits), so a failure ends as a few steps.
 *
 * Steps that run "together" are sent at the same instant: writes among them touch distinct keys,
 * so that their outcomes do not depend on the order the server picks, and the model can be the
 * oracle for them too; reads among them are judged by the history checkers alone.
 */
import fc from "fast-check";
import { FUZZ_CLIENTS, FUZZ_KEYS, type ApiStep, type FuzzKey } from "./api-steps.ts";

/** What the target allows: waits only where time can be advanced (the embedded server in virtual time). */
export interface ProgramShape {
  readonly virtualTime: boolean;
  /** Most steps in a program. */
  readonly maxSteps: number;
}

const client = fc.integer({ min: 0, max: FUZZ_CLIENTS - 1 });
const key = fc.constantFrom(...FUZZ_KEYS);
const representation = fc.constantFrom("json", "protobuf", "table", "fallback" as const);

function writeOn(keyArbitrary: fc.Arbitrary<FuzzKey>): fc.Arbitrary<ApiStep> {
  return fc.oneof(
    fc.record({ op: fc.constant("create" as const), client, key: keyArbitrary, selected: fc.boolean(), finalizer: weighted(0.1), dryRun: weighted(0.1) }),
    fc.record({ op: fc.constant("update" as const), client, key: keyArbitrary, selected: fc.boolean(), precondition: fc.constantFrom("none", "remembered", "stale" as const) }),
    fc.record({ op: fc.constant("patch" as const), client, key: keyArbitrary, patchType: fc.constantFrom("merge", "strategic", "json" as const), selected: fc.boolean(), precondition: fc.constantFrom("none", "remembered" as const) }),
    fc.record({ op: fc.constant("delete" as const), client, key: keyArbitrary, precondition: fc.constantFrom("none", "remembered", "uid" as const), dryRun: weighted(0.1) }),
    fc.record({ op: fc.constant("apply" as const), client, key: keyArbitrary, selected: fc.boolean(), force: weighted(0.2) }),
  );
}

/** A wait past the embedded server's history window and a compaction (VIRTUAL_TIME_WINDOWS): old versions and tokens expire. */
const EXPIRY_WAIT_MS = 25_000;

const version = fc.constantFrom("most-recent", "any", "exact-remembered", "not-older-than-remembered" as const);

/** Reads; `together`: one of steps sent at once, whose pages follow each other closely. */
function readStep(shape: ProgramShape, together = false): fc.Arbitrary<ApiStep> {
  const pauses = shape.virtualTime && !together ? fc.constantFrom(0, 0, 2, EXPIRY_WAIT_MS) : shape.virtualTime ? fc.constantFrom(0, 2) : fc.constant(0);
  return fc.oneof(
    { weight: together ? 1 : 2, arbitrary: fc.record({ op: fc.constant("get" as const), client, key, version: fc.constantFrom("most-recent", "any" as const), representation }) },
    {
      weight: together ? 4 : 3,
      arbitrary: fc.record({
        op: fc.constant("list" as const),
        client,
        selected: fc.boolean(),
        // Among steps sent together, mostly paged: a write landing between pages is the race to find.
        limit: together ? fc.option(fc.integer({ min: 1, max: 2 }), { nil: undefined, freq: 4 }) : fc.option(fc.integer({ min: 1, max: 2 }), { nil: undefined }),
        version: together ? fc.constant("most-recent" as const) : version,
        representation: together ? fc.constant("json" as const) : representation,
        pausePagesMs: pauses,
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        op: fc.constant("watch" as const),
        client,
        selected: fc.boolean(),
        // Among steps sent together, mostly resumed: a write landing while a resumed watch opens is the race to find.
        start: together ? fc.constantFrom("remembered-list", "remembered-watch", "remembered-list", "now" as const) : fc.constantFrom("now", "any", "remembered-list", "remembered-watch" as const),
        bookmarks: fc.boolean(),
      }),
    },
    // Not among steps sent together: they stop watches and read a page at a time. A page of one item
    // from the latest state, mostly: the namespace holds few objects, and a list at "any" is not paged.
    { weight: together ? 0 : 1, arbitrary: fc.record({ op: fc.constant("stop-watch" as const), client }) },
    { weight: together ? 0 : 3, arbitrary: fc.record({ op: fc.constant("first-page" as const), client, selected: weighted(0.2), limit: fc.constant(1), version: fc.constantFrom("most-recent", "most-recent", "exact-remembered", "not-older-than-remembered" as const) }) },
    {
      weight: together ? 0 : 4,
      arbitrary: fc.record({ op: fc.constant("next-page" as const), client, waitMs: shape.virtualTime ? fc.constantFrom(0, EXPIRY_WAIT_MS) : fc.constant(0) }),
    },
  );
}

/**
 * Two to five steps sent at once: writes (each on a key of its own, in order k0, k1, k2: a fourth
 * write is dropped), reads, watches. An array, not a tuple, so that shrinking drops members.
 */
function together(shape: ProgramShape): fc.Arbitrary<ApiStep> {
  return fc
    .array(
      fc.tuple(fc.oneof({ weight: 3, arbitrary: writeOn(fc.constant(FUZZ_KEYS[0])) }, { weight: 2, arbitrary: readStep(shape, true) }), fc.constantFrom(0, 0, 1, 5)),
      { minLength: 2, maxLength: 5 },
    )
    .map((members) => {
      let writes = 0;
      const kept = members.flatMap(([member, lagMs]): [ApiStep, number][] => {
        if (member.op !== "create" && member.op !== "update" && member.op !== "patch" && member.op !== "delete" && member.op !== "apply") return [[member, lagMs]];
        const key = FUZZ_KEYS[writes++];
        return key === undefined ? [] : [[{ ...member, key }, lagMs]];
      });
      return { op: "together", steps: kept.map(([member]) => member), lagsMs: kept.map(([, lagMs]) => lagMs) } satisfies ApiStep;
    });
}

/** One step. */
function step(shape: ProgramShape): fc.Arbitrary<ApiStep> {
  const steps: fc.WeightedArbitrary<ApiStep>[] = [
    { weight: 6, arbitrary: writeOn(key) },
    { weight: 6, arbitrary: readStep(shape) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant("release" as const), client, key }) },
    { weight: 5, arbitrary: together(shape) },
    { weight: 1, arbitrary: fc.constant({ op: "readyz" as const }) },
  ];
  if (shape.virtualTime) steps.push({ weight: 2, arbitrary: fc.record({ op: fc.constant("advance" as const), ms: fc.constantFrom(1, 1_500, EXPIRY_WAIT_MS) }) });
  return fc.oneof(...steps);
}

/** A program: one to `maxSteps` steps. */
export function programArbitrary(shape: ProgramShape): fc.Arbitrary<ApiStep[]> {
  return fc.array(step(shape), { minLength: 1, maxLength: shape.maxSteps, size: "medium" });
}

/** true with probability about `share` (shrinks to false). */
function weighted(share: number): fc.Arbitrary<boolean> {
  return fc.integer({ min: 0, max: 99 }).map((roll) => roll >= 100 - share * 100);
}
