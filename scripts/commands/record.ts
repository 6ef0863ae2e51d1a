/** `orb-harness record`: send the reference transcripts' requests to a server, write its answers (wiring only). */
import { closeSync, openSync, writeSync } from "node:fs";
import { redactSecrets } from "../../reports/redaction.ts";
import { connectForRecording, type RecordConnectionOptions } from "../../conformance/record/record-connection.ts";
import { RecordError, recordReferenceRequests, type RecordSummary } from "../../conformance/record/record-run.ts";
import { TargetError } from "../../conformance/targets/remote-target.ts";
import { UsageError, type CliCommand, type CliOutput } from "../cli-command.ts";
import { holdInterrupt, INTERRUPTED_EXIT } from "../interrupt.ts";
import { parseFlags, type FlagSpec, type FlagValues } from "../parse-flags.ts";

const DEFAULT_WATCH_SECONDS = 3;
/** As long as the reference run held its bookmark watch. */
const DEFAULT_BOOKMARK_SECONDS = 70;
/** Longer than any answer should take: a future resourceVersion makes kube-apiserver wait about 3 s. */
const REQUEST_TIMEOUT_MS = 60_000;
/** Exit code of a run stopped by Ctrl-C: 128 + SIGINT, as shells report it. */

/** The record command. */
export const recordCommand: CliCommand = {
  name: "record",
  summary: "send the requests of the reference transcripts to a server and write its answers in their shape",
  usage: [
    "usage: orb-harness record --server URL [--token T] [--certificate-authority FILE] [--insecure-skip-tls-verify]",
    "                          [--restricted-token T] --out FILE [--watch-seconds 3] [--bookmark-seconds 70]",
    "       orb-harness record --kubeconfig PATH [--context NAME] [--restricted-token T] --out FILE ...",
    "",
    "Sends the requests of spec/reference/kube-apiserver-1.26/transcripts.jsonl (recorded from a real",
    "kube-apiserver 1.26), in order, and writes the server's answers to --out as JSON lines of the same",
    "shape and ids, so the two can be compared line by line. The paths name the run's own namespace and",
    "the resourceVersions and continue tokens this server gave, where the reference has its own.",
    "",
    "  --server, --token, --certificate-authority, --insecure-skip-tls-verify   the server and the administrator",
    "  --kubeconfig, --context        or take them from a kubeconfig",
    "  --restricted-token T           a user without permissions, for `forbidden` and `forbidden-dryrun`;",
    "                                 without it those two are skipped: no line, a note on standard error",
    "  --out FILE                     where the lines go (overwritten)",
    "  --watch-seconds N              how long the three short watches stay open (default 3)",
    "  --bookmark-seconds N           how long watch-from-rv stays open to catch a bookmark (default 70,",
    "                                 as in the reference run)",
    "",
    "Safety: the run creates a namespace orb-record-<random> (it refuses to run if it exists), works",
    "only there, and deletes it at the end, also on error and on Ctrl-C. It never sends node-create and",
    "node-lease-create (no line for them), which would write outside it; reads elsewhere (nodes, leases,",
    "namespaces, one ConfigMap of any namespace) are sent as in the reference. The expiry set",
    "(transcripts-expiry.jsonl, which needs a server restarted with a short compaction interval) is not",
    "recorded. Credentials never appear in the file or in any message.",
    "",
    "Exit 0 when every request was answered, 1 when some got no answer (no line for them), 2 for usage",
    "errors, an unreachable server or a namespace that exists, 130 when interrupted.",
  ].join("\n"),
  async run(args, output) {
    return record(recordOptions(args), output);
  },
};

/** What `record` runs with: how to reach the server, where the lines go, how long watches stay open. */
interface RecordOptions {
  readonly connection: RecordConnectionOptions;
  readonly out: string;
  readonly watchSeconds: number;
  readonly bookmarkSeconds: number;
}

const RECORD_FLAGS = {
  server: "string",
  token: "string",
  kubeconfig: "string",
  context: "string",
  "certificate-authority": "string",
  "insecure-skip-tls-verify": "boolean",
  "restricted-token": "string",
  out: "string",
  "watch-seconds": "integer",
  "bookmark-seconds": "integer",
} as const satisfies FlagSpec;
type RecordFlags = FlagValues<typeof RECORD_FLAGS>;

