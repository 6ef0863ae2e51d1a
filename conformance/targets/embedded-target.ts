/**
 * The default target: the embedded API server on a loopback port (real HTTP, so the wire is
 * tested too), plus, for virtual-time cases, a fresh embedded server per case on a simulated clock
 * with short history and bookmark windows, reached through its handler.
 */
import { randomBytes } from "node:crypto";
import type { Dialect } from "../../spec/dialects.ts";
import { maxRequestBodyBytes } from "../../spec/doc1/limits.ts";
import { failure } from "../../sim/apiserver/api-error.ts";
import { ApiServer } from "../../sim/apiserver/api-server.ts";
import { errorResponse } from "../../sim/apiserver/http-response.ts";
import { GIT_VERSION } from "../../sim/apiserver/server-version.ts";
import { Rng } from "../../sim/kernel/rng.ts";
import { realClock } from "../../sim/kernel/real-clock.ts";
import { Simulation } from "../../sim/kernel/simulation.ts";
import { serveHttp } from "../../sim/transport/http-server.ts";
import type { Target, VirtualTimeServer } from "./target.ts";

/** Windows of the virtual-time servers: short, so expiry and bookmarks happen in a few virtual seconds. */
export const VIRTUAL_TIME_WINDOWS = { historyWindowMs: 10_000, compactionIntervalMs: 10_000, bookmarkIntervalMs: 1_000 } as const;

const BUILD = { platform: "linux/amd64" };

/** Starts the embedded server on 127.0.0.1 and describes it as a target. */
export async function startEmbeddedTarget(dialect: Dialect): Promise<Target> {
  const server = new ApiServer({
    clock: realClock,
    rng: new Rng(randomBytes(16).toString("hex")),
    tokenKey: randomBytes(32),
    dialect,
    build: BUILD,
  });
  const http = await serveHttp(server.handle, {
    host: "127.0.0.1",
    port: 0,
    maxBodyBytes: maxRequestBodyBytes,
    tooLarge: () => errorResponse(failure("RequestEntityTooLarge", `Request entity too large: limit is ${maxRequestBodyBytes}`)),
  });
  let virtualServers = 0;
  return {
    kind: "embedded",
    url: http.url,
    dialect,
    serverVersion: GIT_VERSION,
    identity: { transport: (request) => fetch(request), authHeaders: {} },
    restricted: undefined,
    secrets: [],
    virtualTimeServer: () => virtualTimeServer(dialect, `virtual-${virtualServers++}`),
    async close() {
      server.close();
      await http.close();
    },
  };
}

function virtualTimeServer(dialect: Dialect, seed: string): VirtualTimeServer {
  const sim = new Simulation({ seed });
  const server = new ApiServer({
    clock: sim,
    rng: sim.rng.fork("server"),
    tokenKey: sim.rng.fork("token").bytes(32),
    dialect,
    build: BUILD,
    ...VIRTUAL_TIME_WINDOWS,
  });
  return {
    transport: server.handle,
    baseUrl: "http://virtual-time.invalid",
    historyWindowMs: VIRTUAL_TIME_WINDOWS.historyWindowMs,
    advance: async (ms) => {
      await sim.runFor(ms);
    },
    close: () => server.close(),
  };
}
