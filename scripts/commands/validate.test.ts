import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli.ts";

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "orb-validate-cli-"));
  const header = "apiVersion: nodeagent.config.orb.io/v1beta1\nkind: NodeAgentConfiguration\n";
  await writeFile(file("good.yaml"), `${header}nodeStatusUpdateFrequency: 20s\n`);
  await writeFile(file("bad.yaml"), `${header}readOnlyPort: 70000\nimageGCHighThresholdPercent: 70\nimageGCLowThresholdPercent: 80\n`);
  await writeFile(file("providers.yaml"), "apiVersion: nodeagent.config.orb.io/v1beta1\nkind: CredentialProviderConfig\nproviders:\n  - name: p\n    matchImages: ['*.example.io']\n    defaultCacheDuration: 1h\n    apiVersion: credentialprovider.nodeagent.orb.io/v1\n");
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("orb-harness validate", () => {
  it("exits 0 for valid controller manager flags, 1 with one line per broken rule", async () => {
    expect(await run("validate", "controller-manager", "--", "--leader-elect-lease-duration=20s")).toMatchObject({ code: 0, out: "valid: 0 errors, 0 warnings" });
    const bad = await run("validate", "controller-manager", "--", "--leader-elect-renew-deadline=20s", "--controllers=nodelifecycl");
    expect(bad.code).toBe(1);
    expect(bad.out.split("\n")).toEqual([
      "error doc2/2.2/renew-deadline-le-lease-duration: --leader-elect-renew-deadline=20s: renew deadline 20s exceeds the lease duration 15s; it must be less than or equal to it",
      'error doc2/2.4/controllers: --controllers=["nodelifecycl"]: "nodelifecycl" is not in the list of known controllers (did you mean nodelifecycle?)',
      "invalid: 2 errors, 0 warnings",
    ]);
  });

  it("validates the scheduler's flags, with warnings that keep exit 0", async () => {
    const result = await run("validate", "scheduler", "--", "--config=/etc/s.yaml", "--lock-object-name=s", "-v", "2");
    expect(result.code).toBe(0);
    expect(result.out).toContain("warning doc2/2.3/ignored-with-config: --lock-object-name=s");
  });

  it("prints the defaulted options as YAML or JSON, findings on stderr", async () => {
    const yaml = await run("validate", "scheduler", "--output", "defaulted", "--dialect", "kubernetes", "--", "--secure-port=0");
    expect(yaml.code).toBe(0);
    expect(parse(yaml.out).options).toMatchObject({ "secure-port": 0, "leader-elect-resource-name": "kube-scheduler", "leader-elect-lease-duration": "15s" });
    const json = await run("validate", "controller-manager", "-o", "json", "--", "--node-monitor-period=1m");
    expect(JSON.parse(json.out).options["node-monitor-period"]).toBe("1m0s");
    expect(json.err).toBe("valid: 0 errors, 0 warnings");
  });

  it("validates node agent files: 0 valid, 1 invalid, and prints the defaulted configuration", async () => {
    expect((await run("validate", "node-agent", file("good.yaml"))).code).toBe(0);
    const bad = await run("validate", "node-agent", file("bad.yaml"));
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("error doc3/2.3/read-only-port-range: readOnlyPort=70000");
    expect(bad.out).toContain("error doc3/2.6/image-gc-high-above-low: imageGCLowThresholdPercent=80");
    const defaulted = await run("validate", "node-agent", "--output=defaulted", file("good.yaml"));
    expect(parse(defaulted.out)).toMatchObject({ kind: "NodeAgentConfiguration", nodeStatusReportFrequency: "20s", syncFrequency: "1m0s" });
    const json = await run("validate", "node-agent", "-o", "json", file("good.yaml"));
    expect(JSON.parse(json.out).port).toBe(10250);
  });

  it("validates credential provider files", async () => {
    expect(await run("validate", "credential-provider", file("providers.yaml"))).toMatchObject({ code: 0 });
  });

  it("exits 2 for usage errors: no target, unknown target, unreadable file, flags without --, bad --output", async () => {
    for (const argv of [
      ["validate"],
      ["validate", "kubelet"],
      ["validate", "node-agent", file("missing.yaml")],
      ["validate", "node-agent"],
      ["validate", "controller-manager", "--leader-elect"],
      ["validate", "scheduler", "--output", "xml", "--"],
      ["validate", "node-agent", file("good.yaml"), "--", "--x"],
    ]) {
      expect((await run(...argv)).code, argv.join(" ")).toBe(2);
    }
  });
});
