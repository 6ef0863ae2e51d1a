/**
 * The HTTP fuzzer's engine (`orb-harness fuzz --target http`): fast-check draws batches of
 * LANE_COUNT requests, one per lane, sent at once (so up to LANE_COUNT are in flight); each answer
 * is judged (answer-oracle.ts) and each write checked against the lane's objects before and after
 * (lane-objects.ts). Requests come in blocks, each generated from a seed of its own (a campaign
 * makes each block a run, so shards can split them). A new finding fails the fast-check run: it
 * shrinks the batch, the finding is reported with its replay path, and the block resumes under a
 * seed derived from its own (a "segment"), until its requests are spent or too many findings are
 * in. A finding seen before, in any block, is counted, not shrunk again.
 *
 * The network is a parameter (FuzzTransport), so this file keeps sim/'s determinism contract.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import type { Dialect } from "../../../spec/dialects.ts";
import { judgeAnswer, type Finding, type Outcome } from "./answer-oracle.ts";
import { countedException, type TargetKind } from "./counted-exceptions.ts";
import { fuzzKinds, type FuzzKind } from "./fuzz-kinds.ts";
import { bodyBytes, declaredLength, describeRequest, fillPlaceholders, isWriteMethod, LANE_COUNT, type FuzzRequest, type PlaceholderValues } from "./fuzz-request.ts";
import { FuzzTally } from "./fuzz-tally.ts";
import type { FuzzTransport } from "./fuzz-transport.ts";
import { changedObjects, HelperFailure, LaneObjects, type LaneSnapshot } from "./lane-objects.ts";
import { laneRequestArbitrary } from "./request-arbitrary.ts";

/** Values the session knows before the first request. */
export interface SessionValues {
  readonly namespace: string;
  /** A continue token of this server, from a list in the namespace. */
  readonly continueToken: string;
  /** A continue token of another server instance. */
  readonly foreignContinueToken: string;
}

/** How to fuzz: the server, the session and what to tell the caller. */
export interface HttpFuzzOptions {
  readonly target: TargetKind;
  readonly dialect: Dialect;
  readonly transport: FuzzTransport;
  readonly session: SessionValues;
  /** Stop shrinking new findings after this many distinct ones (default 20): `full` turns true. */
  readonly maxFindings?: number;
  /** Told every `progressEvery` generated requests (default 1000). */
  readonly onProgress?: (tally: FuzzTally) => void;
  readonly progressEvery?: number;
  /** Told of each finding as soon as it is shrunk. */
  readonly onFinding?: (finding: ReportedFinding) => void;
  /**
   * false: findings are recorded (their first occurrence, unshrunk) and the run goes on with the
   * same requests, so two servers given the same seed get the same requests (default true).
   */
  readonly shrink?: boolean;
  /** Told of every generated request and its outcome (to compare two servers, or to debug). */
  readonly onExchange?: (request: FuzzRequest, outcome: Outcome) => void;
}

/** A finding, shrunk, with what replays it. */
export interface ReportedFinding {
  readonly finding: Finding;
  /** The request that broke the rule, and the answer it got. */
  readonly request: string;
  readonly answer: string;
  /** The shrunk batch, one request per line. */
  readonly counterexample: readonly string[];
  readonly shrinks: number;
  /** The seed and fast-check path that replay it. */
  readonly seed: number;
  readonly replayPath: string;
}

/** What one block of requests came to. */
export interface HttpFuzzBlock {
  /** Generated requests sent in the block, shrinking included. */
  readonly requests: number;
  /** Findings first seen in this block, shrunk. */
  readonly findings: readonly ReportedFinding[];
  /** The signature of every finding that occurred in the block, repeats of earlier ones included. */
  readonly occurred: readonly string[];
  /**
   * SHA-256 over the requests the block generated, in order and with their placeholders unfilled,
   * and the signatures that occurred: what the block did. Not its answers: those depend on what
   * the blocks before it left in the lanes, which differs from shard to shard.
   */
  readonly traceHash: string;
}

