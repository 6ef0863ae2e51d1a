/**
 * One HTTP fuzz session (`orb-harness fuzz --target http`): the server (the embedded one started
 * here, or one given by URL), a namespace of the fuzzer's own (created at the start, deleted at
 * the end, also when the run fails), the engine of sim/fuzz/http/run-http-fuzz.ts, and the checks
 * at the end: /readyz still 200, and, for the embedded server, this process's memory before and
 * after.
 *
 * The requests are a campaign (conformance/campaign/): run r is a block of REQUESTS_PER_RUN
 * requests generated from the run's own seed, so `--shard I/N` sends the blocks r with
 * r % N = I - 1, and the shards of a session together send exactly its requests.
 */
import { randomBytes } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { dialects, type Dialect } from "../../spec/dialects.ts";
import type { DefectName } from "../../sim/apiserver/defects/defects.ts";
import { bodyText, type Outcome } from "../../sim/fuzz/http/answer-oracle.ts";
import { fuzzKinds } from "../../sim/fuzz/http/fuzz-kinds.ts";
import type { FuzzTransport } from "../../sim/fuzz/http/fuzz-transport.ts";
import { createHttpFuzzer, type HttpFuzzBlock, type HttpFuzzer, type HttpFuzzOptions, type ReportedFinding } from "../../sim/fuzz/http/run-http-fuzz.ts";
import type { CampaignResults, Shard } from "../campaign/campaign.ts";
import { runCampaign, type CampaignRunVerdict } from "../campaign/run-campaign.ts";
import type { FuzzTally } from "../../sim/fuzz/http/fuzz-tally.ts";
import { foreignContinueToken, startEmbeddedFuzzServer } from "./embedded-fuzz-server.ts";
import { socketTransport } from "./socket-transport.ts";

/** A server given by URL. */
export interface RemoteServer {
  readonly url: string;
  readonly token?: string;
  /** PEM CA for https. */
  readonly ca?: string;
}

/** Generated requests in one run (block) of a session's campaign. */
export const REQUESTS_PER_RUN = 1_000;

/** How to run a session. */
export interface HttpFuzzSessionOptions {
  /** The campaign's seed (with `replayPath`: the seed printed with the finding). */
  readonly seed: number;
  /** Generated requests of the whole campaign (every shard's). */
  readonly requests: number;
  /** Generated requests per block (default REQUESTS_PER_RUN; smaller in tests). */
  readonly requestsPerRun?: number;
  /** Send only this shard's blocks. */
  readonly shard?: Shard;
  /** The command that replays a finding, for the run records. */
  readonly replayCommand?: (finding: ReportedFinding) => string;
  /** Stops the campaign between blocks (Ctrl-C). */
  readonly signal?: AbortSignal;
  /** The server to fuzz; the embedded one when absent. */
  readonly server?: RemoteServer;
  readonly replayPath?: string;
  readonly maxFindings?: number;
  /** Bugs to plant in the embedded server (tests of the fuzzer only). */
  readonly embeddedDefects?: ReadonlySet<DefectName>;
  readonly onProgress?: (tally: FuzzTally, elapsedMs: number) => void;
  readonly onFinding?: (finding: ReportedFinding) => void;
  readonly onExchange?: HttpFuzzOptions["onExchange"];
  readonly shrink?: boolean;
  /** Told once the server answers and the namespace exists. */
  readonly onStart?: (start: { readonly url: string; readonly namespace: string; readonly dialect: Dialect; readonly embedded: boolean }) => void;
}

/** Memory of this process, in bytes. */
export interface MemoryFigures {
  readonly rss: number;
  readonly heapUsed: number;
}

/** What a session found. */
export interface HttpFuzzSessionResult {
  readonly tally: FuzzTally;
  readonly findings: readonly ReportedFinding[];
  /** The blocks as a campaign's runs (none for a replay). */
  readonly campaign?: CampaignResults;
  readonly namespace: string;
  readonly dialect: Dialect;
  readonly elapsedMs: number;
  /** /readyz's status at the end (0: no answer). */
  readonly readyzStatus: number;
  /** For the embedded server. */
  readonly memory?: { readonly before: MemoryFigures; readonly after: MemoryFigures };
  /** Whether the namespace was deleted at the end. */
  readonly cleanedUp: boolean;
}

/** The session could not start (an unreachable server, a namespace it may not create). */
export class SessionError extends Error {}

