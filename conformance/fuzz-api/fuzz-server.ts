/**
 * A server a `fuzz --target api` program runs on: the model (the embedded server in virtual time,
 * without defects: the oracle), the embedded target (the same, with `--defect`s planted), or any
 * server reached over HTTP (a URL, a kubeconfig, a control plane started from binaries).
 *
 * In virtual time nothing waits on the wall clock: a request is answered once the simulation has
 * run as far as its handler needs (a planted storage delay, say), and `advance` moves time on for
 * expiry and bookmarks. That is what makes runs on the embedded server, and their shrinking,
 * exact: the same program always meets the same server.
 */
import type { Dialect } from "../../spec/dialects.ts";
import type { DefectName } from "../../sim/apiserver/defects/defects.ts";
import type { Identity } from "../targets/target.ts";
import { virtualTimeApiServer } from "../targets/embedded-target.ts";

/** How long a request may take on a real server before its answer counts as missing. */
export const REQUEST_TIMEOUT_MS = 15_000;
/** Most virtual time a request may take to be answered: far past any planted delay. */
const VIRTUAL_ANSWER_LIMIT_MS = 60_000;
/** Pauses up to this long run as concurrent work, 1 ms at a time; longer ones move time at once. */
const SHORT_PAUSE_MS = 100;

/** An answer read whole. */
export interface FuzzAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

/** A server a program's steps go to. */
export interface FuzzServer {
  /** In virtual time (the embedded server): time moves only when the run moves it. */
  readonly virtual: boolean;
  /** Sends a request (with the server's credentials) and reads the whole answer; rejects when none comes. */
  exchange(method: string, path: string, headers: Record<string, string>, body?: string): Promise<FuzzAnswer>;
  /** Opens a stream (a watch): its response once the head arrives; `signal` closes it. */
  openStream(path: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response>;
  /** Gives open streams the chance to deliver what the server has sent (virtual time: at once). */
  flush(): Promise<void>;
  /** Milliseconds of this server's clock (virtual) or of this process's monotonic clock. */
  nowMs(): number;
  /** Lets `ms` pass (virtual time moves on; a real server's client sleeps). */
  pause(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** The embedded server in virtual time, its windows short (VIRTUAL_TIME_WINDOWS): the model, or the target with defects. */
export function virtualFuzzServer(dialect: Dialect, seed: string, defects: ReadonlySet<DefectName>): FuzzServer {
  const { sim, server } = virtualTimeApiServer(dialect, seed, defects);
  const flush = async () => {
    // Streams read in other promise chains: a few turns of the event loop let them catch up.
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
  };
  const request = (method: string, path: string, headers: Record<string, string>, body?: string, signal?: AbortSignal) =>
    new Request(`http://fuzz.invalid${path}`, { method, headers, ...(body !== undefined && { body }), ...(signal !== undefined && { signal }) });
  // Work waiting for the simulation: steps sent together each wait, and one loop runs time for all.
  const waiting = new Set<Promise<unknown>>();
  let running: Promise<void> | undefined;
  const run = async () => {
    await sim.runFor(0);
    await flush();
    // Time moves only while an answer waits for it (a planted storage delay): one ms at a time.
    for (let waited = 0; waiting.size > 0 && waited < VIRTUAL_ANSWER_LIMIT_MS; waited++) {
      await sim.runFor(1);
      await flush();
    }
    running = undefined;
  };
  const settle = async <T>(work: Promise<T>): Promise<T> => {
    waiting.add(work);
    const done = () => void waiting.delete(work);
    work.then(done, done);
    running ??= run();
    const ran = running;
    await Promise.race([work, ran]);
    if (waiting.has(work)) {
      // The loop reached its limit with this still unanswered.
      waiting.delete(work);
      throw new Error(`no answer within ${VIRTUAL_ANSWER_LIMIT_MS} ms of virtual time`);
    }
    return work;
  };
  return {
    virtual: true,
    exchange: (method, path, headers, body) => settle(server.handle(request(method, path, headers, body)).then(readWhole)),
    openStream: (path, headers, signal) => settle(server.handle(request("GET", path, headers, undefined, signal))),
    flush,
    nowMs: () => sim.nowMs(),
    async pause(ms) {
      // A short pause is concurrent work (a page read while writes land); a long one moves time at once.
      if (ms <= SHORT_PAUSE_MS) {
        await settle(sim.sleep(ms));
      } else {
        // The loop may still be finishing its last millisecond: the simulation runs one at a time.
        while (running !== undefined) await running;
        await sim.runFor(ms);
      }
      await flush();
    },
    async close() {
      server.close();
    },
  };
}

/**
 * A server reached over HTTP through `identity` (the conformance targets' transport and
 * credentials). Each Request is held until its exchange ends: undici's Request follows its
 * signal weakly, and one collected mid-exchange would never hear its timeout (soak-connection.ts).
 */
export function remoteFuzzServer(identity: Identity, baseUrl: string): FuzzServer {
  const held = new Set<Request>();
  const request = (method: string, path: string, headers: Record<string, string>, signal: AbortSignal, body?: string) =>
    new Request(`${baseUrl}${path}`, { method, headers: { ...headers, ...identity.authHeaders }, ...(body !== undefined && { body }), signal });
  return {
    virtual: false,
    async exchange(method, path, headers, body) {
      const sent = request(method, path, headers, AbortSignal.timeout(REQUEST_TIMEOUT_MS), body);
      held.add(sent);
      try {
        return await readWhole(await identity.transport(sent));
      } finally {
        held.delete(sent);
      }
    },
    async openStream(path, headers, signal) {
      const sent = request("GET", path, headers, signal);
      held.add(sent);
      signal.addEventListener("abort", () => held.delete(sent), { once: true });
      return identity.transport(sent);
    },
    flush: () => new Promise((resolve) => setImmediate(resolve)),
    pause: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    nowMs: () => performance.now(),
    close: async () => undefined,
  };
}

async function readWhole(response: Response): Promise<FuzzAnswer> {
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", bytes: new Uint8Array(await response.arrayBuffer()) };
}
