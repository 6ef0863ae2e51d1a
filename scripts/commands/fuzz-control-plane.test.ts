import { describe, expect, it } from "vitest";
import { main } from "../cli.ts";

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, lines: out, err: err.join("\n") };
}

describe("orb-harness fuzz --target leader-election|node-eviction", () => {
  it("passes without pauses and prints the session hash last", async () => {
    const { code, lines } = await run("fuzz", "--target", "leader-election", "--runs", "6", "--seed", "5");
    expect(code).toBe(0);
    expect(lines[0]).toBe("fuzzing leader-election: seed 5, 6 runs, faults drift,partitions,crashes");
    expect(lines.at(-1)).toMatch(/^trace-hash: [0-9a-f]{64}$/);
  });

  it("exits 1 with the minimal schedule and the replay commands when pauses break safety", async () => {
    const { code, lines } = await run("fuzz", "--target", "leader-election", "--runs", "20", "--seed", "1", "--faults", "pauses");
    expect(code).toBe(1);
    const text = lines.join("\n");
    expect(text).toMatch(/minimal fault schedule: pause:leader@\S+\+\S+ {2}\(scenario seed \d+\)/);
    expect(text).toMatch(/report: npx tsx scripts\/cli\.ts simulate --scenario leader-election --seed \d+ --duration 3m0s --candidates 3 --faults 'pause:leader@/);
  });

  it("rejects unknown fault classes and store-only flags with exit 2", async () => {
    expect((await run("fuzz", "--target", "leader-election", "--faults", "meteors")).code).toBe(2);
    expect((await run("fuzz", "--target", "node-eviction", "--property", "store/revision-monotonic")).code).toBe(2);
    expect((await run("fuzz", "--target", "store", "--faults", "pauses")).code).toBe(2);
  });
});
