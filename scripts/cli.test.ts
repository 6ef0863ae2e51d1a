import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { main } from "./cli.ts";
import { commands } from "./commands/index.ts";

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("orb-harness CLI", () => {
  it("lists every command with --help and exits 0", async () => {
    const { code, out } = await run("--help");
    expect(code).toBe(0);
    expect(out).toMatch(/usage: orb-harness <command>/);
    expect(out).toMatch(/^\s+fuzz\s+/m);
  });

  it("lists each command with the summary its module gives", async () => {
    for (const entry of commands) {
      const command = await entry.load();
      expect([command.name, command.summary]).toEqual([entry.name, entry.summary]);
    }
  });

  it("exits 2 with a usage message for no command, an unknown command, an unknown flag", async () => {
    expect((await run()).code).toBe(2);
    const unknown = await run("frobnicate");
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.err).toMatch(/unknown command "frobnicate"/);
    const badFlag = await run("fuzz", "--target", "store", "--sed", "1");
    expect(badFlag.code).toBe(2);
    expect(badFlag.err).toMatch(/unknown flag --sed \(did you mean --seed\?\)/);
    expect(badFlag.err).toMatch(/usage: orb-harness fuzz/);
  });

  it("rejects an unknown fuzz target, a bad seed and --replay without --property with exit 2", async () => {
    expect(await run("fuzz", "--target", "etcd")).toMatchObject({ code: 2, err: expect.stringMatching(/unknown --target etcd; known targets: store/) });
    expect((await run("fuzz", "--target", "store", "--seed", "abc")).code).toBe(2);
    expect((await run("fuzz", "--target", "store", "--seed", String(2 ** 40))).code).toBe(2);
    expect((await run("fuzz", "--target", "store", "--replay", "1:2")).code).toBe(2);
  });

  it("fuzzes the store: one line per property, trace-hash last, same for the same seed, other for another", async () => {
    const first = await run("fuzz", "--target", "store", "--seed", "42", "--runs", "10");
    const again = await run("fuzz", "--target", "store", "--seed", "42", "--runs", "10");
    const other = await run("fuzz", "--target", "store", "--seed", "7", "--runs", "10");
    expect(first.code).toBe(0);
    const lines = first.out.split("\n");
    expect(lines.filter((line) => line.startsWith("ok    "))).toHaveLength(7);
    expect(lines.at(-1)).toMatch(/^trace-hash: [0-9a-f]{64}$/);
    expect(again.out.split("\n").at(-1)).toBe(lines.at(-1));
    expect(other.out.split("\n").at(-1)).not.toBe(lines.at(-1));
  });

  it("reaches the shell: the bin exits 2 on a usage error and 0 on --help", () => {
    const bin = new URL("./orb-harness.mjs", import.meta.url).pathname;
    const usage = spawnSync(process.execPath, [bin, "fuzz", "--target", "nope"], { encoding: "utf8" });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/unknown --target nope/);
    expect(spawnSync(process.execPath, [bin, "--help"], { encoding: "utf8" }).status).toBe(0);
  });

  it("stops quietly when its reader closes the pipe early (`conformance --list | head -1`)", async () => {
    const bin = new URL("./orb-harness.mjs", import.meta.url).pathname;
    const child = spawn(process.execPath, [bin, "conformance", "--list"], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    // Close our end before the list is written (it fits a pipe's buffer, so a later close would
    // come too late): every write then meets a closed pipe, as after `head -1` exits.
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).not.toMatch(/EPIPE|internal error/);
    expect(code).toBe(0);
  });
});
