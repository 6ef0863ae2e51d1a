/**
 * The embedded API server for tests in other projects (envtest's role, without binaries): on a
 * loopback port with a kubeconfig (`startEmbeddedServer`), or as an in-process handler
 * (`createEmbeddedServer`). Wiring only: the server is `ApiServer`, the socket is
 * sim/transport/loopback-server.ts (wired as `orb-harness serve` wires it), the auth files are
 * read by the parsers `serve` uses, the kubeconfig is conformance/control-plane/kubeconfig-text.ts.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dialectByName, type DialectName } from "../../spec/dialects.ts";
import { ApiServer, SOCKET_WATCH_FLUSH_INTERVAL_MS, type ApiServerOptions } from "../../sim/apiserver/api-server.ts";
import { parsePolicyFile, type AuthConfig, type Policy } from "../../sim/apiserver/auth/index.ts";
import { parseStaticTokenFile } from "../../sim/apiserver/auth/token-file.ts";
import type { UserInfo } from "../../sim/apiserver/auth/user.ts";
import type { DefectName } from "../../sim/apiserver/defects/defects.ts";
import { goPlatform } from "../../sim/apiserver/discovery/server-version.ts";
import { parseCustomResourceDefinition } from "../../sim/apiserver/routing/custom-resources.ts";
import { realClock } from "../../sim/kernel/real-clock.ts";
import { Rng } from "../../sim/kernel/rng.ts";
import { Simulation } from "../../sim/kernel/simulation.ts";
import type { MvccStore } from "../../sim/store/mvcc-store.ts";
import { startLoopbackServer } from "../../sim/transport/loopback-server.ts";
import type { TlsCredentials } from "../../sim/transport/tls-files.ts";
import { kubeconfigText } from "../../conformance/control-plane/kubeconfig-text.ts";

/** A user a token authenticates: Kubernetes' token file columns (user, uid, groups). */
export interface TokenUser {
  readonly name: string;
  /** Default: the name. */
  readonly uid?: string;
  readonly groups?: readonly string[];
}

/**
 * Authentication and authorization (doc 1 §5), as `serve --token-file/--policy-file`; both are off
 * when `auth` is absent (every request is allowed, no credentials needed). With tokens, a request
 * with an unknown token is 401 and one without is anonymous; with a policy, every request but the
 * health endpoints must be allowed by one of its rules.
 */
export interface EmbeddedAuthOptions {
  /** Kubernetes' static token file (CSV `token,user,uid,"group1,group2"`), as `serve --token-file`. */
  readonly tokenFile?: string;
  /** Tokens inline (token → user), added to those of `tokenFile`. */
  readonly tokens?: Readonly<Record<string, TokenUser>>;
  /** A policy file (YAML rules: user or group, apiGroups, resources, verbs, namespaces), as `serve --policy-file`. */
  readonly policyFile?: string;
  /** The policy inline, in the policy file's YAML. */
  readonly policy?: string;
  /** The token the returned kubeconfig carries; default: the first of `tokens`, else of `tokenFile`. */
  readonly kubeconfigToken?: string;
  /**
   * `RBAC`: Roles, ClusterRoles and their bindings in the server authorize, as kube-apiserver's
   * RBAC authorizer does (needs tokens and the kubernetes dialect; the bootstrap ClusterRoles and
   * bindings exist from the start, `system:masters` may do anything), with the policy's rules as a
   * second authorizer if one is given; `AlwaysAllow`: everything is allowed (no policy). Default:
   * the policy when there is one, else AlwaysAllow. As `serve --authorization-mode`.
   */
  readonly authorizationMode?: "RBAC" | "AlwaysAllow";
}

/** How to set up an embedded server. Every duration is in milliseconds. */
export interface EmbeddedServerOptions {
  /** `kubernetes` (answers as kube-apiserver 1.26 does; the default) or `orb` (the documents' names). */
  readonly dialect?: DialectName;
  /**
   * `real` (the wall clock; the default), `virtual` (a Simulation of its own: time moves only when
   * you call `advance(ms)`), or a Simulation you run yourself.
   */
  readonly clock?: "real" | "virtual" | Simulation;
  /**
   * Seed of uids, generated names and the continue-token key (and of the Simulation with
   * `clock: "virtual"`). Default: random with the real clock, `"orb-harness"` with a virtual one.
   */
  readonly seed?: string;
  /** History kept for watches and Exact reads (default 5 minutes, doc 1 §8). */
  readonly historyWindowMs?: number;
  /** How often history is compacted (default 5 minutes, as kube-apiserver). */
  readonly compactionIntervalMs?: number;
  /** Bookmark interval of watches that allow bookmarks (default 1 minute). */
  readonly bookmarkIntervalMs?: number;
  /** Non-numeric resourceVersions, to catch clients that parse them. */
  readonly opaqueResourceVersions?: boolean;
  /** Custom resource types to serve: CustomResourceDefinitions as objects or JSON/YAML text. */
  readonly customResourceDefinitions?: readonly (string | object)[];
  /** Tokens and policy; none: authentication and authorization are off. */
  readonly auth?: EmbeddedAuthOptions;
  /** Bugs to plant on purpose (`defects`, `orb-harness serve --defect help`), to see a client or the suite catch them. Never for real use. */
  readonly defects?: readonly DefectName[];
}

