/**
 * Small hand-written histories for the cases where a checker could too easily be wrong: objects
 * entering and leaving a selector (both conventions for what DELETED carries), synthetic ADDED
 * events, a watch resumed from a bookmark at a foreign version, a 410 and a relist, writes whose
 * outcome was never learned, lists at foreign versions placed by their items, names deleted and
 * created again, streams cut short at the end of the run. Each valid case has a broken twin that
 * must fail, so that every test can fail.
 */
import { describe, expect, it } from "vitest";
import type { ApiHistory } from "./api-history.ts";
import { checkHistory } from "./check-history.ts";
import { HistoryBuilder, added, bookmark, deleted, deletion, expired, modified, object } from "./history-builder.ts";
import type { HistoryVerdict } from "./history-verdict.ts";

function failures(history: ApiHistory): HistoryVerdict[] {
  return checkHistory(history).filter((verdict) => !verdict.held);
}

/** Expects exactly `id` among the failures, with the given operations in its witness. */
function expectCaught(history: ApiHistory, id: string, operations: readonly number[]): void {
  const failed = failures(history);
  const verdict = failed.find((candidate) => candidate.id === id);
  expect(verdict, `expected ${id} to fail; failed: ${failed.map((other) => other.id).join(", ") || "nothing"}`).toBeDefined();
  expect(verdict!.witness!.operations).toEqual(expect.arrayContaining([...operations]));
}

describe("objects entering and leaving a label selector", () => {
  const x1 = object("x", "w-1", "1", { team: "b" });
  const x2 = object("x", "w-2", "2", { team: "a" });
  const x3 = object("x", "w-3", "3", { team: "b" });
  const x4 = object("x", "w-4", "4", { team: "a" });
  const gone = deletion(x4, "5");

  /** A create outside team=a, in, out, in again, deleted; a steady watch and a team=a watch. */
  function history(leaving: "new" | "previous", selectorEvents?: (events: ReturnType<typeof added>[]) => ReturnType<typeof added>[]) {
    const b = new HistoryBuilder();
    const steady = b.watch("watcher-0", [0, undefined], [added(x1, 2), modified(x2, 12), modified(x3, 22), modified(x4, 32), deleted(gone, 42)]);
    const leave = leaving === "new" ? x3 : { ...x2, resourceVersion: "3" };
    const events = [added(x2, 12), deleted(leave, 22), added(x4, 32), deleted(gone, 42)];
    const selected = b.watch("watcher-1", [0.5, undefined], selectorEvents ? selectorEvents(events) : events, { labelSelector: "team=a" });
    b.write("writer-0", [1, 1.5], "create", x1);
    b.write("writer-0", [10, 11], "patch", x2, { labels: { team: "a" } });
    b.write("writer-0", [20, 21], "patch", x3, { labels: { team: "b" } });
    b.write("writer-0", [30, 31], "patch", x4, { labels: { team: "a" } });
    b.delete("writer-0", [40, 41], x4);
    return { history: b.build(), steady, selected };
  }

  it("are ADDED on entering and DELETED on leaving, with the new state or the previous content", () => {
    expect(failures(history("new").history)).toEqual([]);
    expect(failures(history("previous").history)).toEqual([]);
  });

  it("fail when leaving is delivered as MODIFIED", () => {
    const broken = history("new", (events) => events.map((event, i) => (i === 1 ? modified(x3, 22) : event)));
    expectCaught(broken.history, "history/watch-event-content", [broken.selected.id]);
  });

  it("fail when entering again is not delivered", () => {
    const broken = history("previous", (events) => events.filter((_, i) => i !== 2));
    expectCaught(broken.history, "watch/no-gap", [broken.selected.id]);
  });

  it("fail when the selector watch delivers a change it does not see", () => {
    const broken = history("new", () => [added(x2, 12), deleted(x3, 22), modified(x3, 23), added(x4, 32), deleted(gone, 42)]);
    expect(failures(broken.history).map((verdict) => verdict.id)).toContain("watch/no-gap");
  });
});

