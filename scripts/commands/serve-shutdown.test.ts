/**
 * `orb-harness serve` stopped by SIGTERM under load, as a real process: /readyz fails first while
 * writes are still served through the shutdown delay; then the listener closes, a request still in
 * flight (a read waiting for a future resourceVersion) gets its answer, open watches end cleanly,
 * and the process exits 0; no request is left without an answer or a refused connection.
 * Every request uses a connection of its own, so each one's fate is its own (no keep-alive races).
 */
import { spawn } from "node:child_process";
import { request, type IncomingMessage } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const DELAY_MS = 2_000;
const REQUEST_TIMEOUT_MS = 15_000;

/** What became of one request. */
type Fate = { readonly status: number; readonly body: string; readonly at: number } | { readonly error: string; readonly at: number };

/** One request on a fresh connection; never rejects, and settles within REQUEST_TIMEOUT_MS ("hung" otherwise). */
function send(base: string, method: string, path: string, body?: unknown): Promise<Fate> {
  return new Promise((resolve) => {
    const started = performance.now();
    const outgoing = request(`${base}${path}`, { method, agent: false, headers: body === undefined ? {} : { "content-type": "application/json" } }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text, at: performance.now() }));
      response.on("error", (error) => resolve({ error: error.message, at: performance.now() }));
    });
    outgoing.setTimeout(REQUEST_TIMEOUT_MS, () => outgoing.destroy(new Error(`hung for ${((performance.now() - started) / 1000).toFixed(1)} s`)));
    outgoing.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, at: performance.now() }));
    outgoing.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** Opens a watch and resolves with how its stream ended: "end" when the server ended it cleanly. */
function watchUntilEnd(base: string, path: string): Promise<{ opened: Promise<void>; ended: Promise<string> }> {
  return new Promise((resolve) => {
    let opened!: () => void;
    const openedPromise = new Promise<void>((done) => (opened = done));
    const ended = new Promise<string>((done) => {
      const outgoing = request(`${base}${path}`, { agent: false }, (response: IncomingMessage) => {
        opened();
        response.on("data", () => {});
        response.on("end", () => done("end"));
        response.on("error", (error) => done(`error ${error.message}`));
      });
      outgoing.on("error", (error: NodeJS.ErrnoException) => done(`error ${error.code ?? error.message}`));
      outgoing.end();
    });
    resolve({ opened: openedPromise, ended });
  });
}

