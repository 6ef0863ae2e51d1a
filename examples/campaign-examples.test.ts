/**
 * The campaign examples (issue 16), checked as their engines would read them: the GitHub Actions
 * workflow and the Kubernetes Indexed Job are parsed with the `yaml` package and their keys
 * checked, and their command lines are run by a real shell (GitHub's expressions substituted
 * first, as the runner does; the Job's JOB_COMPLETION_INDEX set per pod, as the Job controller
 * does) with `npx` replaced by a stub that records its arguments. The arguments must parse with
 * the flags of the CLI's own commands, and the shards must be the N shards of one campaign. The
 * manifest's server-side dry run against a real control plane is indexed-job.real.test.ts.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseAllDocuments, parse } from "yaml";
import { parseShard, runsOfShard } from "../conformance/campaign/campaign.ts";
import { FUZZ_FLAGS } from "../scripts/commands/fuzz.ts";
import { MERGE_FLAGS } from "../scripts/commands/report.ts";
import { parseFlags } from "../scripts/parse-flags.ts";

const EXAMPLES = new URL("./", import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), "orb-campaign-examples-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// `npx` that writes each argument on a line of $NPX_ARGS and exits $NPX_EXIT.
const stubBin = join(scratch, "bin");
mkdirSync(stubBin);
writeFileSync(join(stubBin, "npx"), `#!/bin/sh\nprintf '%s\\n' "$@" > "$NPX_ARGS"\nexit "\${NPX_EXIT:-0}"\n`);
chmodSync(join(stubBin, "npx"), 0o755);

// How a GitHub-hosted runner runs a `run:` step (the default shell on Linux).
const GITHUB_BASH = ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c"];

/** Runs `script` with `shell` and the stub npx; returns the arguments npx got and the script's exit code. */
function runWithStub(shell: string[], script: string, env: Record<string, string>, npxExit = 0): { args: string[]; code: number | null } {
  const argsFile = join(scratch, `args-${Math.random().toString(36).slice(2)}`);
  const result = spawnSync(shell[0]!, [...shell.slice(1), script], {
    env: { PATH: `${stubBin}:/usr/bin:/bin`, NPX_ARGS: argsFile, NPX_EXIT: String(npxExit), ...env },
    // An empty directory: a glob in a command stays as written, as on a fresh runner.
    cwd: stubBin,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
  });
  expect(result.stderr).toBe("");
  const args = readFileSync(argsFile, "utf8").split("\n").slice(0, -1);
  return { args, code: result.status };
}

/** The orb-harness command line in npx's arguments: `tsx scripts/cli.ts <command> …`. */
function harnessArgs(npxArgs: readonly string[]): string[] {
  expect(npxArgs.slice(0, 2)).toEqual(["tsx", "scripts/cli.ts"]);
  return npxArgs.slice(2);
}

/** Checks the argument lists of a campaign's shards: `fuzz --target api`, one seed and size, the N shards of it. */
function checkShards(shardArgs: readonly string[][], count: number): Array<{ reportDir: string }> {
  const parsed = shardArgs.map((args) => {
    expect(args[0]).toBe("fuzz");
    const { values, positionals } = parseFlags(args.slice(1), FUZZ_FLAGS);
    expect(positionals).toEqual([]);
    expect(values.get("target")).toBe("api");
    return { values, shard: parseShard(values.get("shard") as string) };
  });
  const seeds = new Set(parsed.map(({ values }) => values.get("seed")));
  const sizes = new Set(parsed.map(({ values }) => values.get("runs")));
  expect(seeds.size, "every shard has the campaign's seed").toBe(1);
  expect(sizes.size, "every shard has the campaign's size").toBe(1);
  expect([...seeds][0]).toEqual(expect.any(Number));
  const runs = [...sizes][0] as number;
  expect(parsed.map(({ shard }) => shard.count)).toEqual(Array(count).fill(count));
  const made = parsed.flatMap(({ shard }) => runsOfShard(runs, shard)).sort((a, b) => a - b);
  expect(made, "the shards together make every run once").toEqual(runsOfShard(runs, undefined));
  const reportDirs = parsed.map(({ values }) => values.get("report-dir") as string);
  expect(new Set(reportDirs).size, "each shard reports into a directory of its own").toBe(count);
  return reportDirs.map((reportDir) => ({ reportDir }));
}