/** A fuzzer bound to one server and session: its lanes, tally and known findings last across blocks. */
export interface HttpFuzzer {
  readonly tally: FuzzTally;
  /** Every distinct finding so far, shrunk. */
  readonly findings: readonly ReportedFinding[];
  /** Whether `maxFindings` distinct findings are in: a campaign stops here. */
  readonly full: boolean;
  /** Sends at least `requests` requests generated from `seed` (more when shrinking). */
  runBlock(seed: number, requests: number): Promise<HttpFuzzBlock>;
  /** Replays one failure: the seed and fast-check path printed with it. */
  replay(seed: number, path: string): Promise<HttpFuzzBlock>;
}

/** Thrown inside the property when a request breaks a rule no earlier finding covers. */
class FindingError extends Error {
  constructor(
    readonly finding: Finding,
    readonly request: FuzzRequest,
    readonly answer: string,
  ) {
    super(`${finding.rule}: ${finding.summary}`);
  }
}

/** The seed of segment `index`: the session seed itself first, then derived from it. */
export function segmentSeed(seed: number, index: number): number {
  return index === 0 ? seed : (seed ^ Math.imul(index, 0x9e3779b1)) | 0;
}

/** A fuzzer for `options`'s server and session. */
export function createHttpFuzzer(options: HttpFuzzOptions): HttpFuzzer {
  const tally = new FuzzTally();
  const kinds = new Map(fuzzKinds(options.dialect).map((kind) => [kind.resource, kind]));
  const lanes = Array.from({ length: LANE_COUNT }, (_, lane) => new LaneObjects(lane, options.transport, placeholderValues(options.session, undefined, undefined)));
  const batch = fc.tuple(...lanes.map((_, lane) => fc.option(laneRequestArbitrary({ dialect: options.dialect }, lane), { nil: undefined, freq: 40 })));
  const known = new Set<string>();
  const findings: ReportedFinding[] = [];
  const progressEvery = options.progressEvery ?? 1_000;
  let nextProgress = progressEvery;
  // The block under way: what it sent and what occurred in it.
  let block = { requests: 0, findings: [] as ReportedFinding[], occurred: [] as string[], trace: createHash("sha256") };
  // The seed of the fast-check run under way: what a finding's replay command names.
  let checkSeed = 0;

  const exchange = async (request: FuzzRequest): Promise<void> => {
    block.trace.update(`${describeRequest(request)}\n`);
    const lane = lanes[request.lane]!;
    const helpersBefore = lane.helperRequests;
    try {
      const kind = request.write === undefined ? undefined : kinds.get(request.write.resource);
      const writes = isWriteMethod(request.method) && kind !== undefined;
      const before = writes ? await lane.prepare(kind!, request.write!.name, request.write!.precondition) : undefined;
      const outcome = await send(options, request, before, request.write?.name);
      // Whatever the answer, the lane's list is stale until checkWrite lists again.
      if (writes) lane.forget(kind!);
      tally.requests++;
      block.requests++;
      options.onExchange?.(request, outcome);
      tally.countAnswer(outcome.kind === "answer" ? outcome.status : undefined);
      const judgement = judgeAnswer(request, outcome, options.target);
      if (judgement.statusBody) tally.statusBodies++;
      judgement.exceptions.forEach((id) => tally.countException(id));
      const answer = describeOutcome(outcome);
      for (const finding of judgement.findings) report(finding, request, answer);
      if (writes) await checkWrite(lane, kind!, request, outcome, before!, answer);
      if (outcome.kind === "no-answer") await checkAlive(request, answer);
    } catch (error) {
      if (!(error instanceof HelperFailure)) throw error;
      const outcome = describeOutcome(error.outcome);
      report({ rule: "helper-answers", summary: `the server could not ${error.message}`, signature: `helper-answers:${error.what.split(" ")[0]}:${outcome.slice(0, 3)}` }, request, outcome);
    } finally {
      tally.helperRequests += lane.helperRequests - helpersBefore;
      if (tally.requests >= nextProgress) {
        nextProgress += progressEvery;
        options.onProgress?.(tally);
      }
    }
  };

  // A known finding is counted again; a new one fails the run to be shrunk (counted once reported:
  // the variants shrinking tries on the way are not findings of their own).
  const report = (finding: Finding, request: FuzzRequest, answer: string) => {
    if (known.has(finding.signature)) {
      tally.countFinding(finding.signature);
      block.occurred.push(finding.signature);
      return;
    }
    if (options.shrink !== false) throw new FindingError(finding, request, answer);
    known.add(finding.signature);
    tally.countFinding(finding.signature);
    block.occurred.push(finding.signature);
    const reported = { finding, request: describeRequest(request), answer, counterexample: [describeRequest(request)], shrinks: 0, seed: checkSeed, replayPath: "" };
    findings.push(reported);
    block.findings.push(reported);
    options.onFinding?.(reported);
  };

  // "No write applied when the answer is an error": the lane's objects are what they were.
  const checkWrite = async (lane: LaneObjects, kind: FuzzKind, request: FuzzRequest, outcome: Outcome, before: LaneSnapshot, answer: string) => {
    const succeeded = outcome.kind === "answer" && outcome.status >= 200 && outcome.status < 300;
    if (succeeded && !isDryRun(request)) return;
    const after = await lane.relist(kind);
    const changed = changedObjects(before, after);
    if (changed.length === 0) return;
    const exception = countedException("no-write-on-error", request, outcome.kind === "answer" ? outcome : undefined, "", options.target);
    if (exception !== undefined) {
      tally.countException(exception.id);
      return;
    }
    const what = succeeded ? "a dry run" : "an error answer";
    report({ rule: "no-write-on-error", summary: `after ${what} the lane's ${kind.resource} changed: ${changed.join(", ")}`, signature: `no-write-on-error:${succeeded ? "dry-run" : "error"}:${request.method}` }, request, answer);
  };

  // A request that got no answer must not have taken the server down.
  const checkAlive = async (request: FuzzRequest, answer: string) => {
    const probe = await options.transport.send({ method: "GET", target: "/readyz", headers: [] }, { streaming: false, expectsNoAnswer: false });
    tally.helperRequests++;
    if (probe.kind !== "answer" || probe.status !== 200) report({ rule: "alive", summary: `/readyz after a request without an answer: ${describeOutcome(probe)}`, signature: "alive:readyz" }, request, answer);
  };

  const property = fc.asyncProperty(batch, async (requests) => {
    const outcomes = await Promise.allSettled(requests.map((request) => (request === undefined ? Promise.resolve() : exchange(request))));
    const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
    if (failed !== undefined) throw failed.reason;
  });

  const maxFindings = options.maxFindings ?? 20;

  // One fast-check run of `numRuns` batches from `seed` (or the replay of one path); a new finding ends it, shrunk.
  const check = async (seed: number, numRuns: number, path?: string) => {
    checkSeed = seed;
    const details = await fc.check(property, { seed, numRuns, ...(path !== undefined && { path, endOnFailure: true }) });
    if (!details.failed) return;
    const error = details.errorInstance;
    if (!(error instanceof FindingError)) throw new Error(`http fuzz: the harness failed: ${error instanceof Error ? error.stack : String(error)}`);
    known.add(error.finding.signature);
    tally.countFinding(error.finding.signature);
    block.occurred.push(error.finding.signature);
    const reported: ReportedFinding = {
      finding: error.finding,
      request: describeRequest(error.request),
      answer: error.answer,
      counterexample: ((details.counterexample?.[0] ?? []) as Array<FuzzRequest | undefined>).filter((request) => request !== undefined).map(describeRequest),
      shrinks: details.numShrinks,
      seed,
      replayPath: details.counterexamplePath ?? "",
    };
    findings.push(reported);
    block.findings.push(reported);
    options.onFinding?.(reported);
  };

  const finishBlock = (): HttpFuzzBlock => {
    const done = block;
    block = { requests: 0, findings: [], occurred: [], trace: createHash("sha256") };
    for (const signature of done.occurred) done.trace.update(`finding ${signature}\n`);
    return { requests: done.requests, findings: done.findings, occurred: done.occurred, traceHash: done.trace.digest("hex") };
  };

  return {
    tally,
    findings,
    get full() {
      return findings.length >= maxFindings;
    },
    // After a new finding the block goes on under a seed derived from its own (a "segment"), until its requests are sent.
    async runBlock(seed, requests) {
      for (let index = 0; block.requests < requests && findings.length < maxFindings; index++) {
        await check(segmentSeed(seed, index), Math.max(1, Math.ceil((requests - block.requests) / LANE_COUNT)));
      }
      return finishBlock();
    },
    async replay(seed, path) {
      await check(seed, 1, path);
      return finishBlock();
    },
  };
}

