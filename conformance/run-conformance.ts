/**
 * A whole conformance run: reach the target (embedded by default), run the selected cases, and
 * assemble the canonical results. Connection problems surface as TargetError before any case.
 */
import { readFileSync } from "node:fs";
import type { DefectName } from "../sim/apiserver/defects/defects.ts";
import { dialectByName } from "../spec/dialects.ts";
import type { ConformanceCase } from "./case-definition.ts";
import { ProgressReporter, type ProgressSink } from "./progress.ts";
import { RESULTS_SCHEMA_VERSION, type RunResults } from "./results.ts";
import { ConformanceRun, selectCases, type RunnerOptions } from "./runner.ts";
import { retentionOfCompactionInterval } from "./retention.ts";
import { startEmbeddedTarget } from "./targets/embedded-target.ts";
import { startKubeAssetsTarget, type KubeAssetsTargetOptions } from "./targets/kube-assets-target.ts";
import { connectRemoteTarget, type RemoteTargetOptions } from "./targets/remote-target.ts";
import type { Target } from "./targets/target.ts";

/**
 * The harness version recorded in results: package.json's, read from it so the two never drift.
 * It is one folder up from the sources, two from their compiled copy in dist/ (the npm package).
 */
export const HARNESS_VERSION: string = harnessVersion();

function harnessVersion(): string {
  for (const candidate of ["../package.json", "../../package.json"]) {
    let text: string;
    try {
      text = readFileSync(new URL(candidate, import.meta.url), "utf8");
    } catch {
      continue;
    }
    const manifest = JSON.parse(text) as { name?: string; version?: string };
    if (manifest.name === "orb-harness" && manifest.version !== undefined) return manifest.version;
  }
  throw new Error("orb-harness: cannot find its package.json");
}

/**
 * What to run against. An embedded target may carry planted defects (sim/apiserver/defects/defects.ts):
 * only conformance/defects.test.ts asks for any; the conformance command never does. A remote
 * server's compaction interval, when the user knows it (`--server-compaction-interval`), spares
 * the suite measuring its retention.
 */
export type TargetChoice =
  | { readonly kind: "embedded"; readonly dialect: "orb" | "kubernetes"; readonly defects?: ReadonlySet<DefectName> }
  | ({ readonly kind: "remote"; readonly compactionIntervalMs?: number } & RemoteTargetOptions)
  | ({ readonly kind: "kube-assets" } & KubeAssetsTargetOptions);

/** A run's settings. */
export interface ConformanceOptions extends Omit<RunnerOptions, "onCaseStart" | "onCaseEnd" | "onCaseWaiting"> {
  readonly target: TargetChoice;
  readonly cases: readonly ConformanceCase[];
  /** The command line that reproduces the run, without credentials. */
  readonly command: string;
  readonly progress: ProgressSink;
  /** Called with the run once it exists, so the caller can abort it (Ctrl-C). */
  readonly onRunStarted?: (run: ConformanceRun) => void;
}

/** Reaches the target; throws TargetError (or ControlPlaneError) when it cannot be used. */
export async function openTarget(choice: TargetChoice): Promise<Target> {
  if (choice.kind === "kube-assets") return startKubeAssetsTarget(choice);
  if (choice.kind === "remote") {
    const target = await connectRemoteTarget(choice);
    return choice.compactionIntervalMs === undefined ? target : { ...target, retention: retentionOfCompactionInterval(choice.compactionIntervalMs, "flag") };
  }
  return startEmbeddedTarget(dialectByName(choice.dialect), choice.defects === undefined ? {} : { defects: choice.defects });
}

/** Runs the suite and returns its results; the target is closed afterwards. */
export async function runConformance(options: ConformanceOptions): Promise<RunResults> {
  const target = await openTarget(options.target);
  const startedAt = new Date().toISOString();
  const cases = selectCases(options.cases, options);
  const progress = new ProgressReporter(options.progress, cases.length);
  const run = new ConformanceRun(target, {
    ...options,
    onCaseStart: (c) => progress.started(c),
    onCaseEnd: (r) => progress.ended(r),
    onCaseWaiting: (c, what, withinMs) => progress.waiting(c, what, withinMs),
  });
  options.onRunStarted?.(run);
  try {
    const results = await run.run(cases);
    progress.done();
    return {
      schemaVersion: RESULTS_SCHEMA_VERSION,
      harnessVersion: HARNESS_VERSION,
      target: { url: target.url, kind: target.kind, dialect: target.dialect.name, serverVersion: target.serverVersion },
      startedAt,
      finishedAt: new Date().toISOString(),
      command: options.command,
      cases: results,
    };
  } finally {
    await target.close();
  }
}
