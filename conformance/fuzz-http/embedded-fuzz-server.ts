/**
 * The embedded API server the HTTP fuzzer runs against by default: in this process (so its memory
 * can be measured), on a real loopback socket (so the wire is fuzzed too), in the kubernetes
 * dialect, with authentication on and one administrator token drawn at random, as the
 * conformance suite's embedded target serves it (conformance/targets/embedded-target.ts).
 */
import { randomBytes } from "node:crypto";
import { dialectByName } from "../../spec/dialects.ts";
import { ApiServer } from "../../sim/apiserver/api-server.ts";
import { parsePolicyFile, type UserInfo } from "../../sim/apiserver/auth/index.ts";
import { NO_DEFECTS, type DefectName } from "../../sim/apiserver/defects/defects.ts";
import { Rng } from "../../sim/kernel/rng.ts";
import { realClock } from "../../sim/kernel/real-clock.ts";
import { startLoopbackServer } from "../../sim/transport/loopback-server.ts";

const FUZZER: UserInfo = { name: "orb-fuzz-admin", uid: "orb-fuzz-admin", groups: ["orb-fuzz:admins"] };

const POLICY = `
- group: ${FUZZER.groups[0]}
  apiGroups: ["*"]
  resources: ["*"]
  verbs: ["*"]
- group: ${FUZZER.groups[0]}
  nonResourceURLs: ["*"]
  verbs: ["*"]
`;

/**
 * How long a read at a resourceVersion the server has not reached waits before its 504. Kubernetes
 * waits about 3 s; the fuzzer sends such reads by the hundred, and the wait is not what it tests.
 */
const FUTURE_VERSION_WAIT_MS = 100;

/** A running embedded server. */
export interface EmbeddedFuzzServer {
  readonly url: string;
  readonly token: string;
  close(): Promise<void>;
}

/**
 * Starts the embedded server on 127.0.0.1 with a fresh administrator token. `defects` plants known
 * bugs (sim/apiserver/defects/defects.ts), for the tests that show the fuzzer catches them.
 */
export async function startEmbeddedFuzzServer(defects: ReadonlySet<DefectName> = NO_DEFECTS): Promise<EmbeddedFuzzServer> {
  const token = randomBytes(24).toString("hex");
  // A random seed: uids, and the continue-token key, differ from run to run as on a real server.
  const served = await startLoopbackServer({
    seed: randomBytes(16).toString("hex"),
    auth: { tokens: new Map([[token, FUZZER]]), policy: parsePolicyFile(POLICY) },
    tooLargeResourceVersionWaitMs: FUTURE_VERSION_WAIT_MS,
    defects,
  });
  return { url: served.url, token, close: () => served.close() };
}

/**
 * A continue token from another server instance (issue #14: tokens "from another server
 * instance"): a second embedded server, reached through its handler, lists two ConfigMaps one at
 * a time.
 */
export async function foreignContinueToken(): Promise<string> {
  const server = new ApiServer({ clock: realClock, rng: new Rng("foreign"), tokenKey: randomBytes(32), dialect: dialectByName("kubernetes"), build: { platform: "linux/amd64" } });
  try {
    for (const name of ["a", "b"]) {
      await server.handle(new Request("http://foreign/api/v1/namespaces/default/configmaps", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ metadata: { name } }) }));
    }
    const list = (await (await server.handle(new Request("http://foreign/api/v1/namespaces/default/configmaps?limit=1"))).json()) as { metadata?: { continue?: string } };
    return list.metadata?.continue ?? "";
  } finally {
    server.close();
  }
}
