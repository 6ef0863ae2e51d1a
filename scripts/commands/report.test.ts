import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSeed, runsOfShard, type CampaignResults, type Shard } from "../../conformance/campaign/campaign.ts";
import { formatCampaignResults, readCampaignResults } from "../../reports/campaign-results-file.ts";
import { formatResultsJson } from "../../reports/results-file.ts";
import { sampleResults } from "../../reports/test-support/fixtures.ts";
import { childElements, parseXml, textContent } from "../../reports/test-support/strict-xml.ts";
import { main } from "../cli.ts";

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

let dir: string;
let resultsPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "orb-report-cli-"));
  resultsPath = join(dir, "results.json");
  await writeFile(resultsPath, formatResultsJson(sampleResults()));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("orb-harness report", () => {
  it("writes each format to --out, creating its directory, and exits 0 even for a run with failures", async () => {
    for (const [format, check] of [
      ["junit", (text: string) => expect(parseXml(text).attributes["failures"]).toBe("1")],
      ["md", (text: string) => expect(text).toMatch(/^# ❌ Conformance: `https:\/\/cluster\.example:6443` \(kubernetes\)/)],
      ["html", (text: string) => expect(text).toMatch(/^<!DOCTYPE html>/)],
      ["json", (text: string) => expect(text).toBe(formatResultsJson(sampleResults()))],
    ] as const) {
      const out = join(dir, "made", format, "report");
      const result = await run("report", "--from", resultsPath, "--format", format, "--out", out);
      expect(result).toMatchObject({ code: 0, out: `wrote ${out}` });
      check(await readFile(out, "utf8"));
    }
  });

  it("prints the report to standard output without --out", async () => {
    const result = await run("report", "--from", resultsPath, "--format", "json");
    expect(result.code).toBe(0);
    expect(`${result.out}\n`).toBe(formatResultsJson(sampleResults()));
  });

  it("exits 2 with the usage for a missing flag, an unknown format, an unknown flag and a missing --from file", async () => {
    const noFrom = await run("report", "--format", "md");
    expect(noFrom).toMatchObject({ code: 2, err: expect.stringMatching(/--from is required[\s\S]*usage: orb-harness report/) });
    expect(await run("report", "--from", resultsPath)).toMatchObject({ code: 2, err: expect.stringMatching(/--format is required: one of json, junit, md, html/) });
    expect(await run("report", "--from", resultsPath, "--format", "htm")).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unknown --format htm \(did you mean html\?\); one of json, junit, md, html/),
    });
    expect((await run("report", "--from", resultsPath, "--format", "md", "--outt", "x")).code).toBe(2);
    const missing = await run("report", "--from", join(dir, "nope.json"), "--format", "md");
    expect(missing).toMatchObject({ code: 2, err: expect.stringMatching(/--from .*nope\.json: no such file[\s\S]*usage: orb-harness report/) });
  });

  it("exits 2 naming the problem, without the usage, for a file that is not valid results", async () => {
    const bad = join(dir, "bad.json");
    await writeFile(bad, JSON.stringify({ ...JSON.parse(formatResultsJson(sampleResults())), schemaVersion: 9 }));
    const newer = await run("report", "--from", bad, "--format", "md");
    expect(newer).toMatchObject({ code: 2, err: `orb-harness report: ${bad}: results schema version 9 is newer than this harness reads (1); upgrade orb-harness` });
    const broken = join(dir, "broken.json");
    const json = JSON.parse(formatResultsJson(sampleResults()));
    json.cases[1].status = "flaky";
    await writeFile(broken, JSON.stringify(json));
    expect(await run("report", "--from", broken, "--format", "junit")).toMatchObject({ code: 2, err: expect.stringContaining("cases[1].status: expected one of pass, fail, skip, error") });
  });

  it("exits 2 when --out cannot be written", async () => {
    const result = await run("report", "--from", resultsPath, "--format", "md", "--out", join(resultsPath, "under-a-file.md"));
    expect(result).toMatchObject({ code: 2, err: expect.stringMatching(/cannot write/) });
  });

  it("is listed by --help", async () => {
    expect((await run("--help")).out).toMatch(/^\s+report\s+regenerate a report/m);
  });
});

