/**
 * When two recorded objects are the same state: same name, uid, value and labels. Versions are
 * compared separately (they name changes, see change-catalog.ts). Called once per watch event:
 * no allocation.
 */
import type { ObjectState } from "./api-history.ts";

export function sameLabels(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  if (a === b) return true;
  let count = 0;
  for (const key in a) {
    if (!Object.hasOwn(a, key)) continue;
    if (!Object.hasOwn(b, key) || a[key] !== b[key]) return false;
    count++;
  }
  for (const key in b) if (Object.hasOwn(b, key)) count--;
  return count === 0;
}

export function sameContent(a: ObjectState, b: ObjectState): boolean {
  if (a === b) return true;
  return a.value === b.value && a.uid === b.uid && a.name === b.name && sameLabels(a.labels, b.labels);
}
