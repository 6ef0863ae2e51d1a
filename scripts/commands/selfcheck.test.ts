/**
 * `orb-harness selfcheck` (issue 21): a small selection of real defects against the real tools
 * (caught, exit 0); fake runners for the scoring (a concurrency defect the suite missed with the
 * soak skipped: exit 1, counted as not measured; whether the real suite misses one depends on
 * timing), and usage errors.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SelfcheckResults, type SelfcheckRunners } from "../../conformance/selfcheck/selfcheck.ts";
import { HARNESS_VERSION } from "../../conformance/run-conformance.ts";
import { UsageError } from "../cli-command.ts";
import { makeSelfcheckCommand, selfcheckCommand } from "./selfcheck.ts";

function collect() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { out: (line: string) => out.push(line), err: (line: string) => err.push(line) } };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "selfcheck-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function readResults(file: string): Promise<SelfcheckResults> {
  return JSON.parse(await readFile(file, "utf8")) as SelfcheckResults;
}

describe("selfcheck against the embedded server", () => {
  it("catches paging-skips-after-write and dry-run-persists with the suite and the fuzzer, naming cases and clauses", async () => {
    const file = join(dir, "caught.json");
    const { out, err, output } = collect();
    const code = await selfcheckCommand.run(["--defect", "paging-skips-after-write", "--defect", "dry-run-persists", "--out", file], output);
    expect(code, out.join("\n")).toBe(0);
    expect(out[0]).toMatch(/^caught {2}paging-skips-after-write {2}by suite: \S+.* \[doc1\/.*\]; fuzz run \d+: /);
    expect(out[1]).toMatch(/^caught {2}dry-run-persists +by suite: .*dry-run\/create-returns-object-persists-nothing.*\[doc1\/4.4\/no-side-effects\]; fuzz run \d+: /);
    expect(out[2]).toMatch(/^caught 2 of 2 planted \(suite 2, fuzz 2, soak 0\) in [\d.]+ s \(orb-harness .*\); wrote /);
    expect(err.join("\n")).toContain("suite 2/2");
    const results = await readResults(file);
    expect(results.harnessVersion).toBe(HARNESS_VERSION);
    expect(results.score).toEqual({ caught: 2, planted: 2, suite: 2, fuzz: 2, soak: 0, notMeasured: 0 });
    expect(results.defects.map((defect) => [defect.name, defect.tools])).toEqual([
      ["paging-skips-after-write", ["suite", "fuzz"]],
      ["dry-run-persists", ["suite", "fuzz"]],
    ]);
    for (const defect of results.defects) {
      for (const found of defect.suite.catching) expect(found.clauses.length, found.id).toBeGreaterThan(0);
    }
  }, 60_000);

});

describe("selfcheck scoring, with fake tools", () => {
  const runners: SelfcheckRunners = {
    suite: async (defect) =>
      defect.name === "dry-run-persists"
        ? { ran: 3, catching: [{ id: "dry-run/x", clauses: ["doc1/4.4/no-side-effects"] }], otherFailing: [] }
        : { ran: 3, catching: [], otherFailing: [{ id: "other/y", clauses: ["doc1/6/itemize"] }] },
    fuzz: async () => ({ status: "not-found", runsMade: 200 }),
    soak: async (defect) => ({ status: "found", rule: defect.historyRule ?? "", ruleClauses: ["doc 1 §6"], violated: [defect.historyRule ?? ""], durationMs: 6000, seed: 15 }),
  };

  it("does not count a concurrency defect whose soak was skipped and the suite missed: exit 1, not measured", async () => {
    const file = join(dir, "missed.json");
    const { out, output } = collect();
    const code = await makeSelfcheckCommand(runners).run(["--defect", "most-recent-list-lags", "--skip-fuzz", "--skip-soak", "--out", file], output);
    expect(code, out.join("\n")).toBe(1);
    expect(out[0]).toMatch(/^MISSED {2}most-recent-list-lags {2}suite: .*; fuzz: not run \(--skip-fuzz\); not run by selfcheck \(soak only\): run `orb-harness soak --defect most-recent-list-lags`$/);
    expect(out[1]).toMatch(/^caught 0 of 1 planted \(suite 0, fuzz 0, soak 0\); 1 not measured in /);
    expect((await readResults(file)).score.notMeasured).toBe(1);
  });

  it("counts a defect caught by any tool, a miss makes exit 1, and writes the score", async () => {
    const { out, output } = collect();
    const code = await makeSelfcheckCommand(runners).run(["--defect", "dry-run-persists", "--defect", "bookmarks-go-backwards", "--defect", "paged-list-mixes-snapshots", "--out", join(dir, "selfcheck.json")], output);
    expect(code).toBe(1);
    expect(out[0]).toMatch(/^caught {2}dry-run-persists +by suite: dry-run\/x \[doc1\/4.4\/no-side-effects\]$/);
    expect(out[1]).toMatch(/^MISSED {2}bookmarks-go-backwards +suite: 1 failing case\(s\), none naming doc1\/6\/bookmark\/meaning \(other\/y\); fuzz: nothing in 200 runs$/);
    expect(out[2]).toMatch(/^caught {2}paged-list-mixes-snapshots +by soak \(seed 15, 6 s\): store\/paging-consistent violated/);
    expect(out[3]).toMatch(/^caught 2 of 3 planted \(suite 1, fuzz 0, soak 1\) in /);
    const written = await readResults(join(dir, "selfcheck.json"));
    expect({ score: written.score, harnessVersion: written.harnessVersion, date: written.date }).toEqual({
      score: { caught: 2, planted: 3, suite: 1, fuzz: 0, soak: 1, notMeasured: 0 },
      harnessVersion: HARNESS_VERSION,
      date: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it("exits 0 when every defect is caught", async () => {
    const { output } = collect();
    expect(await makeSelfcheckCommand(runners).run(["--defect", "dry-run-persists", "--out", join(dir, "one.json")], output)).toBe(0);
  });

  it("refuses an unknown defect name, suggesting the closest", async () => {
    const { output } = collect();
    await expect(makeSelfcheckCommand(runners).run(["--defect", "dry-run-persist"], output)).rejects.toThrow(UsageError);
    await expect(makeSelfcheckCommand(runners).run(["--defect", "dry-run-persist"], output)).rejects.toThrow(/unknown defect "dry-run-persist"; did you mean "dry-run-persists"\?/);
    await expect(makeSelfcheckCommand(runners).run(["extra"], output)).rejects.toThrow(UsageError);
    await expect(makeSelfcheckCommand(runners).run(["--skip-fuzzz"], output)).rejects.toThrow(UsageError);
    // A published score speaks of every defect and every tool: a partial run may not replace it.
    for (const partial of [["--defect", "dry-run-persists"], ["--skip-fuzz"], ["--skip-soak"]]) {
      await expect(makeSelfcheckCommand(runners).run([...partial, "--publish"], output)).rejects.toThrow(/--publish needs a run on every defect with every tool/);
    }
  });
});
