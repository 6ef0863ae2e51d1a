import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli.ts";

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

let dir: string;
let config: string;
let invalid: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "orb-match-image-cli-"));
  config = join(dir, "providers.yaml");
  invalid = join(dir, "invalid.yaml");
  const provider = (name: string, patterns: string[]) =>
    `  - name: ${name}\n    matchImages: [${patterns.map((pattern) => `"${pattern}"`).join(", ")}]\n    defaultCacheDuration: 1h\n    apiVersion: credentialprovider.nodeagent.orb.io/v1\n`;
  const header = "apiVersion: nodeagent.config.orb.io/v1beta1\nkind: CredentialProviderConfig\nproviders:\n";
  await writeFile(config, header + provider("team", ["registry.example.io/team"]) + provider("wildcard", ["*.example.io"]) + provider("gcr", ["*.gcr.io"]));
  await writeFile(invalid, header + provider("bad/name", ["x.io"]));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("orb-harness match-image", () => {
  it("lists matching providers in combining order and exits 0", async () => {
    const result = await run("match-image", "--config", config, "registry.example.io/team/app:1");
    expect(result.code).toBe(0);
    expect(result.out).toContain("matched as: registry.example.io/team/app");
    expect(result.out).toContain("invoked: team, wildcard");
    expect(result.out).toContain("team > wildcard");
  });

  it("prints JSON with --output json", async () => {
    const result = await run("match-image", "--config", config, "--output", "json", "eu.gcr.io/p/app");
    expect(JSON.parse(result.out).precedence).toEqual(["gcr"]);
  });

  it("exits 1 when no provider matches or the file is invalid", async () => {
    expect((await run("match-image", "--config", config, "nginx")).code).toBe(1);
    const bad = await run("match-image", "--config", invalid, "x.io/app");
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("doc3/2.2/provider-name");
  });

  it("exits 2 without --config, without an image, or with an invalid image reference", async () => {
    expect((await run("match-image", "nginx")).code).toBe(2);
    expect((await run("match-image", "--config", config)).code).toBe(2);
    expect((await run("match-image", "--config", config, "Bad Image")).code).toBe(2);
  });
});
