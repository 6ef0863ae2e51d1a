/**
 * The server benchmarks, run the same way against any server (the embedded `serve` or a real
 * kube-apiserver, both over TLS): Pods of about 2.5 KiB created with 8 requests in flight, the
 * collection listed unpaged (median of 5) and in pages of 500 (median of 3), then the delivery
 * latency of a watch event to every one of many watchers. All in a namespace of the benchmark's own, deleted at the end.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { Agent, request } from "node:https";
import { performance } from "node:perf_hooks";
import { LoadConnection } from "../../conformance/load/load-connection.ts";
import type { Figures } from "./measure-in-process.ts";

/** A server reached over TLS. */
export interface BenchServer {
  readonly url: string;
  readonly certificateAuthority: string;
  readonly token?: string;
}

export interface ServerWorkload {
  readonly pods: number;
  readonly watchers: number;
  readonly events: number;
}

const IN_FLIGHT = 8;
const PAGE = 500;
const SENT_ANNOTATION = "orb-bench/sent";
// Characters of padding in each Pod (about 2.5 KiB in all).
const PADDING = 1_900;

/** A keep-alive HTTPS client of the writers and readers (8 connections). */
class BenchClient {
  private readonly agent: Agent;
  private readonly base: URL;

  constructor(private readonly server: BenchServer) {
    this.base = new URL(server.url);
    this.agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT, ca: server.certificateAuthority });
  }

  /** The status and whole body of a request; a string body is sent as it is (JSON already). */
  async send(method: string, path: string, body?: unknown): Promise<{ status: number; body: Buffer }> {
    const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    const chunks: Buffer[] = [];
    const status = await this.exchange(method, path, payload, (chunk) => chunks.push(chunk));
    return { status, body: Buffer.concat(chunks) };
  }

  /**
   * The status and size of a GET's answer, its bytes counted and dropped as they arrive: joining
   * the 37 MB of an unpaged list into one buffer took the client about 11 ms (50 against 39 ms
   * per list of the embedded server), work of the client's that the figure is not about.
   */
  async received(path: string): Promise<{ status: number; bytes: number }> {
    let bytes = 0;
    const status = await this.exchange("GET", path, undefined, (chunk) => {
      bytes += chunk.length;
    });
    return { status, bytes };
  }

  // One request; each chunk of the answer's body goes to `onChunk`; resolves with the status at its end.
  private exchange(method: string, path: string, payload: string | undefined, onChunk: (chunk: Buffer) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      const outgoing = request({ method, host: this.base.hostname, port: this.base.port, path, agent: this.agent, headers: this.headers(payload !== undefined) }, (response: IncomingMessage) => {
        response.on("data", onChunk);
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      });
      outgoing.on("error", reject);
      outgoing.end(payload);
    });
  }

  private headers(withBody: boolean): Record<string, string> {
    const headers: Record<string, string> = { accept: "application/json", ...(withBody && { "content-type": "application/json" }) };
    if (this.server.token !== undefined) headers["authorization"] = `Bearer ${this.server.token}`;
    return headers;
  }

  async json(method: string, path: string, body?: unknown): Promise<any> {
    const answer = await this.send(method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.body.toString("utf8").slice(0, 300)}`);
    return JSON.parse(answer.body.toString("utf8"));
  }

  close(): void {
    this.agent.destroy();
  }
}

function pod(index: number): object {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: `pod-${String(index).padStart(6, "0")}`, labels: { app: "bench", shard: String(index % 16) } },
    spec: {
      automountServiceAccountToken: false,
      containers: [{ name: "main", image: "registry.example/app:1.0", args: ["--padding", "x".repeat(PADDING)], env: [{ name: "INDEX", value: String(index) }] }],
    },
  };
}

/** Runs `count` tasks with `inFlight` at a time. */
async function pooled(count: number, inFlight: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < count) await task(next++);
  }));
}

const UNPAGED_LISTS = 5;
const PAGED_LISTS = 3;

/** The median time of `times` runs of `task`, one after the other. */
async function medianMs(times: number, task: () => Promise<void>): Promise<number> {
  const durations: number[] = [];
  for (let run = 0; run < times; run++) {
    const started = performance.now();
    await task();
    durations.push(performance.now() - started);
  }
  return durations.sort((a, b) => a - b)[Math.floor(times / 2)]!;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Opens `watchers` watches of the namespace's ConfigMaps, writes `events` ConfigMaps one by one, and gives every delivery's latency. */
async function fanoutLatencies(server: BenchServer, client: BenchClient, namespace: string, workload: ServerWorkload): Promise<number[]> {
  const connection = new LoadConnection({ url: server.url, certificateAuthority: server.certificateAuthority, ...(server.token !== undefined && { token: server.token }) }, 1);
  const list = await client.json("GET", `/api/v1/namespaces/${namespace}/configmaps`);
  const path = `/api/v1/namespaces/${namespace}/configmaps?watch=1&resourceVersion=${list.metadata.resourceVersion}`;
  const latencies: number[] = [];
  const counts = new Array<number>(workload.watchers).fill(0);
  const pattern = new RegExp(`"${SENT_ANNOTATION}":"([0-9.]+)"`);
  const streams = await Promise.all(
    Array.from({ length: workload.watchers }, async (_, watcher) => {
      const response = await connection.stream(path, "application/json");
      let pending = "";
      response.setEncoding("utf8");
      response.on("data", (text: string) => {
        const now = performance.now();
        pending += text;
        let end = pending.indexOf("\n");
        while (end !== -1) {
          const match = pattern.exec(pending.slice(0, end));
          if (match !== null) {
            latencies.push(now - Number(match[1]));
            counts[watcher]! += 1;
          }
          pending = pending.slice(end + 1);
          end = pending.indexOf("\n");
        }
      });
      return response;
    }),
  );
  for (let event = 0; event < workload.events; event++) {
    await client.json("POST", `/api/v1/namespaces/${namespace}/configmaps`, {
      metadata: { name: `event-${event}`, annotations: { [SENT_ANNOTATION]: performance.now().toFixed(3) } },
      data: { value: "v".repeat(100) },
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const deadline = performance.now() + 30_000;
  while (counts.some((count) => count < workload.events) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const stream of streams) stream.destroy();
  const short = counts.filter((count) => count < workload.events).length;
  if (short > 0) throw new Error(`${short} of ${workload.watchers} watchers missed events (30 s after the last write)`);
  return latencies;
}

const NAMESPACE_GONE_TIMEOUT_MS = 180_000;

/** Resolves once the namespace is not found (or after NAMESPACE_GONE_TIMEOUT_MS). */
async function namespaceGone(client: BenchClient, namespace: string): Promise<void> {
  const deadline = performance.now() + NAMESPACE_GONE_TIMEOUT_MS;
  while (performance.now() < deadline) {
    const answer = await client.send("GET", `/api/v1/namespaces/${namespace}`).catch(() => undefined);
    if (answer === undefined || answer.status === 404) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The four server figures (keys without a `real.` prefix: the caller names the target). */
export async function measureServer(server: BenchServer, workload: ServerWorkload): Promise<Figures> {
  const client = new BenchClient(server);
  const namespace = `orb-bench-${randomBytes(4).toString("hex")}`;
  await client.json("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
  try {
    const collection = `/api/v1/namespaces/${namespace}/pods`;
    // The client's own work stays out of the figure: bodies are written before the clock starts,
    // and answers are checked by status (the two processes share the machine's two cores).
    const bodies = Array.from({ length: workload.pods }, (_, index) => JSON.stringify(pod(index)));
    const started = performance.now();
    await pooled(workload.pods, IN_FLIGHT, async (index) => {
      const answer = await client.send("POST", collection, bodies[index]);
      if (answer.status !== 201) throw new Error(`POST ${collection}: ${answer.status} ${answer.body.toString("utf8").slice(0, 300)}`);
    });
    const createsPerSecond = workload.pods / ((performance.now() - started) / 1000);

    await client.received(collection); // warm-up: caches, connections
    // The median of several lists: one list of a real server took anything from 265 to 635 ms.
    // Timed to the last byte; every Pod carries its padding, so a list of all of them is at least that long.
    const unpagedMs = await medianMs(UNPAGED_LISTS, async () => {
      const unpaged = await client.received(collection);
      if (unpaged.status !== 200) throw new Error(`GET ${collection}: ${unpaged.status}`);
      if (unpaged.bytes < workload.pods * PADDING) throw new Error(`GET ${collection}: ${unpaged.bytes} bytes, too few for ${workload.pods} Pods`);
    });
    const pagedMs = await medianMs(PAGED_LISTS, async () => {
      let items = 0;
      let next: string | undefined = `${collection}?limit=${PAGE}`;
      while (next !== undefined) {
        const page: any = await client.json("GET", next);
        items += page.items.length;
        next = page.metadata.continue ? `${collection}?limit=${PAGE}&continue=${encodeURIComponent(page.metadata.continue)}` : undefined;
      }
      if (items !== workload.pods) throw new Error(`the paged list gave ${items} of ${workload.pods} Pods`);
    });

    const latencies = (await fanoutLatencies(server, client, namespace, workload)).sort((a, b) => a - b);
    return {
      "server.createsPerSecond": createsPerSecond,
      "server.list10kUnpagedMs": unpagedMs,
      "server.list10kPagedMs": pagedMs,
      "server.watchFanoutP99Ms": percentile(latencies, 99),
    };
  } finally {
    await client.send("DELETE", `/api/v1/namespaces/${namespace}`).catch(() => undefined);
    // Wait until the namespace is gone: a real control plane deletes its 10,000 Pods in the
    // background (the namespace controller, etcd), which took CPU from the embedded server's
    // next repetition (fan-out p99 70–117 ms beside it, 40–44 ms alone).
    await namespaceGone(client, namespace);
    client.close();
  }
}
