/**
 * The HTTP fuzzer against the embedded server (`npm run bench:micro`): one run of 10,000 requests, 8 in
 * flight over a loopback socket, timed by vitest; it prints the count and the findings, which
 * should be 0 (`npm run fuzz` fails on any).
 */
import { bench } from "vitest";
import { runHttpFuzzSession } from "./http-fuzz-session.ts";

bench(
  "http fuzz: 10,000 requests against the embedded server",
  async () => {
    const result = await runHttpFuzzSession({ seed: 20_261_125, requests: 10_000 });
    console.log(`http fuzz: ${result.tally.requests} requests, ${result.findings.length} findings`);
    for (const finding of result.findings) console.log(`  ${finding.finding.rule}: ${finding.finding.summary}`);
  },
  { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
);
