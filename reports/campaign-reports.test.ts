/**
 * A campaign's reports (issue 16): results.json written stably and read back strictly (the first
 * bad field named), junit.xml well-formed whatever a summary holds (one testcase per run, a failure
 * with its summary and replay command, missing runs skipped), summary.md, a self-contained
 * report.html, and the files writeCampaignReports writes.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runSeed, type CampaignResults } from "../conformance/campaign/campaign.ts";
import { campaignHtml, MAX_RUN_ROWS } from "./campaign-html.ts";
import { campaignJunitXml } from "./campaign-junit.ts";
import { campaignMarkdown } from "./campaign-markdown.ts";
import { writeCampaignReports } from "./campaign-reports.ts";
import { formatCampaignResults, readCampaignResults, validateCampaignResults } from "./campaign-results-file.ts";
import { campaignRateLine, failedRunLines, runListText } from "./campaign-text.ts";
import { childElements, parseXml, textContent } from "./test-support/strict-xml.ts";
import { TRICKY } from "./test-support/fixtures.ts";

const SECRET = "s3cr3t-token-value";
const REPLAY = "npx tsx scripts/cli.ts fuzz --target store --seed 12 --property store/paging-consistent --replay '0:1:2@0'";

function campaign(overrides: Partial<CampaignResults> = {}): CampaignResults {
  return {
    kind: "orb-harness/campaign",
    command: "fuzz --target store",
    target: "in-process model",
    campaignSeed: 7,
    runs: 4,
    shard: undefined,
    records: [
      { run: 0, seed: runSeed(7, 0), verdict: "passed", traceHash: "aa", durationMs: 1500 },
      { run: 1, seed: runSeed(7, 1), verdict: "failed", traceHash: "bb", summary: `store/paging-consistent: ${TRICKY.markup}\nsecond line ${TRICKY.controls} ${SECRET}`, replayCommand: REPLAY, durationMs: 500 },
      { run: 3, seed: runSeed(7, 3), verdict: "passed", traceHash: "dd", durationMs: 1000 },
    ],
    durationMs: 3100,
    ...overrides,
  };
}

describe("campaign results.json", () => {
  it("round-trips, with no shard key for a whole campaign and one for a shard", () => {
    const whole = campaign({ options: "--property store/paging-consistent" });
    expect(validateCampaignResults(JSON.parse(formatCampaignResults(whole)))).toEqual(whole);
    expect(formatCampaignResults(whole)).not.toContain(`"shard"`);
    expect(formatCampaignResults(whole).endsWith("}\n")).toBe(true);
    const shard = campaign({ shard: { index: 2, count: 4 } });
    expect(validateCampaignResults(JSON.parse(formatCampaignResults(shard)))).toEqual(shard);
  });

  it.each([
    [{ kind: "soak" }, /kind: expected "orb-harness\/campaign", got "soak" \(not the results of a fuzz or soak campaign\)/],
    [{ command: 3 }, /command: expected a string/],
    [{ campaignSeed: 2 ** 32 }, /campaignSeed: expected a 32-bit integer/],
    [{ runs: -1 }, /runs: expected a non-negative integer/],
    [{ shard: { index: 5, count: 4 } }, /shard: expected \{index, count\} with 1 ≤ index ≤ count/],
    [{ records: {} }, /records: expected an array/],
  ])("refuses %j, naming the field", (overrides, message) => {
    const value = { ...JSON.parse(formatCampaignResults(campaign())), ...overrides };
    expect(() => validateCampaignResults(value, "f.json")).toThrow(message);
  });

  it.each([
    [(records: Record<string, unknown>[]) => (records[1]!["verdict"] = "flaky"), /f\.json: records\[1\]\.verdict: expected passed or failed/],
    [(records: Record<string, unknown>[]) => (records[2]!["run"] = 4), /records\[2\]\.run: expected a run of the campaign, 0 to 3/],
    [(records: Record<string, unknown>[]) => (records[2]!["run"] = 1), /records\[2\]\.run: run 1 out of order or twice/],
    [(records: Record<string, unknown>[]) => delete records[0]!["traceHash"], /records\[0\]\.traceHash: expected a string/],
    [(records: Record<string, unknown>[]) => (records[0]!["durationMs"] = "1s"), /records\[0\]\.durationMs: expected a non-negative number/],
  ])("refuses a bad record (%#), naming it", (spoil, message) => {
    const value = JSON.parse(formatCampaignResults(campaign()));
    spoil(value.records);
    expect(() => validateCampaignResults(value, "f.json")).toThrow(message);
  });

  it("reads a directory's results.json or the file itself, and says what is wrong with a path", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orb-campaign-file-"));
    try {
      writeFileSync(join(dir, "results.json"), formatCampaignResults(campaign()));
      expect(await readCampaignResults(dir)).toEqual(campaign());
      expect(await readCampaignResults(join(dir, "results.json"))).toEqual(campaign());
      await expect(readCampaignResults(join(dir, "nope"))).rejects.toMatchObject({ problem: "missing", message: `${join(dir, "nope")}: no such file or directory` });
      mkdirSync(join(dir, "empty"));
      await expect(readCampaignResults(join(dir, "empty"))).rejects.toMatchObject({ problem: "missing", message: expect.stringMatching(/empty\/results\.json: no such file \(a shard that wrote no results\?\)$/) });
      writeFileSync(join(dir, "broken.json"), "{");
      await expect(readCampaignResults(join(dir, "broken.json"))).rejects.toMatchObject({ problem: "not-json" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("campaign junit.xml", () => {
  it("is well-formed whatever the summary holds: one testcase per run, the failure with its summary and replay, missing runs skipped", () => {
    const xml = campaignJunitXml(campaign(), [2], { secrets: [SECRET] });
    const root = parseXml(xml);
    expect(root.attributes).toMatchObject({ tests: "4", failures: "1" });
    expect(root.attributes["skipped"]).toBeUndefined(); // junit-10.xsd: only on <testsuite>
    const [suite] = childElements(root, "testsuite");
    expect(suite!.attributes).toMatchObject({ name: "fuzz --target store", tests: "4", failures: "1", errors: "0", skipped: "1", time: "3.000" });
    const cases = childElements(suite!, "testcase");
    expect(cases.map((element) => element.attributes["name"])).toEqual([0, 1, 2, 3].map((run) => `run ${run} (seed ${runSeed(7, run)})`));
    expect(cases.map((element) => element.attributes["classname"])).toEqual(Array(4).fill("fuzz --target store"));
    const [failure] = childElements(cases[1]!, "failure");
    expect(failure!.attributes["type"]).toBe("CampaignRunFailed");
    expect(failure!.attributes["message"]).toBe(`store/paging-consistent: ${TRICKY.markup}`);
    expect(textContent(failure!)).toContain(`replay: ${REPLAY}`);
    expect(textContent(failure!)).toContain(`seed: ${runSeed(7, 1)}`);
    expect(textContent(failure!)).toContain("trace hash: bb");
    expect(childElements(cases[2]!, "skipped")).toHaveLength(1);
    expect(cases[0]!.children).toEqual([]);
    expect(xml).not.toContain(SECRET);
  });

  it("lists a shard's own runs only", () => {
    const shard = campaign({ shard: { index: 2, count: 2 }, records: campaign().records.slice(1, 2) });
    const cases = childElements(childElements(parseXml(campaignJunitXml(shard)), "testsuite")[0]!, "testcase");
    expect(cases.map((element) => element.attributes["name"])).toEqual([`run 1 (seed ${runSeed(7, 1)})`, `run 3 (seed ${runSeed(7, 3)})`]);
    expect(childElements(cases[1]!, "skipped")).toHaveLength(1);
  });
});

describe("campaign summary.md and report.html", () => {
  it("gives the verdict, the speed, the missing runs and each failure with its replay command", () => {
    const markdown = campaignMarkdown(campaign(), [2], { secrets: [SECRET] });
    expect(markdown).toMatch(/^# ❌ Campaign: `fuzz --target store`$/m);
    expect(markdown).toContain("**3 runs: 2 passed, 1 failed, 1 missing** · 3 runs in 3.0 s \\(1.0 runs/s\\)");
    expect(markdown).toContain("**Missing runs** (no merged shard holds them): 2");
    expect(markdown).toContain(`## ❌ Run 1 (seed ${runSeed(7, 1)})`);
    expect(markdown).toContain(`**Replay:** \`${REPLAY}\``);
    expect(markdown).not.toContain(SECRET);
    expect(campaignMarkdown(campaign({ records: campaign().records.filter((record) => record.verdict === "passed") }))).toMatch(/^# ✅ Campaign: /);
  });

  it("is one self-contained page that escapes what it shows", () => {
    const html = campaignHtml(campaign(), [2], { secrets: [SECRET] });
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).not.toMatch(/<script|<link|src=/i);
    expect(html).toContain(`quote " apos ' lt &lt; gt &gt; amp &amp; entity &amp;amp; cdata ]]&gt;`);
    expect(html).not.toContain(TRICKY.markup);
    expect(html).toContain(`<a class="failed" href="#run-1">failed</a>`);
    expect(html).toContain(`id="run-1"`);
    expect(html).toContain("Missing runs (1)");
    expect(html).toContain(`replay: <code>${REPLAY}</code>`);
    expect(html).not.toContain(SECRET);
  });

  it("caps the run table, never the failures", () => {
    const records = Array.from({ length: MAX_RUN_ROWS + 3 }, (_, run) => ({ run, seed: runSeed(1, run), verdict: run === MAX_RUN_ROWS + 1 ? ("failed" as const) : ("passed" as const), traceHash: "h", durationMs: 1 }));
    const html = campaignHtml(campaign({ runs: records.length, records }));
    expect(html).toContain(`The first ${MAX_RUN_ROWS} of ${records.length} runs`);
    expect(html).toContain(`<h3>Run ${MAX_RUN_ROWS + 1} (seed`);
  });
});

describe("campaign terminal lines", () => {
  it("prints runs/s, failed runs and run lists", () => {
    expect(campaignRateLine(campaign())).toBe("3 runs in 3.0 s (1.0 runs/s)");
    expect(campaignRateLine(campaign({ records: [] }))).toBe("0 runs in 0.0 s (0.000 runs/s)");
    expect(failedRunLines(campaign().records[1]!)).toEqual([`FAIL  run 1 (seed ${runSeed(7, 1)}): store/paging-consistent: ${TRICKY.markup}`, `      second line ${TRICKY.controls} ${SECRET}`, `      replay: ${REPLAY}`]);
    expect(runListText([1, 3, 4, 5, 6, 9, 10])).toBe("1, 3–6, 9, 10");
    expect(runListText(Array.from({ length: 30 }, (_, at) => at * 2))).toMatch(/^0, 2, 4, .*, 38 and 10 more$/);
  });
});

describe("writeCampaignReports", () => {
  it("writes results.json, junit.xml, summary.md and report.html, and appends summary.md to $GITHUB_STEP_SUMMARY", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orb-campaign-reports-"));
    try {
      const stepSummary = join(dir, "step-summary.md");
      const written = await writeCampaignReports(join(dir, "out"), campaign(), { secrets: [SECRET], env: { GITHUB_STEP_SUMMARY: stepSummary } });
      expect(written).toEqual(["results.json", "junit.xml", "summary.md", "report.html"].map((file) => join(dir, "out", file)));
      expect(readdirSync(join(dir, "out")).sort()).toEqual(["junit.xml", "report.html", "results.json", "summary.md"]);
      expect(readFileSync(stepSummary, "utf8")).toBe(`${readFileSync(join(dir, "out", "summary.md"), "utf8")}\n`);
      for (const file of written) expect(readFileSync(file, "utf8")).not.toContain(SECRET);
      // results.json keeps what merge reads; the secret in a summary is gone.
      expect((await readCampaignResults(join(dir, "out"))).records.map((record) => record.run)).toEqual([0, 1, 3]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
