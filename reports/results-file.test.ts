import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { formatResultsJson, parseResults, readResultsFile, ResultsFileError, validateResults } from "./results-file.ts";
import { sampleResults, trickyResults } from "./test-support/fixtures.ts";

function problemOf(action: () => unknown): { problem: string; message: string } {
  try {
    action();
  } catch (error) {
    if (error instanceof ResultsFileError) return { problem: error.problem, message: error.message };
    throw error;
  }
  throw new Error("expected a ResultsFileError");
}

// A sample run as plain JSON, to break one field at a time.
function sampleJson(): Record<string, any> {
  return JSON.parse(formatResultsJson(sampleResults()));
}

describe("formatResultsJson", () => {
  it("writes schema key order, sorted header names, 2-space indent and one trailing newline", () => {
    const results = sampleResults();
    const shuffled = JSON.parse(JSON.stringify(results), (_key, value) =>
      value !== null && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value,
    );
    const text = formatResultsJson(shuffled);
    expect(text).toBe(formatResultsJson(results));
    expect(text.endsWith("}\n") && !text.endsWith("\n\n")).toBe(true);
    expect(text.split("\n").slice(0, 4)).toEqual(["{", `  "schemaVersion": 1,`, `  "harnessVersion": "0.1.0",`, `  "target": {`]);
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed)).toEqual(["schemaVersion", "harnessVersion", "target", "startedAt", "finishedAt", "command", "cases"]);
    expect(Object.keys(parsed.cases[0])).toEqual(["id", "area", "clauses", "tags", "status", "durationMs", "message", "transcript"]);
    expect(Object.keys(parsed.cases[1].transcript[0])).toEqual([
      "method", "path", "status", "requestHeaders", "responseHeaders", "requestBody", "responseBody", "truncated", "durationMs",
    ]);
  });

  it("keeps unknown (newer optional) fields after the known ones, sorted, and sorts header names", () => {
    const json = sampleJson();
    json["zeta"] = 1;
    json["alpha"] = { b: 1, a: 2 };
    json["cases"][1]["transcript"][0]["requestHeaders"] = { "x-b": "2", accept: "a", "content-type": "c" };
    const parsed = JSON.parse(formatResultsJson(validateResults(json)));
    expect(Object.keys(parsed).slice(-2)).toEqual(["alpha", "zeta"]);
    expect(Object.keys(parsed.alpha)).toEqual(["a", "b"]);
    expect(Object.keys(parsed.cases[1].transcript[0].requestHeaders)).toEqual(["accept", "content-type", "x-b"]);
  });

  it("round-trips: parse(format(results)) equals results, tricky characters included", () => {
    for (const results of [sampleResults(), trickyResults()]) {
      expect(parseResults(formatResultsJson(results))).toEqual(JSON.parse(JSON.stringify(results)));
    }
  });
});

describe("validateResults", () => {
  it("explains a newer and an older schema version, and a file without one", () => {
    const newer = problemOf(() => validateResults({ ...sampleJson(), schemaVersion: 2 }, "r.json"));
    expect(newer).toEqual({ problem: "schema-version", message: "r.json: results schema version 2 is newer than this harness reads (1); upgrade orb-harness" });
    const older = problemOf(() => validateResults({ ...sampleJson(), schemaVersion: 0 }, "r.json"));
    expect(older.message).toMatch(/version 0 is older than this harness reads \(1\); rerun the suite/);
    expect(problemOf(() => validateResults({ cases: [] })).message).toMatch(/not a results file: it has no schemaVersion/);
    expect(problemOf(() => validateResults({ schemaVersion: "1" })).message).toMatch(/schemaVersion must be an integer/);
  });

  it.each([
    ["a missing field", (json: Record<string, any>) => delete json["target"]["dialect"], "target.dialect: expected a string, got nothing (the field is missing)"],
    ["a bad status", (json: Record<string, any>) => (json["cases"][2]["status"] = "passed"), `cases[2].status: expected one of pass, fail, skip, error, got string "passed"`],
    ["a bad exchange status", (json: Record<string, any>) => (json["cases"][1]["transcript"][0]["status"] = 1000), "cases[1].transcript[0].status: expected an HTTP status 0..999, got 1000"],
    ["a non-string clause", (json: Record<string, any>) => (json["cases"][0]["clauses"] = ["doc1/1/http-methods", 7]), "cases[0].clauses[1]: expected a string, got number 7"],
    ["a header that is not a string", (json: Record<string, any>) => (json["cases"][1]["transcript"][0]["responseHeaders"]["retry-after"] = 5), `cases[1].transcript[0].responseHeaders["retry-after"]: expected a string header value, got number 5`],
    ["a negative duration", (json: Record<string, any>) => (json["cases"][0]["durationMs"] = -1), "cases[0].durationMs: expected a duration in ms (a number ≥ 0), got number -1"],
    ["a bad target kind", (json: Record<string, any>) => (json["target"]["kind"] = "cluster"), `target.kind: expected one of embedded, server, kubeconfig, kube-assets, got string "cluster"`],
    ["cases that are not an array", (json: Record<string, any>) => (json["cases"] = {}), "cases: expected an array, got object {}"],
    ["a duplicate case id", (json: Record<string, any>) => (json["cases"][3]["id"] = json["cases"][0]["id"]), `cases[3].id: duplicate case id "paging/continue-empty" (first at cases[0])`],
  ])("names the field of %s", (_name, breakIt, expected) => {
    const json = sampleJson();
    breakIt(json);
    expect(problemOf(() => validateResults(json, "r.json"))).toEqual({ problem: "invalid", message: `r.json: ${expected}` });
  });
});

describe("readResultsFile", () => {
  it("reads a valid file, and tells a missing file from one that is not JSON", async () => {
    const dir = await mkdtemp(join(tmpdir(), "orb-results-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const good = join(dir, "results.json");
    await writeFile(good, formatResultsJson(sampleResults()));
    expect((await readResultsFile(good)).cases).toHaveLength(6);
    await expect(readResultsFile(join(dir, "nope.json"))).rejects.toMatchObject({ problem: "missing" });
    const bad = join(dir, "bad.json");
    await writeFile(bad, "{ not json");
    await expect(readResultsFile(bad)).rejects.toMatchObject({ problem: "not-json", message: expect.stringContaining(`${bad}: not JSON`) });
  });
});
