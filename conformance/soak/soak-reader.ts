/**
 * A reader of a soak run: gets and lists at every resourceVersion doc 1 §4.7 names: Most Recent
 * (none), Any ("0"), Exact and NotOlderThan (a version from one of its earlier lists, recent or
 * old: old ones may be compacted and answer 410), with and without a label selector, whole or
 * paged (2–5 a page, following continue tokens while the writers write).
 */
import { interruptiblePause } from "./interruptible-pause.ts";
import { recordedGet } from "./recorded-get.ts";
import { recordedList, type ListRequest } from "./recorded-list.ts";
import type { SoakClientContext } from "./soak-client-context.ts";
import type { ReaderStep } from "./soak-plan.ts";

/** A reader keeps the versions of its last lists, and one every few seconds from longer ago. */
const RECENT_KEPT = 16;
const SAMPLE_EVERY_MS = 2_000;
const SAMPLES_KEPT = 30;
/** Share of the reads at an earlier version that take a recent one (the rest: seconds to a minute old). */
const RECENT_SHARE = 0.7;

/** Runs reader `index` until the workload stops. */
export async function runReader(context: SoakClientContext, index: number): Promise<void> {
  const client = `reader-${index}`;
  const next = context.plan.reader(index);
  const seen = new SeenVersions();
  while (!context.workloadStop.aborted) {
    const step = next();
    await interruptiblePause(step.pauseMs, context.workloadStop);
    if (context.workloadStop.aborted) break;
    const earlier = seen.earlier(step.versionAge);
    if (step.kind === "get") {
      const resourceVersion = step.version === "any" ? "0" : step.version === "not-older-than" ? earlier : undefined;
      await recordedGet(context, client, step.key, resourceVersion);
      continue;
    }
    const list = await recordedList(context, client, listRequest(step, earlier));
    const first = list.pages[0]?.answer;
    if (first?.type === "ok" && first.resourceVersion !== "") seen.add(first.resourceVersion);
  }
}

/** The list a step asks for; without an earlier version, an Exact or NotOlderThan step lists at Most Recent. */
function listRequest(step: Extract<ReaderStep, { kind: "list" }>, earlier: string | undefined): ListRequest {
  const base = { selector: step.selector, limit: step.limit, pagePauseMs: step.pagePauseMs };
  switch (step.version) {
    case "most-recent":
      return { ...base, resourceVersion: undefined, resourceVersionMatch: undefined };
    case "any":
      return { ...base, resourceVersion: "0", resourceVersionMatch: undefined };
    case "exact":
    case "not-older-than":
      if (earlier === undefined) return { ...base, resourceVersion: undefined, resourceVersionMatch: undefined };
      return { ...base, resourceVersion: earlier, resourceVersionMatch: step.version === "exact" ? "Exact" : "NotOlderThan" };
  }
}

/** The versions a reader's lists returned: the last few, and a sample of older ones (compacted ones answer 410). */
class SeenVersions {
  private readonly recent: string[] = [];
  private readonly sampled: string[] = [];
  private lastSampleMs = -Infinity;

  add(version: string): void {
    this.recent.push(version);
    if (this.recent.length > RECENT_KEPT) this.recent.shift();
    const now = performance.now();
    if (now - this.lastSampleMs < SAMPLE_EVERY_MS) return;
    this.lastSampleMs = now;
    this.sampled.push(version);
    if (this.sampled.length > SAMPLES_KEPT) this.sampled.shift();
  }

  /** age below RECENT_SHARE: among the recent ones, newest first; above: among the sampled ones, newest first. */
  earlier(age: number): string | undefined {
    const useRecent = age < RECENT_SHARE || this.sampled.length === 0;
    const pool = useRecent ? this.recent : this.sampled;
    if (pool.length === 0) return undefined;
    const share = useRecent ? age / RECENT_SHARE : (age - RECENT_SHARE) / (1 - RECENT_SHARE);
    return pool[pool.length - 1 - Math.min(pool.length - 1, Math.floor(share * pool.length))];
  }
}