/** Runs one session. */
export async function runHttpFuzzSession(options: HttpFuzzSessionOptions): Promise<HttpFuzzSessionResult> {
  const started = performance.now();
  const embedded = options.server === undefined ? await startEmbeddedFuzzServer(options.embeddedDefects) : undefined;
  const server = options.server ?? { url: embedded!.url, token: embedded!.token };
  const transport = socketTransport({ url: new URL(server.url), ...(server.ca !== undefined && { ca: server.ca }) }, server.token);
  const namespace = `orb-fuzz-${randomBytes(4).toString("hex")}`;
  let created = false;
  try {
    const dialect = await detectDialect(transport);
    await helper(transport, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } }, `create the namespace ${namespace}`);
    created = true;
    if (options.server !== undefined) await awaitDefaultServiceAccount(transport, namespace);
    const session = { namespace, continueToken: await continueToken(transport, namespace), foreignContinueToken: await foreignContinueToken() };
    options.onStart?.({ url: server.url, namespace, dialect, embedded: embedded !== undefined });
    const before = embedded === undefined ? undefined : memory();
    const fuzzer = createHttpFuzzer({
      target: embedded === undefined ? "remote" : "embedded",
      dialect,
      transport,
      session,
      ...(options.maxFindings !== undefined && { maxFindings: options.maxFindings }),
      onProgress: (tally) => options.onProgress?.(tally, performance.now() - started),
      ...(options.onFinding !== undefined && { onFinding: options.onFinding }),
      ...(options.onExchange !== undefined && { onExchange: options.onExchange }),
      ...(options.shrink !== undefined && { shrink: options.shrink }),
    });
    let campaign: CampaignResults | undefined;
    if (options.replayPath !== undefined) await fuzzer.replay(options.seed, options.replayPath);
    else campaign = await runBlocks(fuzzer, options, embedded === undefined ? server.url : "embedded");
    const readyz = await transport.send({ method: "GET", target: "/readyz", headers: [] }, { streaming: false, expectsNoAnswer: false });
    const after = embedded === undefined ? undefined : memory();
    const cleanedUp = await deleteNamespace(transport, namespace, dialect);
    created = false;
    return {
      tally: fuzzer.tally,
      findings: fuzzer.findings,
      ...(campaign !== undefined && { campaign }),
      namespace,
      dialect,
      elapsedMs: performance.now() - started,
      readyzStatus: readyz.kind === "answer" ? readyz.status : 0,
      ...(before !== undefined && after !== undefined && { memory: { before, after } }),
      cleanedUp,
    };
  } finally {
    if (created) await deleteNamespace(transport, namespace, dialects[0]!).catch(() => false);
    await embedded?.close();
  }
}

/** The session's blocks as a campaign: run r sends its share of the requests from the run's seed; it stops once the findings are full. */
async function runBlocks(fuzzer: HttpFuzzer, options: HttpFuzzSessionOptions, target: string): Promise<CampaignResults> {
  const perRun = options.requestsPerRun ?? REQUESTS_PER_RUN;
  const full = new AbortController();
  const stop = () => full.abort();
  options.signal?.addEventListener("abort", stop);
  try {
    return await runCampaign(
      {
        command: "fuzz --target http",
        target,
        // Shards of one campaign agree on its size and on how it is cut into blocks.
        options: `--runs ${options.requests} (blocks of ${perRun})`,
        campaignSeed: options.seed,
        runs: Math.ceil(options.requests / perRun),
        shard: options.shard,
      },
      async (run, seed) => {
        const block = await fuzzer.runBlock(seed, Math.min(perRun, options.requests - run * perRun));
        if (fuzzer.full) full.abort();
        return blockVerdict(block, fuzzer.findings, options.replayCommand);
      },
      { signal: full.signal },
    );
  } finally {
    options.signal?.removeEventListener("abort", stop);
  }
}

/** A block's record: failed when any finding occurred in it, named with the command that replays the first. */
function blockVerdict(block: HttpFuzzBlock, findings: readonly ReportedFinding[], replayCommand: ((finding: ReportedFinding) => string) | undefined): CampaignRunVerdict {
  if (block.occurred.length === 0) return { verdict: "passed", traceHash: block.traceHash };
  const counts = new Map<string, number>();
  for (const signature of block.occurred) counts.set(signature, (counts.get(signature) ?? 0) + 1);
  const summary = [...counts].map(([signature, count]) => {
    const finding = findings.find((known) => known.finding.signature === signature);
    return `${count}× ${finding === undefined ? signature : `${finding.finding.rule}: ${finding.finding.summary}`}`;
  });
  // The block's own first finding, else the earlier one it repeated: either replays the broken rule.
  const first = block.findings[0] ?? findings.find((known) => known.finding.signature === block.occurred[0]);
  return {
    verdict: "failed",
    traceHash: block.traceHash,
    summary: summary.join("\n"),
    ...(first !== undefined && replayCommand !== undefined && { replayCommand: replayCommand(first) }),
  };
}

/** This process's memory after a full collection, so the figures show what is kept, not garbage. */
function memory(): MemoryFigures {
  collectGarbage();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}

