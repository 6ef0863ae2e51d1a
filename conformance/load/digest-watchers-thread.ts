/**
 * A thread of digesting watchers (digest-watcher-pool.ts): opens its watches, counts and digests
 * their streams, and answers the pool's questions by message. In a thread of its own so that
 * reading a thousand streams does not delay the writers' answers in the main thread: in the load
 * run they stand for clients on other machines.
 */
import { parentPort, workerData } from "node:worker_threads";
import { FanoutWatcher, WATCH_ACCEPT } from "./fanout-watcher.ts";
import { LoadConnection } from "./load-connection.ts";
import type { PoolReply, PoolRequest, PoolSetup } from "./digest-watcher-pool.ts";

const OPEN_BATCH = 50;
const setup = workerData as PoolSetup;
const port = parentPort!;
const connection = new LoadConnection(setup.target, 1);
const watchers: FanoutWatcher[] = [];
const reply = (message: PoolReply) => port.postMessage(message);
// Nobody asks a digesting watcher about write times: it never checks versions.
const noLedger = { sentAt: () => undefined };

async function open(): Promise<void> {
  for (let opened = 0; opened < setup.count; opened += OPEN_BATCH) {
    const batch = Math.min(OPEN_BATCH, setup.count - opened);
    const responses = await Promise.all(Array.from({ length: batch }, () => connection.stream(setup.path, WATCH_ACCEPT[setup.encoding])));
    for (const response of responses) {
      if (response.statusCode !== 200) throw new Error(`a watch was answered ${response.statusCode}`);
      watchers.push(new FanoutWatcher(response, noLedger, undefined, () => performance.now(), false, setup.encoding));
    }
  }
}

port.on("message", (request: PoolRequest) => {
  if (request.type === "tally") {
    reply({ type: "tally", tallies: watchers.map((watcher) => watcher.tally) });
    return;
  }
  for (const watcher of watchers) watcher.close();
  reply({ type: "finished", tallies: watchers.map((watcher) => watcher.tally), digests: watchers.map((watcher) => watcher.digest()) });
  connection.close();
  port.close();
});

open().then(
  () => reply({ type: "opened" }),
  (error: unknown) => reply({ type: "failed", message: error instanceof Error ? error.message : String(error) }),
);