/** Options of `startEmbeddedServer`: those of the server, and of its socket. */
export interface StartEmbeddedServerOptions extends EmbeddedServerOptions {
  /** The port on 127.0.0.1; default: a free one. */
  readonly port?: number;
  /** Serve https with this PEM certificate and key (`readTlsFiles` reads them from files); the kubeconfig then trusts the certificate. */
  readonly tls?: TlsCredentials;
}

/** An embedded server without a socket. */
export interface InProcessEmbeddedServer {
  /** Answers one request; never throws (every failure is a Status response). Pass `new Request("http://any.host/api/v1/…")`. */
  readonly handler: (request: Request) => Promise<Response>;
  readonly server: ApiServer;
  /** The server's MVCC store. */
  readonly store: MvccStore;
  /** The simulation the server runs on, with a virtual clock; undefined with the real clock. */
  readonly simulation: Simulation | undefined;
  /** With a virtual clock: runs the simulation `ms` further (timers fire: compaction, bookmarks, expiry). Throws with the real clock. */
  advance(ms: number): Promise<void>;
  /** Stops the server's background work and ends its watches. Idempotent. */
  close(): Promise<void>;
}

/** An embedded server on a loopback port. */
export interface EmbeddedServer extends Omit<InProcessEmbeddedServer, "close"> {
  /** `http://127.0.0.1:PORT` (`https://` with `tls`). */
  readonly url: string;
  readonly port: number;
  /** A kubeconfig for the server (`KubeConfig.loadFromString`, `kubectl --kubeconfig`), with `token` when auth has tokens. */
  readonly kubeconfig: string;
  /** The same kubeconfig in a file of a temporary directory, removed by `stop()`. */
  readonly kubeconfigPath: string;
  /** The bearer token the kubeconfig carries, if any. */
  readonly token: string | undefined;
  /** Closes the socket (open watches end), stops the server and removes the kubeconfig file. Idempotent. */
  stop(): Promise<void>;
}

/** What the options make: the server's options, its simulation, the kubeconfig's token. */
interface Resolved {
  readonly serverOptions: ApiServerOptions;
  readonly simulation: Simulation | undefined;
  readonly token: string | undefined;
}

function resolve(options: EmbeddedServerOptions): Resolved {
  const dialect = dialectByName(options.dialect ?? "kubernetes");
  const simulation = options.clock === "virtual" ? new Simulation({ seed: options.seed ?? "orb-harness" }) : options.clock instanceof Simulation ? options.clock : undefined;
  const rng = simulation?.rng ?? new Rng(options.seed ?? randomBytes(16).toString("hex"));
  const { auth, token } = resolveAuth(options.auth);
  if (auth?.authorizationMode === "RBAC" && dialect.name !== "kubernetes") throw new TypeError('auth.authorizationMode "RBAC" needs dialect "kubernetes" (the bootstrap policy names Kubernetes\' groups)');
  const serverOptions: ApiServerOptions = {
    clock: simulation ?? realClock,
    rng: rng.fork("server"),
    // Real randomness unless a seed or a simulation makes the run reproducible (see ApiServerOptions.tokenKey).
    tokenKey: simulation !== undefined || options.seed !== undefined ? rng.fork("token").bytes(32) : randomBytes(32),
    dialect,
    build: { platform: goPlatform(process.platform, process.arch) },
    // As `serve` in real time; none in virtual time, where a flush interval would wait for advance().
    watchFlushIntervalMs: simulation === undefined ? SOCKET_WATCH_FLUSH_INTERVAL_MS : 0,
    ...(options.historyWindowMs !== undefined && { historyWindowMs: options.historyWindowMs }),
    ...(options.compactionIntervalMs !== undefined && { compactionIntervalMs: options.compactionIntervalMs }),
    ...(options.bookmarkIntervalMs !== undefined && { bookmarkIntervalMs: options.bookmarkIntervalMs }),
    ...(options.opaqueResourceVersions === true && { opaqueResourceVersions: true }),
    ...(auth !== undefined && { auth }),
    ...(options.customResourceDefinitions !== undefined && {
      customResourceDefinitions: options.customResourceDefinitions.map((definition, index) =>
        parseCustomResourceDefinition(typeof definition === "string" ? definition : JSON.stringify(definition), `customResourceDefinitions[${index}]`),
      ),
    }),
    ...(options.defects !== undefined && options.defects.length > 0 && { defects: new Set(options.defects) }),
    // As `serve`: clients wait for each namespace's default ServiceAccount before creating Pods.
    defaultServiceAccounts: true,
    trackManagedFields: true,
  };
  return { serverOptions, simulation, token };
}

