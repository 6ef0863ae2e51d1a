/**
 * The reports a CI reads, checked against the schemas their readers use (issue 21):
 *  - every junit.xml writer (a conformance run's, a soak's, a campaign's) against Jenkins'
 *    junit-10.xsd (reports/test-fixtures/junit-10.xsd), with libxml2's own validator
 *    (xmllint-wasm: libxml2 compiled to WebAssembly, no native build or binary download);
 *  - results.json against the published JSON Schema (reports/results.schema.json), with ajv.
 * The conformance outputs are the files of real runs of the suite against the embedded server:
 * one that passes, and one with a planted defect, so failures (with transcripts) are in them too.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { runCampaign } from "../conformance/campaign/run-campaign.ts";
import type { RunResults } from "../conformance/results.ts";
import { runConformanceSuite } from "../scripts/library/conformance-suite.ts";
import { campaignJunitXml } from "./campaign-junit.ts";
import { junitXml } from "./junit.ts";
import { parseResults } from "./results-file.ts";
import { soakJunitXml } from "./soak-junit.ts";
import { SOAK_RESULTS_SCHEMA_VERSION, type SoakResults } from "./soak-results.ts";
import { sampleResults, TRICKY, trickyResults } from "./test-support/fixtures.ts";
import { parseXml } from "./test-support/strict-xml.ts";

const JUNIT_XSD = readFileSync(new URL("./test-fixtures/junit-10.xsd", import.meta.url), "utf8");
const RESULTS_SCHEMA: object = JSON.parse(readFileSync(new URL("./results.schema.json", import.meta.url), "utf8"));

/** libxml2's schema errors for `xml` against junit-10.xsd; [] when valid. */
async function junitSchemaErrors(xml: string, name = "junit.xml"): Promise<string[]> {
  const result = await validateXML({
    xml: { fileName: name, contents: xml },
    schema: { fileName: "junit-10.xsd", contents: JUNIT_XSD },
  });
  return result.valid ? [] : result.errors.map((error) => error.rawMessage);
}

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validateResultsSchema = ajv.compile(RESULTS_SCHEMA);