/** Sends one generated request, its placeholders filled for its lane's object. */
async function send(options: HttpFuzzOptions, request: FuzzRequest, before: LaneSnapshot | undefined, name: string | undefined): Promise<Outcome> {
  const values = placeholderValues(options.session, before, name);
  const fill = (text: string) => fillPlaceholders(text, values);
  const query = fill(request.query);
  let body: Uint8Array | undefined;
  try {
    body = request.body === undefined ? undefined : bodyBytes(request.body, values);
  } catch (error) {
    throw new Error(`http fuzz: cannot encode the body of ${describeRequest(request)}: ${(error as Error).message}`);
  }
  return options.transport.send(
    {
      method: request.method,
      target: `${fill(request.path)}${query === "" ? "" : `?${query}`}`,
      headers: request.headers.map(([header, value]) => [header, fill(value)] as const),
      ...(body !== undefined && { body }),
      ...(request.lengthLie !== undefined && body !== undefined && { declaredLength: declaredLength(request.lengthLie, body.byteLength) }),
    },
    { streaming: /(^|&)watch=/.test(query), expectsNoAnswer: request.lengthLie === "long" },
  );
}

/** The placeholders' values for a request on `name` (the collection's when it names no object). */
function placeholderValues(session: SessionValues, before: LaneSnapshot | undefined, name: string | undefined): PlaceholderValues {
  const object = name === undefined ? undefined : before?.objects.get(name);
  const resourceVersion = String(object?.["metadata"]?.["resourceVersion"] ?? before?.resourceVersion ?? "1");
  const numeric = Number(resourceVersion);
  return {
    namespace: session.namespace,
    resourceVersion,
    futureResourceVersion: Number.isSafeInteger(numeric) ? String(numeric + 1_000_000) : `${resourceVersion}0`,
    uid: String(object?.["metadata"]?.["uid"] ?? "00000000-0000-0000-0000-000000000000"),
    continueToken: session.continueToken,
    flippedContinueToken: flipOneCharacter(session.continueToken),
    foreignContinueToken: session.foreignContinueToken,
  };
}

