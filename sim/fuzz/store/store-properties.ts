/**
 * The store's properties (issue #2, spec/invariants.ts): each is a model-based fast-check
 * property over a command set chosen to reach its invariant, run against a fresh simulation, a
 * fresh store and the reference model. Checks of other invariants run too but are not enforced,
 * so a planted bug is attributed to the property that guards against it.
 */
import fc from "fast-check";
import { storeInvariants, type StoreInvariantId } from "../../../spec/invariants.ts";
import { Simulation } from "../../kernel/simulation.ts";
import type { Trace } from "../../kernel/trace.ts";
import { MvccStore, type MvccStoreOptions } from "../../store/mvcc-store.ts";
import { getCommand, listAtCommand, pageNextCommand, pageStartCommand } from "./read-commands.ts";
import { StoreWorld, WORLD_SHAPE, type StoreUnderTest } from "./store-world.ts";
import { bookmarkWatchOpenCommand, watchDrainCommand, watchOpenCommand, watchReconnectCommand } from "./watch-commands.ts";
import { advanceCommand, compactExpiredCommand, compactToCommand, writeCommand, type WorldCommand } from "./write-commands.ts";

/** Builds the store a property runs against: the real one, or a planted-bug variant in tests. */
export type StoreFactory = (options: MvccStoreOptions) => StoreUnderTest;

/** The real store. */
export const realStore: StoreFactory = (options) => new MvccStore(options);

/** One property: the invariant it enforces and the commands that exercise it. */
export interface StoreProperty {
  readonly id: StoreInvariantId;
  readonly rule: string;
  readonly commands: readonly fc.Arbitrary<WorldCommand>[];
}

// Writes are listed several times to weigh them: most interesting states need a few writes.
const writes = [writeCommand, writeCommand, writeCommand];
const time = [advanceCommand, compactExpiredCommand];

const commandsByInvariant: Record<StoreInvariantId, readonly fc.Arbitrary<WorldCommand>[]> = {
  "store/revision-monotonic": [...writes, ...time, compactToCommand],
  "store/list-at-revision": [...writes, ...time, listAtCommand, listAtCommand, getCommand],
  "store/paging-consistent": [...writes, advanceCommand, pageStartCommand, pageNextCommand, pageNextCommand],
  "watch/no-gap": [...writes, ...time, watchOpenCommand, watchDrainCommand, watchDrainCommand, watchReconnectCommand],
  "store/expired-never-partial": [
    ...writes,
    ...writes,
    ...time,
    compactToCommand,
    compactToCommand,
    listAtCommand,
    listAtCommand,
    getCommand,
    pageStartCommand,
    pageNextCommand,
    watchOpenCommand,
    watchReconnectCommand,
  ],
  "watch/bookmark-order": [...writes, advanceCommand, advanceCommand, bookmarkWatchOpenCommand, watchDrainCommand, watchDrainCommand, watchReconnectCommand],
  "store/stale-write-rejected": [...writes, ...time, getCommand],
};

/** Every store property, in the catalog's order. */
export const storeProperties: readonly StoreProperty[] = storeInvariants.map((invariant) => ({
  id: invariant.id,
  rule: invariant.rule,
  commands: commandsByInvariant[invariant.id],
}));

/** The most commands in one generated run. */
export const MAX_COMMANDS = 40;

/**
 * The fast-check property for `property` against stores built by `makeStore`, tracing into
 * `trace`. `commandsReplayPath` is fast-check's record of which commands of a failure ran, needed
 * with the seed and path to replay that failure exactly.
 */
export function storeFastCheckProperty(property: StoreProperty, makeStore: StoreFactory, trace: Trace, commandsReplayPath?: string) {
  const commandsArb = fc.commands([...property.commands], {
    maxCommands: MAX_COMMANDS,
    size: "max",
    ...(commandsReplayPath !== undefined && { replayPath: commandsReplayPath }),
  });
  return fc.asyncProperty(commandsArb, async (commands) => {
    const sim = new Simulation({ seed: "store-fuzz" });
    const store = makeStore({
      clock: sim,
      tokenKey: sim.rng.fork("continue-token").bytes(32),
      historyWindowMs: WORLD_SHAPE.historyWindowMs,
    });
    const world = new StoreWorld(store, sim, trace, property.id);
    world.note("run", { property: property.id });
    try {
      await fc.asyncModelRun(() => ({ model: world, real: world }), commands);
    } finally {
      for (const watcher of world.watchers) watcher.reader.close();
    }
  });
}
