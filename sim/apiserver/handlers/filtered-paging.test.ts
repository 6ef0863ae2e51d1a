/**
 * A full page of a filtered list carries a continue token while any object follows, matching or
 * not, as kube-apiserver 1.26's etcd store answers (found by `fuzz --target api` against it); the
 * page after it may then be empty, and ends the list.
 */
import { describe, expect, it } from "vitest";
import { testServer } from "../test-server.ts";

const CM = "/api/v1/namespaces/default/configmaps";

describe("paging a list with a label selector", () => {
  it("continues past a full page while objects follow, even when none of them match", async () => {
    const s = testServer("kubernetes");
    await s.call("POST", CM, { metadata: { name: "a", labels: { pick: "yes" } } });
    await s.call("POST", CM, { metadata: { name: "b", labels: { pick: "no" } } });
    const first = await s.call("GET", `${CM}?labelSelector=pick%3Dyes&limit=1`);
    expect(first.json.items.map((item: { metadata: { name: string } }) => item.metadata.name)).toEqual(["a"]);
    expect(first.json.metadata.continue).toBeTruthy();
    expect(first.json.metadata.remainingItemCount).toBeUndefined();
    const next = await s.call("GET", `${CM}?labelSelector=pick%3Dyes&limit=1&continue=${encodeURIComponent(first.json.metadata.continue)}`);
    expect(next.json.items).toEqual([]);
    expect(next.json.metadata.continue ?? "").toBe("");
  });

  it("ends at the last object", async () => {
    const s = testServer("kubernetes");
    await s.call("POST", CM, { metadata: { name: "a", labels: { pick: "yes" } } });
    const only = await s.call("GET", `${CM}?labelSelector=pick%3Dyes&limit=1`);
    expect(only.json.metadata.continue ?? "").toBe("");
  });
});
