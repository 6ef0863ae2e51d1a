/**
 * `orb-harness soak` against a real kube-apiserver in the fast-expiry profile (watch cache off,
 * etcd compacted every 10 s: old versions answer 410, watchers relist): 20 s of the default
 * workload, and every history invariant must hold (real-server tier, issue 15). Seed 35 plans a
 * cycling watcher with a label selector from the start, and one that stays away 13 s before it
 * resumes (so it meets a compacted version: 410, then a relist).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../scripts/cli.ts";
import { ASSETS_ENVIRONMENT_VARIABLE } from "../control-plane/kube-assets.ts";

describe("soak against a real control plane, profile fast-expiry", () => {
  it("runs 20 s of the workload, deletes its namespace, and every history invariant holds", async () => {
    const reportDir = mkdtempSync(join(tmpdir(), "orb-soak-real-"));
    const lines: string[] = [];
    const output = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    try {
      const args = ["soak", "--kube-assets", process.env[ASSETS_ENVIRONMENT_VARIABLE]!, "--kube-profile", "fast-expiry", "--duration", "20s", "--seed", "35", "--report-dir", reportDir];
      const code = await main(args, output);
      console.log(lines.filter((line) => !/^(starting|waiting for)/.test(line)).join("\n"));
      expect(code, lines.join("\n")).toBe(0);
      expect(lines).toContainEqual(expect.stringMatching(/^namespace orb-soak-\S+ deleted$/));
      const text = lines.join("\n");
      expect(Number(/^(\d+) operations in /m.exec(text)?.[1])).toBeGreaterThan(1_000);
      expect(Number(/(\d+) with a label selector/.exec(text)?.[1])).toBeGreaterThan(0);
    } finally {
      rmSync(reportDir, { recursive: true, force: true });
    }
  });
});