/** The server's AuthConfig and the kubeconfig's token; undefined and undefined without `auth`. */
function resolveAuth(options: EmbeddedAuthOptions | undefined): { auth: AuthConfig | undefined; token: string | undefined } {
  if (options === undefined) return { auth: undefined, token: undefined };
  if (options.policy !== undefined && options.policyFile !== undefined) throw new TypeError("auth: give policy or policyFile, not both");
  const tokens = new Map<string, UserInfo>(options.tokenFile === undefined ? [] : parseStaticTokenFile(readFileSync(options.tokenFile, "utf8")).tokens);
  for (const [token, user] of Object.entries(options.tokens ?? {})) tokens.set(token, { name: user.name, uid: user.uid ?? user.name, groups: [...(user.groups ?? [])] });
  const policyText = options.policy ?? (options.policyFile === undefined ? undefined : readFileSync(options.policyFile, "utf8"));
  const policy: Policy | undefined = policyText === undefined ? undefined : parsePolicyFile(policyText);
  const firstInline = Object.keys(options.tokens ?? {})[0];
  const token = options.kubeconfigToken ?? firstInline ?? tokens.keys().next().value;
  if (token !== undefined && !tokens.has(token)) throw new TypeError("auth.kubeconfigToken is none of the tokens given");
  if (options.authorizationMode === "RBAC" && tokens.size === 0) throw new TypeError('auth.authorizationMode "RBAC" needs tokens (tokens or tokenFile)');
  if (options.authorizationMode === "AlwaysAllow" && policy !== undefined) throw new TypeError('auth.authorizationMode "AlwaysAllow" takes no policy');
  return {
    auth: { ...(tokens.size > 0 && { tokens }), ...(policy !== undefined && { policy }), ...(options.authorizationMode !== undefined && { authorizationMode: options.authorizationMode }) },
    token,
  };
}

function advancer(simulation: Simulation | undefined): (ms: number) => Promise<void> {
  return async (ms) => {
    if (simulation === undefined) throw new Error('advance() needs a virtual clock (clock: "virtual" or a Simulation)');
    await simulation.runFor(ms);
  };
}

/** Makes an embedded server reached through its handler, without a socket. */
export function createEmbeddedServer(options: EmbeddedServerOptions = {}): InProcessEmbeddedServer {
  const { serverOptions, simulation } = resolve(options);
  const server = new ApiServer(serverOptions);
  return {
    handler: server.handle,
    server,
    store: server.store,
    simulation,
    advance: advancer(simulation),
    close: async () => server.close(),
  };
}

/** Starts an embedded server on 127.0.0.1 and resolves once it answers; `stop()` it when done. */
export async function startEmbeddedServer(options: StartEmbeddedServerOptions = {}): Promise<EmbeddedServer> {
  const { serverOptions, simulation, token } = resolve(options);
  const { dialect: _dialect, ...rest } = serverOptions;
  const loopback = await startLoopbackServer({
    ...rest,
    dialectName: options.dialect ?? "kubernetes",
    ...(options.port !== undefined && { port: options.port }),
    ...(options.tls !== undefined && { tls: options.tls }),
  });
  const kubeconfig = kubeconfigText({
    server: loopback.url,
    ...(options.tls !== undefined ? { certificateAuthorityPem: options.tls.cert } : { insecureSkipTlsVerify: true }),
    ...(token !== undefined && { token }),
  });
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), "orb-harness-"));
    writeFileSync(join(dir, "kubeconfig"), kubeconfig, { mode: 0o600 });
  } catch (error) {
    await loopback.close();
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    url: loopback.url,
    port: loopback.port,
    kubeconfig,
    kubeconfigPath: join(dir, "kubeconfig"),
    token,
    handler: loopback.server.handle,
    server: loopback.server,
    store: loopback.server.store,
    simulation,
    advance: advancer(simulation),
    stop: () =>
      (stopped ??= (async () => {
        try {
          await loopback.close();
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      })()),
  };
}
