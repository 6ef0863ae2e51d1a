import { describe, expect, it } from "vitest";
import type { Change, ChangeType } from "./change-log.ts";
import { KeyHistory } from "./key-history.ts";

const key = "pods/a/p";
const change = (type: ChangeType, revision: number): Change => ({ type, key, revision, timeMs: revision, object: { metadata: { name: "p", namespace: "a", resourceVersion: String(revision) } } });

describe("KeyHistory", () => {
  it("has nothing for compaction with one live version, and something once written again or deleted", () => {
    const history = new KeyHistory(key);
    history.push(change("ADDED", 2));
    expect(history.compactable).toBe(false);
    history.push(change("MODIFIED", 3));
    expect(history.compactable).toBe(true);
    expect(history.compact(3)).toBe(false);
    expect(history.compactable).toBe(false);
    expect(history.at(3)?.metadata.resourceVersion).toBe("3");
    history.push(change("DELETED", 4));
    expect(history.compact(4)).toBe(true);
  });

  it("keeps the last version at or before the compacted revision, for reads there", () => {
    const history = new KeyHistory(key);
    for (const [type, revision] of [["ADDED", 2], ["MODIFIED", 5], ["MODIFIED", 9]] as const) history.push(change(type, revision));
    expect(history.compact(6)).toBe(false);
    expect(history.at(6)?.metadata.resourceVersion).toBe("5");
    expect(history.at(9)?.metadata.resourceVersion).toBe("9");
    expect(history.compactable).toBe(true);
  });

  it("reads every retained revision, takes a late change in revision order, and compacts to what reads at or after a revision see", () => {
    const history = new KeyHistory(key);
    for (const revision of [2, 4, 6, 8]) history.push(change(revision === 2 ? "ADDED" : "MODIFIED", revision));
    history.insertLate(change("MODIFIED", 5));
    const versionAt = (revision: number) => history.at(revision)?.metadata.resourceVersion ?? null;
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map(versionAt)).toEqual([null, "2", "2", "4", "5", "6", "6", "8", "8"]);
    expect(() => history.push(change("MODIFIED", 8))).toThrow(/revision 8 after 8/);
    expect(history.compact(5)).toBe(false);
    expect([4, 5, 6, 7, 8].map(versionAt)).toEqual([null, "5", "6", "6", "8"]);
    expect(history.compact(8)).toBe(false);
    expect(history.compactable).toBe(false);
    expect(history.latest()?.revision).toBe(8);
  });
});
