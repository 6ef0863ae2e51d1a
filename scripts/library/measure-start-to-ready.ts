/**
 * Start-to-ready of the embedded server beside a real kube-apiserver, in one run, for the README's
 * "Use it in your tests":
 *
 *   npm run build && npx tsx scripts/library/measure-start-to-ready.ts DIR [samples]
 *
 * DIR holds etcd, kube-apiserver and kube-controller-manager (envtest's KUBEBUILDER_ASSETS layout;
 * unpack the .xz files into a scratch directory, never into the repository).
 *
 * - embedded: a fresh `node` process per sample imports the compiled package (dist/, as users get
 *   it), calls startEmbeddedServer() and polls GET /readyz until 200. Printed: from the call to
 *   the first 200, and from the process's start (Node's boot and the import included).
 * - real: startKubeControlPlane() with etcd and kube-apiserver only, from the call to its first
 *   200 from /readyz (it resolves then: keys, certificate and ports first, then etcd, then
 *   kube-apiserver); then once with kube-controller-manager too, which resolves once the default
 *   ServiceAccount exists (what a Pod needs).
 * Not part of any test: it needs the binaries.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { startKubeControlPlane } from "../../conformance/control-plane/kube-control-plane.ts";

const [assetsArgument, samplesArgument] = process.argv.slice(2);
if (assetsArgument === undefined) {
  process.stderr.write("usage: npx tsx scripts/library/measure-start-to-ready.ts KUBE_ASSETS_DIR [samples]\n");
  process.exit(2);
}
const assetsDir = resolve(assetsArgument);
const samples = Number(samplesArgument ?? 5);
const entry = fileURLToPath(new URL("../../dist/scripts/library/index.js", import.meta.url));

const CHILD = `
const fromBoot = performance.now();
const { startEmbeddedServer } = await import(process.argv[1]);
const imported = performance.now();
const server = await startEmbeddedServer();
let status = 0;
while (status !== 200) status = (await fetch(server.url + "/readyz")).status;
const ready = performance.now();
await server.stop();
console.log(JSON.stringify({ callToReadyMs: ready - imported, importMs: imported - fromBoot, processStartToReadyMs: ready }));
`;

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const s = (value: number) => `${(value / 1000).toFixed(2)} s`;

const embedded = Array.from({ length: samples }, () => {
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", CHILD, entry], { encoding: "utf8" });
  if (child.status !== 0) throw new Error(`embedded sample failed (run npm run build first?): ${child.stderr}`);
  return JSON.parse(child.stdout) as { callToReadyMs: number; importMs: number; processStartToReadyMs: number };
});
console.log(`embedded (${samples} processes): startEmbeddedServer() to first 200 from /readyz: median ${ms(median(embedded.map((e) => e.callToReadyMs)))} (${embedded.map((e) => ms(e.callToReadyMs)).join(", ")})`);
console.log(`  import of the package: median ${ms(median(embedded.map((e) => e.importMs)))}; process start to first 200: median ${ms(median(embedded.map((e) => e.processStartToReadyMs)))}`);

// etcd and kube-apiserver only: the plane resolves at kube-apiserver's first 200 from /readyz.
const apiserverOnly = mkdtempSync(join(tmpdir(), "orb-measure-assets-"));
try {
  for (const name of ["etcd", "kube-apiserver"]) symlinkSync(join(assetsDir, name), join(apiserverOnly, name));
  const real: number[] = [];
  for (let sample = 0; sample < Math.max(1, Math.min(samples, 3)); sample++) {
    const started = performance.now();
    const plane = await startKubeControlPlane({ assetsDir: apiserverOnly });
    real.push(performance.now() - started);
    await plane.stop();
  }
  console.log(`real (${real.length} starts): startKubeControlPlane() (etcd, kube-apiserver) to first 200 from /readyz: median ${s(median(real))} (${real.map(s).join(", ")})`);
} finally {
  rmSync(apiserverOnly, { recursive: true, force: true });
}

const started = performance.now();
const steps: string[] = [];
const plane = await startKubeControlPlane({ assetsDir, onProgress: (line) => void (line.startsWith("starting") && steps.push(`${line} at ${s(performance.now() - started)}`)) });
const whole = performance.now() - started;
await plane.stop();
console.log(`real with kube-controller-manager: ready (default ServiceAccount made) in ${s(whole)}; ${steps.join("; ")}`);