describe("examples/github-actions-fuzz-campaign.yml", () => {
  const workflow = parse(readFileSync(join(EXAMPLES, "github-actions-fuzz-campaign.yml"), "utf8"));
  type Step = { name?: string; uses?: string; run?: string; if?: string; with?: Record<string, unknown> };
  const shardJob = workflow.jobs.shard as { strategy: { "fail-fast": boolean; matrix: { shard: number[] } }; steps: Step[] };
  const mergeJob = workflow.jobs.merge as { needs: string | string[]; if: string; steps: Step[] };
  const matrix = shardJob.strategy.matrix.shard;
  // GitHub substitutes expressions before the shell sees the script.
  const expand = (text: string, shard: number) => text.replace(/\$\{\{\s*matrix\.shard\s*\}\}/g, String(shard));
  const env = Object.fromEntries(Object.entries(workflow.env as Record<string, unknown>).map(([name, value]) => [name, String(value)]));
  const runStep = (steps: Step[], pattern: RegExp) => steps.find((step) => step.run !== undefined && pattern.test(step.run))!;

  it("is a workflow with a matrix over 4 shards that do not cancel each other, and a merge job that needs them", () => {
    expect(Object.keys(workflow)).toEqual(expect.arrayContaining(["name", "on", "jobs", "env", "permissions"]));
    expect(workflow.on).toHaveProperty("workflow_dispatch");
    expect(matrix).toEqual([1, 2, 3, 4]);
    expect(shardJob.strategy["fail-fast"]).toBe(false);
    expect([mergeJob.needs].flat()).toEqual(["shard"]);
    expect(mergeJob.if).toMatch(/!cancelled\(\)/);
    for (const job of [shardJob, mergeJob]) {
      expect(job.steps[0]!.uses).toMatch(/^actions\/checkout@v\d+$/);
      expect(job.steps.some((step) => step.run === "npm ci")).toBe(true);
    }
  });

  it("runs shard I of 4 of one `fuzz --target api` campaign per matrix entry, with flags the CLI takes", () => {
    const fuzz = runStep(shardJob.steps, /scripts\/cli\.ts fuzz/).run!;
    const shards = matrix.map((shard) => harnessArgs(runWithStub(GITHUB_BASH, expand(fuzz, shard), env).args));
    const dirs = checkShards(shards, 4);
    expect(shards.map((args) => args[args.indexOf("--shard") + 1])).toEqual(["1/4", "2/4", "3/4", "4/4"]);
    // The artifact each shard uploads is its report directory.
    const upload = shardJob.steps.find((step) => step.uses?.startsWith("actions/upload-artifact@"))!;
    expect(upload.if).toMatch(/!cancelled\(\)/);
    matrix.forEach((shard, at) => expect(expand(String(upload.with!["path"]), shard).replace(/\/$/, "")).toBe(dirs[at]!.reportDir));
  });

  it("downloads every shard's artifact and merges them with `report merge`, with flags the CLI takes", () => {
    const upload = shardJob.steps.find((step) => step.uses?.startsWith("actions/upload-artifact@"))!;
    const download = mergeJob.steps.find((step) => step.uses?.startsWith("actions/download-artifact@"))!;
    const pattern = new RegExp(`^${String(download.with!["pattern"]).replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
    for (const shard of matrix) expect(expand(String(upload.with!["name"]), shard)).toMatch(pattern);
    const merge = harnessArgs(runWithStub(GITHUB_BASH, runStep(mergeJob.steps, /report merge/).run!, env).args);
    expect(merge.slice(0, 2)).toEqual(["report", "merge"]);
    const { values, positionals } = parseFlags(merge.slice(2), MERGE_FLAGS);
    // Run where no shards/ exists, the glob stays as written (on the runner it names every downloaded artifact).
    expect(positionals).toEqual([`${download.with!["path"]}/*`]);
    const junit = mergeJob.steps.find((step) => step.uses?.startsWith("mikepenz/action-junit-report@"))!;
    expect(junit.with!["report_paths"]).toBe(`${values.get("out")}/junit.xml`);
  });
});

describe("examples/kubernetes-indexed-job-fuzz.yaml", () => {
  const documents = parseAllDocuments(readFileSync(join(EXAMPLES, "kubernetes-indexed-job-fuzz.yaml"), "utf8")).map((document) => {
    expect(document.errors).toEqual([]);
    return document.toJS();
  });
  const job = documents.find((document) => document?.kind === "Job");
  const claim = documents.find((document) => document?.kind === "PersistentVolumeClaim");
  const pod = job?.spec.template.spec;
  const container = pod?.containers[0];

  it("is an Indexed Job of 4 completions, 4 at a time, whose pods mount the claim the file makes", () => {
    expect(job).toMatchObject({ apiVersion: "batch/v1", kind: "Job", metadata: { namespace: "default" } });
    expect(job.spec).toMatchObject({ completionMode: "Indexed", completions: 4, parallelism: 4 });
    expect(pod.restartPolicy).toBe("Never");
    expect(pod.containers).toHaveLength(1);
    expect(container.image).toMatch(/\S+:\S+/);
    const [mount] = container.volumeMounts;
    const volume = pod.volumes.find((entry: { name: string }) => entry.name === mount.name);
    expect(volume.persistentVolumeClaim.claimName).toBe(claim.metadata.name);
    expect(claim.metadata.namespace).toBe(job.metadata.namespace);
    expect(claim.spec.accessModes).toEqual(["ReadWriteMany"]);
  });

  it("runs shard JOB_COMPLETION_INDEX+1 of 4 of one campaign in each pod, with flags the CLI takes, reporting into the volume", () => {
    expect(container.command).toEqual(["/bin/sh", "-c"]);
    const [script] = container.args as string[];
    expect(script).toContain("JOB_COMPLETION_INDEX");
    const env = Object.fromEntries((container.env as Array<{ name: string; value: string }>).map((entry) => [entry.name, entry.value]));
    const shards = Array.from({ length: job.spec.completions }, (_, index) => harnessArgs(runWithStub(["/bin/sh", "-c"], script!, { ...env, JOB_COMPLETION_INDEX: String(index) }).args));
    const dirs = checkShards(shards, job.spec.completions);
    expect(shards.map((args) => args[args.indexOf("--shard") + 1])).toEqual(["1/4", "2/4", "3/4", "4/4"]);
    for (const { reportDir } of dirs) expect(reportDir.startsWith(`${container.volumeMounts[0].mountPath}/`)).toBe(true);
    for (const args of shards) expect(args[args.indexOf("--server") + 1]).toMatch(/^http:\/\/[a-z0-9.-]+\.svc\.cluster\.local:\d+$/);
  });

  it("ends a pod as succeeded when its shard ran (exit 0 or 1), and as failed, to be retried, when it could not (exit 2)", () => {
    const [script] = container.args as string[];
    const env = { CAMPAIGN_SEED: "1", CAMPAIGN_RUNS: "4", JOB_COMPLETION_INDEX: "0" };
    expect([0, 1, 2, 3].map((npxExit) => runWithStub(["/bin/sh", "-c"], script!, env, npxExit).code)).toEqual([0, 0, 2, 3]);
    expect(job.spec.backoffLimit).toBeGreaterThan(0);
  });
});
