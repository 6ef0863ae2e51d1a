/**
 * `fuzz --target store` campaigns through the CLI entry (issue 16): 4 shards, merged with
 * `report merge`, give the same runs with the same seeds, verdicts and trace hashes as one
 * unsharded process, and the merge prints the unsharded campaign's trace hash; each shard makes
 * only its runs; campaign flags are refused where they do not apply.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaignTraceHash, runSeed, type CampaignResults } from "../../conformance/campaign/campaign.ts";
import { readCampaignResults } from "../../reports/campaign-results-file.ts";
import { parseXml, childElements } from "../../reports/test-support/strict-xml.ts";
import { main } from "../cli.ts";

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err: err.join("\n") };
}

const SEED = 42;
const RUNS = 8;
const dir = mkdtempSync(join(tmpdir(), "orb-fuzz-campaign-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// What must not depend on where or with whom a run was made (its duration does).
const verdicts = (results: CampaignResults) => results.records.map(({ run, seed, verdict, traceHash }) => ({ run, seed, verdict, traceHash }));

describe("fuzz --target store --shard I/4, merged", () => {
  let whole: Awaited<ReturnType<typeof run>>;
  const shards: Array<Awaited<ReturnType<typeof run>>> = [];
  let merged: Awaited<ReturnType<typeof run>>;

  beforeAll(async () => {
    whole = await run("fuzz", "--target", "store", "--seed", String(SEED), "--runs", String(RUNS), "--report-dir", join(dir, "whole"));
    for (let index = 1; index <= 4; index++) {
      shards.push(await run("fuzz", "--target", "store", "--seed", String(SEED), "--runs", String(RUNS), "--shard", `${index}/4`, "--report-dir", join(dir, `shard-${index}`)));
    }
    merged = await run("report", "merge", ...[1, 2, 3, 4].map((index) => join(dir, `shard-${index}`)), "--out", join(dir, "merged"));
  });

  it("gives the same per-run seeds, verdicts and trace hashes as one unsharded process", async () => {
    expect(whole.code, whole.out.join("\n")).toBe(0);
    const unsharded = await readCampaignResults(join(dir, "whole"));
    expect(unsharded.records.map((record) => record.run)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(unsharded.records.map((record) => record.seed)).toEqual(unsharded.records.map((record) => runSeed(SEED, record.run)));
    // Every run did something of its own: a constant hash would make the comparison below empty.
    expect(new Set(unsharded.records.map((record) => record.traceHash)).size).toBe(RUNS);
    expect(merged.code, [...merged.out, merged.err].join("\n")).toBe(0);
    expect(merged.err).toBe("");
    const mergedResults = await readCampaignResults(join(dir, "merged"));
    expect(verdicts(mergedResults)).toEqual(verdicts(unsharded));
    expect(mergedResults).toMatchObject({ command: "fuzz --target store", campaignSeed: SEED, runs: RUNS, shard: undefined });
    // The merge's hash is the unsharded campaign's, as both print it last.
    expect(whole.out.at(-1)).toBe(`trace-hash: ${campaignTraceHash(unsharded.records)}`);
    expect(merged.out.at(-1)).toBe(whole.out.at(-1));
  });

  it("makes in each shard only the runs r with r % 4 = I - 1, and says so", async () => {
    for (const [at, shard] of shards.entries()) {
      expect(shard.code).toBe(0);
      expect(shard.out[0]).toBe(`fuzzing store: seed ${SEED}, ${RUNS} runs per property, shard ${at + 1}/4: 2 of ${RUNS} runs`);
      expect(shard.out.filter((line) => line.startsWith("ok    "))).toEqual(expect.arrayContaining([`ok    store/revision-monotonic  (2 runs)`]));
      expect(shard.out.at(-2)).toMatch(/^2 runs in \d+\.\d s \(\d+(\.\d+)? runs\/s\)$/);
      const results = await readCampaignResults(join(dir, `shard-${at + 1}`));
      expect(results.shard).toEqual({ index: at + 1, count: 4 });
      expect(results.records.map((record) => record.run)).toEqual([at, at + 4]);
    }
    // Shards alone do not hash as the whole campaign.
    expect(shards[0]!.out.at(-1)).not.toBe(whole.out.at(-1));
  });

  it("writes a JUnit file with one passing testcase per run of the campaign", () => {
    const suite = childElements(parseXml(readFileSync(join(dir, "merged", "junit.xml"), "utf8")), "testsuite")[0]!;
    expect(suite.attributes).toMatchObject({ name: "fuzz --target store", tests: String(RUNS), failures: "0", skipped: "0" });
    const cases = childElements(suite, "testcase");
    expect(cases.map((element) => element.attributes["name"])).toEqual(Array.from({ length: RUNS }, (_, at) => `run ${at} (seed ${runSeed(SEED, at)})`));
    expect(cases.every((element) => element.children.length === 0)).toBe(true);
  });
});

describe("fuzz campaign flags", () => {
  it.each([
    [["--target", "store", "--seed", "1", "--shard", "0/4"], /--shard must be I\/N with 1 ≤ I ≤ N \(as 2\/4\), got "0\/4"/],
    [["--target", "store", "--seed", "1", "--shard", "two"], /--shard must be I\/N/],
    [["--target", "store", "--shard", "1/4"], /--shard needs --seed/],
    [["--target", "http", "--shard", "1/4"], /--shard needs --seed/],
    [["--target", "store", "--seed", "1", "--property", "watch/no-gap", "--replay", "0:1", "--shard", "1/2"], /--shard does not go with --replay/],
    [["--target", "node-eviction", "--seed", "1", "--replay", "0:1", "--report-dir", "x"], /--report-dir does not go with --replay/],
  ])("exits 2 for %j, naming the problem", async (args, message) => {
    const result = await run("fuzz", ...args);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
    expect(result.out).toEqual([]);
  });

  it("mentions --shard and --report-dir in --help", async () => {
    const help = (await run("fuzz", "--help")).out.join("\n");
    expect(help).toContain("--shard I/N");
    expect(help).toContain("--report-dir DIR");
    expect(help).toContain("report merge");
  });
});