// One character of the token changed to another of its alphabet: one byte flipped on the wire.
function flipOneCharacter(token: string): string {
  if (token === "") return "A";
  const at = Math.floor(token.length / 2);
  const replacement = token[at] === "A" ? "B" : "A";
  return `${token.slice(0, at)}${replacement}${token.slice(at + 1)}`;
}

/**
 * A write that asks to change nothing: dryRun in the query, or for a DELETE with a body, in that
 * body only (Kubernetes reads a DELETE's options from its body when it has one, ignoring the query).
 */
function isDryRun(request: FuzzRequest): boolean {
  const textBody = request.body !== undefined && "text" in request.body ? request.body.text : undefined;
  if (request.method === "DELETE" && textBody !== undefined && textBody !== "") return textBody.includes('"dryRun"');
  if (new URLSearchParams(request.query).getAll("dryRun").length > 0) return true;
  return textBody !== undefined && textBody.includes('"dryRun"');
}

function describeOutcome(outcome: Outcome): string {
  if (outcome.kind === "no-answer") return `no answer (${outcome.why}: ${outcome.detail})`;
  const text = Buffer.from(outcome.body.subarray(0, 300)).toString("utf8");
  return `${outcome.status} ${outcome.headers.get("content-type") ?? "(no content-type)"} ${JSON.stringify(text)}${outcome.body.byteLength > 300 ? "…" : ""}`;
}
