/** `orb-harness load` (and `serve --watch-buffer`) refuse bad flags with exit 2 before starting anything. */
import { describe, expect, it } from "vitest";
import { main } from "../cli.ts";

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("orb-harness load: usage", () => {
  it("describes the phases and the checks in --help", async () => {
    const { code, out } = await run("load", "--help");
    expect(code).toBe(0);
    expect(out).toMatch(/usage: orb-harness load/);
    expect(out).toMatch(/--min-rate-ratio/);
  });

  it.each([
    [["--watchers", "0"], /--watchers must be at least 1, got 0/],
    [["--duration", "soon"], /--duration: /],
    [["--duration", "0s"], /--duration must be positive/],
    [["--min-rate-ratio", "2"], /--min-rate-ratio must be a number from 0 to 1/],
    [["--watch-encoding", "yaml"], /--watch-encoding must be one of protobuf, json, got yaml/],
    [["--token", "t"], /--token needs --server/],
    [["--insecure-skip-tls-verify"], /--insecure-skip-tls-verify needs --server/],
    [["--bogus"], /unknown flag --bogus/],
  ])("exits 2 for %j, naming the problem, and starts no server", async (flags, message) => {
    const { code, out, err } = await run("load", ...flags);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(out).not.toMatch(/starting the embedded server/);
  });

  it("serve refuses --watch-buffer 0 with exit 2", async () => {
    const { code, err } = await run("serve", "--watch-buffer", "0");
    expect(code).toBe(2);
    expect(err).toMatch(/--watch-buffer must be at least 1, got 0/);
  });
});