describe("orb-harness report merge", () => {
  const REPLAY = "npx tsx scripts/cli.ts fuzz --target leader-election --faults pauses --seed 5 --replay '0:1'";

  // A shard of a 6-run campaign of seed 3; run 4 failed when `failing`.
  async function writeShard(name: string, shard: Shard, failing = false, overrides: Partial<CampaignResults> = {}): Promise<string> {
    const records = runsOfShard(6, shard).map((run) => ({
      run,
      seed: runSeed(3, run),
      verdict: failing && run === 4 ? ("failed" as const) : ("passed" as const),
      traceHash: `hash-${run}`,
      ...(failing && run === 4 && { summary: "violated leader-election/at-most-one-leader\nwitness: two leaders", replayCommand: REPLAY }),
      durationMs: 250,
    }));
    const results: CampaignResults = { kind: "orb-harness/campaign", command: "fuzz --target leader-election", target: "in-process model", options: "--faults pauses", campaignSeed: 3, runs: 6, shard, records, durationMs: 500, ...overrides };
    const shardDir = join(dir, "shards", name);
    await mkdir(shardDir, { recursive: true });
    await writeFile(join(shardDir, "results.json"), formatCampaignResults(results));
    return shardDir;
  }

  it("merges the shards of a campaign into one campaign's four reports, and exits 0 when every run passed", async () => {
    const shards = [await writeShard("a1", { index: 1, count: 3 }), await writeShard("a2", { index: 2, count: 3 }), await writeShard("a3", { index: 3, count: 3 })];
    const out = join(dir, "merged-a");
    const result = await run("report", "merge", ...shards, "--out", out);
    expect(result.code, result.err).toBe(0);
    expect(result.err).toBe("");
    const lines = result.out.split("\n");
    expect(lines[0]).toBe("merging 3 results of `fuzz --target leader-election` (target in-process model, campaign seed 3, 6 runs, --faults pauses)");
    expect(lines[1]).toBe(`  ${shards[0]}: shard 1/3, 2 runs`);
    expect(lines).toContain("6 runs: 6 passed, 0 failed");
    expect(lines.at(-2)).toBe("6 runs in 1.5 s (4.0 runs/s)");
    expect(lines.at(-1)).toMatch(/^trace-hash: [0-9a-f]{64}$/);
    const merged = await readCampaignResults(out);
    expect(merged.records.map((record) => record.run)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(merged.shard).toBeUndefined();
    // skipped is on <testsuite> (Jenkins' junit-10.xsd allows it nowhere else).
    expect(childElements(parseXml(await readFile(join(out, "junit.xml"), "utf8")), "testsuite")[0]!.attributes).toMatchObject({ tests: "6", failures: "0", skipped: "0" });
    expect(await readFile(join(out, "summary.md"), "utf8")).toMatch(/^# ✅ Campaign: `fuzz --target leader-election`/);
    expect(await readFile(join(out, "report.html"), "utf8")).toMatch(/^<!DOCTYPE html>/);
  });

  it("exits 1 when a merged run failed, printing it with its replay command, in junit.xml too", async () => {
    const shards = [await writeShard("b1", { index: 1, count: 2 }, true), await writeShard("b2", { index: 2, count: 2 })];
    const out = join(dir, "merged-b");
    const result = await run("report", "merge", ...shards, "--out", out);
    expect(result.code).toBe(1);
    expect(result.out).toContain(`FAIL  run 4 (seed ${runSeed(3, 4)}): violated leader-election/at-most-one-leader\n      witness: two leaders\n      replay: ${REPLAY}`);
    expect(result.out).toContain("6 runs: 5 passed, 1 failed");
    const suite = childElements(parseXml(await readFile(join(out, "junit.xml"), "utf8")), "testsuite")[0]!;
    const failed = childElements(suite, "testcase").filter((element) => childElements(element, "failure").length > 0);
    expect(failed.map((element) => element.attributes["name"])).toEqual([`run 4 (seed ${runSeed(3, 4)})`]);
    expect(textContent(failed[0]!)).toContain(`replay: ${REPLAY}`);
  });

  it("warns of runs no shard holds, naming the shards not given, lists them as skipped, and still exits 0", async () => {
    const out = join(dir, "merged-c");
    const result = await run("report", "merge", await writeShard("c1", { index: 1, count: 3 }), "--out", out);
    expect(result.code).toBe(0);
    expect(result.err).toBe("warning: 4 of 6 runs are in no input (not given: shard 2/3, 3/3): 1, 2, 4, 5");
    expect(result.out).toContain("2 runs: 2 passed, 0 failed, 4 missing");
    expect(childElements(parseXml(await readFile(join(out, "junit.xml"), "utf8")), "testsuite")[0]!.attributes).toMatchObject({ tests: "6", skipped: "4" });
  });

  it("exits 2 naming the inputs and the field for results that are not shards of one campaign", async () => {
    const first = await writeShard("d1", { index: 1, count: 2 });
    const otherSeed = await writeShard("d2", { index: 2, count: 2 }, false, { campaignSeed: 4, records: [] });
    expect(await run("report", "merge", first, otherSeed, "--out", join(dir, "merged-d"))).toMatchObject({
      code: 2,
      out: "",
      err: `orb-harness report merge: ${otherSeed} and ${first} are not shards of one campaign: campaignSeed 4 differs from 3`,
    });
    const otherFaults = await writeShard("d3", { index: 2, count: 2 }, false, { options: "--faults all" });
    expect((await run("report", "merge", first, otherFaults)).err).toMatch(/options "--faults all" differs from "--faults pauses"/);
    expect((await run("report", "merge", first, first)).err).toMatch(/run 0 is in both .*d1 and .*d1/);
  });

  it("exits 2 for an input that is missing, not JSON, or not a campaign's results, and for no input", async () => {
    const missing = await run("report", "merge", join(dir, "shards", "nowhere"));
    expect(missing).toMatchObject({ code: 2, err: `orb-harness report merge: ${join(dir, "shards", "nowhere")}: no such file or directory` });
    const notCampaign = await run("report", "merge", resultsPath);
    expect(notCampaign.code).toBe(2);
    expect(notCampaign.err).toMatch(/kind: expected "orb-harness\/campaign", got undefined \(not the results of a fuzz or soak campaign\)/);
    const none = await run("report", "merge", "--out", join(dir, "x"));
    expect(none).toMatchObject({ code: 2, err: expect.stringMatching(/report merge needs at least one report directory[\s\S]*usage: orb-harness report/) });
    expect((await run("report", "merge", "a", "--format", "md")).err).toMatch(/unknown flag --format/);
  });

  it("is described by report --help", async () => {
    const help = (await run("report", "--help")).out;
    expect(help).toContain("orb-harness report merge DIR… [--out DIR]");
    expect(help).toContain("reports/out/merged");
  });
});
