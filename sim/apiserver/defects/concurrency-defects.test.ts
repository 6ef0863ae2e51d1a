/**
 * The concurrency defects (defects.ts, `caughtBy: "soak"`): each scenario sends the same requests
 * twice, once overlapping and once one after another (each answered before the next is sent), and
 * reports the rule violations it sees. With the defect planted, the overlapping requests show the
 * bug; the same requests in sequence do not, which is why the conformance suite cannot catch these
 * and `orb-harness soak` must. Without the defect, overlapping requests show nothing either.
 * In virtual time: storage ticks and waits are timers, so the interleavings are exact.
 */
import { describe, expect, it } from "vitest";
import { soakDefects, suiteDefects, defects, type DefectName } from "./defects.ts";
import { testServer, type TestServer } from "../test-server.ts";
import { watchLineReader } from "../watch/watch-line-reader.ts";
import { storageDelayMs } from "./write-pipeline.ts";

const CM = "/api/v1/namespaces/default/configmaps";
const MERGE = { "content-type": "application/merge-patch+json" };

type Mode = "concurrent" | "sequential";
type Answer = Awaited<ReturnType<TestServer["call"]>>;

function serverWith(defect: DefectName | undefined): TestServer {
  return testServer("orb", defect === undefined ? {} : { defects: new Set([defect]) });
}

const configMap = (name: string, v = "0") => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { v } });
const create = (s: TestServer, name: string, v = "0") => () => s.call("POST", CM, configMap(name, v));
const patch = (s: TestServer, name: string, v: string) => () => s.call("PATCH", `${CM}/${name}`, { data: { v } }, MERGE);
const list = (s: TestServer, query = "") => () => s.call("GET", `${CM}${query === "" ? "" : `?${query}`}`);

/** Runs virtual time until `work` is done: storage ticks and waits are timers. */
async function settled<T>(s: TestServer, work: Promise<T>): Promise<T> {
  await s.sim.runFor(50);
  return work;
}

/** Sends `requests` all at once (overlapping), or one after another, each answered before the next is sent. */
async function send(s: TestServer, mode: Mode, requests: ReadonlyArray<() => Promise<Answer>>): Promise<Answer[]> {
  if (mode === "concurrent") return settled(s, Promise.all(requests.map((request) => request())));
  const answers: Answer[] = [];
  for (const request of requests) answers.push(await settled(s, request()));
  return answers;
}

interface SeenEvent {
  readonly type: string;
  readonly name: string;
  readonly resourceVersion: string;
  readonly v: string | undefined;
}

type WatchReader = ReturnType<typeof watchLineReader>;

async function openWatch(s: TestServer, query: string): Promise<WatchReader> {
  return watchLineReader(await settled(s, s.server.handle(new Request(`http://test.local${CM}?${query}`))));
}

/** The events of `watch` up to and including the first about `last` (a marker written last, in sequence). */
async function eventsThrough(watch: WatchReader, last: string): Promise<SeenEvent[]> {
  const events: SeenEvent[] = [];
  for (;;) {
    const event = await watch.next();
    if (event === undefined) throw new Error(`the watch ended before an event about ${last}`);
    const { metadata, data } = event.object;
    events.push({ type: event.type, name: metadata.name, resourceVersion: metadata.resourceVersion, v: data?.v });
    if (metadata.name === last) {
      await watch.cancel();
      return events;
    }
  }
}

const names = (items: ReadonlyArray<{ metadata: { name: string } }>) => items.map((item) => item.metadata.name);

/** A planted concurrency defect, the requests that show it, and the violations those requests produced. */
interface Scenario {
  readonly defect: DefectName;
  readonly run: (s: TestServer, mode: Mode) => Promise<string[]>;
}