/** The options `args` give; throws UsageError for bad flags. */
function recordOptions(args: readonly string[]): RecordOptions {
  const { values, positionals } = parseFlags(args, RECORD_FLAGS);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const connection = connectionOptions(values);
  const out = values.get("out");
  if (out === undefined) throw new UsageError("--out FILE is required");
  return { connection, out, watchSeconds: seconds(values, "watch-seconds", DEFAULT_WATCH_SECONDS), bookmarkSeconds: seconds(values, "bookmark-seconds", DEFAULT_BOOKMARK_SECONDS) };
}

/** Connects, sends the reference requests, writes the answers; the exit code. */
async function record(options: RecordOptions, output: CliOutput): Promise<number> {
  const { connection, out } = options;
  // Messages about connections can quote the user's input; the tokens given must never show.
  const given = [connection.restrictedToken, "token" in connection ? connection.token : undefined].filter((s): s is string => s !== undefined);
  const fail = (message: string) => {
    output.err(`orb-harness record: ${redactSecrets(message, given)}`);
    return 2;
  };
  const interrupt = holdInterrupt(output, "interrupted: deleting the run's namespace (Ctrl-C again to quit at once)");
  let file: number | undefined;
  try {
    const target = await connectForRecording(connection);
    try {
      file = openSync(out, "w");
    } catch (error) {
      return fail(`cannot write --out ${out}: ${(error as Error).message}`);
    }
    const lines = file;
    output.out(`recording ${target.url} into ${out}`);
    const summary = await recordReferenceRequests({
      target,
      writeLine: async (line) => void writeSync(lines, `${line}\n`),
      warn: (message) => output.err(`warning: ${message}`),
      watchHoldMs: options.watchSeconds * 1000,
      bookmarkHoldMs: options.bookmarkSeconds * 1000,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      signal: interrupt.signal,
    });
    return report(summary, out, output);
  } catch (error) {
    if (error instanceof TargetError || error instanceof RecordError) return fail(error.message);
    throw error;
  } finally {
    interrupt.release();
    if (file !== undefined) closeSync(file);
  }
}

function connectionOptions(flags: RecordFlags): RecordConnectionOptions {
  const server = flags.get("server");
  const kubeconfig = flags.get("kubeconfig");
  if (server === undefined && kubeconfig === undefined) throw new UsageError("give --server URL or --kubeconfig PATH");
  if (server !== undefined && kubeconfig !== undefined) throw new UsageError("give --server or --kubeconfig, not both");
  const restrictedToken = flags.get("restricted-token");
  const restricted = restrictedToken === undefined ? {} : { restrictedToken };
  if (kubeconfig !== undefined) {
    for (const flag of ["token", "certificate-authority", "insecure-skip-tls-verify"] as const) {
      if (flags.has(flag)) throw new UsageError(`--${flag} goes with --server; a kubeconfig has its own`);
    }
    const context = flags.get("context");
    return { kubeconfig, ...(context !== undefined && { context }), ...restricted };
  }
  if (flags.has("context")) throw new UsageError("--context goes with --kubeconfig");
  const token = flags.get("token");
  const certificateAuthority = flags.get("certificate-authority");
  return {
    server: server!,
    ...(token !== undefined && { token }),
    ...(certificateAuthority !== undefined && { certificateAuthority }),
    ...(flags.get("insecure-skip-tls-verify") === true && { insecureSkipTlsVerify: true }),
    ...restricted,
  };
}

function seconds(flags: RecordFlags, name: "watch-seconds" | "bookmark-seconds", fallback: number): number {
  const value = flags.get(name) ?? fallback;
  if (value < 0) throw new UsageError(`--${name} must be 0 or more, got ${value}`);
  return value;
}

function report(summary: RecordSummary, out: string, output: CliOutput): number {
  for (const { id, reason } of summary.skipped) output.err(`skipped ${id}: ${reason}`);
  const parts = [`${summary.recorded} answers recorded`, `${summary.skipped.length} skipped`, `${summary.failed.length} unanswered`];
  output.out(`${parts.join(", ")}; wrote ${out}; namespace ${summary.namespace} ${summary.namespaceOutcome}`);
  if (summary.interrupted) {
    output.err(`interrupted: ${out} is incomplete; exit ${INTERRUPTED_EXIT}`);
    return INTERRUPTED_EXIT;
  }
  return summary.failed.length === 0 ? 0 : 1;
}
