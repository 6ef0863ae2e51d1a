/**
 * A client's watch replaces its previous one, also when two of its watches are sent at once: the
 * one opened first must still be closed. Against a server over HTTP one was left open, held a
 * watch on the user's server until its timeout, and kept `fuzz --target api --server` from exiting.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialectByName } from "../../spec/dialects.ts";
import { NO_DEFECTS } from "../../sim/apiserver/defects/defects.ts";
import { SOCKET_WATCH_FLUSH_INTERVAL_MS } from "../../sim/apiserver/api-server.ts";
import { startLoopbackServer, type LoopbackServer } from "../../sim/transport/loopback-server.ts";
import type { ApiStep } from "./api-steps.ts";
import { remoteFuzzServer, virtualFuzzServer } from "./fuzz-server.ts";
import { runApiProgram } from "./run-api-program.ts";

const watchNow = (client: number): ApiStep => ({ op: "watch", client, selected: false, start: "now", bookmarks: false });

describe("two watches of one client sent at once", () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startLoopbackServer({ watchFlushIntervalMs: SOCKET_WATCH_FLUSH_INTERVAL_MS });
  });
  afterAll(() => server?.close());

  it("leave no watch open on the server once the run is over", async () => {
    const before = server.server.store.openWatches;
    const program: ApiStep[] = [{ op: "together", steps: [watchNow(1), watchNow(1)], lagsMs: [0, 0] }, { op: "create", client: 0, key: "k0", selected: false, finalizer: false, dryRun: false }];
    const target = remoteFuzzServer({ transport: (request) => fetch(request), authHeaders: {} }, server.url);
    const model = virtualFuzzServer(dialectByName("kubernetes"), "model", NO_DEFECTS);
    const outcome = await runApiProgram(program, { model, target, targetNeedsRootCa: true, deleteNamespace: true }, "orb-fuzz-replaced", 1);
    await model.close();
    expect(outcome.error).toBeUndefined();
    // Watches open during the run: the steady watcher's and the two of client 1.
    for (let waited = 0; waited < 5_000 && server.server.store.openWatches > before; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.server.store.openWatches).toBe(before);
  });
});
