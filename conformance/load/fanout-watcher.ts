/**
 * One watcher of a load run: reads its event stream as it comes (or stops reading, to play the slow
 * reader). A verifying watcher checks every event as it goes: in order, none twice, each one a
 * write the writers made. Order is checked on resourceVersions as numbers, which every Kubernetes
 * server sends (doc 1 §4.7 calls them opaque: an opaque one is counted, not ordered).
 *
 * Every watcher of a run watches the same collection from the same version, so every server sends
 * each of them the same bytes (kube-apiserver too: its watch cache serializes an event once for all
 * watchers). The others therefore only count their events and hash their stream: a stream with
 * the verified streams' digest and length holds the same events in the same order. Scanning every
 * event of a thousand watchers cost the client more than the server spent sending them, and the
 * client shares the machine's two cores with the server it measures. The digest is a CRC-32, not a
 * cryptographic hash: it guards against accidents (a lost, repeated or swapped event), not an
 * adversary, and SHA-1 of a million events a second took a quarter of the watchers' thread.
 */
import type { IncomingMessage } from "node:http";
import { StringDecoder } from "node:string_decoder";
import { crc32 } from "node:zlib";
import type { LatencyHistogram } from "./latency-histogram.ts";
import { WatchFrameCounter, WatchFrameScanner } from "./watch-frame-scanner.ts";
import { WatchLineScanner, type ScannedEvent } from "./watch-line-scanner.ts";

/** What the writers know of the writes: when each was sent, by resourceVersion. */
export interface WriteLedger {
  /** When the write that produced this resourceVersion was sent (performance.now()), if its answer came. */
  sentAt(resourceVersion: string): number | undefined;
}

/** A watcher's tally. */
export interface WatcherTally {
  /** Events of the writes (ADDED or MODIFIED), counted once each. */
  readonly events: number;
  readonly duplicated: number;
  readonly reordered: number;
  /** Events of another type or without a resourceVersion: none are expected. */
  readonly unexpected: number;
  /** The stream ended before the watcher closed it: the server cut it off. */
  readonly ended: boolean;
}

/** What a watcher received, to compare with the others' streams. */
export interface StreamDigest {
  readonly bytes: number;
  /** CRC-32 of every byte of the stream's body, in order. */
  readonly crc32: number;
}

/**
 * How the watchers ask for their events: Protobuf, as client-go's informers of built-in types do
 * (kube-controller-manager's --kube-api-content-type defaults to it), or JSON, as kubectl does.
 */
export type WatchEncoding = "protobuf" | "json";

/** The Accept header of a watch in each encoding. */
export const WATCH_ACCEPT: Readonly<Record<WatchEncoding, string>> = {
  protobuf: "application/vnd.kubernetes.protobuf;stream=watch",
  json: "application/json",
};

/** How a watcher reads its stream: events scanned one by one, or only counted. */
interface EventReader {
  scan(chunk: Buffer): ScannedEvent[];
  count(chunk: Buffer): number;
}

const NEWLINE = 0x0a;

/** A JSON watch: one event a line (doc 1 §6). */
function jsonReader(): EventReader {
  const decoder = new StringDecoder("utf8");
  const scanner = new WatchLineScanner();
  return {
    scan: (chunk) => scanner.push(decoder.write(chunk)),
    count: (chunk) => {
      let lines = 0;
      for (let at = chunk.indexOf(NEWLINE); at >= 0; at = chunk.indexOf(NEWLINE, at + 1)) lines++;
      return lines;
    },
  };
}

/** A Protobuf watch: one event a length-prefixed frame. */
function protobufReader(): EventReader {
  const scanner = new WatchFrameScanner();
  const counter = new WatchFrameCounter();
  return { scan: (chunk) => scanner.push(chunk), count: (chunk) => counter.push(chunk) };
}

/** One open watch of a load run. */
export class FanoutWatcher {
  private readonly reader: EventReader;
  private crc = 0;
  private bytes = 0;
  private digested: StreamDigest | undefined;
  private count = 0;
  private duplicates = 0;
  private reorders = 0;
  private strays = 0;
  private lastVersion = -1;
  private readonly seen = new Set<string>();
  private endedByServer = false;
  // Versions seen before their write's answer arrived: checked against the ledger at the end.
  private readonly early: string[] = [];
  private readonly ended: Promise<void>;

  /** `verifies`: check every event (else count them and hash the stream); `encoding`: the stream's. */
  constructor(
    private readonly response: IncomingMessage,
    private readonly ledger: WriteLedger,
    private readonly latencies: LatencyHistogram | undefined,
    private readonly now: () => number,
    readonly verifies = true,
    encoding: WatchEncoding = "json",
  ) {
    this.reader = encoding === "protobuf" ? protobufReader() : jsonReader();
    response.on("data", (chunk: Buffer) => {
      if (this.digested !== undefined) return;
      this.crc = crc32(chunk, this.crc);
      this.bytes += chunk.length;
      if (verifies) this.receive(this.reader.scan(chunk));
      else this.count += this.reader.count(chunk);
    });
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

  /** The whole stream, digested: call it once the stream is complete (later bytes are not counted). */
  digest(): StreamDigest {
    this.digested ??= { bytes: this.bytes, crc32: this.crc };
    return this.digested;
  }

  /** Versions that arrived before their write's answer and are still not in the ledger: writes nobody made. */
  unknownVersions(): number {
    return this.early.filter((version) => this.ledger.sentAt(version) === undefined).length;
  }

  /** Closes the connection. */
  close(): void {
    this.response.destroy();
  }

  private receive(events: readonly ScannedEvent[]): void {
    const arrived = this.now();
    for (const event of events) {
      if ((event.type !== "ADDED" && event.type !== "MODIFIED") || event.resourceVersion === "?") {
        this.strays++;
        continue;
      }
      // Any repeat is a duplicate, whatever the versions look like; only order needs numbers.
      if (this.seen.has(event.resourceVersion)) {
        this.duplicates++;
        continue;
      }
      this.seen.add(event.resourceVersion);
      const version = Number(event.resourceVersion);
      if (Number.isSafeInteger(version)) {
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
