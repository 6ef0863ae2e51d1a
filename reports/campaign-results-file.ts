/**
 * Reading and writing a campaign's results.json (conformance/campaign/campaign.ts). A shard's
 * file travels between machines (a CI artifact, a volume) before `report merge` reads it, so
 * reading checks every field and names the first bad one by its path (`records[3].verdict`).
 * Writing is stable: the fields in the contract's order, two-space indent, one trailing newline,
 * no `shard` key for a whole campaign (JSON has no undefined).
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { CampaignResults, CampaignRunRecord, Shard } from "../conformance/campaign/campaign.ts";

/** The file name of a campaign's results in its report directory. */
export const CAMPAIGN_RESULTS_FILE = "results.json";

/** Why a campaign results file could not be read. */
export type CampaignFileProblem = "missing" | "unreadable" | "not-json" | "invalid";

/** A results file that is missing, unreadable, not JSON, or not a campaign's results. */
export class CampaignFileError extends Error {
  constructor(
    readonly problem: CampaignFileProblem,
    message: string,
  ) {
    super(message);
    this.name = "CampaignFileError";
  }
}

/** The results of a campaign as results.json holds them. */
export function formatCampaignResults(results: CampaignResults): string {
  const ordered = {
    kind: results.kind,
    command: results.command,
    target: results.target,
    ...(results.options !== undefined && { options: results.options }),
    campaignSeed: results.campaignSeed,
    runs: results.runs,
    ...(results.shard !== undefined && { shard: { index: results.shard.index, count: results.shard.count } }),
    records: results.records.map((record) => ({
      run: record.run,
      seed: record.seed,
      verdict: record.verdict,
      traceHash: record.traceHash,
      ...(record.summary !== undefined && { summary: record.summary }),
      ...(record.replayCommand !== undefined && { replayCommand: record.replayCommand }),
      durationMs: record.durationMs,
    })),
    durationMs: results.durationMs,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/**
 * Reads the campaign results at `path`: a report directory (its results.json) or the file itself.
 */
export async function readCampaignResults(path: string): Promise<CampaignResults> {
  let file = path;
  try {
    if ((await stat(path)).isDirectory()) file = join(path, CAMPAIGN_RESULTS_FILE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new CampaignFileError("missing", `${path}: no such file or directory`);
    throw new CampaignFileError("unreadable", `${path}: cannot read: ${(error as Error).message}`);
  }
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new CampaignFileError("missing", `${file}: no such file (a shard that wrote no results?)`);
    throw new CampaignFileError("unreadable", `${file}: cannot read: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CampaignFileError("not-json", `${file}: not JSON: ${(error as Error).message}`);
  }
  return validateCampaignResults(value, file);
}

/** Checks that `value` is a campaign's results; throws CampaignFileError naming the first bad field. */
export function validateCampaignResults(value: unknown, source = "results"): CampaignResults {
  const fail = (path: string, problem: string): never => {
    throw new CampaignFileError("invalid", `${source}: ${path === "" ? "" : `${path}: `}${problem}`);
  };
  if (!isObject(value)) return fail("", "expected an object");
  if (value["kind"] !== "orb-harness/campaign") {
    return fail("kind", `expected "orb-harness/campaign", got ${JSON.stringify(value["kind"])} (not the results of a fuzz or soak campaign)`);
  }
  const text = (field: string) => (typeof value[field] === "string" ? (value[field] as string) : fail(field, "expected a string"));
  const command = text("command");
  const target = text("target");
  const options = value["options"] === undefined ? undefined : text("options");
  const campaignSeed = int32(value["campaignSeed"]) ?? fail("campaignSeed", "expected a 32-bit integer");
  const runs = value["runs"];
  if (!Number.isSafeInteger(runs) || (runs as number) < 0) return fail("runs", "expected a non-negative integer");
  const shard = shardOf(value["shard"]) ?? fail("shard", "expected {index, count} with 1 ≤ index ≤ count, or no shard");
  if (!Array.isArray(value["records"])) return fail("records", "expected an array");
  const records: CampaignRunRecord[] = [];
  for (const [index, entry] of (value["records"] as unknown[]).entries()) {
    const at = `records[${index}]`;
    if (!isObject(entry)) return fail(at, "expected an object");
    const run = entry["run"];
    if (!Number.isSafeInteger(run) || (run as number) < 0 || (run as number) >= (runs as number)) return fail(`${at}.run`, `expected a run of the campaign, 0 to ${(runs as number) - 1}`);
    if (records.length > 0 && (run as number) <= records.at(-1)!.run) return fail(`${at}.run`, `run ${run as number} out of order or twice (records are ordered by run)`);
    const seed = int32(entry["seed"]) ?? fail(`${at}.seed`, "expected a 32-bit integer");
    const verdict = entry["verdict"];
    if (verdict !== "passed" && verdict !== "failed") return fail(`${at}.verdict`, "expected passed or failed");
    const traceHash = entry["traceHash"];
    if (typeof traceHash !== "string") return fail(`${at}.traceHash`, "expected a string");
    for (const optional of ["summary", "replayCommand"]) {
      if (entry[optional] !== undefined && typeof entry[optional] !== "string") return fail(`${at}.${optional}`, "expected a string");
    }
    const durationMs = entry["durationMs"];
    if (typeof durationMs !== "number" || !(durationMs >= 0)) return fail(`${at}.durationMs`, "expected a non-negative number");
    records.push({
      run: run as number,
      seed,
      verdict,
      traceHash,
      ...(typeof entry["summary"] === "string" && { summary: entry["summary"] }),
      ...(typeof entry["replayCommand"] === "string" && { replayCommand: entry["replayCommand"] }),
      durationMs,
    });
  }
  const durationMs = value["durationMs"];
  if (typeof durationMs !== "number" || !(durationMs >= 0)) return fail("durationMs", "expected a non-negative number");
  return {
    kind: "orb-harness/campaign",
    command,
    target,
    ...(options !== undefined && { options }),
    campaignSeed,
    runs: runs as number,
    shard: shard === "none" ? undefined : shard,
    records,
    durationMs,
  };
}

function shardOf(value: unknown): Shard | "none" | undefined {
  if (value === undefined || value === null) return "none";
  if (!isObject(value)) return undefined;
  const { index, count } = value;
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(count) || (count as number) < 1 || (index as number) < 1 || (index as number) > (count as number)) return undefined;
  return { index: index as number, count: count as number };
}

function int32(value: unknown): number | undefined {
  return typeof value === "number" && value === (value | 0) ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
