/**
 * The embedded API server on a real socket at 127.0.0.1 and a free port, in real time (unless given
 * another `clock`), wired as `orb-harness serve` wires it (same body cap, header limit and answers
 * for refused requests): for tests, the safety checks' observed server, `fuzz --target http` and
 * the npm package's `startEmbeddedServer` (scripts/library/). Callers must `close()` it.
 */
import { dialectByName, type DialectName } from "../../spec/dialects.ts";
import { ApiServer, type ApiServerOptions } from "../apiserver/api-server.ts";
import { socketAnswers } from "../apiserver/responses/http-response.ts";
import { realClock } from "../kernel/real-clock.ts";
import { Rng } from "../kernel/rng.ts";
import { serveHttp, type FetchHandler, type HttpServerHandle } from "./http-server.ts";
import type { TlsCredentials } from "./tls-files.ts";

/** A served API server. */
export interface LoopbackServer {
  readonly server: ApiServer;
  /** `http://127.0.0.1:PORT` (`https://` with `tls`). */
  readonly url: string;
  /** The port; stays the same across `restartHttp`. */
  readonly port: number;
  /** Connections open and requests in flight now (0 and 0 while stopped). */
  connections(): { readonly open: number; readonly inFlight: number };
  /** Closes the socket (ending open watches) but keeps the ApiServer and its store. */
  stopHttp(): Promise<void>;
  /** Serves the same ApiServer again on the same port after `stopHttp`. */
  restartHttp(): Promise<void>;
  /** Closes the socket and stops the server's background work. Idempotent. */
  close(): Promise<void>;
}

/** What to serve: server options besides clock, rng, tokenKey and build, plus a handler wrapper. */
export interface LoopbackOptions extends Partial<Omit<ApiServerOptions, "dialect">> {
  readonly dialectName?: DialectName;
  /** Seed of the server's Rng (uids, generated names, watch timeouts). */
  readonly seed?: string;
  /** Wraps the handler, e.g. to count requests. */
  readonly wrap?: (handler: FetchHandler) => FetchHandler;
  /** Serve https with this certificate and key, as `serve --tls-cert-file` does. */
  readonly tls?: TlsCredentials;
  /** The port to listen on; 0 or absent: a free one. */
  readonly port?: number;
}

/** Starts an ApiServer (kubernetes dialect unless told) served on 127.0.0.1 at a free port (or `port`). */
export async function startLoopbackServer(options: LoopbackOptions = {}): Promise<LoopbackServer> {
  const { dialectName = "kubernetes", seed = "loopback-server", wrap, tls, port: requestedPort = 0, ...serverOptions } = options;
  const rng = new Rng(seed);
  const server = new ApiServer({
    clock: realClock,
    rng: rng.fork("server"),
    tokenKey: rng.fork("token").bytes(32),
    build: { platform: "linux/amd64" },
    ...serverOptions,
    dialect: dialectByName(dialectName),
  });
  const handler = wrap === undefined ? server.handle : wrap(server.handle);
  const listen = (port: number) => serveHttp(handler, { host: "127.0.0.1", port, ...socketAnswers, ...(tls !== undefined && { tls }) });
  let http: HttpServerHandle | undefined;
  try {
    http = await listen(requestedPort);
  } catch (error) {
    server.close();
    throw error;
  }
  const url = http.url;
  const port = Number(new URL(url).port);
  let closed = false;
  return {
    server,
    url,
    port,
    connections() {
      return { open: http?.openConnections ?? 0, inFlight: http?.requestsInFlight ?? 0 };
    },
    async stopHttp() {
      const running = http;
      http = undefined;
      await running?.close();
    },
    async restartHttp() {
      if (closed) throw new Error("loopback server is closed");
      if (http !== undefined) throw new Error("loopback server is already serving");
      http = await listen(port);
    },
    async close() {
      if (closed) return;
      closed = true;
      const running = http;
      http = undefined;
      server.close();
      await running?.close();
    },
  };
}
