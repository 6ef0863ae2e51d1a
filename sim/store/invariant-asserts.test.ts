/**
 * The store's always-on invariant checks (sim/kernel/assert.ts) fire where a relationship is
 * consumed out of order: a change log fed a revision that does not grow, a watch fed an event
 * from before its last (unless the store planted a defect that reorders on purpose).
 */
import { describe, expect, it } from "vitest";
import { InvariantViolation } from "../kernel/assert.ts";
import { ChangeLog, type Change } from "./change-log.ts";
import type { StoredObject } from "./stored-object.ts";
import { Watch } from "./watch.ts";

const object = { metadata: { name: "a", resourceVersion: "1" } } as StoredObject & { metadata: { resourceVersion: string } };
const change = (revision: number): Change => ({ type: "MODIFIED", key: "/a", revision, timeMs: 0, object });

function violation(run: () => void): InvariantViolation | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof InvariantViolation) return error;
    throw error;
  }
  return undefined;
}

describe("the store's invariant checks", () => {
  it("refuse a change log revision that does not grow", () => {
    const log = new ChangeLog();
    log.append(change(1));
    log.append(change(2));
    expect(violation(() => log.append(change(2)))?.invariant).toBe("store/revision-grows");
  });

  it("refuse a watch event from before the last one, unless the watch is unordered on purpose", () => {
    const ordered = new Watch(10, () => {});
    ordered.push({ type: "MODIFIED", revision: 5, object });
    ordered.push({ type: "BOOKMARK", revision: 5, object });
    expect(violation(() => ordered.push({ type: "MODIFIED", revision: 4, object }))?.invariant).toBe("watch/next-after-last");
    const unordered = new Watch(10, () => {}, false);
    unordered.push({ type: "MODIFIED", revision: 5, object });
    expect(violation(() => unordered.push({ type: "MODIFIED", revision: 4, object }))).toBeUndefined();
  });
});
