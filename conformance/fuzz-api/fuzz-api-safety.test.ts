/**
 * Runner safety of `fuzz --target api` (issue 14): pointed at a server that holds objects of
 * others (the bystanders of conformance/safety), a campaign leaves every one of them as it was,
 * deletes its own namespaces, and never prints the token. Here against the embedded server over
 * HTTP with a token (as `serve` runs it), as a user reaches a server; fuzz-api-safety.real.test.ts does the same
 * against a real control plane.
 */
import { describe, expect, it } from "vitest";
import { main } from "../../scripts/cli.ts";
import { createBystanders } from "../safety/bystanders.ts";
import { addedObjects, compareSnapshots, snapshotCluster, type SnapshotConnection } from "../safety/cluster-snapshot.ts";
import { startObservedServer } from "../safety/observed-server.ts";

describe("fuzz --target api against a server holding bystanders", () => {
  it("leaves them untouched, deletes its namespaces and never shows the token", async () => {
    const token = "fuzz-api-safety-token";
    const server = await startObservedServer({ token });
    try {
      const connection: SnapshotConnection = { transport: server.transport, baseUrl: server.url, headers: {} };
      const bystanders = await createBystanders(connection, false);
      const before = await snapshotCluster(connection);
      const lines: string[] = [];
      const code = await main(["fuzz", "--target", "api", "--server", server.url, "--token", token, "--seed", "5", "--runs", "15"], { out: (line) => lines.push(line), err: (line) => lines.push(line) });
      expect(code, lines.join("\n")).toBe(0);
      const after = await snapshotCluster(connection);
      expect(compareSnapshots(before, after, bystanders)).toEqual([]);
      expect(addedObjects(before, after).map((entry) => entry.key)).toEqual([]);
      expect(lines.join("\n")).not.toContain(token);
    } finally {
      await server.close();
    }
  }, 120_000);
});

