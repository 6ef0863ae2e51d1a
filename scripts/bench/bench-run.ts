/**
 * Runs the benchmarks: each repetition in a fresh child process (bench-child.ts). The server
 * benchmark runs against a fresh `orb-harness serve` over TLS per repetition and, with a real
 * control plane (started for the server benchmark only), against it in the same repetition, one
 * after the other (interleaved A/B, since this machine's speed varies), with the same workload
 * and the same transport.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { startServeProcess } from "../../conformance/load/serve-process.ts";
import type { KubeControlPlane } from "../../conformance/control-plane/kube-control-plane.ts";
import { BENCHMARKS, figureSpec, type BenchMode, type BenchmarkName } from "./bench-catalog.ts";
import { RESULT_PREFIX, SERVER_ENVIRONMENT_VARIABLE } from "./bench-protocol.ts";
import { speedup, summarize, type FigureRuns } from "./bench-statistics.ts";
import type { Figures } from "./measure-in-process.ts";
import type { BenchServer } from "./measure-server.ts";
import { NODE_FLAGS } from "../node-flags.mjs";

const CHILD = fileURLToPath(new URL("./bench-child.ts", import.meta.url));
const TEST_CERTIFICATE = fileURLToPath(new URL("../../sim/transport/testdata/server.crt", import.meta.url));
const TEST_KEY = fileURLToPath(new URL("../../sim/transport/testdata/server.key", import.meta.url));

/** One figure as bench.json holds it. */
export interface BenchFigure extends FigureRuns {
  readonly unit: string;
  readonly better: "higher" | "lower";
  readonly what: string;
}

export interface BenchResults {
  readonly tool: "orb-harness bench";
  readonly quick: boolean;
  /** What --quick changes, said in the file itself. */
  readonly mode: string;
  readonly started: string;
  readonly wallSeconds: number;
  readonly machine: { readonly cpus: number; readonly model: string; readonly node: string; readonly loadAverageAtStart: number };
  /** The real control plane measured beside the embedded server, if any. */
  readonly real?: { readonly gitVersion: string; readonly transport: string };
  /** Every figure by key: the keys, `real.<key>` for the real server's. */
  readonly figures: Readonly<Record<string, BenchFigure>>;
  /** `ratio.<key>`: how many times faster the embedded server is than the real one (above 1: faster). */
  readonly ratios: Readonly<Record<string, number>>;
}

/** A real control plane to measure beside the embedded server, and its gitVersion. */
export interface RealServer {
  readonly plane: KubeControlPlane;
  readonly gitVersion: string;
}

export interface BenchOptions {
  readonly mode: BenchMode;
  readonly only?: readonly BenchmarkName[];
  readonly repetitions?: number;
  /**
   * Starts a real control plane; called when the server benchmark begins, and the plane is stopped
   * once it ends, so an idle kube-apiserver, etcd and controller manager take no CPU from the
   * other benchmarks.
   */
  readonly startRealServer?: () => Promise<RealServer>;
  readonly progress: (line: string) => void;
}

function runChild(name: BenchmarkName, mode: BenchMode, server?: BenchServer): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...(server !== undefined && { [SERVER_ENVIRONMENT_VARIABLE]: JSON.stringify(server) }) };
    // With the bin's Node flags (a 64 MB young generation), as `orb-harness simulate` runs.
    const child = spawn(process.execPath, [...NODE_FLAGS, "--import", import.meta.resolve("tsx"), CHILD, name, mode], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data: Buffer) => (stdout += data.toString("utf8")));
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString("utf8")));
    child.once("error", reject);
    child.once("exit", (code) => {
      const line = stdout.split("\n").find((candidate) => candidate.startsWith(RESULT_PREFIX));
      if (code !== 0 || line === undefined) reject(new Error(`benchmark ${name} failed (exit ${code}): ${stderr.trim().split("\n").slice(-5).join(" | ")}`));
      else resolve(JSON.parse(line.slice(RESULT_PREFIX.length)) as Figures);
    });
  });
}

