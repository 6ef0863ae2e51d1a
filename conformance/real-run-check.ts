/**
 * One conformance run against a control plane started from KUBEBUILDER_ASSETS, for the
 * real-server tier: every case that does not pass is printed with its message, and any failure
 * or error fails the test, as does a skip nobody listed.
 */
import { expect } from "vitest";
import { allCases } from "./cases/index.ts";
import { ASSETS_ENVIRONMENT_VARIABLE } from "./control-plane/kube-assets.ts";
import type { KubeProfileName } from "./control-plane/kube-profiles.ts";
import { totals } from "./results.ts";
import { runConformance } from "./run-conformance.ts";

/** Runs the whole suite with --slow against a fresh control plane of `profile` and expects no failure and no skip. */
export async function expectCleanRealRun(profile: KubeProfileName): Promise<void> {
  const started = performance.now();
  const results = await runConformance({
    target: { kind: "kube-assets", assetsDir: process.env[ASSETS_ENVIRONMENT_VARIABLE]!, profile },
    cases: allCases,
    readOnly: false,
    slow: true,
    parallel: 4,
    caseTimeoutMs: 60_000,
    keepNamespaces: false,
    command: `npx tsx scripts/cli.ts conformance --kube-assets --kube-profile ${profile} --slow`,
    progress: { isTTY: false, write: () => undefined },
  });
  const counts = totals(results);
  const notPassed = results.cases.filter((result) => result.status !== "pass");
  console.log(
    [
      `profile ${profile}: ${counts.pass} passed, ${counts.fail} failed, ${counts.skip} skipped, ${counts.error} errors in ${Math.round((performance.now() - started) / 1000)} s (${results.target.serverVersion})`,
      ...notPassed.map((result) => `  ${result.status.toUpperCase()} ${result.id}: ${result.message}`),
    ].join("\n"),
  );
  expect(notPassed.map((result) => `${result.status} ${result.id}: ${result.message}`)).toEqual([]);
}
