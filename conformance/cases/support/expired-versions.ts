/**
 * Versions no longer retained (doc 1 §7, §8): the 410 Status they are answered with, and how long
 * a case may wait while a version is surely still retained.
 */
import type { Retention } from "../../retention.ts";
import { isStatus } from "./status-body.ts";

/** How long a case waits, well inside the retention: 40% of the shortest time the target keeps a replaced version. */
export function wellInsideRetentionMs(retention: Retention): number {
  return Math.floor(retention.minimumMs * 0.4);
}

/** True for a 410 Status body (reason Expired, or Gone), as doc 1 §7's 410 comes. */
export function isGoneStatus(body: unknown): boolean {
  return isStatus(body) && body.code === 410 && (body.reason === "Expired" || body.reason === "Gone");
}