/** The JSON Schema's complaints about `value`; [] when valid. */
function resultsSchemaErrors(value: unknown): string[] {
  return validateResultsSchema(value) ? [] : (validateResultsSchema.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""}`);
}

interface RealRun {
  readonly results: RunResults;
  readonly resultsJson: string;
  readonly junit: string;
}

const dirs: string[] = [];

async function realRun(options: Parameters<typeof runConformanceSuite>[0]): Promise<RealRun> {
  const reportDir = mkdtempSync(join(tmpdir(), "orb-report-schemas-"));
  dirs.push(reportDir);
  const run = await runConformanceSuite({ ...options, reportDir });
  return { results: run.results, resultsJson: readFileSync(join(reportDir, "results.json"), "utf8"), junit: readFileSync(join(reportDir, "junit.xml"), "utf8") };
}

let passing: RealRun;
let failing: RealRun;

beforeAll(async () => {
  [passing, failing] = await Promise.all([
    realRun({ focus: "^(health|paging)/" }),
    // A planted defect (sim/apiserver/defects/defects.ts) that the paging cases catch.
    realRun({ focus: "^paging/", target: { kind: "embedded", dialect: "kubernetes", defects: new Set(["remaining-item-count-off-by-one", "paging-skips-after-write"]) } }),
  ]);
}, 120_000);

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("the runs the checks read", () => {
  it("are real: one passing, one with failures from the planted defects", () => {
    expect(passing.results.cases.length).toBeGreaterThan(3);
    expect(passing.results.cases.every((result) => result.status === "pass" || result.status === "skip")).toBe(true);
    expect(failing.results.cases.some((result) => result.status === "fail" && result.transcript.length > 0)).toBe(true);
  });
});

describe("junit.xml against Jenkins' junit-10.xsd", () => {
  it("the schema catches what it must (a skipped count on <testsuites>, a time with a unit)", async () => {
    expect(await junitSchemaErrors(`<testsuites skipped="1"/>`)).toEqual([expect.stringContaining("attribute 'skipped': The attribute 'skipped' is not allowed")]);
    expect(await junitSchemaErrors(`<testsuites time="4.9s"/>`)).toEqual([expect.stringContaining("'time'")]);
    expect(await junitSchemaErrors(`<testsuites><testsuite name="a" tests="0" failures="0"/></testsuites>`)).toEqual([expect.stringContaining("'errors' is required")]);
  });

  it("a real passing run's junit.xml is valid, its top-level time the run's wall time", async () => {
    expect(await junitSchemaErrors(passing.junit)).toEqual([]);
    const root = parseXml(passing.junit);
    const wallSeconds = (Date.parse(passing.results.finishedAt) - Date.parse(passing.results.startedAt)) / 1000;
    expect(Number(root.attributes["time"])).toBeCloseTo(wallSeconds, 3);
    expect(root.attributes["skipped"]).toBeUndefined();
  });

  it("a real failing run's junit.xml (failures with transcripts) is valid", async () => {
    expect(await junitSchemaErrors(failing.junit)).toEqual([]);
    expect(failing.junit).toContain("<failure ");
  });

  it("the fixtures' junit.xml is valid: errors, skips, and text that needs escaping", async () => {
    expect(await junitSchemaErrors(junitXml(sampleResults()))).toEqual([]);
    expect(await junitSchemaErrors(junitXml(trickyResults()))).toEqual([]);
  });

  it("a soak's junit.xml is valid, with a violated invariant and a held one", async () => {
    expect(await junitSchemaErrors(soakJunitXml(soakResults()))).toEqual([]);
  });

  it("a campaign's junit.xml is valid: a shard's, and a merge's with missing runs skipped", async () => {
    const plan = { command: "fuzz --target store", target: "embedded", campaignSeed: 42, runs: 4 };
    const whole = await runCampaign({ ...plan, shard: undefined }, async (run) =>
      run === 1 ? { verdict: "failed", traceHash: "ab12", summary: `property broke: ${TRICKY.controls} ${TRICKY.markup}\nsecond line`, replayCommand: "orb-harness fuzz --seed 7" } : { verdict: "passed", traceHash: "cd34" },
    );
    const shard = await runCampaign({ ...plan, shard: { index: 1, count: 2 } }, async () => ({ verdict: "passed", traceHash: "ef56" }));
    expect(await junitSchemaErrors(campaignJunitXml(whole))).toEqual([]);
    expect(await junitSchemaErrors(campaignJunitXml(shard))).toEqual([]);
    expect(await junitSchemaErrors(campaignJunitXml({ ...whole, records: whole.records.filter((record) => record.run !== 2) }, [2]))).toEqual([]);
  });
});

describe("results.json against reports/results.schema.json", () => {
  it("a real passing run's results.json is valid", () => {
    expect(resultsSchemaErrors(JSON.parse(passing.resultsJson))).toEqual([]);
  });

  it("a real failing run's results.json is valid, and the harness's reader agrees", () => {
    expect(resultsSchemaErrors(JSON.parse(failing.resultsJson))).toEqual([]);
    expect(() => parseResults(failing.resultsJson)).not.toThrow();
  });

  it("the fixtures are valid", () => {
    expect(resultsSchemaErrors(sampleResults())).toEqual([]);
    expect(resultsSchemaErrors(JSON.parse(JSON.stringify(trickyResults())))).toEqual([]);
  });

  it.each([
    ["another schema version", (value: Record<string, any>) => (value["schemaVersion"] = 2), "/schemaVersion"],
    ["a missing field", (value: Record<string, any>) => delete value["finishedAt"], "/ must have required property 'finishedAt'"],
    ["an unknown target kind", (value: Record<string, any>) => (value["target"]["kind"] = "cloud"), "/target/kind"],
    ["an unknown status", (value: Record<string, any>) => (value["cases"][0]["status"] = "flaky"), "/cases/0/status"],
    ["an HTTP status out of range", (value: Record<string, any>) => (value["cases"].find((c: any) => c.transcript.length > 0)["transcript"][0]["status"] = 1000), "/transcript/0/status"],
    ["a header that is not a string", (value: Record<string, any>) => (value["cases"].find((c: any) => c.transcript.length > 0)["transcript"][0]["responseHeaders"]["x"] = 1), "/responseHeaders/x"],
    ["a negative duration", (value: Record<string, any>) => (value["cases"][0]["durationMs"] = -1), "/cases/0/durationMs"],
  ])("refuses %s", (_, spoil, where) => {
    const value = JSON.parse(failing.resultsJson);
    spoil(value);
    expect(resultsSchemaErrors(value).join("\n")).toContain(where);
  });
});

function soakResults(): SoakResults {
  return {
    schemaVersion: SOAK_RESULTS_SCHEMA_VERSION,
    kind: "soak",
    harnessVersion: "0.1.0",
    source: "run",
    target: { description: "embedded (kubernetes)", serverVersion: "v1.26.4" },
    seed: 7,
    namespace: "orb-soak-7",
    startedAt: "2026-11-25T12:00:00.000Z",
    finishedAt: "2026-11-25T12:00:02.000Z",
    replayCommand: "orb-harness soak --seed 7",
    workloadSeconds: 2,
    operationsPerSecond: 2.5,
    // The junit writer reads only the operation count.
    counts: { operations: 5 } as SoakResults["counts"],
    invariants: [
      { id: "history/read-freshness", rule: "reads are fresh", clauses: ["doc1/4.7/semantic/most-recent"], held: true, checked: 3 },
      {
        id: "history/watch-order",
        rule: `events come in resourceVersion order ${TRICKY.markup}`,
        clauses: [],
        held: false,
        checked: 2,
        witness: { explanation: `event 12 after 14 ${TRICKY.controls}`, operations: [1, 2], events: [], lines: ["#1 watch from now", "#2 create cm-1"] },
      },
    ],
    violations: 1,
  };
}