const scenarios: readonly Scenario[] = [
  {
    defect: "watch-drops-simultaneous-write",
    // Two creates; a watch open throughout must deliver both.
    async run(s, mode) {
      const watch = await openWatch(s, "watch=1");
      await send(s, mode, [create(s, "a"), create(s, "b")]);
      await send(s, "sequential", [create(s, "z")]);
      const seen = (await eventsThrough(watch, "z")).map((event) => event.name);
      return ["a", "b"].filter((name) => !seen.includes(name)).map((name) => `the watch never sent ADDED ${name}`);
    },
  },
  {
    defect: "most-recent-list-lags",
    // A create answered, then another create and a Most Recent list: the list must show the first.
    async run(s, mode) {
      await send(s, "sequential", [create(s, "a")]);
      const [, listed] = await send(s, mode, [create(s, "b"), list(s)]);
      return names(listed!.json.items).includes("a") ? [] : [`a Most Recent list after the create of a was answered shows ${JSON.stringify(names(listed!.json.items))}`];
    },
  },
  {
    defect: "versions-assigned-before-commit",
    // Two creates under a live watch; then a list, and a watch resumed from the second one's version.
    async run(s, mode) {
      // The first create is handed a revision with a longer storage delay than the next one's.
      while (storageDelayMs(s.server.store.revision + 1) <= storageDelayMs(s.server.store.revision + 2)) {
        await send(s, "sequential", [create(s, `filler-${s.server.store.revision}`)]);
      }
      const live = await openWatch(s, `watch=1&resourceVersion=${s.server.store.revision}`);
      const [, second] = await send(s, mode, [create(s, "x"), create(s, "y")]);
      const [listed] = await send(s, "sequential", [list(s)]);
      const resumed = await openWatch(s, `watch=1&resourceVersion=${second!.json.metadata.resourceVersion}`);
      await send(s, "sequential", [create(s, "z")]);
      const order = await eventsThrough(live, "z");
      const afterY = await eventsThrough(resumed, "z");
      const violations: string[] = [];
      for (let index = 1; index < order.length; index++) {
        const [before, after] = [order[index - 1]!, order[index]!];
        if (Number(after.resourceVersion) <= Number(before.resourceVersion)) {
          violations.push(`the live watch sent ${after.name}@${after.resourceVersion} after ${before.name}@${before.resourceVersion}`);
        }
      }
      const sentAfterY = order.slice(order.findIndex((event) => event.name === "y") + 1);
      // The list is at y's version: the state after y, in the order the watch delivers changes.
      if (listed!.json.metadata.resourceVersion === second!.json.metadata.resourceVersion) {
        for (const event of sentAfterY) {
          if (names(listed!.json.items).includes(event.name)) violations.push(`a list at y's version shows ${event.name}, which the watch sends after y`);
        }
      }
      for (const event of sentAfterY) {
        if (!afterY.some((seen) => seen.name === event.name)) violations.push(`a watch resumed from y's version never sends ${event.name}, which came after y`);
      }
      return violations;
    },
  },
  {
    defect: "resumed-watch-skips-concurrent-writes",
    // A watch resumed from a's version, and two creates: it must send both.
    async run(s, mode) {
      const [a] = await send(s, "sequential", [create(s, "a")]);
      const query = `watch=1&resourceVersion=${a!.json.metadata.resourceVersion}`;
      let watch: WatchReader;
      if (mode === "concurrent") {
        // The creates are sent while the watch request is being answered.
        const opening = s.server.handle(new Request(`http://test.local${CM}?${query}`));
        await s.sim.runFor(5);
        await send(s, "concurrent", [create(s, "b"), create(s, "c")]);
        watch = watchLineReader(await settled(s, opening));
      } else {
        watch = await openWatch(s, query);
        await send(s, "sequential", [create(s, "b"), create(s, "c")]);
      }
      await send(s, "sequential", [create(s, "z")]);
      const seen = (await eventsThrough(watch, "z")).map((event) => event.name);
      return ["b", "c"].filter((name) => !seen.includes(name)).map((name) => `the resumed watch never sent ADDED ${name}`);
    },
  },
  {
    defect: "paged-list-mixes-snapshots",
    // A paged list of four objects, two per page, and an update of an object of the second page.
    async run(s, mode) {
      await send(s, "sequential", ["k1", "k2", "k3", "k4"].map((name) => create(s, name, "old")));
      const [first] = await send(s, mode, [list(s, "limit=2"), patch(s, "k3", "new")]);
      const [second] = await send(s, "sequential", [list(s, `limit=2&continue=${encodeURIComponent(first!.json.metadata.continue)}`)]);
      const violations: string[] = [];
      if (second!.json.metadata.resourceVersion !== first!.json.metadata.resourceVersion) {
        violations.push(`the second page is at version ${second!.json.metadata.resourceVersion}, the first at ${first!.json.metadata.resourceVersion}`);
      }
      const k3 = second!.json.items.find((item: any) => item.metadata.name === "k3");
      if (k3?.data?.v !== "old") violations.push(`the second page shows k3 as ${JSON.stringify(k3?.data)}, a state after the first page's version`);
      return violations;
    },
  },
];

describe("concurrency defects (only overlapping requests show them)", () => {
  it("split the catalog: the suite's and soak's, each concurrency defect with a history rule and a scenario here", () => {
    expect([...suiteDefects, ...soakDefects].map((defect) => defect.name).sort()).toEqual(defects.map((defect) => defect.name).sort());
    expect(soakDefects.length).toBeGreaterThanOrEqual(5);
    for (const defect of soakDefects) expect(defect.historyRule, defect.name).toMatch(/^[a-z]+\/[a-z-]+$/);
    expect(scenarios.map((scenario) => scenario.defect).sort()).toEqual(soakDefects.map((defect) => defect.name).sort());
  });

  for (const { defect, run } of scenarios) {
    describe(defect, () => {
      it("shows with the requests overlapping", async () => {
        expect(await run(serverWith(defect), "concurrent")).not.toEqual([]);
      });

      it("does not show with the same requests in sequence", async () => {
        expect(await run(serverWith(defect), "sequential")).toEqual([]);
      });

      it("does not show without the defect, overlapping or not", async () => {
        expect(await run(serverWith(undefined), "concurrent")).toEqual([]);
        expect(await run(serverWith(undefined), "sequential")).toEqual([]);
      });
    });
  }
});