describe("serve: SIGTERM under load", () => {
  let child: ReturnType<typeof spawn>;
  let base: string;
  let stdout = "";
  let listenerClosedAt: number | undefined;
  let exited: Promise<{ code: number | null; at: number }>;

  beforeAll(async () => {
    child = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", "serve", "--dialect", "kubernetes", "--shutdown-delay-duration", `${DELAY_MS / 1000}s`], {
      cwd: REPO,
      stdio: ["ignore", "pipe", "pipe"],
    });
    exited = new Promise((resolve) => child.once("close", (code) => resolve({ code, at: performance.now() })));
    base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${stdout}`)), 20_000);
      child.stdout!.setEncoding("utf8").on("data", (data: string) => {
        stdout += data;
        if (listenerClosedAt === undefined && stdout.includes("listener closed")) listenerClosedAt = performance.now();
        const match = /serving on (\S+)/.exec(stdout);
        if (match !== null) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
    });
  }, 30_000);

  afterAll(() => {
    child.kill("SIGKILL");
  });

  it("fails /readyz first, serves through the delay, answers what is in flight, ends watches, exits 0", async () => {
    const collection = "/api/v1/namespaces/default/configmaps";
    const watches = await Promise.all(Array.from({ length: 5 }, () => watchUntilEnd(base, `${collection}?watch=1`)));
    await Promise.all(watches.map((watch) => watch.opened));

    const fates: Array<{ sentAt: number; fate: Fate }> = [];
    let writing = true;
    let written = 0;
    const writer = async (index: number) => {
      for (let sequence = 0; writing; sequence++) {
        const sentAt = performance.now();
        const fate = await send(base, "POST", collection, { metadata: { name: `w${index}-${sequence}` } });
        fates.push({ sentAt, fate });
        if ("status" in fate && fate.status === 201) written++;
        if ("error" in fate) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const readiness: Array<{ at: number; status: number | string }> = [];
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const fate = await send(base, "GET", "/readyz");
        readiness.push({ at: fate.at, status: "status" in fate ? fate.status : fate.error });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const writers = Array.from({ length: 4 }, (_, index) => writer(index));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(written).toBeGreaterThan(0);

    const sigtermAt = performance.now();
    child.kill("SIGTERM");
    // Sent during the delay, answered after it: a read waiting up to 3 s for a version not reached yet.
    await new Promise((resolve) => setTimeout(resolve, DELAY_MS - 500));
    const inFlight = send(base, "GET", `${collection}?resourceVersion=999999999&resourceVersionMatch=NotOlderThan`);

    const exit = await exited;
    writing = false;
    probing = false;
    await Promise.all([...writers, prober]);
    const slow = await inFlight;
    const watchEnds = await Promise.all(watches.map((watch) => watch.ended));
    const timeline = JSON.stringify({ readiness: readiness.map((r) => [Math.round(r.at - sigtermAt), r.status]), exitMs: Math.round(exit.at - sigtermAt) });

    // readyz: 200 before the signal, a failure from the first probe after it (probes are 50 ms apart).
    const before = readiness.filter((probe) => probe.at < sigtermAt);
    const after = readiness.filter((probe) => probe.at > sigtermAt + 200);
    expect(before.every((probe) => probe.status === 200), timeline).toBe(true);
    expect(after.length, timeline).toBeGreaterThan(0);
    expect(after.every((probe) => probe.status !== 200), timeline).toBe(true);
    // Writes still succeed during the delay.
    const servedLate = fates.filter(({ sentAt, fate }) => sentAt > sigtermAt + DELAY_MS / 2 && "status" in fate && fate.status === 201);
    expect(servedLate.length, timeline).toBeGreaterThan(0);
    // Every request got an answer or a refused connection: none hung, none was cut mid-answer.
    // Closing a listening socket resets the connections the kernel completed and node had not
    // accepted yet (Go's Shutdown does the same): those were sent just before the listener closed.
    expect(listenerClosedAt, stdout).toBeDefined();
    const backlogReset = ({ sentAt, fate }: { sentAt: number; fate: Fate }) =>
      "error" in fate && fate.error === "ECONNRESET" && sentAt > listenerClosedAt! - 250 && sentAt <= listenerClosedAt!;
    const failures = fates.filter((entry) => "error" in entry.fate && entry.fate.error !== "ECONNREFUSED" && !backlogReset(entry));
    expect(failures.map(({ sentAt, fate }) => ({ ...fate, sentMsBeforeListenerClosed: Math.round(listenerClosedAt! - sentAt) })), timeline).toEqual([]);
    expect(fates.every(({ fate }) => !("status" in fate) || fate.status === 201), timeline).toBe(true);
    // The read in flight when the listener closed got its answer: the 504 Status of doc 1 §7.
    expect("status" in slow && slow.status, JSON.stringify(slow)).toBe(504);
    expect(JSON.parse((slow as { body: string }).body)).toMatchObject({ kind: "Status", code: 504 });
    // Watches ended cleanly, and the process exited 0 after the delay, within the grace period.
    expect(watchEnds).toEqual(["end", "end", "end", "end", "end"]);
    expect(exit.code).toBe(0);
    expect(exit.at - sigtermAt, timeline).toBeGreaterThanOrEqual(DELAY_MS);
    expect(exit.at - sigtermAt, timeline).toBeLessThan(DELAY_MS + 5_000);
    expect(stdout).toMatch(/shutting down: \/readyz fails now[\s\S]*listener closed[\s\S]*stopped\n$/);
  }, 40_000);
});
