/** The soak's plan: one seed, the same choices for every client, whatever else is drawn meanwhile. */
import { describe, expect, it } from "vitest";
import { SoakPlan, type ReaderStep, type WatcherCycle, type WriterStep } from "./soak-plan.ts";
import { HOT_KEYS, keyName } from "./soak-settings.ts";

function take<T>(next: () => T, count: number): T[] {
  return Array.from({ length: count }, next);
}

describe("the soak plan", () => {
  it("gives every client the same steps for the same seed", () => {
    const [a, b] = [new SoakPlan(42, 20), new SoakPlan(42, 20)];
    expect(take(a.writer(0), 300)).toEqual(take(b.writer(0), 300));
    expect(take(a.reader(1), 300)).toEqual(take(b.reader(1), 300));
    expect(take(a.watcher(3), 100)).toEqual(take(b.watcher(3), 100));
    expect(a.namespaceSuffix()).toBe(b.namespaceSuffix());
  });

  it("gives each client steps of its own, which another seed changes", () => {
    const plan = new SoakPlan(42, 20);
    expect(take(plan.writer(0), 50)).not.toEqual(take(plan.writer(1), 50));
    expect(take(plan.writer(0), 50)).not.toEqual(take(new SoakPlan(43, 20).writer(0), 50));
    expect(plan.namespaceSuffix()).not.toBe(new SoakPlan(43, 20).namespaceSuffix());
  });

  it("does not depend on how the clients' draws interleave (timing is real, choices are not)", () => {
    const alone = take(new SoakPlan(7, 20).writer(0), 100);
    const plan = new SoakPlan(7, 20);
    const writer0 = plan.writer(0);
    const writer1 = plan.writer(1);
    const reader0 = plan.reader(0);
    const interleaved: WriterStep[] = [];
    for (let index = 0; index < 100; index++) {
      for (let other = 0; other < index % 4; other++) {
        writer1();
        reader0();
      }
      interleaved.push(writer0());
    }
    expect(interleaved).toEqual(alone);
  });

  it("plans every kind of write, precondition, read and watch, with most writes on the hot keys", () => {
    const plan = new SoakPlan(1, 20);
    const writes = take(plan.writer(0), 2000);
    const reads = take(plan.reader(0), 1000);
    const cycles = take(plan.watcher(2), 300);
    const writeKinds = new Set(writes.map((step) => `${step.kind}${"precondition" in step ? `/${step.precondition}` : ""}`));
    expect([...writeKinds].sort()).toEqual(
      ["create", "delete/none", "delete/remembered", "label-flip/none", "label-flip/remembered", "patch/none", "patch/remembered", "update/fresh", "update/none", "update/remembered"].sort(),
    );
    expect(writes.some((step) => step.kind === "label-flip" && step.selected === null)).toBe(true);
    const hot = new Set(Array.from({ length: HOT_KEYS }, (_, index) => keyName(index)));
    const hotShare = writes.filter((step) => hot.has(step.key)).length / writes.length;
    expect(hotShare).toBeGreaterThan(0.55);
    expect(hotShare).toBeLessThan(0.75);
    const readKinds = new Set(reads.map((step: ReaderStep) => `${step.kind}/${step.version}${step.kind === "list" && step.limit !== undefined ? "/paged" : ""}`));
    for (const kind of ["get/most-recent", "get/any", "get/not-older-than", "list/most-recent", "list/any", "list/exact", "list/not-older-than", "list/most-recent/paged", "list/exact/paged"]) {
      expect(readKinds).toContain(kind);
    }
    expect(reads.filter((step) => step.kind === "list" && step.limit !== undefined).every((step) => step.kind === "list" && step.limit! >= 2 && step.limit! <= 5)).toBe(true);
    const modes = new Set(cycles.map((cycle: WatcherCycle) => `${cycle.start}/${cycle.bookmarks}/${cycle.selector}`));
    expect(modes.size).toBe(12);
    expect(cycles[0]!.fresh).toBe(true);
    expect(cycles.some((cycle) => !cycle.fresh)).toBe(true);
    expect(cycles.some((cycle) => !cycle.fresh && cycle.awayMs >= 10_000)).toBe(true);
    expect(cycles.every((cycle) => cycle.awayMs < 1_000 || !cycle.fresh)).toBe(true);
  });
});