describe("synthetic ADDED events", () => {
  const a1 = object("a", "w-1", "1");
  const b1 = object("b", "w-2", "2");
  const c1 = object("c", "w-3", "3");
  const a2 = object("a", "w-4", "4");

  function history(watchEvents: ReturnType<typeof added>[], resourceVersion?: string) {
    const b = new HistoryBuilder();
    b.watch("watcher-0", [0, undefined], [added(a1, 2), added(b1, 4), added(c1, 22), modified(a2, 32)]);
    b.write("writer-0", [1, 1.5], "create", a1);
    b.write("writer-0", [3, 3.5], "create", b1);
    const watch = b.watch("watcher-1", [10, undefined], watchEvents, { resourceVersion });
    b.write("writer-0", [20, 21], "create", c1);
    b.write("writer-0", [30, 31], "update", a2);
    return { history: b.build(), watch };
  }

  it("are the state when the watch started, followed by real ADDED events of later creations", () => {
    expect(failures(history([added(a1, 11), added(b1, 11), added(c1, 22), modified(a2, 32)]).history)).toEqual([]);
  });

  it("fail when an object of that state is missing", () => {
    const { history: broken, watch } = history([added(a1, 11), added(c1, 22), modified(a2, 32)]);
    expectCaught(broken, "history/watch-initial-state", [watch.id]);
  });

  it("fail without resourceVersion when they are older than a write acknowledged before the watch was sent", () => {
    const b = new HistoryBuilder();
    b.watch("watcher-0", [0, undefined], [added(a1, 2), modified(a2, 4)]);
    b.write("writer-0", [1, 1.5], "create", a1);
    const update = b.write("writer-0", [3, 3.5], "update", a2);
    const stale = b.watch("watcher-1", [10, undefined], [added(a1, 11), modified(a2, 11)]);
    expectCaught(b.build(), "history/watch-initial-state", [stale.id, update.id]);
  });

  it("may be that old from resourceVersion 0 (Start at Any)", () => {
    const b = new HistoryBuilder();
    b.watch("watcher-0", [0, undefined], [added(a1, 2), modified(a2, 4)]);
    b.write("writer-0", [1, 1.5], "create", a1);
    b.write("writer-0", [3, 3.5], "update", a2);
    b.watch("watcher-1", [10, undefined], [added(a1, 11), modified(a2, 11)], { resourceVersion: "0" });
    expect(failures(b.build())).toEqual([]);
  });
});

describe("a watch resumed after a bookmark at a foreign version", () => {
  // Versions 11, 13 and 15 are writes in other namespaces: the bookmark's version names no change here.
  const a = ["10", "12", "14", "16"].map((version, i) => object("a", `w-${i + 1}`, version));

  function history(resumedEvents: ReturnType<typeof added>[]) {
    const b = new HistoryBuilder();
    b.watch("watcher-0", [0, undefined], [added(a[0]!, 2), modified(a[1]!, 12), modified(a[2]!, 27), modified(a[3]!, 37)]);
    b.write("writer-0", [1, 1.5], "create", a[0]!);
    const first = b.watch("watcher-1", [0.5, 25], [added(a[0]!, 2), modified(a[1]!, 12), bookmark("13", 20)]);
    b.write("writer-0", [11, 11.5], "update", a[1]!);
    const resumed = b.watch("watcher-1", [26, undefined], resumedEvents, { resourceVersion: "13", resumes: { kind: "watch", operation: first.id } });
    b.write("writer-0", [26.5, 27], "update", a[2]!);
    b.write("writer-0", [36, 36.5], "update", a[3]!);
    return { history: b.build(), first, resumed };
  }

  it("continues right after the last change its predecessor delivered", () => {
    expect(failures(history([modified(a[2]!, 27), modified(a[3]!, 37)]).history)).toEqual([]);
  });

  it("fails when it skips the first change after it", () => {
    const { history: broken, resumed } = history([modified(a[3]!, 37)]);
    expectCaught(broken, "watch/no-gap", [resumed.id]);
  });

  it("fails when it delivers again what its predecessor delivered", () => {
    const { history: broken, resumed } = history([modified(a[1]!, 26.5), modified(a[2]!, 27), modified(a[3]!, 37)]);
    expectCaught(broken, "watch/no-gap", [resumed.id]);
  });
});

