/** `orb-harness bench`: the benchmarks in fresh processes, beside a real kube-apiserver if given (wiring only). */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ASSETS_ENVIRONMENT_VARIABLE } from "../../conformance/control-plane/kube-assets.ts";
import { startKubeControlPlane, type KubeControlPlane } from "../../conformance/control-plane/kube-control-plane.ts";
import { BENCHMARKS, isBenchmarkName, type BenchmarkName } from "../bench/bench-catalog.ts";
import { benchHtml, benchTable } from "../bench/bench-report.ts";
import { runBenchmarks, type RealServer } from "../bench/bench-run.ts";
import { UsageError, type CliCommand } from "../cli-command.ts";
import { parseFlags } from "../parse-flags.ts";
import { Agent, fetch } from "undici";

const DEFAULT_OUT = "reports/out/bench.json";

/** The real server's gitVersion, for the report. */
async function serverVersion(plane: KubeControlPlane): Promise<string> {
  const dispatcher = new Agent({ connect: { ca: plane.certificateAuthorityPem } });
  try {
    const response = await fetch(`${plane.url}/version`, { headers: { authorization: `Bearer ${plane.adminToken}` }, dispatcher });
    return ((await response.json()) as { gitVersion?: string }).gitVersion ?? "unknown";
  } finally {
    await dispatcher.close();
  }
}

export const benchCommand: CliCommand = {
  name: "bench",
  summary: "benchmarks in fresh processes (kernel, simulation, store, server, suite, history, fuzz), beside a real kube-apiserver if given",
  usage: [
    "usage: orb-harness bench [--quick] [--kube-assets DIR] [--only NAME,...] [--repetitions N] [--out FILE]",
    "",
    "  --quick         one repetition each at smaller sizes: under a minute; the JSON says so",
    `  --kube-assets   also measure a real control plane started from DIR (etcd, kube-apiserver; default`,
    `                  $${ASSETS_ENVIRONMENT_VARIABLE} when the flag has no value): the server benchmark runs against the`,
    "                  embedded server and the real one in turn, same workload, both over TLS (the real one",
    "                  runs only during the server benchmark); the JSON then holds real.<key> and",
    "                  ratio.<key> (how many times faster the embedded server is)",
    `  --only          some of: ${BENCHMARKS.map((benchmark) => benchmark.name).join(", ")}`,
    "  --repetitions   repetitions of each benchmark (default: 3 to 5, 1 with --quick)",
    `  --out           where the JSON goes (default ${DEFAULT_OUT}); bench.html is written beside it`,
    "",
    "Each repetition runs in a fresh child process after a warm-up at a tenth of the size (three",
    "rounds of it for the server benchmark, which starts a fresh `orb-harness serve` per repetition).",
    "Progress goes to stderr, the table of medians and spreads to stdout. Exit 0, 1 if a benchmark",
    "failed, 2 for usage errors.",
  ].join("\n"),
  async run(args, output) {
    const normalized = args.map((arg, index) => (arg === "--kube-assets" && (args[index + 1] === undefined || args[index + 1]!.startsWith("--")) ? `--kube-assets=${process.env[ASSETS_ENVIRONMENT_VARIABLE] ?? ""}` : arg));
    const { values, positionals } = parseFlags(normalized, { quick: "boolean", "kube-assets": "string", only: "string", repetitions: "integer", out: "string" });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const assets = values.get("kube-assets");
    if (assets === "") throw new UsageError(`--kube-assets needs a directory (etcd, kube-apiserver), or $${ASSETS_ENVIRONMENT_VARIABLE} set to one`);
    const only = values.get("only")?.split(",").map((name) => name.trim());
    const unknown = only?.filter((name) => !isBenchmarkName(name));
    if (unknown !== undefined && unknown.length > 0) throw new UsageError(`--only: no benchmark ${unknown.join(", ")}; one of ${BENCHMARKS.map((benchmark) => benchmark.name).join(", ")}`);
    const repetitions = values.get("repetitions");
    if (repetitions !== undefined && repetitions < 1) throw new UsageError("--repetitions must be at least 1");
    const out = resolve(values.get("out") ?? DEFAULT_OUT);
    const mode = values.get("quick") === true ? "quick" : "full";
    // Started for the server benchmark only, and stopped when it ends (bench-run.ts).
    const startRealServer = async (): Promise<RealServer> => {
      output.err(`bench: starting a real control plane from ${assets}`);
      const plane = await startKubeControlPlane({ assetsDir: assets!, onProgress: (line) => output.err(`bench: ${line}`) });
      try {
        return { plane, gitVersion: await serverVersion(plane) };
      } catch (error) {
        await plane.stop();
        throw error;
      }
    };
    try {
      const results = await runBenchmarks({
        mode,
        ...(only !== undefined && { only: only as BenchmarkName[] }),
        ...(repetitions !== undefined && { repetitions }),
        ...(assets !== undefined && { startRealServer }),
        progress: (line) => output.err(`bench: ${line}`),
      });
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
      const html = join(dirname(out), "bench.html");
      writeFileSync(html, benchHtml(results));
      for (const line of benchTable(results)) output.out(line);
      output.out(`${mode} run in ${results.wallSeconds.toFixed(0)} s: ${out}, ${html}`);
      return 0;
    } catch (error) {
      output.err(`bench: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
  },
};
