/**
 * Global setup of the real-server tier (vitest.real.config.ts): finds the control plane's
 * binaries and hands their directory to the tests as KUBEBUILDER_ASSETS. Taken from
 * $KUBEBUILDER_ASSETS when set; else the xz-compressed binaries of $ORB_KUBE_ASSETS_XZ (default:
 * ../shared/kube-assets beside the repo) are unpacked into a scratch directory, removed at the end.
 * Never into the repo.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ASSETS_ENVIRONMENT_VARIABLE } from "./kube-assets.ts";
import { startOrphanWatchdog } from "./orphan-watchdog.ts";

const COMPRESSED = ["etcd", "kube-apiserver", "kube-controller-manager"];

/** Sets KUBEBUILDER_ASSETS for the tests; returns the teardown. */
export default function setup(): () => void {
  if ((process.env[ASSETS_ENVIRONMENT_VARIABLE] ?? "") !== "") return () => undefined;
  const repo = fileURLToPath(new URL("../../", import.meta.url));
  const compressedDir = resolve(process.env["ORB_KUBE_ASSETS_XZ"] ?? join(repo, "..", "shared", "kube-assets"));
  if (!existsSync(join(compressedDir, "kube-apiserver.xz"))) {
    throw new Error(`the real-server tier needs a control plane's binaries: set ${ASSETS_ENVIRONMENT_VARIABLE} to a directory holding etcd and kube-apiserver, or ORB_KUBE_ASSETS_XZ to one holding their .xz files (looked in ${compressedDir})`);
  }
  const dir = mkdtempSync(join(tmpdir(), "orb-kube-assets-"));
  for (const name of COMPRESSED) {
    const source = join(compressedDir, `${name}.xz`);
    if (!existsSync(source)) continue;
    const target = join(dir, name);
    const out = openSync(target, "w");
    try {
      execFileSync("xz", ["-dc", source], { stdio: ["ignore", out, "inherit"] });
    } finally {
      closeSync(out);
    }
    chmodSync(target, 0o755);
  }
  process.env[ASSETS_ENVIRONMENT_VARIABLE] = dir;
  // A test runner killed outright runs no teardown: the watchdog removes the 180 MB then.
  const stopWatchdog = startOrphanWatchdog(dir);
  return () => {
    stopWatchdog();
    rmSync(dir, { recursive: true, force: true });
  };
}