describe("a 410 and a relist", () => {
  const a = ["10", "12", "14", "16"].map((version, i) => object("a", `w-${i + 1}`, version));

  function history(afterListEvents: ReturnType<typeof added>[]) {
    const b = new HistoryBuilder();
    b.watch("watcher-0", [0, undefined], [added(a[0]!, 2), modified(a[1]!, 12), modified(a[2]!, 22), modified(a[3]!, 32)]);
    b.write("writer-0", [1, 1.5], "create", a[0]!);
    const first = b.watch("watcher-1", [0.5, 15], [added(a[0]!, 2), expired(15)], { ending: "server-closed" });
    b.write("writer-0", [11, 11.5], "update", a[1]!);
    // The relist answers a cluster-wide revision, 13, that no change of the namespace has.
    const relist = b.list("watcher-1", [16, 17], "13", [a[1]!]);
    const refused = b.watch("watcher-1", [17.5, 17.8], [], { resourceVersion: "10", opened: { type: "failed", code: 410, reason: "Expired" }, ending: "server-closed" });
    const watch = b.watch("watcher-1", [18, undefined], afterListEvents, { resourceVersion: "13", resumes: { kind: "list", operation: relist.id } });
    b.write("writer-0", [21, 21.5], "update", a[2]!);
    b.write("writer-0", [31, 31.5], "update", a[3]!);
    return { history: b.build(), first, relist, refused, watch };
  }

  it("continues from the list's state, placed by its items", () => {
    expect(failures(history([modified(a[2]!, 22), modified(a[3]!, 32)]).history)).toEqual([]);
  });

  it("fails when the watch after the list misses the first change after the list's state", () => {
    const { history: broken, watch, relist } = history([modified(a[3]!, 32)]);
    expectCaught(broken, "watch/no-gap", [watch.id, relist.id]);
  });
});

describe("writes whose outcome the client never learned", () => {
  const a1 = object("a", "w-1", "1");
  function history(delivered: readonly ReturnType<typeof modified>[], failed?: { code: number; reason: string }) {
    const b = new HistoryBuilder();
    b.watch("watcher-0", [0, undefined], [added(a1, 2), ...delivered]);
    b.write("writer-0", [1, 1.5], "create", a1);
    const unanswered = b.unanswered("writer-0", [10, 60], "update", "a", "w-2", {}, { precondition: "1", failed });
    return { history: b.build(), unanswered };
  }

  it("may have happened", () => {
    expect(failures(history([modified(object("a", "w-2", "2"), 12)]).history)).toEqual([]);
  });

  it("may not have happened", () => {
    expect(failures(history([]).history)).toEqual([]);
  });

  it("may have happened after a 504", () => {
    expect(failures(history([modified(object("a", "w-2", "2"), 12)], { code: 504, reason: "Timeout" }).history)).toEqual([]);
  });

  it("never happen twice", () => {
    const { history: broken, unanswered } = history([modified(object("a", "w-2", "2"), 12), modified(object("a", "w-2", "3"), 14)]);
    expectCaught(broken, "history/write-atomic", [unanswered.id]);
  });

  it("never happen in part", () => {
    const { history: broken, unanswered } = history([modified(object("a", "w-2", "2", { half: "yes" }), 12)]);
    expectCaught(broken, "history/write-atomic", [unanswered.id]);
  });

  it("while a write answered 422 never happens at all", () => {
    const { history: broken, unanswered } = history([modified(object("a", "w-2", "2"), 12)], { code: 422, reason: "Invalid" });
    expectCaught(broken, "history/failed-write-no-effect", [unanswered.id]);
  });
});

