/**
 * `orb-harness soak` against a real kube-apiserver in the fast-expiry profile (watch cache off,
 * etcd compacted every 10 s: old versions answer 410, watchers relist), reached as a user reaches a
 * cluster (`--server --token --certificate-authority`, TLS verified), holding the bystanders of
 * the runner-safety checks (issue 14): 20 s of the default workload, every history invariant
 * holds (issue 15), every bystander is left byte for byte as it was, and nothing of the run is
 * left. Seed 35 plans a cycling watcher with a label selector from the start, and one that stays
 * away 13 s before it resumes (so it meets a compacted version: 410, then a relist).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../scripts/cli.ts";
import { ASSETS_ENVIRONMENT_VARIABLE } from "../control-plane/kube-assets.ts";
import { startKubeControlPlane, type KubeControlPlane } from "../control-plane/kube-control-plane.ts";
import { createBystanders } from "../safety/bystanders.ts";
import { addedObjects, compareSnapshots, snapshotCluster, type SnapshotConnection } from "../safety/cluster-snapshot.ts";
import { connectRemoteTarget } from "../targets/remote-target.ts";

let plane: KubeControlPlane | undefined;
afterAll(() => plane?.stop());

describe("soak against a real control plane holding bystanders, profile fast-expiry", () => {
  it("runs 20 s of the workload, every history invariant holds, bystanders untouched, nothing left", async () => {
    plane = await startKubeControlPlane({ assetsDir: process.env[ASSETS_ENVIRONMENT_VARIABLE]!, profile: "fast-expiry" });
    const admin = await connectRemoteTarget({ server: plane.url, credentials: { token: plane.adminToken, certificateAuthority: plane.certificateAuthorityFile }, dialect: "kubernetes" });
    const connection: SnapshotConnection = { transport: admin.identity.transport, baseUrl: plane.url, headers: admin.identity.authHeaders };
    // A real server needs the Widget type made, as the conformance safety check does.
    const bystanders = await createBystanders(connection, true);
    const before = await snapshotCluster(connection);
    const reportDir = mkdtempSync(join(tmpdir(), "orb-soak-real-"));
    const lines: string[] = [];
    const output = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    try {
      const target = ["--server", plane.url, "--token", plane.adminToken, "--certificate-authority", plane.certificateAuthorityFile];
      const code = await main(["soak", ...target, "--duration", "20s", "--seed", "35", "--report-dir", reportDir], output);
      const after = await snapshotCluster(connection);
      const left = addedObjects(before, after).filter((entry) => entry.namespace === undefined || entry.namespace.startsWith("orb-soak-"));
      console.log(
        [
          ...lines.filter((line) => /operations in|invariants|^namespace /.test(line)),
          `safety: ${before.objects.size} objects before, ${after.objects.size} after, ${bystanders.length} bystanders; left by the run: ${left.map((entry) => entry.key).join(", ") || "nothing"}`,
        ].join("\n"),
      );
      expect(code, lines.join("\n")).toBe(0);
      expect(lines).toContainEqual(expect.stringMatching(/^namespace orb-soak-\S+ deleted$/));
      const text = lines.join("\n");
      // About 240 operations a second alone; 56 a second beside npm test in CI (1,114 in one run).
      expect(Number(/^(\d+) operations in /m.exec(text)?.[1])).toBeGreaterThan(300);
      expect(Number(/(\d+) with a label selector/.exec(text)?.[1])).toBeGreaterThan(0);
      expect(compareSnapshots(before, after, bystanders)).toEqual([]);
      expect(left.map((entry) => entry.key)).toEqual([]);
      expect(text).not.toContain(plane.adminToken);
    } finally {
      rmSync(reportDir, { recursive: true, force: true });
    }
  }, 5 * 60_000);
});