async function embeddedServerRun(name: BenchmarkName, mode: BenchMode): Promise<Figures> {
  const serve = await startServeProcess(["--tls-cert-file", TEST_CERTIFICATE, "--tls-private-key-file", TEST_KEY]);
  try {
    return await runChild(name, mode, { url: serve.url, certificateAuthority: readFileSync(TEST_CERTIFICATE, "utf8") });
  } finally {
    await serve.stop();
  }
}

/** A figure as the table and the page print it: grouped integers from 100 up, three significant digits below. */
export function formatFigure(value: number): string {
  return value >= 100 ? Math.round(value).toLocaleString("en") : value.toPrecision(3);
}

/** Runs every selected benchmark and gathers the figures. */
export async function runBenchmarks(options: BenchOptions): Promise<BenchResults> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const loadAverageAtStart = loadavg()[0] ?? 0;
  const runs = new Map<string, number[]>();
  const add = (figures: Figures, prefix = "") => {
    for (const [key, value] of Object.entries(figures)) runs.set(`${prefix}${key}`, [...(runs.get(`${prefix}${key}`) ?? []), value]);
  };
  let realGitVersion: string | undefined;
  const selected = BENCHMARKS.filter((benchmark) => options.only === undefined || options.only.includes(benchmark.name));
  for (const benchmark of selected) {
    const repetitions = options.repetitions ?? benchmark.repetitions[options.mode];
    const real = benchmark.againstServer === true ? await options.startRealServer?.() : undefined;
    if (real !== undefined) realGitVersion = real.gitVersion;
    try {
      for (let repetition = 1; repetition <= repetitions; repetition++) {
        const label = `${benchmark.name} ${repetition}/${repetitions}`;
        if (benchmark.againstServer === true) {
          const embedded = await embeddedServerRun(benchmark.name, options.mode);
          add(embedded);
          options.progress(`${label} embedded: ${summary(embedded)}`);
          if (real !== undefined) {
            const { plane } = real;
            const figures = await runChild(benchmark.name, options.mode, { url: plane.url, certificateAuthority: plane.certificateAuthorityPem, token: plane.adminToken });
            add(figures, "real.");
            options.progress(`${label} real: ${summary(figures)}`);
          }
        } else {
          const figures = await runChild(benchmark.name, options.mode);
          add(figures);
          options.progress(`${label}: ${summary(figures)}`);
        }
      }
    } finally {
      await real?.plane.stop();
    }
  }
  const figures: Record<string, BenchFigure> = {};
  for (const [key, values] of runs) {
    const { unit, better, what } = figureSpec(key);
    figures[key] = { ...summarize(values), unit, better, what };
  }
  const ratios: Record<string, number> = {};
  for (const [key, figure] of Object.entries(figures)) {
    const realFigure = figures[`real.${key}`];
    if (realFigure !== undefined) ratios[`ratio.${key}`] = speedup(figure.median, realFigure.median, figure.better);
  }
  return {
    tool: "orb-harness bench",
    quick: options.mode === "quick",
    mode:
      options.mode === "quick"
        ? "quick: one repetition each, smaller sizes (the simulation 500 nodes, 15,000 pods, 10 virtual minutes; the server 1,000 Pods, 100 watchers × 30 events); figures are not comparable with a full run's"
        : "full: the sizes of the keys (5,000 nodes, 150,000 pods, 1 virtual hour; 10,000 Pods; 1,000 watchers × 100 events), 3 to 5 repetitions",
    started: startedAt,
    wallSeconds: (performance.now() - started) / 1000,
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? "unknown", node: process.version, loadAverageAtStart },
    ...(realGitVersion !== undefined && { real: { gitVersion: realGitVersion, transport: "TLS on both: the embedded server as `orb-harness serve --tls-cert-file`, kube-apiserver with its serving certificate; HTTP/1.1 keep-alive, 8 connections" } }),
    figures,
    ratios,
  };
}

function summary(figures: Figures): string {
  return Object.entries(figures)
    .map(([key, value]) => `${key.split(".").at(-1)} ${formatFigure(value)}`)
    .join(", ");
}

