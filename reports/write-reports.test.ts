import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseResults } from "./results-file.ts";
import { SECRETS, sampleResults, secretResults } from "./test-support/fixtures.ts";
import { parseXml } from "./test-support/strict-xml.ts";
import { writeReports } from "./write-reports.ts";

const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "orb-reports-"));
  made.push(dir);
  return dir;
}

describe("writeReports", () => {
  it("creates the directory and writes results.json, junit.xml, summary.md and report.html", async () => {
    const dir = join(await tempDir(), "nested", "out");
    const written = await writeReports(sampleResults(), dir, { env: {} });
    expect(written).toEqual({ files: ["results.json", "junit.xml", "summary.md", "report.html"].map((name) => join(dir, name)) });
    expect((await readdir(dir)).sort()).toEqual(["junit.xml", "report.html", "results.json", "summary.md"]);
    expect(parseResults(await readFile(join(dir, "results.json"), "utf8")).cases).toHaveLength(6);
    expect(parseXml(await readFile(join(dir, "junit.xml"), "utf8")).name).toBe("testsuites");
    expect(await readFile(join(dir, "summary.md"), "utf8")).toMatch(/^# ❌ Conformance/);
    expect(await readFile(join(dir, "report.html"), "utf8")).toMatch(/^<!DOCTYPE html>/);
  });

  it("appends summary.md to $GITHUB_STEP_SUMMARY, after what earlier steps wrote", async () => {
    const dir = await tempDir();
    const stepSummary = join(dir, "step-summary.md");
    await writeFile(stepSummary, "earlier step\n");
    const written = await writeReports(sampleResults(), join(dir, "out"), { env: { GITHUB_STEP_SUMMARY: stepSummary } });
    expect(written.stepSummary).toBe(stepSummary);
    const summary = await readFile(join(dir, "out", "summary.md"), "utf8");
    expect(await readFile(stepSummary, "utf8")).toBe(`earlier step\n${summary}\n`);
  });

  it("leaves no secret in any file it writes, the step summary included", async () => {
    const dir = await tempDir();
    const stepSummary = join(dir, "step-summary.md");
    await writeReports(secretResults(), join(dir, "out"), { secrets: [SECRETS.runToken], env: { GITHUB_STEP_SUMMARY: stepSummary } });
    for (const path of [...(await readdir(join(dir, "out"))).map((name) => join(dir, "out", name)), stepSummary]) {
      const content = await readFile(path, "utf8");
      for (const [name, secret] of Object.entries(SECRETS)) expect(content, `${path} leaks ${name}`).not.toContain(secret);
    }
  });
});
