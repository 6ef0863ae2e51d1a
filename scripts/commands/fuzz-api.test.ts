/**
 * `fuzz --target api` through the CLI: exit 1 with the shrunk program and a replay command that
 * reproduces it when a planted defect is found, 0 and the runs/s line when nothing is, 2 for flags
 * that do not go together.
 */
import { describe, expect, it } from "vitest";
import { main } from "../cli.ts";

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("orb-harness fuzz --target api", () => {
  it("passes on the embedded server and prints runs/s and the trace hash", async () => {
    const result = await run("fuzz", "--target", "api", "--seed", "7", "--runs", "20");
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/20 passed, 0 failed\n20 runs in [\d.]+ s \([\d.]+ runs\/s\)\ntrace-hash: [0-9a-f]{64}$/);
  });

  it("exits 1 on a planted defect, and its printed replay command reproduces the shrunk program", async () => {
    const found = await run("fuzz", "--target", "api", "--seed", "7", "--runs", "30", "--defect", "dry-run-persists");
    expect(found.code).toBe(1);
    const replay = /replay: npx tsx scripts\/cli\.ts (fuzz .*)$/m.exec(found.out)?.[1];
    expect(replay).toContain("--defect dry-run-persists");
    // The steps of the first failure printed.
    const program = (text: string) => text.split("FAIL  run")[1]!.split("\n").filter((line) => /^ {4}\d+\. /.test(line));
    const replayed = await run(...replay!.split(" "));
    expect(replayed.code).toBe(1);
    expect(program(replayed.out)).toEqual(program(found.out));
  });

  it("refuses flags that do not go together", async () => {
    expect((await run("fuzz", "--target", "api", "--defect", "dry-run-persists", "--server", "http://127.0.0.1:1")).code).toBe(2);
    expect((await run("fuzz", "--target", "api", "--property", "store/revision-monotonic")).code).toBe(2);
    expect((await run("fuzz", "--target", "store", "--kubeconfig", "x")).code).toBe(2);
    expect((await run("fuzz", "--target", "api", "--seed", "1", "--replay", "0", "--runs", "3")).code).toBe(2);
  });
});
