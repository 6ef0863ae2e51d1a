/**
 * `orb-harness soak` end to end (issue 15): bad flags exit 2 before anything starts; a short soak
 * against the embedded server prints its figures and one line per invariant, exits 0, writes the
 * five reports (history.json re-checkable with --check), and shows no credential anywhere.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSeed } from "../../conformance/campaign/campaign.ts";
import { startEmbeddedSoakServer } from "../../conformance/soak/embedded-soak-server.ts";
import { readCampaignResults } from "../../reports/campaign-results-file.ts";
import { historyInvariants } from "../../spec/invariants-history.ts";
import { main } from "../cli.ts";

const REPO = new URL("../../", import.meta.url).pathname;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "orb-soak-command-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function soak(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["soak", ...args], { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err, text: [...out, ...err].join("\n") };
}

describe("orb-harness soak: usage", () => {
  it("describes targets, workload flags, --check and the reports in --help", async () => {
    const { code, out } = await soak("--help");
    expect(code).toBe(0);
    const help = out.join("\n");
    expect(help).toMatch(/^usage: orb-harness soak \[target\] \[--duration 60s\]/);
    for (const flag of ["--server URL", "--kubeconfig PATH", "--kube-assets [DIR] [--kube-profile default|fast-expiry]", "--defect NAME", "--writers N", "--watchers N", "--readers N", "--keys N", "--seed S", "--request-timeout D", "--check FILE", "--report-dir DIR", "--runs N", "--shard I/N"]) {
      expect(help).toContain(flag);
    }
    expect(help).toContain("history.json, results.json, junit.xml, soak.md, timeline.html");
  });

  it.each([
    [["--duration", "soon"], /--duration: .*\(e\.g\. 60s, 5m, 1500ms\)/],
    [["--duration", "0s"], /--duration must be positive, got 0s/],
    [["--request-timeout", "-1s"], /--request-timeout must be positive/],
    [["--watchers", "1"], /--watchers must be at least 2, got 1/],
    [["--writers", "0"], /--writers must be at least 1, got 0/],
    [["--readers", "-1"], /--readers must be at least 0, got -1/],
    [["--keys", "0"], /--keys must be at least 1, got 0/],
    [["--keys", "5000"], /--keys must be at most 1000, got 5000/],
    [["--seed", "4294967296"], /--seed must be a 32-bit integer, got 4294967296/],
    [["--runs", "0"], /--runs must be at least 1, got 0/],
    [["--shard", "2/4"], /--shard needs --seed/],
    [["--shard", "5/4", "--seed", "1"], /--shard must be I\/N with 1 ≤ I ≤ N/],
    [["--check", "history.json", "--runs", "2"], /--runs does not go with --check/],
    [["--seed", "x"], /flag --seed takes an integer, got "x"/],
    [["--defect", "resumed-watch-drops-first"], /unknown defect "resumed-watch-drops-first"; did you mean "resumed-watch-drops-first-event"\?/],
    [["--defect", "dry-run-persists", "--server", "https://127.0.0.1:1"], /--defect plants a bug in the embedded server; it does not go with --server/],
    [["--token", "t"], /--token goes with --server/],
    [["--kube-profile", "fast-expiry"], /--kube-profile needs --kube-assets DIR/],
    [["--kube-assets", "/nonexistent", "--kube-profile", "slow"], /--kube-profile must be default or fast-expiry, got slow/],
    [["--server", "https://127.0.0.1:1", "--kubeconfig", "k"], /give --server or --kubeconfig, not both/],
    [["--check", "history.json", "--seed", "4"], /--seed does not go with --check/],
    [["--check", "history.json", "--server", "https://127.0.0.1:1"], /--server does not go with --check/],
    [["--bogus"], /unknown flag --bogus/],
    [["extra"], /unexpected argument extra/],
  ])("exits 2 for %j, naming the problem, before anything starts", async (args, message) => {
    const reportDir = join(dir, "usage");
    const { code, out, err } = await soak(...args, "--report-dir", reportDir);
    expect(code).toBe(2);
    expect(err.join("\n")).toMatch(message);
    expect(out).toEqual([]);
    expect(existsSync(reportDir)).toBe(false);
  });

  it("lists the defects it can plant with --defect help", async () => {
    const { code, out } = await soak("--defect", "help");
    expect(code).toBe(0);
    expect(out.join("\n")).toMatch(/^versions-assigned-before-commit +a write takes its resourceVersion/m);
  });

  it("exits 2 with one line for an unreachable server or a file that is not a history", async () => {
    const unreachable = await soak("--server", "http://127.0.0.1:1", "--duration", "1s", "--report-dir", join(dir, "unreachable"));
    expect(unreachable.code).toBe(2);
    expect(unreachable.err).toHaveLength(1);
    expect(unreachable.err[0]).toMatch(/^orb-harness soak: cannot reach http:\/\/127\.0\.0\.1:1: /);
    const file = join(dir, "not-a-history.json");
    writeFileSync(file, JSON.stringify({ operations: [] }));
    const bad = await soak("--check", file, "--report-dir", join(dir, "bad"));
    expect(bad.code).toBe(2);
    expect(bad.err).toEqual([`orb-harness soak: cannot read a history from ${file}: not a soak history (missing or wrong: namespace, seed, target, clients, startMs, endMs)`]);
    // A history whose operation was edited into something else: refused, not a crash of the checkers.
    const edited = join(dir, "edited-history.json");
    const operation = { kind: "list", id: 1, client: "reader-0", startMs: 1, endMs: 2 };
    writeFileSync(edited, JSON.stringify({ namespace: "n", seed: 1, target: "t", clients: [], operations: [operation], startMs: 0, endMs: 3 }));
    const refused = await soak("--check", edited, "--report-dir", join(dir, "edited"));
    expect(refused.code).toBe(2);
    expect(refused.err).toEqual([`orb-harness soak: cannot read a history from ${edited}: not a soak history: operation 0 is not a write, get, list or watch as sim/history/api-history.ts defines them`]);
  });
});

describe("orb-harness soak against the embedded server", () => {
  const reportDir = () => join(dir, "run");
  let run: Awaited<ReturnType<typeof soak>>;

  beforeAll(async () => {
    run = await soak("--duration", "2s", "--seed", "90", "--watchers", "5", "--keys", "8", "--report-dir", reportDir());
  });

  it("prints the seed, the target, its namespace, the figures and one held line per invariant, and exits 0", () => {
    expect(run.code, run.text).toBe(0);
    expect(run.out[0]).toBe("soak: seed 90, 2 s, 4 writers, 5 watchers, 2 readers, 8 keys");
    expect(run.out[1]).toMatch(/^target: embedded http:\/\/127\.0\.0\.1:\d+, v1\.26/);
    expect(run.out[2]).toMatch(/^namespace orb-soak-[a-z0-9]{5}-[0-9a-f]{4}$/);
    expect(run.text).toMatch(/^namespace orb-soak-\S+ deleted$/m);
    expect(run.text).toMatch(/^\d+ operations in \d+\.\d s: \d+ operations\/s$/m);
    expect(run.text).toMatch(/^writes \d+:$/m);
    expect(run.text).toMatch(/^ {2}update if-version +\d+ {2}\d+ ok/m);
    expect(run.text).toMatch(/^watches \d+:$/m);
    for (const invariant of historyInvariants) expect(run.text).toMatch(new RegExp(`^held {6}${invariant.id.replace(/[/.]/g, "\\$&")} +\\(\\d+ checked\\)$`, "m"));
    expect(run.out.at(-1)).toBe(`soak: ${historyInvariants.length} invariants held`);
  });

  it("writes history.json, results.json, junit.xml, soak.md and timeline.html, with no credential in them", () => {
    const files = ["history.json", "results.json", "junit.xml", "soak.md", "timeline.html"];
    for (const file of files) expect(existsSync(join(reportDir(), file)), file).toBe(true);
    const results = JSON.parse(readFileSync(join(reportDir(), "results.json"), "utf8"));
    expect(results).toMatchObject({ kind: "soak", source: "run", seed: 90, violations: 0 });
    expect(results.replayCommand).toBe(`npx tsx scripts/cli.ts soak --seed 90 --duration 2s --watchers 5 --keys 8`);
    expect(results.invariants.map((invariant: { id: string }) => invariant.id)).toEqual(historyInvariants.map((invariant) => invariant.id));
    expect(readFileSync(join(reportDir(), "junit.xml"), "utf8")).toMatch(/<testsuite name="soak" tests="\d+" failures="0"/);
    expect(readFileSync(join(reportDir(), "soak.md"), "utf8")).toMatch(/^# ✅ Soak: /);
    const everything = [run.text, ...files.map((file) => readFileSync(join(reportDir(), file), "utf8"))].join("\n");
    expect(everything).not.toMatch(/bearer|authorization/i);
  });

  it("checks the saved history again with --check, to the same verdicts", async () => {
    const again = await soak("--check", join(reportDir(), "history.json"), "--report-dir", join(dir, "recheck"));
    expect(again.code, again.text).toBe(0);
    expect(again.out[0]).toMatch(/^checking .*history\.json: \d+ operations of 11 clients against embedded http:\/\/127\.0\.0\.1:\d+ \(seed 90, namespace orb-soak-/);
    const verdictLines = (text: string) => text.split("\n").filter((line) => /^(held|VIOLATED) /.test(line));
    expect(verdictLines(again.text)).toEqual(verdictLines(run.text));
    expect(verdictLines(again.text).length).toBe(historyInvariants.length);
    expect(existsSync(join(dir, "recheck", "history.json"))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, "recheck", "results.json"), "utf8"))).toMatchObject({ source: "check", seed: 90 });
  });
});

describe("orb-harness soak --runs N --shard I/N: a campaign", () => {
  it("makes only the shard's runs, each seeded from the campaign seed and its index, reported per run and as a campaign", async () => {
    const reportDir = join(dir, "campaign");
    const run = await soak("--duration", "1s", "--seed", "90", "--keys", "8", "--runs", "3", "--shard", "2/3", "--report-dir", reportDir);
    expect(run.code, run.text).toBe(0);
    const seed = runSeed(90, 1);
    expect(run.out[0]).toBe("soak campaign: seed 90, 3 runs, shard 2/3: 1 of 3 runs; each 1 s, 4 writers, 4 watchers, 2 readers, 8 keys");
    expect(run.out).toContain(`run 1 of 3: seed ${seed}`);
    expect(run.text).not.toMatch(/^run [02] of 3/m);
    expect(run.out.at(-3)).toMatch(/^reports: .*results\.json, .*junit\.xml, .*summary\.md, .*report\.html$/);
    expect(run.out.at(-2)).toMatch(/^1 runs in \d+\.\d s \(\d+\.\d+ runs\/s\)$/);
    expect(run.out.at(-1)).toMatch(/^trace-hash: [0-9a-f]{64}$/);
    // The run's own reports, as a single soak writes them, with a replay of that one run.
    const runResults = JSON.parse(readFileSync(join(reportDir, "run-1", "results.json"), "utf8"));
    expect(runResults).toMatchObject({ kind: "soak", seed, violations: 0, replayCommand: `npx tsx scripts/cli.ts soak --seed ${seed} --duration 1s --keys 8` });
    const campaign = await readCampaignResults(reportDir);
    expect(campaign).toMatchObject({ command: "soak", target: "embedded", campaignSeed: 90, runs: 3, shard: { index: 2, count: 3 } });
    expect(campaign.options).toBe("--duration 1000ms --writers 4 --watchers 4 --readers 2 --keys 8 --request-timeout 10000ms");
    expect(campaign.records.map((record) => [record.run, record.seed, record.verdict])).toEqual([[1, seed, "passed"]]);
    expect(campaign.records[0]!.traceHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("orb-harness soak against an embedded server with a planted defect", () => {
  it("exits 1, printing the violated rule, its witness with clients and times, the seed and a replay command", async () => {
    const reportDir = join(dir, "defect");
    const run = await soak("--defect", "most-recent-list-lags", "--duration", "3s", "--seed", "5", "--report-dir", reportDir);
    expect(run.code, run.text).toBe(1);
    expect(run.text).toMatch(/^VIOLATED {2}history\/read-freshness +\(\d+ checked\)$/m);
    expect(run.text).toMatch(/^VIOLATED history\/read-freshness\n {2}rule: a read without resourceVersion \(Most Recent\) reflects every write acknowledged before it was sent/m);
    expect(run.text).toMatch(/^ {2}witness: \S/m);
    expect(run.text).toMatch(/^ {4}#\d+ (writer|reader|watcher)-\d+ \d+\.\d–\d+\.\d ms \S/m);
    expect(run.text).toContain("\n  seed: 5\n");
    expect(run.text).toContain("\n  replay: npx tsx scripts/cli.ts soak --seed 5 --defect most-recent-list-lags --duration 3s\n");
    expect(run.out.at(-1)).toMatch(/^soak: \d+ of \d+ invariants violated \(seed 5\)$/);
    expect(readFileSync(join(reportDir, "soak.md"), "utf8")).toMatch(/^## ❌ history\/read-freshness$/m);
    expect(readFileSync(join(reportDir, "junit.xml"), "utf8")).toMatch(/<failure message="history\/read-freshness: /);
    expect(readFileSync(join(reportDir, "timeline.html"), "utf8")).toContain("history/read-freshness");
  });
});

describe("orb-harness soak --server URL --token T", () => {
  it("soaks a server reached by URL and never shows the token, in the output or any report", async () => {
    const server = await startEmbeddedSoakServer();
    const token = server.secrets[0]!;
    const reportDir = join(dir, "server");
    try {
      const run = await soak("--server", server.url, "--token", token, "--duration", "1s", "--seed", "3", "--report-dir", reportDir);
      expect(run.code, run.text).toBe(0);
      expect(run.out[1]).toBe(`target: ${server.url}, v1.26.4+orb-harness`);
      const results = JSON.parse(readFileSync(join(reportDir, "results.json"), "utf8"));
      expect(results.replayCommand).toBe(`npx tsx scripts/cli.ts soak --seed 3 --server ${server.url} --token=REDACTED --duration 1s`);
      const files = ["history.json", "results.json", "junit.xml", "soak.md", "timeline.html"].map((file) => readFileSync(join(reportDir, file), "utf8"));
      for (const text of [run.text, ...files]) expect(text).not.toContain(token);
    } finally {
      await server.close();
    }
  });
});

describe("orb-harness soak interrupted by Ctrl-C", () => {
  it("stops the workload, deletes its namespace, checks and reports what it recorded, and exits 130", async () => {
    const server = await startEmbeddedSoakServer();
    const reportDir = join(dir, "interrupted");
    try {
      const args = ["--import", "tsx", "scripts/cli.ts", "soak", "--server", server.url, "--token", server.secrets[0]!, "--duration", "60s", "--report-dir", reportDir];
      const child = spawn(process.execPath, args, { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => {
        const before = stdout;
        stdout += chunk.toString("utf8");
        // A second into the workload.
        if (!/^namespace /m.test(before) && /^namespace /m.test(stdout)) setTimeout(() => child.kill("SIGINT"), 1_000);
      });
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(code, `${stdout}\n${stderr}`).toBe(130);
      expect(stderr).toMatch(/^interrupted: stopping the workload and deleting its namespace/m);
      expect(stderr).toMatch(/^interrupted: the workload ran \d+\.\d s of 60 s; exit 130$/m);
      const namespace = /^namespace (orb-soak-\S+)$/m.exec(stdout)![1]!;
      expect(stdout).toContain(`namespace ${namespace} deleted`);
      expect(stdout).toMatch(/^held {6}history\/write-order/m);
      const answer = await server.identity.transport(new Request(`${server.url}/api/v1/namespaces/${namespace}`, { headers: server.identity.authHeaders }));
      expect(answer.status).toBe(404);
      expect(existsSync(join(reportDir, "history.json"))).toBe(true);
      expect(`${stdout}${stderr}`).not.toContain(server.secrets[0]!);
    } finally {
      await server.close();
    }
  });
});
