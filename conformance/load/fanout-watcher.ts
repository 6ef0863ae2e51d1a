/**
 * One watcher of a load run: reads its event stream as it comes (or stops reading, to play the slow
 * reader) and checks it as it goes: every event in order, none twice, each one a write the writers
 * made. Order is checked on resourceVersions as numbers, which every Kubernetes server sends
 * (doc 1 §4.7 calls them opaque: an opaque one is counted, not ordered).
 */
import type { IncomingMessage } from "node:http";
import type { LatencyHistogram } from "./latency-histogram.ts";
import { WatchLineScanner } from "./watch-line-scanner.ts";

/** What the writers know of the writes: when each was sent, by resourceVersion. */
export interface WriteLedger {
  /** When the write that produced this resourceVersion was sent (performance.now()), if its answer came. */
  sentAt(resourceVersion: string): number | undefined;
}

/** A watcher's tally. */
export interface WatcherTally {
  /** Events of the writes (ADDED), counted once each. */
  readonly events: number;
  readonly duplicated: number;
  readonly reordered: number;
  /** Events of another type or without a resourceVersion: none are expected. */
  readonly unexpected: number;
  /** The stream ended before the watcher closed it: the server cut it off. */
  readonly ended: boolean;
}

/** One open watch of a load run. */
export class FanoutWatcher {
  private readonly scanner = new WatchLineScanner();
  private count = 0;
  private duplicates = 0;
  private reorders = 0;
  private strays = 0;
  private lastVersion = -1;
  private endedByServer = false;
  // Versions seen before their write's answer arrived: checked against the ledger at the end.
  private readonly early: string[] = [];
  private readonly ended: Promise<void>;

  constructor(
    private readonly response: IncomingMessage,
    private readonly ledger: WriteLedger,
    private readonly latencies: LatencyHistogram | undefined,
    private readonly now: () => number,
  ) {
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => this.receive(chunk));
    this.ended = new Promise((resolve) => {
      response.on("end", () => {
        this.endedByServer = true;
        resolve();
      });
      response.on("close", () => resolve());
      response.on("error", () => resolve());
    });
  }

  /** Stops reading: the socket's buffers fill and the server must cope (the slow reader). */
  pause(): void {
    this.response.pause();
  }

  /** Reads again; resolves once the stream ends or `idleMs` pass without an event. */
  async resumeUntilQuiet(idleMs: number): Promise<void> {
    this.response.resume();
    let seen = -1;
    while (!this.endedByServer && seen !== this.count) {
      seen = this.count;
      await Promise.race([this.ended, new Promise((resolve) => setTimeout(resolve, idleMs))]);
    }
  }

  get tally(): WatcherTally {
    return { events: this.count, duplicated: this.duplicates, reordered: this.reorders, unexpected: this.strays, ended: this.endedByServer };
  }

  /** Versions that arrived before their write's answer and are still not in the ledger: writes nobody made. */
  unknownVersions(): number {
    return this.early.filter((version) => this.ledger.sentAt(version) === undefined).length;
  }

  /** Closes the connection. */
  close(): void {
    this.response.destroy();
  }

  private receive(chunk: string): void {
    const arrived = this.now();
    for (const event of this.scanner.push(chunk)) {
      if (event.type !== "ADDED" || event.resourceVersion === "?") {
        this.strays++;
        continue;
      }
      const version = Number(event.resourceVersion);
      if (Number.isSafeInteger(version)) {
        if (version === this.lastVersion) {
          this.duplicates++;
          continue;
        }
        if (version < this.lastVersion) this.reorders++;
        this.lastVersion = Math.max(this.lastVersion, version);
      }
      this.count++;
      const sentAt = this.ledger.sentAt(event.resourceVersion);
      if (sentAt === undefined) this.early.push(event.resourceVersion);
      else this.latencies?.record(arrived - sentAt);
    }
  }
}
