/**
 * What `orb-harness fuzz --target http` prints: the start line, progress lines, each finding with
 * the command that replays it, the counts, and the last line the tests and the bench read. No
 * credential is ever printed: the replay command names `--token` without its value.
 */
import type { FuzzTally } from "../../sim/fuzz/http/fuzz-tally.ts";
import type { ReportedFinding } from "../../sim/fuzz/http/run-http-fuzz.ts";
import type { HttpFuzzSessionResult, MemoryFigures } from "./http-fuzz-session.ts";

/** How much the embedded server's process may keep after a run (after a full GC) beyond what it held before. */
export const MEMORY_GROWTH_LIMIT_BYTES = 512 * 1024 * 1024;

/** Where the run went, for the replay command. */
export interface RunTarget {
  /** Undefined for the embedded server. */
  readonly server?: string;
  readonly hasToken: boolean;
  readonly hasCertificateAuthority: boolean;
}

/** The command that replays one finding. */
export function replayCommand(finding: ReportedFinding, target: RunTarget): string {
  const remote = target.server === undefined ? "" : ` --server ${target.server}${target.hasToken ? " --token <token>" : ""}${target.hasCertificateAuthority ? " --certificate-authority <file>" : ""}`;
  return `npx tsx scripts/cli.ts fuzz --target http --seed ${finding.seed} --replay '${finding.replayPath}'${remote}`;
}

/** The lines of one finding. */
export function findingLines(finding: ReportedFinding, target: RunTarget): string[] {
  return [
    `FINDING ${finding.finding.rule}: ${finding.finding.summary}`,
    `      request: ${finding.request}`,
    `      answer: ${finding.answer}`,
    `      counterexample (shrunk ${finding.shrinks} times):`,
    ...finding.counterexample.map((request) => `        ${request}`),
    `      replay: ${replayCommand(finding, target)}`,
  ];
}

/** A progress line. */
export function progressLine(tally: FuzzTally, elapsedMs: number): string {
  const classes = [...tally.byClass].sort(([a], [b]) => a.localeCompare(b)).map(([key, count]) => `${key} ${count}`).join(", ");
  return `progress: ${tally.requests} requests in ${(elapsedMs / 1000).toFixed(1)} s (${classes}), ${tally.findingOccurrences.size} findings`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Whether the process kept more than the limit. */
export function memoryGrew(memory: { readonly before: MemoryFigures; readonly after: MemoryFigures } | undefined): boolean {
  return memory !== undefined && memory.after.heapUsed - memory.before.heapUsed > MEMORY_GROWTH_LIMIT_BYTES;
}

/** The closing lines: counts, the end checks, time, and `http fuzz: N requests, M findings` last. */
export function summaryLines(result: HttpFuzzSessionResult): string[] {
  const { memory } = result;
  const lines = [...result.tally.lines()];
  lines.push(`/readyz at the end: ${result.readyzStatus === 0 ? "no answer" : result.readyzStatus}`);
  if (memory !== undefined) {
    lines.push(
      `memory of this process (embedded server included), after a full GC: heap ${megabytes(memory.before.heapUsed)} before, ${megabytes(memory.after.heapUsed)} after; RSS ${megabytes(memory.before.rss)} before, ${megabytes(memory.after.rss)} after` +
        (memoryGrew(memory) ? ` (grew more than ${megabytes(MEMORY_GROWTH_LIMIT_BYTES)})` : ""),
    );
  }
  if (!result.cleanedUp) lines.push(`WARNING: namespace ${result.namespace} was not gone 30 s after its delete`);
  lines.push(`time: ${(result.elapsedMs / 1000).toFixed(1)} s`);
  lines.push(`http fuzz: ${result.tally.requests} requests, ${result.findings.length} findings`);
  return lines;
}

/** Whether the run failed: a finding, /readyz not 200 at the end, or memory kept past the limit. */
export function runFailed(result: HttpFuzzSessionResult): boolean {
  return result.findings.length > 0 || result.readyzStatus !== 200 || memoryGrew(result.memory);
}
