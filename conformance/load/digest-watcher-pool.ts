/**
 * Digesting watchers in a thread of their own (digest-watchers-thread.ts): the many watchers of a
 * load run that count their events and digest their bytes (fanout-watcher.ts) rather than check
 * each event. Reading a thousand streams takes most of a core; in the main thread it delayed the
 * writers' answers, and the write rate measured the client rather than the server.
 */
import { Worker } from "node:worker_threads";
import type { StreamDigest, WatchEncoding, WatcherTally } from "./fanout-watcher.ts";
import type { LoadTarget } from "./load-connection.ts";

/** What the thread is told when it starts. */
export interface PoolSetup {
  readonly target: LoadTarget;
  /** The watch request's path and query. */
  readonly path: string;
  readonly encoding: WatchEncoding;
  readonly count: number;
}

export type PoolRequest = { readonly type: "tally" } | { readonly type: "finish" };

export type PoolReply =
  | { readonly type: "opened" }
  | { readonly type: "failed"; readonly message: string }
  | { readonly type: "tally"; readonly tallies: readonly WatcherTally[] }
  | { readonly type: "finished"; readonly tallies: readonly WatcherTally[]; readonly digests: readonly StreamDigest[] };

/** The main thread's handle on the watchers' thread. */
export class DigestWatcherPool {
  // One question at a time: replies carry no id, so two in flight could take each other's answer.
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly worker: Worker) {}

  /** Starts the thread; resolves once all `setup.count` watches are open. */
  static async open(setup: PoolSetup): Promise<DigestWatcherPool> {
    // From the sources (tsx), a shim that registers tsx in the thread; compiled (the npm package), the thread's own .js.
    const entry = import.meta.url.endsWith(".ts") ? "./digest-watchers-thread.mjs" : "./digest-watchers-thread.js";
    const worker = new Worker(new URL(entry, import.meta.url), { workerData: setup });
    const pool = new DigestWatcherPool(worker);
    const first = await pool.next();
    if (first.type !== "opened") {
      await worker.terminate();
      throw new Error(first.type === "failed" ? first.message : `the watchers' thread answered ${first.type}`);
    }
    return pool;
  }

  /** Every watcher's tally now. */
  tallies(): Promise<readonly WatcherTally[]> {
    return this.ask({ type: "tally" }, (answer) => {
      if (answer.type !== "tally") throw new Error(`the watchers' thread answered ${answer.type} to a tally`);
      return answer.tallies;
    });
  }

  /** Closes every watch and ends the thread: the final tallies, and each stream's digest. */
  async finish(): Promise<{ readonly tallies: readonly WatcherTally[]; readonly digests: readonly StreamDigest[] }> {
    try {
      return await this.ask({ type: "finish" }, (answer) => {
        if (answer.type !== "finished") throw new Error(`the watchers' thread answered ${answer.type} to finish`);
        return answer;
      });
    } finally {
      await this.worker.terminate();
    }
  }

  /** Ends the thread at once (its connections close with it). */
  async terminate(): Promise<void> {
    await this.worker.terminate();
  }

  /** Sends `request` once the previous question has its answer, and reads the answer with `read`. */
  private ask<T>(request: PoolRequest, read: (answer: PoolReply) => T): Promise<T> {
    const asked = this.queue.then(async () => {
      const answer = this.next();
      this.worker.postMessage(request);
      return read(await answer);
    });
    this.queue = asked.catch(() => undefined);
    return asked;
  }

  /** The thread's next message; an error or an exit without one rejects. */
  private next(): Promise<PoolReply> {
    return new Promise((resolve, reject) => {
      const stop = () => {
        this.worker.off("message", onMessage);
        this.worker.off("error", onError);
        this.worker.off("exit", onExit);
      };
      const onMessage = (message: PoolReply) => {
        stop();
        resolve(message);
      };
      const onError = (error: Error) => {
        stop();
        reject(error);
      };
      const onExit = (code: number) => {
        stop();
        reject(new Error(`the watchers' thread exited (code ${code}) without answering`));
      };
      this.worker.on("message", onMessage);
      this.worker.on("error", onError);
      this.worker.on("exit", onExit);
    });
  }
}
