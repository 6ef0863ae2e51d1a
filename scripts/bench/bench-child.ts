/**
 * One benchmark in a fresh process (`orb-harness bench` starts one per repetition): a warm-up at a
 * tenth of the size (three rounds of it for the server), then the measured run; its figures are the
 * last line of stdout, as JSON.
 *
 *   node --import tsx scripts/bench/bench-child.ts NAME quick|full     (server: ORB_BENCH_SERVER={url,certificateAuthority,token})
 */
import { BENCHMARKS, isBenchmarkName, SIZES, type BenchMode, type BenchmarkName } from "./bench-catalog.ts";
import { measureConformance, measureFuzz, measureHistory, measureKernel, measureSimulation, measureStore, type Figures } from "./measure-in-process.ts";
import { measureServer, type BenchServer } from "./measure-server.ts";
import { RESULT_PREFIX, SERVER_ENVIRONMENT_VARIABLE } from "./bench-protocol.ts";

/** Warm-up rounds of the server benchmark (see run). */
const SERVER_WARM_UP_ROUNDS = 3;

async function run(name: BenchmarkName, mode: BenchMode): Promise<Figures> {
  const size = SIZES[mode];
  switch (name) {
    case "kernel":
      await measureKernel(size.kernelEvents / 10);
      return measureKernel(size.kernelEvents);
    case "sim":
      await measureSimulation({ ...size.simulation, nodes: size.simulation.nodes / 10, pods: size.simulation.pods / 10, durationMs: 300_000 });
      return measureSimulation(size.simulation);
    case "store":
      measureStore(size.storeObjects / 10);
      return measureStore(size.storeObjects);
    case "history":
      measureHistory(2_000);
      return measureHistory(size.historyDurationMs);
    case "fuzz":
      await measureFuzz(Math.max(1, size.fuzzRuns / 10));
      return measureFuzz(size.fuzzRuns);
    case "conformance":
      // The suite's first cases warm the process; a second whole run would double the time.
      return measureConformance();
    case "server": {
      const server = JSON.parse(process.env[SERVER_ENVIRONMENT_VARIABLE] ?? "null") as BenchServer | null;
      if (server === null) throw new Error(`${SERVER_ENVIRONMENT_VARIABLE} is not set`);
      // Rounds at a tenth of the size, as many as the embedded server's JIT needs: it compiles the
      // create path over its first few thousand creates, and each round's lists, watches and
      // namespace deletion leave the next round's first creates slower again. Against `serve`, 10,000
      // creates after the warm-up ran at 3,684-3,832/s after one round, 4,583 after two, 4,693-4,866
      // after three and 4,448 after five (a fresh server's first 1,000 at 1,250-1,700/s). The real
      // server gets the same rounds.
      const { pods, watchers, events } = size.server;
      for (let round = 0; round < SERVER_WARM_UP_ROUNDS; round++) {
        await measureServer(server, { pods: pods / 10, watchers: watchers / 10, events: Math.max(3, events / 10) });
      }
      return measureServer(server, size.server);
    }
  }
}

const [name = "", mode = ""] = process.argv.slice(2);
if (!isBenchmarkName(name) || (mode !== "quick" && mode !== "full")) {
  process.stderr.write(`usage: bench-child.ts ${BENCHMARKS.map((benchmark) => benchmark.name).join("|")} quick|full\n`);
  process.exit(2);
}
const figures = await run(name, mode);
process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(figures)}\n`);
// Timers of libraries (the conformance runner's, undici's) must not keep a finished benchmark alive.
process.exit(0);
