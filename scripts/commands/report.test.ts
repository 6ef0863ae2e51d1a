import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatResultsJson } from "../../reports/results-file.ts";
import { sampleResults } from "../../reports/test-support/fixtures.ts";
import { parseXml } from "../../reports/test-support/strict-xml.ts";
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
