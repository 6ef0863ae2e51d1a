/**
 * The embedded API server a soak runs against by default: in this process, on a real loopback
 * socket (startLoopbackServer, wired as `serve` is), in the kubernetes dialect, with
 * authentication on and one administrator token drawn at random. Its windows are short, so that a
 * one-minute soak sees what a long-lived server shows over hours: bookmarks every second, history
 * kept 15 s and compacted every 5 s (old versions answer 410, watchers relist). `defects` plants
 * known bugs (sim/apiserver/defects/defects.ts, `soak --defect`), to watch the checkers catch them.
 */
import { randomBytes } from "node:crypto";
import { SOCKET_WATCH_FLUSH_INTERVAL_MS } from "../../sim/apiserver/api-server.ts";
import { parsePolicyFile, type UserInfo } from "../../sim/apiserver/auth/index.ts";
import { NO_DEFECTS, type DefectName } from "../../sim/apiserver/defects/defects.ts";
import { GIT_VERSION } from "../../sim/apiserver/discovery/server-version.ts";
import { startLoopbackServer } from "../../sim/transport/loopback-server.ts";
import type { SoakTarget } from "./soak-target.ts";

const SOAK_ADMIN: UserInfo = { name: "orb-soak-admin", uid: "orb-soak-admin", groups: ["orb-soak:admins"] };

const POLICY = `
- group: ${SOAK_ADMIN.groups[0]}
  apiGroups: ["*"]
  resources: ["*"]
  verbs: ["*"]
- group: ${SOAK_ADMIN.groups[0]}
  nonResourceURLs: ["*"]
  verbs: ["*"]
`;

/** The embedded server's windows during a soak. */
export interface EmbeddedSoakWindows {
  readonly historyWindowMs: number;
  readonly compactionIntervalMs: number;
  readonly bookmarkIntervalMs: number;
}

/** Windows of a soak's embedded server unless told otherwise. */
export const EMBEDDED_SOAK_WINDOWS: EmbeddedSoakWindows = { historyWindowMs: 15_000, compactionIntervalMs: 5_000, bookmarkIntervalMs: 1_000 };

/** Options of the embedded server: planted defects, and other windows (tests shorten them). */
export interface EmbeddedSoakServerOptions {
  readonly defects?: ReadonlySet<DefectName>;
  readonly windows?: EmbeddedSoakWindows;
}

/** Starts the embedded server on 127.0.0.1 with a fresh administrator token; closing the target stops it. */
export async function startEmbeddedSoakServer(options: EmbeddedSoakServerOptions = {}): Promise<SoakTarget> {
  const token = randomBytes(24).toString("hex");
  const defects = options.defects ?? NO_DEFECTS;
  const served = await startLoopbackServer({
    // A random seed: uids and the continue-token key differ from run to run, as on a real server.
    seed: randomBytes(16).toString("hex"),
    auth: { tokens: new Map([[token, SOAK_ADMIN]]), policy: parsePolicyFile(POLICY) },
    ...(options.windows ?? EMBEDDED_SOAK_WINDOWS),
    // As `serve` runs: watches of the whole namespace share a broadcast (sim/apiserver/watch/watch-broadcast.ts).
    watchFlushIntervalMs: SOCKET_WATCH_FLUSH_INTERVAL_MS,
    defects,
  });
  return {
    kind: "embedded",
    url: served.url,
    description: `embedded ${served.url}${defects.size > 0 ? ` (planted defects: ${[...defects].join(", ")})` : ""}`,
    serverVersion: GIT_VERSION,
    identity: { transport: (request) => fetch(request), authHeaders: { authorization: `Bearer ${token}` } },
    secrets: [token],
    close: () => served.close(),
  };
}
