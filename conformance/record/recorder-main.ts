/**
 * The command line every recorder of a real control plane shares:
 *
 *   npx tsx conformance/record/<recorder>.ts --kube-assets DIR [--out PATH] [other flags]
 *
 * DIR (or $KUBEBUILDER_ASSETS) holds the unpacked binaries; a control plane is started for the
 * recording and stopped after it, also on SIGINT or SIGTERM (exit 130), with whatever the recorder
 * started beside it (`onStop`); progress goes to stderr; a missing DIR is the usage line and exit 2.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ASSETS_ENVIRONMENT_VARIABLE } from "../control-plane/kube-assets.ts";
import { startKubeControlPlane, type KubeControlPlane } from "../control-plane/kube-control-plane.ts";

/** The fields a recorded file opens with: which server, on which day, by which recorder. */
export interface RecordingHeader {
  readonly gitVersion: string;
  readonly recorded: string;
  readonly recorder: string;
}

/** What a recorder is given: the plane, where to write, its other flags, the log. */
export interface RecordingSession {
  readonly plane: KubeControlPlane;
  readonly assetsDir: string;
  /** `--out`, or the recorder's default, resolved. */
  readonly out: string;
  /** The value of another flag of the recorder (`--raw DIR`), if given. */
  flag(name: string): string | undefined;
  log(line: string): void;
  /** The header of a file recorded from the server `gitVersion` (`recorder` is the recorder's `script`). */
  header(gitVersion: string): RecordingHeader;
  /** Also stop this when the recording ends or is interrupted (a process the recorder started). */
  onStop(stop: () => void): void;
}

export interface Recorder {
  /** `conformance/record/record-x.ts`, for the usage line. */
  readonly script: string;
  /** Flags besides --kube-assets and --out, for the usage line (`[--raw DIR]`). */
  readonly otherFlags?: string;
  /** Where `--out` defaults to (a file or a directory, as the recorder writes). */
  readonly defaultOut: URL;
  /** kube-apiserver flags the recording needs besides the default profile's. */
  readonly apiserverFlags?: readonly string[];
  /** Records against the plane and writes what it recorded under `session.out`. */
  record(session: RecordingSession): Promise<void>;
}

function flagValue(argv: readonly string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
}

/** Runs `recorder` with the command line `argv`; resolves to the exit code. */
export async function recorderMain(recorder: Recorder, argv: readonly string[]): Promise<number> {
  const assetsDir = flagValue(argv, "--kube-assets") ?? process.env[ASSETS_ENVIRONMENT_VARIABLE];
  if (assetsDir === undefined) {
    process.stderr.write(`usage: npx tsx ${recorder.script} --kube-assets DIR [--out PATH]${recorder.otherFlags === undefined ? "" : ` ${recorder.otherFlags}`}\n  (or set ${ASSETS_ENVIRONMENT_VARIABLE})\n`);
    return 2;
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const stops: Array<() => void> = [];
  const plane = await startKubeControlPlane({ assetsDir, onProgress: log, ...(recorder.apiserverFlags !== undefined && { extraApiserverFlags: recorder.apiserverFlags }) });
  const interrupted = () => {
    for (const stop of stops) stop();
    void plane.stop().then(() => process.exit(130));
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  try {
    await recorder.record({
      plane,
      assetsDir,
      out: resolve(flagValue(argv, "--out") ?? fileURLToPath(recorder.defaultOut)),
      flag: (name) => flagValue(argv, name),
      log,
      header: (gitVersion) => ({ gitVersion, recorded: new Date().toISOString().slice(0, 10), recorder: recorder.script }),
      onStop: (stop) => stops.push(stop),
    });
  } finally {
    for (const stop of stops) stop();
    await plane.stop();
    process.off("SIGINT", interrupted);
    process.off("SIGTERM", interrupted);
  }
  return 0;
}

/** Runs `recorder` when `moduleUrl` is the script node was started with (not when imported). */
export function runIfMain(moduleUrl: string, recorder: Recorder): void {
  if (process.argv[1] === undefined || resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  recorderMain(recorder, process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${recorder.script}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
