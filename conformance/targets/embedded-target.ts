/**
 * The default target: the embedded API server on a loopback port (real HTTP, so the wire is
 * tested too), plus, for virtual-time cases, a fresh embedded server per case on a simulated clock
 * with short history and bookmark windows, reached through its handler.
 *
 * Authentication and authorization are on (doc 1 §5), with two identities, each a bearer token
 * drawn at random per run (both listed in `secrets`, so no output ever shows them):
 * - the main identity, user `orb-conformance-admin` in group `orb-conformance:admins`, which the
 *   policy allows everything (every group, resource and verb, and every non-resource path);
 * - the restricted identity (`Target.restricted`), user `orb-conformance-restricted` in no group
 *   but the `system:authenticated` every signed-in user gets, allowed only to read ConfigMaps (get,
 *   list, watch, in every namespace) and to patch Deployments (doc 1 §5.2's example rule: apiGroups
 *   `apps`, resources `deployments`, verbs `patch`), plus what the server's built-in rules give every
 *   signed-in caller (the health endpoints, /version, discovery). Everything else is 403.
 * The virtual-time servers get the same tokens and policy, so either identity means the same there.
 */
import { randomBytes } from "node:crypto";
import type { Dialect } from "../../spec/dialects.ts";
import { ApiServer } from "../../sim/apiserver/api-server.ts";
import { parseCustomResourceDefinition } from "../../sim/apiserver/routing/custom-resources.ts";
import { NO_DEFECTS, type DefectName } from "../../sim/apiserver/defects/defects.ts";
import { parsePolicyFile, type AuthConfig, type UserInfo } from "../../sim/apiserver/auth/index.ts";
import { socketAnswers } from "../../sim/apiserver/responses/http-response.ts";
import { GIT_VERSION } from "../../sim/apiserver/discovery/server-version.ts";
import { Rng } from "../../sim/kernel/rng.ts";
import { realClock } from "../../sim/kernel/real-clock.ts";
import { Simulation } from "../../sim/kernel/simulation.ts";
import { serveHttp } from "../../sim/transport/http-server.ts";
import type { Identity, Target, VirtualTimeServer } from "./target.ts";

/** Windows of the virtual-time servers: short, so expiry and bookmarks happen in a few virtual seconds. */
export const VIRTUAL_TIME_WINDOWS = { historyWindowMs: 10_000, compactionIntervalMs: 10_000, bookmarkIntervalMs: 1_000 } as const;

const BUILD = { platform: "linux/amd64" };

/**
 * One custom resource type, so the cases about custom types (JSON only, doc 1 §4.3.2; the default
 * Table, §2.5) have something to check on the embedded server too, as on a real cluster.
 */
const SAMPLE_CUSTOM_RESOURCE = parseCustomResourceDefinition(
  JSON.stringify({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.conformance.orb-harness.io" },
    spec: {
      group: "conformance.orb-harness.io",
      scope: "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } }],
    },
  }),
  "the sample Widget definition",
);

/** The main identity: allowed everything through its group. */
export const EMBEDDED_ADMIN: UserInfo = { name: "orb-conformance-admin", uid: "orb-conformance-admin", groups: ["orb-conformance:admins"] };
/** The second identity: reads ConfigMaps and patches Deployments, nothing else (see the policy). */
export const EMBEDDED_RESTRICTED: UserInfo = { name: "orb-conformance-restricted", uid: "orb-conformance-restricted", groups: [] };

/** The policy of the embedded target, in the policy-file format of sim/apiserver/auth/policy-file.ts. */
const POLICY = `
- group: ${EMBEDDED_ADMIN.groups[0]}
  apiGroups: ["*"]
  resources: ["*"]
  verbs: ["*"]
- group: ${EMBEDDED_ADMIN.groups[0]}
  nonResourceURLs: ["*"]
  verbs: ["*"]
- user: ${EMBEDDED_RESTRICTED.name}
  apiGroups: [""]
  resources: [configmaps]
  verbs: [get, list, watch]
- user: ${EMBEDDED_RESTRICTED.name}
  apiGroups: [apps]
  resources: [deployments]
  verbs: [patch]
`;

