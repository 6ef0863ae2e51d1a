/**
 * The HTTP fuzzer end to end against the embedded server on a loopback socket: a small run with a
 * fixed seed finds nothing (what `npm test` keeps true), and planted bugs are found, shrunk and
 * replayed from the printed seed and path (what keeps the fuzzer honest).
 */
import { describe, expect, it } from "vitest";
import { runHttpFuzzSession } from "./http-fuzz-session.ts";

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
    const found = await runHttpFuzzSession({ seed: 7, requests: 1_500, embeddedDefects: defects, maxFindings: 1 });
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
});
