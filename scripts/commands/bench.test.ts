/**
 * `orb-harness bench --quick` end to end (every benchmark in fresh child processes, under a minute
 * on this machine; the figures themselves are not asserted, speed is not tested): it writes every
 * key of the issue to bench.json, says it was quick, and writes a self-contained bench.html with a
 * chart per figure. Bad flags are exit 2. The statistics and the ratio's direction are unit-tested.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli.ts";
import { FIGURES } from "../bench/bench-catalog.ts";
import type { BenchResults } from "../bench/bench-run.ts";
import { speedup, summarize } from "../bench/bench-statistics.ts";

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("bench statistics", () => {
  it("takes the median of an odd and an even count, and the range", () => {
    expect(summarize([5, 1, 3])).toEqual({ median: 3, min: 1, max: 5, runs: [5, 1, 3] });
    expect(summarize([4, 1, 3, 10]).median).toBe(3.5);
    expect(() => summarize([])).toThrow("no runs");
  });

  it("says how many times faster the embedded server is, whichever way the figure is better", () => {
    expect(speedup(1_000, 500, "higher")).toBe(2); // creates/s
    expect(speedup(20, 100, "lower")).toBe(5); // ms
    expect(speedup(60, 30, "lower")).toBe(0.5);
  });
});

describe("orb-harness bench --quick", () => {
  let dir: string;
  let result: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "orb-bench-"));
    result = await run("bench", "--quick", "--out", join(dir, "bench.json"));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("exits 0 and prints the table, with progress on stderr", () => {
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/^figure\s+median\s+min – max\s+unit$/m);
    expect(result.err).toMatch(/^bench: server 1\/1 embedded: createsPerSecond /m);
  });

  it("writes every key, a median within its runs' range, and says it was quick", () => {
    const results = JSON.parse(readFileSync(join(dir, "bench.json"), "utf8")) as BenchResults;
    expect(results.quick).toBe(true);
    expect(results.mode).toMatch(/^quick: /);
    expect(Object.keys(results.figures).sort()).toEqual(FIGURES.map((figure) => figure.key).sort());
    for (const [key, figure] of Object.entries(results.figures)) {
      expect(figure.runs, key).toHaveLength(1);
      expect(Number.isFinite(figure.median) && figure.median > 0, key).toBe(true);
      expect(figure.min <= figure.median && figure.median <= figure.max, key).toBe(true);
    }
    // No real control plane given: no real.* figures and no ratios.
    expect(results.real).toBeUndefined();
    expect(results.ratios).toEqual({});
  });

  it("writes a self-contained bench.html with a chart per figure", () => {
    const html = readFileSync(join(dir, "bench.html"), "utf8");
    expect(html.match(/<svg role="img" aria-label="([^"]+)"/g)?.length).toBe(FIGURES.length);
    expect(html).not.toMatch(/<(script|link)\b|src="http/);
  });
});

describe("bench usage", () => {
  it.each([
    [["--only", "nothing"], /--only: no benchmark nothing/],
    [["--repetitions", "0"], /--repetitions must be at least 1/],
    [["extra"], /unexpected argument extra/],
  ])("%j is exit 2 with a message", async (args, message) => {
    const { code, err } = await run("bench", ...args);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });
});