/** Two fresh tokens and the server's auth settings for them. */
function embeddedAuth(): { auth: AuthConfig; adminToken: string; restrictedToken: string } {
  const adminToken = randomBytes(24).toString("hex");
  const restrictedToken = randomBytes(24).toString("hex");
  const tokens = new Map<string, UserInfo>([
    [adminToken, EMBEDDED_ADMIN],
    [restrictedToken, EMBEDDED_RESTRICTED],
  ]);
  return { auth: { tokens, policy: parsePolicyFile(POLICY) }, adminToken, restrictedToken };
}

function bearer(token: string): Identity {
  return { transport: (request) => fetch(request), authHeaders: { authorization: `Bearer ${token}` } };
}

/** Options of an embedded target beyond its dialect. */
export interface EmbeddedTargetOptions {
  /**
   * Bugs to plant in the embedded servers, the real-time one and every virtual-time one
   * (sim/apiserver/defects/defects.ts); none by default. Only conformance/defects.test.ts sets this, to
   * show the suite catches each one.
   */
  readonly defects?: ReadonlySet<DefectName>;
}

/** Starts the embedded server on 127.0.0.1 and describes it as a target. */
export async function startEmbeddedTarget(dialect: Dialect, options: EmbeddedTargetOptions = {}): Promise<Target> {
  const { auth, adminToken, restrictedToken } = embeddedAuth();
  const defects = options.defects ?? NO_DEFECTS;
  const server = new ApiServer({
    clock: realClock,
    rng: new Rng(randomBytes(16).toString("hex")),
    tokenKey: randomBytes(32),
    dialect,
    build: BUILD,
    auth,
    defects,
    customResourceDefinitions: [SAMPLE_CUSTOM_RESOURCE],
    // As `serve` (and so for the planted-defect runs too): Pod cases wait for the default ServiceAccount.
    defaultServiceAccounts: true,
    trackManagedFields: true,
  });
  const http = await serveHttp(server.handle, {
    host: "127.0.0.1",
    port: 0,
    ...socketAnswers,
  });
  let virtualServers = 0;
  return {
    kind: "embedded",
    url: http.url,
    dialect,
    serverVersion: GIT_VERSION,
    identity: bearer(adminToken),
    restricted: bearer(restrictedToken),
    secrets: [adminToken, restrictedToken],
    virtualTimeServer: () => virtualTimeServer(dialect, `virtual-${virtualServers++}`, auth, defects),
    async close() {
      server.close();
      await http.close();
    },
  };
}

/**
 * An ApiServer on a simulation of its own, seeded `seed`, with the short VIRTUAL_TIME_WINDOWS: the
 * conformance target's virtual-time server, and the model (and embedded target) of `fuzz --target api`.
 */
export function virtualTimeApiServer(dialect: Dialect, seed: string, defects: ReadonlySet<DefectName>, auth?: AuthConfig): { readonly sim: Simulation; readonly server: ApiServer } {
  const sim = new Simulation({ seed });
  const server = new ApiServer({
    clock: sim,
    rng: sim.rng.fork("server"),
    tokenKey: sim.rng.fork("token").bytes(32),
    dialect,
    build: BUILD,
    ...(auth !== undefined && { auth }),
    defects,
    // As the conformance target's socket server: real clients' writes keep managedFields.
    trackManagedFields: true,
    ...VIRTUAL_TIME_WINDOWS,
  });
  return { sim, server };
}

function virtualTimeServer(dialect: Dialect, seed: string, auth: AuthConfig, defects: ReadonlySet<DefectName>): VirtualTimeServer {
  const { sim, server } = virtualTimeApiServer(dialect, seed, defects, auth);
  return {
    transport: server.handle,
    baseUrl: "http://virtual-time.invalid",
    historyWindowMs: VIRTUAL_TIME_WINDOWS.historyWindowMs,
    compactionIntervalMs: VIRTUAL_TIME_WINDOWS.compactionIntervalMs,
    advance: async (ms) => {
      await sim.runFor(ms);
    },
    close: () => server.close(),
  };
}
