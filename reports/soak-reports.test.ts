/**
 * The soak's reports (issue 15): the witness in words, the replay command without credentials,
 * junit.xml well-formed whatever the text holds, soak.md, and the files writeSoakReports writes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { soakCounts } from "../conformance/soak/soak-counts.ts";
import type { ApiHistory, ObjectState } from "../sim/history/api-history.ts";
import type { HistoryVerdict } from "../sim/history/history-verdict.ts";
import { soakJunitXml } from "./soak-junit.ts";
import { soakMarkdown } from "./soak-markdown.ts";
import { soakReplayCommand } from "./soak-replay-command.ts";
import { writeSoakReports } from "./soak-reports.ts";
import { invariantResults, SOAK_RESULTS_SCHEMA_VERSION, type SoakResults } from "./soak-results.ts";
import { witnessLines } from "./soak-witness-text.ts";
import { childElements, parseXml, textContent } from "./test-support/strict-xml.ts";
import { TRICKY } from "./test-support/fixtures.ts";

const SECRET = "s3cr3t-token-value";

function state(resourceVersion: string, value: string | undefined, selected = "yes"): ObjectState {
  return { name: "soak-k01", uid: "u-1", resourceVersion, value, labels: { "soak/selected": selected } };
}

const history: ApiHistory = {
  namespace: "orb-soak-abcde-0123",
  seed: 7,
  target: "embedded http://127.0.0.1:1",
  clients: [
    { id: "writer-0", role: "writer" },
    { id: "watcher-0", role: "watcher" },
    { id: "reader-0", role: "reader" },
  ],
  startMs: 1000,
  endMs: 3000,
  operations: [
    { kind: "watch", id: 0, client: "watcher-0", startMs: 1000, endMs: 2900, labelSelector: undefined, resourceVersion: undefined, allowWatchBookmarks: true, resumes: undefined, opened: { type: "ok" }, ending: "run-ended", events: [
      { atMs: 1101, type: "ADDED", object: state("5", "writer-0-1"), bookmarkVersion: undefined, status: undefined },
      { atMs: 1500, type: "BOOKMARK", object: undefined, bookmarkVersion: "5", status: undefined },
    ] },
    { kind: "write", id: 1, client: "writer-0", startMs: 1100, endMs: 1102.5, verb: "create", name: "soak-k01", precondition: undefined, value: "writer-0-1", labels: { "soak/selected": "yes" }, answer: { type: "ok", code: 201, object: state("5", "writer-0-1") } },
    { kind: "write", id: 2, client: "writer-0", startMs: 1200, endMs: undefined, verb: "patch", name: "soak-k01", precondition: "5", value: "writer-0-2", labels: { "soak/selected": null }, answer: { type: "uncertain", error: "no answer within 10000 ms" } },
    { kind: "get", id: 3, client: "reader-0", startMs: 1300, endMs: 1301, name: "soak-k01", resourceVersion: "0", answer: { type: "failed", code: 404, reason: "NotFound" } },
    { kind: "list", id: 4, client: "reader-0", startMs: 1400, endMs: 1410, labelSelector: "soak/selected=yes", resourceVersion: "5", resourceVersionMatch: "Exact", limit: 2, pages: [
      { startMs: 1400, endMs: 1405, continueSent: undefined, answer: { type: "ok", resourceVersion: "5", items: [state("5", "writer-0-1")], continue: "next", remainingItemCount: 1 } },
      { startMs: 1406, endMs: 1410, continueSent: "next", answer: { type: "failed", code: 410, reason: "Expired" } },
    ] },
  ],
};

const verdicts: HistoryVerdict[] = [
  { id: "history/write-order", held: true, checked: 3 },
  { id: "history/read-freshness", held: false, checked: 2, witness: { explanation: `list #4 is stale ${TRICKY.markup} ${SECRET}`, operations: [4, 1], events: [{ operation: 0, index: 0 }] } },
];

function results(): SoakResults {
  const invariants = invariantResults(history, verdicts, [{ id: "history/read-freshness", rule: "reads are fresh", clauses: ["doc 1 §4.7"] }]);
  return {
    schemaVersion: SOAK_RESULTS_SCHEMA_VERSION,
    kind: "soak",
    harnessVersion: "0.1.0",
    source: "run",
    target: { description: history.target, serverVersion: "v1.26.4" },
    seed: 7,
    namespace: history.namespace,
    startedAt: "2026-11-25T12:00:00.000Z",
    finishedAt: "2026-11-25T12:00:02.000Z",
    replayCommand: soakReplayCommand(["--server", "https://h:6443", "--token", SECRET, "--report-dir", "out", "--insecure-skip-tls-verify", "--seed", "3"], 7),
    workloadSeconds: 2,
    operationsPerSecond: 2.5,
    counts: soakCounts(history),
    invariants,
    violations: 1,
  };
}

describe("soak reports", () => {
  it("put the witness in words: each operation with its client and times, its events under it, in start order", () => {
    expect(witnessLines(history, verdicts[1]!.witness!)).toEqual([
      "#0 watcher-0 1000.0–2900.0 ms watch from now [bookmarks] → 2 events, run-ended",
      "    event 0 at 1101.0 ms: ADDED soak-k01@5 v=writer-0-1 soak/selected=yes",
      "#1 writer-0 1100.0–1102.5 ms create soak-k01 (v=writer-0-1, soak/selected=yes) → 201 soak-k01@5 v=writer-0-1 soak/selected=yes",
      "#4 reader-0 1400.0–1410.0 ms list selector soak/selected=yes rv=5 Exact limit 2 → page 1: rv 5 [soak-k01@5 v=writer-0-1 soak/selected=yes]; page 2: 410 Expired",
    ]);
    expect(witnessLines(history, { explanation: "", operations: [2, 3], events: [] })).toEqual([
      "#2 writer-0 1200.0–? ms patch soak-k01 if rv=5 (v=writer-0-2, -soak/selected) → no answer (no answer within 10000 ms)",
      "#3 reader-0 1300.0–1301.0 ms get soak-k01 rv=0 → 404 NotFound",
    ]);
  });

  it("replay with the seed and the workload's flags, never a credential or where reports went", () => {
    expect(results().replayCommand).toBe("npx tsx scripts/cli.ts soak --seed 7 --server https://h:6443 --token=REDACTED --insecure-skip-tls-verify");
    expect(soakReplayCommand(["--duration=5m", "--seed=4", "--defect", "most-recent-list-lags", "--check=x"], 4)).toBe("npx tsx scripts/cli.ts soak --seed 4 --duration=5m --defect most-recent-list-lags");
  });

  it("write a well-formed junit.xml: one testcase per invariant, a failure with the rule, the witness, the seed and the replay", () => {
    const root = parseXml(soakJunitXml(results(), { secrets: [SECRET] }));
    const suite = childElements(root, "testsuite")[0]!;
    expect(suite.attributes).toMatchObject({ name: "soak", tests: "2", failures: "1" });
    const [held, violated] = childElements(suite, "testcase");
    expect(childElements(held!)).toEqual([]);
    const failure = childElements(violated!, "failure")[0]!;
    const text = textContent(failure);
    expect(text).toContain("rule: reads are fresh");
    expect(text).toContain("  #4 reader-0 1400.0–1410.0 ms list");
    expect(text).toContain("seed: 7");
    expect(text).toContain("replay: npx tsx scripts/cli.ts soak --seed 7");
    expect(JSON.stringify(root)).not.toContain(SECRET);
  });

  it("write soak.md with the verdict, the figures, a row per invariant and each violation in full", () => {
    const markdown = soakMarkdown(results(), { secrets: [SECRET] });
    expect(markdown).toMatch(/^# ❌ Soak: `embedded http:\/\/127\.0\.0\.1:1`$/m);
    expect(markdown).toContain("| history/read-freshness | **VIOLATED** | 2 |");
    expect(markdown).toContain("| write | label flip if-version | 1 | 0 ok, 1 uncertain |");
    expect(markdown).toMatch(/^```text\n#0 watcher-0 /m);
    expect(markdown).not.toContain(SECRET);
  });

  it("write history.json, results.json, junit.xml, soak.md and timeline.html, secrets removed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orb-soak-reports-"));
    try {
      const written = await writeSoakReports(dir, { results: results(), history, verdicts, writeHistory: true }, { secrets: [SECRET] });
      expect(readdirSync(dir).sort()).toEqual(["history.json", "junit.xml", "results.json", "soak.md", "timeline.html"]);
      expect(written).toHaveLength(5);
      for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file), "utf8"), file).not.toContain(SECRET);
      expect(JSON.parse(readFileSync(join(dir, "history.json"), "utf8")).operations).toHaveLength(5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