describe("lists at a foreign version", () => {
  const a1 = object("a", "w-1", "10");
  const b1 = object("b", "w-2", "12");
  const a2 = object("a", "w-3", "14");
  const b2 = object("b", "w-4", "16");

  function history(lists: readonly (readonly [string, readonly ReturnType<typeof object>[], number])[]) {
    const b = new HistoryBuilder();
    b.watch("watcher-0", [0, undefined], [added(a1, 2), added(b1, 12), modified(a2, 22), modified(b2, 32)]);
    b.write("writer-0", [1, 1.5], "create", a1);
    b.write("writer-0", [11, 11.5], "create", b1);
    const made = lists.map(([version, items, atMs]) => b.list("reader-0", [atMs, atMs + 1], version, items));
    b.write("writer-0", [21, 21.5], "update", a2);
    b.write("writer-0", [31, 31.5], "update", b2);
    return { history: b.build(), lists: made };
  }

  it("are placed by their items, and two lists at one version agree", () => {
    expect(failures(history([["13", [a1, b1], 15], ["13", [a1, b1], 17]]).history)).toEqual([]);
  });

  it("fail when the items never coexisted", () => {
    const { history: broken, lists } = history([["13", [a1, b2], 15]]);
    expectCaught(broken, "history/read-state", [lists[0]!.id]);
  });

  it("fail when two lists at one version disagree", () => {
    const { history: broken, lists } = history([["13", [a1, b1], 15], ["13", [a1], 17]]);
    expectCaught(broken, "history/read-state", [lists[0]!.id, lists[1]!.id]);
  });

  it("fail when a list without resourceVersion misses a write acknowledged before it was sent", () => {
    const { history: broken, lists } = history([["9", [a1], 15]]);
    expectCaught(broken, "history/read-freshness", [lists[0]!.id]);
  });
});

describe("names deleted and created again, and streams cut short", () => {
  const x1 = object("x", "w-1", "1", {}, "uid-1");
  const x3 = object("x", "w-2", "3", {}, "uid-2");

  function history(steadyEvents: ReturnType<typeof added>[]) {
    const b = new HistoryBuilder();
    const steady = b.watch("watcher-0", [0, undefined], steadyEvents);
    b.write("writer-0", [1, 1.5], "create", x1);
    const removal = b.delete("writer-0", [10, 10.5], x1, "1");
    const again = b.write("writer-0", [20, 20.5], "create", x3);
    // A stream closed by the server before the last change reached it: no gap.
    b.watch("watcher-1", [0.5, 15], [added(x1, 2), deleted(deletion(x1, "2"), 12)], { ending: "server-closed" });
    b.get("reader-0", [25, 26], "x", x3);
    b.list("reader-0", [27, 28], "3", [x3]);
    b.get("reader-0", [14, 15], "x", undefined);
    return { history: b.build(), steady, removal, again };
  }

  it("are told apart by uid, and a missing tail is no gap", () => {
    expect(failures(history([added(x1, 2), deleted(deletion(x1, "2"), 12), added(x3, 22)]).history)).toEqual([]);
  });

  it("fail when a stream that delivered changes around an acknowledged write never delivered it", () => {
    const b = new HistoryBuilder();
    const a1 = object("a", "w-1", "1");
    const b1 = object("b", "w-2", "2");
    const c1 = object("c", "w-3", "3");
    const steady = b.watch("watcher-0", [0, undefined], [added(a1, 2), added(c1, 32)]);
    b.write("writer-0", [1, 1.5], "create", a1);
    const lost = b.write("writer-0", [11, 11.5], "create", b1);
    b.write("writer-0", [31, 31.5], "create", c1);
    expectCaught(b.build(), "history/acknowledged-write-durable", [lost.id, steady.id]);
  });

  it("fail when a bookmark claims a change it had not delivered", () => {
    const b = new HistoryBuilder();
    const a1 = object("a", "w-1", "1");
    const a2 = object("a", "w-2", "2");
    b.watch("watcher-0", [0, undefined], [added(a1, 2), modified(a2, 12)]);
    b.write("writer-0", [1, 1.5], "create", a1);
    b.write("writer-0", [11, 11.5], "update", a2);
    const early = b.watch("watcher-1", [0.5, undefined], [added(a1, 2), bookmark("2", 13), modified(a2, 14)]);
    expectCaught(b.build(), "watch/bookmark-order", [early.id]);
  });
});

