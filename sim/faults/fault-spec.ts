/**
 * The text form of a fault schedule, for `simulate --faults` and for the replay commands the
 * fuzzer prints: comma-separated `kind:target@time[+duration][=value]`, durations as Go writes
 * them. Examples:
 *
 *   pause:leader@40s+20s              stop the leader's process for 20 s at 40 s
 *   crash:candidate-1@1m+30s          crash, restart 30 s later (no +: stays down)
 *   partition:zone-a@5m+2m            cut every node agent of zone-a off for 2 minutes
 *   drift:controller@0s=500           the controller's clock runs 500 ppm fast
 *   step:node-3@1m=-5s                step node-3's wall clock back 5 s
 *   latency:candidate-0@1m+30s=2ms/20ms/400ms   one-way min/mean extra/max for 30 s
 *   drop:candidate-0|candidate-1@1m+1m=0.5      lose half their responses for a minute
 */
import { formatGoDuration, parseGoDuration } from "../config/go-duration.ts";
import type { Fault, FaultKind } from "./fault-schedule.ts";

const KINDS: readonly FaultKind[] = ["crash", "pause", "drift", "step", "partition", "latency", "drop"];
const NEEDS_DURATION: ReadonlySet<FaultKind> = new Set(["pause", "partition", "latency", "drop"]);
const NEEDS_VALUE: ReadonlySet<FaultKind> = new Set(["drift", "step", "latency", "drop"]);

/** A fault spec that does not parse. */
export class FaultSpecError extends Error {}

/** Whether `text` looks like explicit faults (rather than fault class names). */
export function isFaultSpec(text: string): boolean {
  return text.includes(":") && text.includes("@");
}

/** Parses a comma-separated list of faults. */
export function parseFaultSpec(text: string): Fault[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map(parseOne);
}

/** The text form of `faults` (parses back to the same faults). */
export function formatFaultSpec(faults: readonly Fault[]): string {
  return faults.map(formatOne).join(",");
}

function parseOne(text: string): Fault {
  const match = /^([a-z]+):([^@]+)@([^+=]+)(?:\+([^=]+))?(?:=(.+))?$/.exec(text);
  if (match === null) throw new FaultSpecError(`fault "${text}": expected kind:target@time[+duration][=value]`);
  const [, kindText, target, atText, durationText, value] = match as unknown as [string, string, string, string, string | undefined, string | undefined];
  const kind = kindText as FaultKind;
  if (!KINDS.includes(kind)) throw new FaultSpecError(`fault "${text}": unknown kind ${kindText}; one of ${KINDS.join(", ")}`);
  if (NEEDS_DURATION.has(kind) && durationText === undefined) throw new FaultSpecError(`fault "${text}": ${kind} needs +duration`);
  if (NEEDS_VALUE.has(kind) && value === undefined) throw new FaultSpecError(`fault "${text}": ${kind} needs =value`);
  const atMs = durationMs(atText, text);
  const duration = durationText === undefined ? undefined : durationMs(durationText, text);
  if (atMs < 0 || (duration !== undefined && duration < 0)) throw new FaultSpecError(`fault "${text}": times must not be negative`);
  switch (kind) {
    case "crash":
      return { kind, target, atMs, ...(duration !== undefined && { restartAfterMs: duration }) };
    case "pause":
    case "partition":
      return { kind, target, atMs, durationMs: duration! };
    case "drift":
      return { kind, target, atMs, ppm: number(value!, text) };
    case "step":
      return { kind, target, atMs, stepMs: durationMs(value!, text) };
    case "latency": {
      const [minMs, meanExtraMs, maxMs] = value!.split("/").map((part) => durationMs(part, text));
      if (minMs === undefined || meanExtraMs === undefined || maxMs === undefined) throw new FaultSpecError(`fault "${text}": latency is min/mean/max`);
      return { kind, target, atMs, durationMs: duration!, latency: { minMs, meanExtraMs, maxMs } };
    }
    case "drop":
      return { kind, target, atMs, durationMs: duration!, probability: number(value!, text) };
  }
}

function formatOne(fault: Fault): string {
  const head = `${fault.kind}:${fault.target}@${goDuration(fault.atMs)}`;
  switch (fault.kind) {
    case "crash":
      return fault.restartAfterMs === undefined ? head : `${head}+${goDuration(fault.restartAfterMs)}`;
    case "pause":
    case "partition":
      return `${head}+${goDuration(fault.durationMs)}`;
    case "drift":
      return `${head}=${fault.ppm}`;
    case "step":
      return `${head}=${goDuration(fault.stepMs)}`;
    case "latency": {
      const { minMs, meanExtraMs, maxMs } = fault.latency;
      return `${head}+${goDuration(fault.durationMs)}=${goDuration(minMs)}/${goDuration(meanExtraMs)}/${goDuration(maxMs)}`;
    }
    case "drop":
      return `${head}+${goDuration(fault.durationMs)}=${fault.probability}`;
  }
}

/** Whole milliseconds as a Go duration ("1m30s", "250ms"). */
export function goDuration(ms: number): string {
  return formatGoDuration(BigInt(Math.round(ms)) * 1_000_000n);
}

function durationMs(text: string, fault: string): number {
  try {
    return Number(parseGoDuration(text.trim()) / 1_000_000n);
  } catch {
    throw new FaultSpecError(`fault "${fault}": "${text}" is not a duration (e.g. 90s, 1m30s, 250ms)`);
  }
}

function number(text: string, fault: string): number {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value)) throw new FaultSpecError(`fault "${fault}": "${text}" is not a number`);
  return value;
}
