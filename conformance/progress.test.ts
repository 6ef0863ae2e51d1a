/**
 * Progress lines: plain output gets one line per finished case and one per wait; a terminal gets
 * one line redrawn in place, naming the latest waiting case while any waits, never wider than
 * the terminal.
 */
import { describe, expect, it } from "vitest";
import type { ConformanceCase } from "./case-definition.ts";
import { ProgressReporter } from "./progress.ts";
import type { CaseResult } from "./results.ts";

const testCase = (id: string): ConformanceCase => ({ id, area: id.split("/")[0]!, clauses: [], tags: [], run: async () => undefined });
const result = (id: string, status: CaseResult["status"]): CaseResult => ({ id, area: id.split("/")[0]!, clauses: [], tags: [], status, durationMs: 5, message: status === "pass" ? "" : "why", transcript: [] });

describe("ProgressReporter", () => {
  it("writes whole lines when not on a terminal", () => {
    const written: string[] = [];
    const progress = new ProgressReporter({ isTTY: false, write: (text) => written.push(text) }, 2);
    progress.started(testCase("watch/a"));
    progress.waiting(testCase("watch/a"), "a 410", 630_000);
    progress.waiting(testCase("watch/b"), "a bookmark", 75_000);
    progress.ended(result("watch/a", "fail"));
    expect(written).toEqual(["WAIT  watch/a waits for a 410, at most 10.5 min\n", "WAIT  watch/b waits for a bookmark, at most 75 s\n", "FAIL  watch/a (5 ms) — why\n"]);
  });

  it("on a terminal, names the latest wait while any lasts and cuts the line to the terminal's width", () => {
    const written: string[] = [];
    let columns: number | undefined = 60;
    const progress = new ProgressReporter({ isTTY: true, write: (text) => written.push(text), columns: () => columns }, 3);
    progress.started(testCase("paging/a"));
    expect(written.at(-1)).toBe("\r\x1b[2K[0/3] 0 failed so far · paging");
    progress.waiting(testCase("paging/a"), "the continue token to expire (410)", 25_000);
    progress.waiting(testCase("watch/b"), "a 410", 25_000);
    const line = written.at(-1)!.replace("\r\x1b[2K", "");
    expect(line).toHaveLength(59);
    expect(line).toBe("[0/3] 0 failed so far · watch/b waits for a 410, at most 2…");
    columns = undefined;
    progress.ended(result("watch/b", "pass"));
    expect(written.at(-1)).toBe("\r\x1b[2K[1/3] 0 failed so far · paging/a waits for the continue token to expire (410), at most 25 s");
    progress.ended(result("paging/a", "pass"));
    expect(written.at(-1)).toBe("\r\x1b[2K[2/3] 0 failed so far · paging");
  });
});