describe("changes of one name that no stream orders against each other", () => {
  it("leave unknown what came before a change a later unordered one may precede", () => {
    // x: p, then r (conditioned on p), then i (conditioned on r), then q. The team=a watch from p
    // orders p before i before q; r, outside team=a, is ordered only after p and delivered last,
    // so the order chosen puts it after q although it may come before i.
    const b = new HistoryBuilder();
    const p = object("x", "w-1", "1", { team: "b" });
    const r = object("x", "w-2", "2", { team: "b" });
    const i = object("x", "w-3", "3", { team: "a" });
    const q = object("x", "w-4", "4", { team: "a" });
    const y = object("y", "w-0", "0");
    b.watch("watcher-0", [0, 2], [added(y, 0.3), added(p, 1.6)], { ending: "server-closed" });
    b.write("writer-1", [0.1, 0.2], "create", y);
    b.write("writer-0", [1, 1.5], "create", p);
    b.write("writer-0", [3, 3.5], "update", r, { precondition: "1" });
    b.write("writer-0", [5, 5.5], "update", i, { precondition: "2" });
    b.write("writer-0", [7, 7.5], "update", q, { precondition: "3" });
    b.watch("watcher-1", [2, undefined], [added(i, 6), modified(q, 8)], { resourceVersion: "1", labelSelector: "team=a" });
    b.watch("watcher-2", [2, 30], [modified(r, 20)], { resourceVersion: "1", ending: "server-closed" });
    expect(failures(b.build())).toEqual([]);
  });
});

describe("writes out of real-time order", () => {
  it("fail when an earlier acknowledged write is forced after a later one, whatever the order puts last", () => {
    // a and c are acknowledged before b is sent; a stream delivers b before a, and c, delivered
    // last by a stream that orders it against neither, is the one the order puts last.
    const b = new HistoryBuilder();
    const y = object("y", "w-0", "1");
    const a1 = object("a", "w-1", "2");
    const c1 = object("c", "w-2", "3");
    const b1 = object("b", "w-3", "4");
    b.watch("watcher-0", [0, 0.5], [added(y, 0.3)], { ending: "server-closed" });
    b.write("writer-0", [0.1, 0.2], "create", y);
    const early = b.write("writer-0", [1, 1.5], "create", a1);
    b.write("writer-0", [2, 2.5], "create", c1);
    const late = b.write("writer-0", [3, 3.5], "create", b1);
    b.watch("watcher-1", [0.6, undefined], [added(b1, 4), added(a1, 5)], { resourceVersion: "1" });
    b.watch("watcher-2", [0.6, 30], [added(c1, 20)], { resourceVersion: "1", ending: "server-closed" });
    expectCaught(b.build(), "history/write-order", [early.id, late.id]);
  });
});

describe("changes missed between two deliveries, behind one the order does not force there", () => {
  // m1 is ordered against nothing but y and placed between a and m2; m2 is forced after a and
  // before b by a watch from a's version.
  function history(steadyEvents: (states: Record<"a1" | "b1", ReturnType<typeof object>>) => ReturnType<typeof added>[]) {
    const b = new HistoryBuilder();
    const y = object("y", "w-0", "1");
    const a1 = object("a", "w-1", "2");
    const m1 = object("m", "w-2", "3");
    const m2 = object("n", "w-3", "4");
    const b1 = object("b", "w-4", "5");
    b.watch("watcher-0", [0, 0.5], [added(y, 0.3)], { ending: "server-closed" });
    b.write("writer-0", [0.1, 0.2], "create", y);
    b.write("writer-0", [1, 1.5], "create", a1);
    b.write("writer-0", [2.1, 2.2], "create", m1);
    b.write("writer-0", [3.1, 3.2], "create", m2);
    b.write("writer-0", [4.1, 4.2], "create", b1);
    b.watch("watcher-1", [0.6, 30], [added(m1, 3)], { resourceVersion: "1", ending: "server-closed" });
    b.watch("watcher-2", [1.6, undefined], [added(m2, 4), added(b1, 5)], { resourceVersion: "2" });
    const steady = b.watch("watcher-3", [0.6, undefined], steadyEvents({ a1, b1 }), { resourceVersion: "1" });
    return { history: b.build(), steady };
  }

  it("fail as a gap when a later one is forced there", () => {
    const { history: broken, steady } = history(({ a1, b1 }) => [added(a1, 2), added(b1, 5)]);
    expectCaught(broken, "watch/no-gap", [steady.id]);
  });

  it("fail a bookmark when a later one is forced before its version", () => {
    const { history: broken, steady } = history(({ a1 }) => [added(a1, 2), bookmark("4", 6)]);
    expectCaught(broken, "watch/bookmark-order", [steady.id]);
  });
});
