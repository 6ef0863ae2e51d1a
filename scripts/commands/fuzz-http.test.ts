import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startEmbeddedFuzzServer } from "../../conformance/fuzz-http/embedded-fuzz-server.ts";
import { main } from "../cli.ts";

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, lines: out, err: err.join("\n") };
}

describe("orb-harness fuzz --target http", () => {
  it("documents the target and its flags in --help", async () => {
    const { code, lines } = await run("fuzz", "--help");
    expect(code).toBe(0);
    const help = lines.join("\n");
    expect(help).toContain("orb-harness fuzz --target http [--server URL [--token T] [--certificate-authority FILE]]");
    expect(help).toMatch(/--target +what to fuzz: store, leader-election, node-eviction, http/);
  });

  it("refuses flags that do not go together with exit 2 and a message", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["--server", "ftp://example"], /--server must be an http:\/\/ or https:\/\/ URL/],
      [["--token", "t"], /--token and --certificate-authority need --server/],
      [["--property", "store/revision-monotonic"], /--property applies to --target store/],
      [["--faults", "pauses"], /--faults applies to --target leader-election and node-eviction/],
      [["--server", "https://127.0.0.1:1", "--certificate-authority", "/no/such/ca.crt"], /--certificate-authority: cannot read \/no\/such\/ca\.crt: ENOENT/],
      [["--runs", "0"], /--runs must be at least 1/],
      [["--shard", "1/2"], /--shard needs --seed/],
      [["--seed", "1", "--shard", "3/2"], /--shard must be I\/N with 1 ≤ I ≤ N/],
      [["--seed", "1", "--replay", "0:1", "--shard", "1/2"], /--shard does not go with --replay/],
      [["--seed", "1", "--replay", "0:1", "--report-dir", "x"], /--report-dir does not go with --replay/],
    ];
    for (const [flags, message] of cases) {
      const { code, err } = await run("fuzz", "--target", "http", ...flags);
      expect([flags.join(" "), code], err).toEqual([flags.join(" "), 2]);
      expect(err).toMatch(message);
    }
    expect((await run("fuzz", "--target", "store", "--server", "http://x")).err).toMatch(/--server, --token and --certificate-authority apply to --target http/);
  });

  it("exits 2 with one line when the server does not answer", async () => {
    const { code, err } = await run("fuzz", "--target", "http", "--server", "http://127.0.0.1:1", "--runs", "5", "--seed", "1");
    expect(code).toBe(2);
    expect(err).toMatch(/^orb-harness fuzz: read the server's discovery \(\/apis\): no answer/);
  });

  it("fuzzes the embedded server and ends with the counts, the end checks and `http fuzz: N requests, 0 findings`", async () => {
    const { code, lines } = await run("fuzz", "--target", "http", "--runs", "40", "--seed", "5");
    expect(code, lines.join("\n")).toBe(0);
    expect(lines[0]).toBe("fuzzing http: seed 5, 40 requests, 8 in flight");
    expect(lines[1]).toMatch(/^embedded server http:\/\/127\.0\.0\.1:\d+ \(dialect kubernetes\), namespace orb-fuzz-[0-9a-f]{8}$/);
    const text = lines.join("\n");
    expect(text).toMatch(/^requests sent: \d+ \(plus \d+ helper requests/m);
    expect(text).toMatch(/^answers: .*4xx \d+/m);
    expect(text).toMatch(/^Status bodies: \d+$/m);
    expect(text).toContain("/readyz at the end: 200");
    expect(text).toMatch(/^memory of this process \(embedded server included\), after a full GC: heap [\d.]+ MB before, [\d.]+ MB after/m);
    expect(lines.at(-1)).toMatch(/^http fuzz: \d+ requests, 0 findings$/);
  });

  it("sends one shard's blocks, prints the campaign's rate and trace hash, and writes its report directory", async () => {
    const reportDir = mkdtempSync(join(tmpdir(), "orb-fuzz-http-"));
    try {
      const { code, lines } = await run("fuzz", "--target", "http", "--runs", "1500", "--seed", "5", "--shard", "2/2", "--report-dir", reportDir);
      expect(code, lines.join("\n")).toBe(0);
      expect(lines[0]).toBe("fuzzing http: seed 5, 1500 requests, 8 in flight, shard 2/2: 1 of 2 runs of 1000 requests");
      const text = lines.join("\n");
      expect(text).toMatch(/^1 runs in [\d.]+ s \([\d.]+ runs\/s\)$/m);
      expect(text).toMatch(/^trace-hash: [0-9a-f]{64}$/m);
      expect(lines.at(-1)).toMatch(/^http fuzz: (5\d\d) requests, 0 findings$/);
      const results = JSON.parse(readFileSync(join(reportDir, "results.json"), "utf8"));
      expect(results).toMatchObject({ command: "fuzz --target http", target: "embedded", options: "--runs 1500 (blocks of 1000)", campaignSeed: 5, runs: 2, shard: { index: 2, count: 2 } });
      expect(results.records.map((record: { run: number; verdict: string }) => [record.run, record.verdict])).toEqual([[1, "passed"]]);
    } finally {
      rmSync(reportDir, { recursive: true, force: true });
    }
  });

  it("exits 1 on a finding against --server, prints progress and a replay command that keeps the token out", async () => {
    const server = await startEmbeddedFuzzServer(new Set(["dry-run-persists"]));
    try {
      const { code, lines } = await run("fuzz", "--target", "http", "--server", server.url, "--token", server.token, "--runs", "1100", "--seed", "1");
      const text = lines.join("\n");
      expect(code, text.slice(-2_000)).toBe(1);
      expect(text).toMatch(/^FINDING no-write-on-error: after a dry run the lane's \w+ changed: fz\d-[ab]$/m);
      expect(text).toMatch(new RegExp(`^ +replay: npx tsx scripts/cli\\.ts fuzz --target http --seed -?\\d+ --replay '[\\d:]+' --server ${server.url.replace(/\./g, "\\.")} --token <token>$`, "m"));
      expect(text).toMatch(/^progress: 1\d{3} requests in [\d.]+ s \(.*\), \d+ findings$/m);
      expect(text).not.toContain(server.token);
      expect(lines.at(-1)).toMatch(/^http fuzz: \d+ requests, [1-9]\d* findings$/);
    } finally {
      await server.close();
    }
  });
});
