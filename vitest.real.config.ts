/**
 * The real-server tier (`npm run test:real`, issue #13): tests against a real control plane
 * started from binaries (envtest's KUBEBUILDER_ASSETS, or the xz-compressed binaries of a
 * kube-assets directory beside the repo, unpacked into a scratch directory by the global setup).
 * Not part of `npm test`: a fresh clone has no binaries. The files run at once (each waits on a
 * server far more than it computes), so both profiles' conformance runs overlap.
 */
import { defineConfig } from "vitest/config";
import { NODE_FLAGS } from "./scripts/node-flags.mjs";

export default defineConfig({
  test: {
    include: ["{sim,spec,conformance,reports,scripts,examples}/**/*.real.test.ts"],
    globalSetup: ["conformance/control-plane/real-tier-setup.ts"],
    // A default-profile run waits for etcd's compaction: 5 minutes, twice.
    testTimeout: 15 * 60_000,
    hookTimeout: 5 * 60_000,
    pool: "forks",
    maxWorkers: 4,
    fileParallelism: true,
    execArgv: NODE_FLAGS,
  },
});