// V8's gc() without --expose-gc on the command line: the flag set at run time, the function taken
// from a fresh context (where V8 installs it).
let gcFunction: (() => void) | undefined;
function collectGarbage(): void {
  if (gcFunction === undefined) {
    setFlagsFromString("--expose-gc");
    gcFunction = runInNewContext("gc") as () => void;
  }
  gcFunction();
}

async function helper(transport: FuzzTransport, method: string, target: string, body: unknown, what: string, tolerated: readonly number[] = []): Promise<any> {
  const outcome = await transport.send(
    { method, target, headers: [["Accept", "application/json"], ...(body === undefined ? [] : [["Content-Type", "application/json"] as const])], ...(body !== undefined && { body: new TextEncoder().encode(JSON.stringify(body)) }) },
    { streaming: false, expectsNoAnswer: false },
  );
  if (outcome.kind === "answer" && tolerated.includes(outcome.status)) return undefined;
  if (outcome.kind !== "answer" || outcome.status < 200 || outcome.status > 299) throw new SessionError(`${what}: ${describe(outcome)}`);
  return JSON.parse(bodyText(outcome.body, Infinity));
}

function describe(outcome: Outcome): string {
  return outcome.kind === "answer" ? `${outcome.status} ${bodyText(outcome.body, 300)}` : `no answer (${outcome.detail})`;
}

/** The dialect the server speaks, from the coordination group its discovery lists (Kubernetes when unsure). */
async function detectDialect(transport: FuzzTransport): Promise<Dialect> {
  const groups = (await helper(transport, "GET", "/apis", undefined, "read the server's discovery (/apis)")) as { groups?: Array<{ name?: string }> };
  const served = new Set((groups.groups ?? []).map((group) => group.name));
  return dialects.find((dialect) => served.has(dialect.groups.coordination)) ?? dialects.find((dialect) => dialect.name === "kubernetes")!;
}

// A real cluster admits Pods only once the namespace's default ServiceAccount exists (as the
// conformance suite waits for it, at most 30 s).
async function awaitDefaultServiceAccount(transport: FuzzTransport, namespace: string): Promise<void> {
  // A server without ServiceAccounts (an embedded one given by URL) has none to wait for.
  const core = (await helper(transport, "GET", "/api/v1", undefined, "read the core group's discovery (/api/v1)")) as { resources?: Array<{ name?: string }> };
  if (!(core.resources ?? []).some((resource) => resource.name === "serviceaccounts")) return;
  for (let attempt = 0; attempt < 60; attempt++) {
    const outcome = await transport.send({ method: "GET", target: `/api/v1/namespaces/${namespace}/serviceaccounts/default`, headers: [] }, { streaming: false, expectsNoAnswer: false });
    if (outcome.kind === "answer" && outcome.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** A continue token for the namespace's ConfigMaps: two are made, then listed one at a time. */
async function continueToken(transport: FuzzTransport, namespace: string): Promise<string> {
  for (const name of ["fzs-0", "fzs-1"]) {
    await helper(transport, "POST", `/api/v1/namespaces/${namespace}/configmaps`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name } }, `create ConfigMap ${name}`);
  }
  const list = await helper(transport, "GET", `/api/v1/namespaces/${namespace}/configmaps?limit=1`, undefined, "list ConfigMaps one at a time");
  return String(list?.metadata?.continue ?? "");
}

/**
 * Deletes the namespace, after taking the finalizers off its objects (the fuzzer may have left
 * some, and a namespace with them never goes). Waits up to 30 s for it to go; false if it did not.
 */
async function deleteNamespace(transport: FuzzTransport, namespace: string, dialect: Dialect): Promise<boolean> {
  for (const kind of fuzzKinds(dialect)) {
    const root = `${kind.root}/namespaces/${namespace}/${kind.resource}`;
    const list = await helper(transport, "GET", root, undefined, `list ${kind.resource}`).catch(() => undefined);
    for (const item of (list?.items ?? []) as Array<{ metadata?: { name?: string; finalizers?: string[] } }>) {
      if ((item.metadata?.finalizers ?? []).length === 0) continue;
      const patch = { metadata: { finalizers: null } };
      await transport.send(
        { method: "PATCH", target: `${root}/${encodeURIComponent(item.metadata!.name!)}`, headers: [["Content-Type", "application/merge-patch+json"]], body: new TextEncoder().encode(JSON.stringify(patch)) },
        { streaming: false, expectsNoAnswer: false },
      );
    }
  }
  await helper(transport, "DELETE", `/api/v1/namespaces/${namespace}`, undefined, `delete the namespace ${namespace}`, [404]);
  for (let attempt = 0; attempt < 60; attempt++) {
    const outcome = await transport.send({ method: "GET", target: `/api/v1/namespaces/${namespace}`, headers: [] }, { streaming: false, expectsNoAnswer: false });
    if (outcome.kind === "answer" && outcome.status === 404) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}
