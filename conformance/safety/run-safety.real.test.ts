/**
 * Runner safety against a real control plane (issue #14, real-server tier): the check of
 * scripts/commands/conformance-safety.test.ts, with the same bystanders and the same run of the
 * CLI (`--server --token --certificate-authority`, TLS verified), against kube-apiserver in the
 * fast-expiry profile. Its kube-controller-manager changes objects of its own (ServiceAccounts,
 * leases, events), so what is compared byte for byte is what the test made, the bystanders; of
 * everything else, each namespace must still exist, and nothing the run made may be left.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ASSETS_ENVIRONMENT_VARIABLE } from "../control-plane/kube-assets.ts";
import { startKubeControlPlane, type KubeControlPlane } from "../control-plane/kube-control-plane.ts";
import { connectRemoteTarget } from "../targets/remote-target.ts";
import { addedObjects, compareSnapshots } from "./cluster-snapshot.ts";
import { checkRunSafety, type SafetyCheck } from "./safety-check.ts";
import { findSecrets } from "./secret-grep.ts";

let plane: KubeControlPlane;
let check: SafetyCheck;

beforeAll(async () => {
  plane = await startKubeControlPlane({ assetsDir: process.env[ASSETS_ENVIRONMENT_VARIABLE]!, profile: "fast-expiry" });
  const admin = await connectRemoteTarget({ server: plane.url, credentials: { token: plane.adminToken, certificateAuthority: plane.certificateAuthorityFile }, dialect: "kubernetes" });
  check = await checkRunSafety({
    admin: { transport: admin.identity.transport, baseUrl: plane.url, headers: admin.identity.authHeaders },
    targetArgs: ["--server", plane.url, "--token", plane.adminToken, "--certificate-authority", plane.certificateAuthorityFile],
    runArgs: ["--slow", "--server-compaction-interval", "10s"],
    withDefinition: true,
    // The namespace controller finalizes each deleted namespace; a run's worth takes a while.
    namespacesGoneWithinMs: 120_000,
  });
  const changed = compareSnapshots(check.before, check.after).filter((difference) => !check.bystanders.includes(difference.key));
  console.log(
    [
      `safety against ${check.results.target.serverVersion}: ${check.before.objects.size} objects of ${check.before.types} types before, ${check.after.objects.size} after, ${check.bystanders.length} bystanders; ${Math.round(check.wallMs / 1000)} s`,
      `run: exit ${check.run.code}, ${check.results.cases.length} cases, ${check.transcriptAudit.runNamespaces.length} namespaces and ${check.transcriptAudit.clusterObjects.length} Nodes of its own`,
      `not the test's, changed by the control plane meanwhile: ${changed.map((difference) => `${difference.change} ${difference.key}`).join(", ") || "none"}`,
      `added meanwhile: ${addedObjects(check.before, check.after).map((entry) => entry.key).join(", ") || "none"}`,
      ...check.results.cases.filter((result) => result.status === "fail" || result.status === "error").map((result) => `${result.status.toUpperCase()} ${result.id}: ${result.message}`),
    ].join("\n"),
  );
}, 10 * 60_000);
afterAll(() => plane?.stop());

describe("a conformance run against a real control plane holding bystanders", () => {
  it("completes, no case stopped by the safety interlock", () => {
    expect([0, 1]).toContain(check.run.code);
    expect(check.results.cases.filter((result) => result.message.includes("safety interlock")).map((result) => result.id)).toEqual([]);
  });

  it("leaves every bystander untouched, byte for byte, and every namespace in place", () => {
    expect(compareSnapshots(check.before, check.after, check.bystanders)).toEqual([]);
    const namespaces = [...check.before.objects.values()].filter((entry) => entry.group === "" && entry.resource === "namespaces").map((entry) => entry.name);
    expect(namespaces).toContain("keep-me");
    expect(namespaces.filter((name) => !check.after.objects.has(`/namespaces /${name}`))).toEqual([]);
  });

  it("leaves nothing of its own: no namespace, no cluster-scoped object", () => {
    expect(check.namespacesLeft).toEqual([]);
    const left = addedObjects(check.before, check.after).filter((entry) => entry.namespace === undefined || entry.namespace.startsWith("orb-conformance-"));
    expect(left.map((entry) => entry.key)).toEqual([]);
  });

  it("writes nowhere but its own namespaces and Nodes, as its transcripts show", () => {
    expect(check.transcriptAudit.runNamespaces.length).toBeGreaterThan(0);
    expect(check.transcriptAudit.outside).toEqual([]);
  });

  it("shows the token nowhere: stdout, stderr, the reports and transcripts, the step summary", () => {
    expect(findSecrets(check.outputs, { "the admin token": plane.adminToken })).toEqual([]);
  });
});
