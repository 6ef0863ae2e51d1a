/** A server on a virtual clock for tests, with a tiny client that speaks JSON to its handler. */
import { dialectByName, type DialectName } from "../../spec/dialects.ts";
import { Simulation } from "../kernel/simulation.ts";
import { ApiServer, type ApiServerOptions } from "./api-server.ts";

/** A test server and its helpers. */
export interface TestServer {
  readonly sim: Simulation;
  readonly server: ApiServer;
  /** Sends a request; a non-string body is sent as JSON. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; json: any; text: string }>;
}

/** A fresh server in `dialect` on a fresh simulation. */
export function testServer(dialect: DialectName = "kubernetes", options: Partial<ApiServerOptions> = {}): TestServer {
  const sim = new Simulation({ seed: `api-server-test-${dialect}` });
  const server = new ApiServer({
    clock: sim,
    rng: sim.rng.fork("server"),
    tokenKey: sim.rng.fork("token").bytes(32),
    dialect: dialectByName(dialect),
    build: { platform: "linux/amd64" },
    ...options,
  });
  return {
    sim,
    server,
    async call(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { ...(body !== undefined && typeof body !== "string" && { "content-type": "application/json" }), ...headers } };
      if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
      const response = await server.handle(new Request(`http://test.local${path}`, init));
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, json, text };
    },
  };
}
