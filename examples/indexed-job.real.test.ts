/**
 * The Indexed Job example against a real control plane (real-server tier, issue 16): `kubectl
 * apply --dry-run=server` accepts every object of examples/kubernetes-indexed-job-fuzz.yaml, so
 * kube-apiserver's own validation and admission pass it as written, and makes nothing. To show
 * that the dry run does validate, a copy without `completions` (required for an Indexed Job) is
 * refused. Needs kubectl on PATH (or $KUBECTL).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ASSETS_ENVIRONMENT_VARIABLE } from "../conformance/control-plane/kube-assets.ts";
import { startKubeControlPlane, type KubeControlPlane } from "../conformance/control-plane/kube-control-plane.ts";

const MANIFEST = new URL("./kubernetes-indexed-job-fuzz.yaml", import.meta.url).pathname;
const KUBECTL = process.env["KUBECTL"] ?? "kubectl";

let plane: KubeControlPlane | undefined;
const scratch = mkdtempSync(join(tmpdir(), "orb-indexed-job-"));
afterAll(async () => {
  await plane?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

function kubectl(...args: string[]) {
  const result = spawnSync(KUBECTL, [...args, "--kubeconfig", plane!.kubeconfigFile], { encoding: "utf8" });
  if (result.error !== undefined) throw new Error(`this test runs ${KUBECTL} (set $KUBECTL to another path): ${result.error.message}`);
  return result;
}

describe("examples/kubernetes-indexed-job-fuzz.yaml against a real control plane", () => {
  it("passes kubectl apply --dry-run=server and makes nothing; a copy without completions is refused", async () => {
    plane = await startKubeControlPlane({ assetsDir: process.env[ASSETS_ENVIRONMENT_VARIABLE]!, profile: "fast-expiry" });
    const applied = kubectl("apply", "--dry-run=server", "-f", MANIFEST);
    console.log(`kubectl apply --dry-run=server -f examples/kubernetes-indexed-job-fuzz.yaml:\n${applied.stdout}${applied.stderr}`);
    expect(applied.status, applied.stderr).toBe(0);
    expect(applied.stdout).toContain("persistentvolumeclaim/orb-harness-fuzz-reports created (server dry run)");
    expect(applied.stdout).toContain("job.batch/orb-harness-fuzz-campaign created (server dry run)");
    const left = kubectl("get", "job/orb-harness-fuzz-campaign", "persistentvolumeclaim/orb-harness-fuzz-reports", "--namespace", "default", "--ignore-not-found", "-o", "name");
    expect(left.status, left.stderr).toBe(0);
    expect(left.stdout).toBe("");

    const text = readFileSync(MANIFEST, "utf8");
    expect(text).toMatch(/^ {2}completions: 4$/m);
    const broken = join(scratch, "without-completions.yaml");
    writeFileSync(broken, text.replace(/^ {2}completions: 4\n/m, ""));
    const refused = kubectl("apply", "--dry-run=server", "-f", broken);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/spec\.completions: Required value/);
  });
});
