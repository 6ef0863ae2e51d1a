/**
 * `fuzz --target api` against a real kube-apiserver (fast-expiry profile: watch cache off, etcd
 * compacted every 10 s), reached as a user reaches a cluster (`--server --token
 * --certificate-authority`), holding the bystanders of the runner-safety checks (issue 14): every
 * run passes (the model and Kubernetes agree on everything compared), every bystander is left as
 * it was, the run's namespaces are gone, and the token is never shown.
 */
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../scripts/cli.ts";
import { ASSETS_ENVIRONMENT_VARIABLE } from "../control-plane/kube-assets.ts";
import { startKubeControlPlane, type KubeControlPlane } from "../control-plane/kube-control-plane.ts";
import { createBystanders } from "../safety/bystanders.ts";
import { addedObjects, compareSnapshots, snapshotCluster, type SnapshotConnection } from "../safety/cluster-snapshot.ts";
import { connectRemoteTarget } from "../targets/remote-target.ts";

let plane: KubeControlPlane | undefined;
afterAll(() => plane?.stop());

describe("fuzz --target api against a real control plane holding bystanders, profile fast-expiry", () => {
  it("passes 100 runs, leaves the bystanders untouched and nothing of its own", async () => {
    plane = await startKubeControlPlane({ assetsDir: process.env[ASSETS_ENVIRONMENT_VARIABLE]!, profile: "fast-expiry" });
    const admin = await connectRemoteTarget({ server: plane.url, credentials: { token: plane.adminToken, certificateAuthority: plane.certificateAuthorityFile }, dialect: "kubernetes" });
    const connection: SnapshotConnection = { transport: admin.identity.transport, baseUrl: plane.url, headers: admin.identity.authHeaders };
    const bystanders = await createBystanders(connection, true);
    const before = await snapshotCluster(connection);
    const lines: string[] = [];
    const target = ["--server", plane.url, "--token", plane.adminToken, "--certificate-authority", plane.certificateAuthorityFile];
    const code = await main(["fuzz", "--target", "api", ...target, "--seed", "9", "--runs", "100"], { out: (line) => lines.push(line), err: (line) => lines.push(line) });
    const after = await snapshotCluster(connection);
    const left = addedObjects(before, after).filter((entry) => entry.namespace === undefined || entry.namespace.startsWith("orb-fuzz-"));
    console.log([...lines.filter((line) => /runs in|passed|FAIL/.test(line)), `safety: ${bystanders.length} bystanders; left by the run: ${left.map((entry) => entry.key).join(", ") || "nothing"}`].join("\n"));
    expect(code, lines.join("\n")).toBe(0);
    expect(lines).toContain("100 passed, 0 failed");
    expect(compareSnapshots(before, after, bystanders)).toEqual([]);
    expect(left.map((entry) => entry.key)).toEqual([]);
    expect(lines.join("\n")).not.toContain(plane.adminToken);
  }, 6 * 60_000);
});
