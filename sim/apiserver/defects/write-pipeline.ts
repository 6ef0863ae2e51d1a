/**
 * A storage round trip for writes, which three planted concurrency defects need (defects.ts,
 * `caughtBy: "soak"`). The embedded server commits a write synchronously once its body is read,
 * so inside it no two writes are ever in flight together, and a bug that needs them could never
 * show. With one of these defects planted, a write first waits for storage, as a server in front
 * of etcd does, and the server counts the writes in flight:
 *
 * - "watch-drops-simultaneous-write", "most-recent-list-lags": a write waits for the next storage
 *   tick (every STORAGE_TICK_MS), and all writes waiting for one tick commit together, at one
 *   instant. One client in sequence has one write per tick; several clients share ticks.
 * - "versions-assigned-before-commit": a write is given its revision when it arrives and waits a
 *   storage delay that depends on that revision (0, 2 or 4 ms) before it commits with it, so a
 *   write that arrives while an earlier one waits can commit first.
 *
 * Without any of the three, ServerContext.writePipeline is undefined and writes go straight to
 * their handlers: no wait, no counting, nothing else.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Clock } from "../../kernel/clock.ts";
import type { MvccStore, PlantedStoreDefects } from "../../store/mvcc-store.ts";
import type { DefectName } from "./defects.ts";

/** How often storage commits what is waiting ("watch-drops-simultaneous-write", "most-recent-list-lags"). */
export const STORAGE_TICK_MS = 1;

/** The storage delay of a write given `revision` on arrival ("versions-assigned-before-commit"): 0, 2 or 4 ms. */
export function storageDelayMs(revision: number): number {
  return 2 * (revision % 3);
}

/** A revision handed out to a write, until its first commit takes it. */
interface Reservation {
  revision: number | undefined;
}

/** Writes on their way to storage: waiting, counted, and (for one defect) holding a revision. */
export class WritePipeline {
  private writesInFlight = 0;
  private tick: Promise<void> | undefined;
  private readonly reservations = new AsyncLocalStorage<Reservation>();

  private constructor(
    private readonly clock: Clock,
    private readonly reservesVersions: boolean,
    private readonly dropsSameInstantEvents: boolean,
  ) {}

  /** The pipeline the planted defects need, or undefined when none of them is planted. */
  static forDefects(defects: ReadonlySet<DefectName>, clock: Clock): WritePipeline | undefined {
    const reserves = defects.has("versions-assigned-before-commit");
    const drops = defects.has("watch-drops-simultaneous-write");
    if (!reserves && !drops && !defects.has("most-recent-list-lags")) return undefined;
    return new WritePipeline(clock, reserves, drops);
  }

  /** What the store must do wrong for these defects (MvccStoreOptions.plantedDefects). */
  get storeDefects(): PlantedStoreDefects {
    return {
      dropSameInstantEvents: this.dropsSameInstantEvents,
      ...(this.reservesVersions && { reservedRevision: () => this.takeReservation() }),
    };
  }

  /** Write requests received and not yet answered. */
  get inFlight(): number {
    return this.writesInFlight;
  }

  /** Runs a write's handler once storage is ready for it, counting it in flight until it is answered. */
  async run(store: MvccStore, handler: () => Promise<Response>): Promise<Response> {
    this.writesInFlight++;
    try {
      if (!this.reservesVersions) {
        // Planted defect "watch-drops-simultaneous-write" (sim/apiserver/defects/defects.ts): writes waiting for one tick commit at one instant.
        // Planted defect "most-recent-list-lags" (sim/apiserver/defects/defects.ts): writes stay in flight until the tick.
        await this.nextTick();
        return await handler();
      }
      // Planted defect "versions-assigned-before-commit" (sim/apiserver/defects/defects.ts): the revision is taken on arrival, the commit comes later.
      const reservation: Reservation = { revision: store.reserveRevision() };
      await this.clock.sleep(storageDelayMs(reservation.revision!));
      return await this.reservations.run(reservation, handler);
    } finally {
      this.writesInFlight--;
    }
  }

  // The revision reserved for the write committing now; a request's later commits (a collection
  // deletion commits many) take new ones.
  private takeReservation(): number | undefined {
    const reservation = this.reservations.getStore();
    if (reservation === undefined) return undefined;
    const { revision } = reservation;
    reservation.revision = undefined;
    return revision;
  }

  // Resolves at the next storage tick; every write waiting for it resumes in the same callback.
  private nextTick(): Promise<void> {
    this.tick ??= new Promise((resolve) => {
      this.clock.setTimer(STORAGE_TICK_MS, () => {
        this.tick = undefined;
        resolve();
      });
    });
    return this.tick;
  }
}

/** The verbs that write: what goes through the pipeline. */
export const WRITE_VERBS: ReadonlySet<string> = new Set(["create", "update", "patch", "delete", "deletecollection"]);
