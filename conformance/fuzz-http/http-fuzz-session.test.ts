/**
 * The HTTP fuzzer end to end against the embedded server on a loopback socket: a small run with a
 * fixed seed finds nothing (what `npm test` keeps true), and planted bugs are found, shrunk and
 * replayed from the printed seed and path (what keeps the fuzzer honest).
 */
import { describe, expect, it } from "vitest";
import { describeRequest } from "../../sim/fuzz/http/fuzz-request.ts";
import { campaignTraceHash, type Shard } from "../campaign/campaign.ts";
import { runHttpFuzzSession } from "./http-fuzz-session.ts";

/** A session of 4 blocks of 50 requests (or one shard of it): what it generated, and its records. */
async function blocks(shard?: Shard) {
  const requests: string[] = [];
  const result = await runHttpFuzzSession({ seed: 21, requests: 200, requestsPerRun: 50, ...(shard !== undefined && { shard }), onExchange: (request) => requests.push(describeRequest(request)) });
  return { requests, records: result.campaign!.records, findings: result.findings };
}

describe("fuzz --target http against the embedded server", () => {
  it("sends 300 requests with seed 1414 and finds nothing; the server still answers and the namespace is gone", async () => {
    const result = await runHttpFuzzSession({ seed: 1414, requests: 300 });
    expect(result.findings.map((finding) => `${finding.finding.rule}: ${finding.finding.summary} :: ${finding.request}`)).toEqual([]);
    expect(result.tally.requests).toBeGreaterThanOrEqual(300);
    // The run reached every answer class it should: successes, refusals with a Status, counted exceptions.
    expect(result.tally.byClass.get("2xx")).toBeGreaterThan(20);
    expect(result.tally.byClass.get("4xx")).toBeGreaterThan(100);
    expect(result.tally.statusBodies).toBeGreaterThan(100);
    expect(result.tally.exceptions.get("plain-404")).toBeGreaterThan(0);
    expect([result.readyzStatus, result.cleanedUp, result.dialect.name]).toEqual([200, true, "kubernetes"]);
    expect(result.memory?.after.heapUsed).toBeGreaterThan(0);
  });

  it("finds a dry-run create that is stored, shrinks it to one request, and replays it from the seed and path", async () => {
    const defects = new Set(["dry-run-persists"] as const);
    const found = await runHttpFuzzSession({ seed: 1, requests: 1_500, embeddedDefects: defects, maxFindings: 1 });
    const [finding] = found.findings;
    expect(finding?.finding.rule).toBe("no-write-on-error");
    expect(finding?.finding.summary).toMatch(/^after a dry run the lane's \w+ changed: fz\d-[ab]$/);
    expect(finding?.counterexample).toHaveLength(1);
    expect(finding?.counterexample[0]).toMatch(/ POST .*dryRun=All/);
    const replayed = await runHttpFuzzSession({ seed: finding!.seed, requests: 1, embeddedDefects: defects, replayPath: finding!.replayPath });
    expect(replayed.findings.map((again) => again.finding.signature)).toEqual([finding!.finding.signature]);
  });

  it("finds bodies that are not what their Content-Type says", async () => {
    const found = await runHttpFuzzSession({ seed: 3, requests: 1_000, embeddedDefects: new Set(["content-type-always-json"] as const), maxFindings: 1 });
    expect(found.findings[0]?.finding.rule).toBe("success-decodes");
    expect(found.findings[0]?.finding.summary).toMatch(/^2\d\d application\/json: does not decode/);
    expect(found.findings[0]?.counterexample[0]).toMatch(/Accept: [^\]]*(yaml|protobuf)/);
  });

  it("cuts its requests into blocks, and 4 shards send exactly the unsharded session's blocks, with its verdicts and trace hash", async () => {
    const whole = await blocks();
    const shards = [];
    for (let index = 1; index <= 4; index++) shards.push(await blocks({ index, count: 4 }));
    expect(whole.findings).toEqual([]);
    expect(whole.records.map((record) => record.run)).toEqual([0, 1, 2, 3]);
    expect(shards.map((shard) => shard.records.map((record) => record.run))).toEqual([[0], [1], [2], [3]]);
    const identity = (record: (typeof whole.records)[number]) => ({ run: record.run, seed: record.seed, verdict: record.verdict, traceHash: record.traceHash });
    const merged = shards.flatMap((shard) => shard.records).sort((a, b) => a.run - b.run);
    expect(merged.map(identity)).toEqual(whole.records.map(identity));
    expect(campaignTraceHash(merged)).toBe(campaignTraceHash(whole.records));
    // Every request of the whole session, sent by exactly one shard; each block's requests differ from the others'.
    expect(shards.flatMap((shard) => shard.requests).sort()).toEqual([...whole.requests].sort());
    expect(new Set(whole.records.map((record) => record.traceHash)).size).toBe(4);
    expect(whole.requests.length).toBeGreaterThanOrEqual(200);
  });
});

