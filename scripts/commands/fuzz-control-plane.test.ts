import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { campaignTraceHash, runSeed, type CampaignResults } from "../../conformance/campaign/campaign.ts";
import { readCampaignResults } from "../../reports/campaign-results-file.ts";
import { main } from "../cli.ts";

const dir = mkdtempSync(join(tmpdir(), "orb-fuzz-control-plane-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, lines: out, err: err.join("\n") };
}

describe("orb-harness fuzz --target leader-election|node-eviction", () => {
  it("passes without pauses and prints the session hash last", async () => {
    const { code, lines } = await run("fuzz", "--target", "leader-election", "--runs", "6", "--seed", "5");
    expect(code).toBe(0);
    expect(lines[0]).toBe("fuzzing leader-election: seed 5, 6 runs, faults drift,partitions,crashes");
    expect(lines.at(-1)).toMatch(/^trace-hash: [0-9a-f]{64}$/);
  });

  // A campaign of 2 runs: run 0 (seeded from campaign seed 1) breaks safety, run 1 does not.
  it("exits 1 with the minimal schedule and the replay commands when pauses break safety", async () => {
    const { code, lines } = await run("fuzz", "--target", "leader-election", "--runs", "2", "--seed", "1", "--faults", "pauses", "--report-dir", join(dir, "whole"));
    expect(code).toBe(1);
    const text = lines.join("\n");
    expect(text).toMatch(/minimal fault schedule: pause:leader@\S+\+\S+ {2}\(scenario seed \d+\)/);
    expect(text).toMatch(/report: npx tsx scripts\/cli\.ts simulate --scenario leader-election --seed \d+ --duration 3m0s --candidates 3 --faults 'pause:leader@/);
    // The failure names its run and the run's seed, which its replay command takes.
    expect(text).toContain(`FAIL  leader-election  (run 0, shrunk `);
    expect(text).toContain(`replay: npx tsx scripts/cli.ts fuzz --target leader-election --faults pauses --seed ${runSeed(1, 0)} --replay '`);
    expect(lines.slice(-4, -2)).toEqual(["1 passed, 1 failed", `reports: ${["results.json", "junit.xml", "summary.md", "report.html"].map((file) => join(dir, "whole", file)).join(", ")}`]);
    expect(lines.at(-2)).toMatch(/^2 runs in \d+\.\d s \(\d+\.\d+ runs\/s\)$/);
  });

  it("2 shards merged give the unsharded campaign's verdicts, trace hashes and replay commands, failures included", async () => {
    const shards = ["1/2", "2/2"].map((shard, index) => ({ shard, reportDir: join(dir, `shard-${index + 1}`) }));
    for (const { shard, reportDir } of shards) {
      const { code } = await run("fuzz", "--target", "leader-election", "--runs", "2", "--seed", "1", "--faults", "pauses", "--shard", shard, "--report-dir", reportDir);
      expect(code).toBe(shard === "1/2" ? 1 : 0);
    }
    const merged = await run("report", "merge", ...shards.map((entry) => entry.reportDir), "--out", join(dir, "merged"));
    expect(merged.code).toBe(1);
    const strip = (results: CampaignResults) => results.records.map(({ durationMs: _, ...record }) => record);
    const whole = await readCampaignResults(join(dir, "whole"));
    expect(strip(await readCampaignResults(join(dir, "merged")))).toEqual(strip(whole));
    expect(whole.records.map((record) => record.verdict)).toEqual(["failed", "passed"]);
    expect(merged.lines.at(-1)).toBe(`trace-hash: ${campaignTraceHash(whole.records)}`);
  });

  it("rejects unknown fault classes and store-only flags with exit 2", async () => {
    expect((await run("fuzz", "--target", "leader-election", "--faults", "meteors")).code).toBe(2);
    expect((await run("fuzz", "--target", "node-eviction", "--property", "store/revision-monotonic")).code).toBe(2);
    expect((await run("fuzz", "--target", "store", "--faults", "pauses")).code).toBe(2);
    expect((await run("fuzz", "--target", "leader-election", "--seed", "1", "--replay", "0:1", "--runs", "3")).err).toMatch(/--runs does not go with --replay/);
  });
});
