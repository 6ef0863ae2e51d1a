import { describe, expect, it } from "vitest";
import type { DialectName } from "../../../spec/dialects.ts";
import { testServer } from "../test-server.ts";
import { watchLineReader } from "../watch/watch-line-reader.ts";

const CM = "/api/v1/namespaces/default/configmaps";

/** Opens a watch through the handler; `next()` reads one event line. */
async function openWatch(server: ReturnType<typeof testServer>, query: string) {
  const response = await server.server.handle(new Request(`http://test.local${CM}?${query}`));
  return { response, ...watchLineReader(response) };
}

function server(dialect: DialectName = "kubernetes") {
  return testServer(dialect);
}

const summary = (event: any) => `${event.type} ${event.object.metadata.name ?? ""}@${event.object.metadata.resourceVersion}`;

describe("watch (doc 1 §4.6, §4.7, §6)", () => {
  it("starts at Exact: changes after the version, no synthetic events; DELETED carries the last state", async () => {
    const s = server();
    const created = await s.call("POST", CM, { metadata: { name: "w" }, data: { k: "1" } });
    const watch = await openWatch(s, `watch=1&resourceVersion=${created.json.metadata.resourceVersion}`);
    expect(watch.response.headers.get("content-type")).toBe("application/json");
    const updated = await s.call("PUT", `${CM}/w`, { ...created.json, data: { k: "2" } });
    await s.call("DELETE", `${CM}/w`);
    const modified = await watch.next();
    const deleted = await watch.next();
    expect(modified).toMatchObject({ type: "MODIFIED", object: { kind: "ConfigMap", apiVersion: "v1", data: { k: "2" } } });
    expect(modified.object.metadata.resourceVersion).toBe(updated.json.metadata.resourceVersion);
    expect(deleted.type).toBe("DELETED");
    expect(deleted.object.data).toEqual({ k: "2" });
    expect(Number(deleted.object.metadata.resourceVersion)).toBeGreaterThan(Number(updated.json.metadata.resourceVersion));
    await watch.cancel();
  });

  it("gets the state first for resourceVersion unset and 0 (synthetic ADDED), then changes", async () => {
    for (const query of ["watch=true", "watch=1&resourceVersion=0"]) {
      const s = server();
      await s.call("POST", CM, { metadata: { name: "a" } });
      await s.call("POST", CM, { metadata: { name: "b" } });
      const watch = await openWatch(s, query);
      await s.call("POST", CM, { metadata: { name: "c" } });
      const events = [await watch.next(), await watch.next(), await watch.next()];
      expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(["ADDED a", "ADDED b", "ADDED c"]);
      await watch.cancel();
    }
  });

  it("turns selector transitions into ADDED and DELETED", async () => {
    const s = server();
    const created = await s.call("POST", CM, { metadata: { name: "t", labels: { tier: "db" } } });
    const watch = await openWatch(s, `watch=1&labelSelector=tier%3Dweb&resourceVersion=${created.json.metadata.resourceVersion}`);
    const merge = { "content-type": "application/merge-patch+json" };
    await s.call("PATCH", `${CM}/t`, { metadata: { labels: { tier: "web" } } }, merge);
    const left = await s.call("PATCH", `${CM}/t`, { metadata: { labels: { tier: "db" } } }, merge);
    const [added, deleted] = [await watch.next(), await watch.next()];
    expect([added.type, deleted.type]).toEqual(["ADDED", "DELETED"]);
    // Leaving the selector, DELETED carries the state before the change at the change's version,
    // as kube-apiserver 1.26.4 sends it (recorded by soak, with and without its watch cache).
    expect(deleted.object.metadata.labels).toEqual({ tier: "web" });
    expect(deleted.object.metadata.resourceVersion).toBe(left.json.metadata.resourceVersion);
    await watch.cancel();
  });

  it("sends bookmarks when allowed, with only a resourceVersion (plus creationTimestamp: null in kubernetes)", async () => {
    for (const [dialect, metadata] of [
      ["kubernetes", (rv: string) => ({ resourceVersion: rv, creationTimestamp: null })],
      ["orb", (rv: string) => ({ resourceVersion: rv })],
    ] as const) {
      const s = testServer(dialect, { bookmarkIntervalMs: 1_000 });
      const created = await s.call("POST", CM, { metadata: { name: "b" } });
      const watch = await openWatch(s, `watch=1&allowWatchBookmarks=true&resourceVersion=${created.json.metadata.resourceVersion}`);
      await s.sim.runFor(1_000);
      const bookmark = await watch.next();
      expect(bookmark).toEqual({ type: "BOOKMARK", object: { kind: "ConfigMap", apiVersion: "v1", metadata: metadata(created.json.metadata.resourceVersion) } });
      await watch.cancel();
    }
  });

  it("answers a watch from a compacted version per dialect: 200 + ERROR 410 (kubernetes), 410 Status (orb)", async () => {
    for (const dialect of ["kubernetes", "orb"] as const) {
      const s = server(dialect);
      const created = await s.call("POST", CM, { metadata: { name: "old" } });
      await s.call("DELETE", `${CM}/old`);
      s.server.store.compact(s.server.store.revision);
      const watch = await openWatch(s, `watch=1&resourceVersion=${created.json.metadata.resourceVersion}`);
      if (dialect === "kubernetes") {
        expect(watch.response.status).toBe(200);
        const error = await watch.next();
        expect(error).toMatchObject({ type: "ERROR", object: { kind: "Status", reason: "Expired", code: 410 } });
        expect(await watch.next()).toBeUndefined();
      } else {
        expect(watch.response.status).toBe(410);
        expect(await watch.next()).toMatchObject({ kind: "Status", reason: "Expired" });
      }
    }
  });

  it("ends the stream after timeoutSeconds", async () => {
    const s = server();
    const watch = await openWatch(s, "watch=1&timeoutSeconds=5");
    await s.sim.runFor(5_000);
    expect(await watch.next()).toBeUndefined();
  });

  it("watches one object by name on its own path", async () => {
    const s = server();
    await s.call("POST", CM, { metadata: { name: "one" } });
    await s.call("POST", CM, { metadata: { name: "two" } });
    const response = await s.server.handle(new Request(`http://test.local${CM}/two?watch=1`));
    const text = new TextDecoder().decode((await response.body!.getReader().read()).value);
    expect(summary(JSON.parse(text.split("\n")[0]!))).toMatch(/^ADDED two@/);
  });

  it("answers resourceVersionMatch on a watch with 422", async () => {
    const s = server();
    const response = await s.call("GET", `${CM}?watch=1&resourceVersionMatch=Exact&resourceVersion=1`);
    expect([response.status, response.json.reason]).toEqual([422, "Invalid"]);
  });
});
