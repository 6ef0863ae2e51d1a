/**
 * Snapshots of a server (issue #14) tell every way a run could touch an object: changed, deleted,
 * marked for deletion (an object with a finalizer stays, changed), or a new object left behind.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BYSTANDER_NAMESPACE, createBystanders } from "./bystanders.ts";
import { addedObjects, compareSnapshots, snapshotCluster, type SnapshotConnection } from "./cluster-snapshot.ts";
import { startObservedServer, type ObservedServer } from "./observed-server.ts";

let server: ObservedServer;
let admin: SnapshotConnection;

beforeAll(async () => {
  server = await startObservedServer({ token: "snapshot-test-token" });
  admin = { transport: server.transport, baseUrl: server.url, headers: {} };
});
afterAll(() => server.close());

async function send(method: string, path: string, body?: unknown): Promise<number> {
  const headers = { "content-type": method === "PATCH" ? "application/merge-patch+json" : "application/json" };
  const response = await server.transport(new Request(`${server.url}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) }));
  return response.status;
}

describe("cluster snapshots", () => {
  it("hold every bystander and every served type; tell a changed, a deleted, a finalizing and an added object", async () => {
    const bystanders = await createBystanders(admin, false);
    const before = await snapshotCluster(admin);
    expect(bystanders.filter((key) => !before.objects.has(key))).toEqual([]);
    expect(bystanders).toContain(`example.io/widgets ${BYSTANDER_NAMESPACE}/bystander-widget`);
    expect(compareSnapshots(before, await snapshotCluster(admin))).toEqual([]);

    const statuses = [
      await send("PATCH", "/api/v1/namespaces/default/configmaps/bystander-config", { metadata: { labels: { touched: "yes" } } }),
      await send("DELETE", "/api/v1/namespaces/default/secrets/bystander-secret"),
      await send("DELETE", `/api/v1/namespaces/${BYSTANDER_NAMESPACE}/configmaps/bystander-finalized`),
      await send("POST", "/api/v1/nodes", { apiVersion: "v1", kind: "Node", metadata: { name: "left-behind" } }),
    ];
    expect(statuses).toEqual([200, 200, 200, 201]);
    const after = await snapshotCluster(admin);
    const differences = compareSnapshots(before, after).sort((a, b) => a.key.localeCompare(b.key));
    expect(differences).toEqual([
      { key: "/configmaps default/bystander-config", change: "changed" },
      { key: `/configmaps ${BYSTANDER_NAMESPACE}/bystander-finalized`, change: "changed" },
      { key: "/secrets default/bystander-secret", change: "missing" },
    ]);
    expect(addedObjects(before, after).map((entry) => entry.key)).toEqual(["/nodes /left-behind"]);
  });
});
