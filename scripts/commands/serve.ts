/** `orb-harness serve`: the embedded API server on a real socket (wiring only). */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { dialectByName, type Dialect } from "../../spec/dialects.ts";
import { ApiServer, SOCKET_WATCH_FLUSH_INTERVAL_MS } from "../../sim/apiserver/api-server.ts";
import { socketAnswers } from "../../sim/apiserver/responses/http-response.ts";
import { goPlatform } from "../../sim/apiserver/discovery/server-version.ts";
import { DEFAULT_SERVICE_CLUSTER_IP_RANGE, parseIpv4Cidr } from "../../sim/apiserver/admission/service-allocation.ts";
import { parseSideEffectPlugin, type SideEffectPlugin } from "../../sim/apiserver/admission/side-effect-plugins.ts";
import { AUTHORIZATION_MODES, parsePolicyFile, parseStaticTokenFile, type AuthConfig, type AuthorizationMode } from "../../sim/apiserver/auth/index.ts";
import { parseCustomResourceDefinition, type CustomResourceDefinition } from "../../sim/apiserver/routing/custom-resources.ts";
import type { DefectName } from "../../sim/apiserver/defects/defects.ts";
import { Rng } from "../../sim/kernel/rng.ts";
import { realClock } from "../../sim/kernel/real-clock.ts";
import { serveHttp, type HttpServerHandle } from "../../sim/transport/http-server.ts";
import { hostMetricLines } from "../../sim/transport/host-metrics.ts";
import { readTlsFiles, TlsFilesError, type TlsCredentials } from "../../sim/transport/tls-files.ts";
import { UsageError, type CliCommand, type CliOutput } from "../cli-command.ts";
import { listDefects, plantedDefects } from "../defect-flags.ts";
import { durationFlagMs } from "../duration-flag.ts";
import { parseFlags, type FlagSpec } from "../parse-flags.ts";

/**
 * How long requests in flight may take to finish once the shutdown delay is over and the listener
 * has closed, before their connections are cut: kube-apiserver waits for them up to its request
 * timeout (60 s); a list or a write here takes milliseconds, so a few seconds leave a wide margin.
 */
const SHUTDOWN_GRACE_MS = 5_000;

/** The serve command. */
export const serveCommand: CliCommand = {
  name: "serve",
  summary: "run the embedded API server (doc 1) for kubectl and client libraries",
  usage: [
    "usage: orb-harness serve [--host 127.0.0.1] [--port N|0] [--dialect kubernetes|orb] [--history 5m]",
    "                         [--compaction-interval 5m] [--bookmark-interval 1m] [--watch-buffer 1000] [--opaque-resource-versions]",
    "                         [--service-cluster-ip-range 10.0.0.0/24] [--admission-plugin NAME=RES[,RES]:SIDEEFFECTS]...",
    "                         [--token-file FILE] [--authorization-mode RBAC|AlwaysAllow] [--policy-file FILE]",
    "                         [--fail-check NAME]... [--shutdown-delay-duration 0s]",
    "                         [--livez-grace-period 0s] [--tls-cert-file FILE --tls-private-key-file FILE]",
    "                         [--defect NAME]...",
    "",
    "  --host                       address to listen on (default 127.0.0.1)",
    "  --port                       port; 0 picks a free one (default 0)",
    "  --dialect                    kubernetes (answers as kube-apiserver 1.26, the default) or orb (the documents' names)",
    "  --history                    history kept for watches and Exact reads (default 5m)",
    "  --compaction-interval        how often history is compacted (default 5m)",
    "  --bookmark-interval          bookmark interval of watches that allow them (default 1m)",
    "  --watch-buffer               events a watcher may leave unread before the server cuts it off (default 1000)",
    "  --opaque-resource-versions   emit non-numeric resourceVersions",
    "  --service-cluster-ip-range   IPv4 CIDR that Service cluster IPs come from (default 10.0.0.0/24)",
    "  --admission-plugin           an admission plugin matching RESOURCES, declaring side effects None,",
    "                               NoneOnDryRun, Some or Unknown; dry runs that reach Some or Unknown fail",
    "  --token-file                 static tokens, Kubernetes' CSV: token,user,uid,\"group1,group2\"",
    "  --policy-file                YAML rules (user or group, apiGroups, resources, verbs, namespaces);",
    "                               with either file, authentication and authorization are on",
    "  --authorization-mode         RBAC: Roles, ClusterRoles and their bindings authorize, as kube-apiserver's",
    "                               (needs --token-file and --dialect kubernetes; kube-apiserver's bootstrap",
    "                               ClusterRoles and bindings exist at start, system:masters may do anything);",
    "                               with --policy-file too, its rules are a second authorizer (allowed by either).",
    "                               AlwaysAllow: every request is allowed (not with --policy-file).",
    "                               Default: the policy file's rules when there is one, else AlwaysAllow",
    "  --tls-cert-file              serve https with this PEM certificate (chain); kubectl sends a token",
    "                               (--token) only over https",
    "  --tls-private-key-file       the PEM private key of --tls-cert-file (both or neither)",
    "  --fail-check                 make a health check fail (repeatable), to test clients' handling",
    "  --shutdown-delay-duration    on SIGTERM, /readyz fails at once and the server serves this long more",
    "  --livez-grace-period         startup time during which failing post-start hooks do not fail /livez",
    "  --crd                        serve the custom resource type a CustomResourceDefinition file defines (JSON only)",
    "  --defect                     plant a known bug on purpose (repeatable), to see the conformance suite",
    "                               (or soak, for a concurrency bug) catch it; `--defect help` lists them.",
    "                               Never for real use.",
    "",
    "Prints `serving on http://HOST:PORT` (https with a certificate) once listening. SIGINT or SIGTERM",
    "stops it. Example with tokens (the test fixture certificate: for local use only):",
    "  orb-harness serve --dialect kubernetes --port 6443 --token-file tokens.csv --policy-file policy.yaml \\",
    "    --tls-cert-file sim/transport/testdata/server.crt --tls-private-key-file sim/transport/testdata/server.key",
    "  kubectl --server https://127.0.0.1:6443 --certificate-authority sim/transport/testdata/server.crt \\",
    "    --token TOKEN get configmaps",
  ].join("\n"),
  async run(args, output) {
    let options: ServeOptions | "list-defects";
    try {
      options = serveOptions(args);
    } catch (error) {
      // The flags were right, the files are not: one line naming the file, no usage text.
      if (!(error instanceof TlsFilesError)) throw error;
      output.err(`orb-harness serve: ${error.message}`);
      return 2;
    }
    if (options === "list-defects") {
      listDefects(output);
      return 0;
    }
    return serve(options, output);
  },
};

/** The flags of `serve`. */
const SERVE_FLAGS = {
  host: "string",
  port: "integer",
  dialect: "string",
  history: "string",
  "compaction-interval": "string",
  "bookmark-interval": "string",
  "watch-buffer": "integer",
  "opaque-resource-versions": "boolean",
  "service-cluster-ip-range": "string",
  "admission-plugin": "repeated",
  "token-file": "string",
  "policy-file": "string",
  "authorization-mode": "string",
  "tls-cert-file": "string",
  "tls-private-key-file": "string",
  "fail-check": "repeated",
  "shutdown-delay-duration": "string",
  "livez-grace-period": "string",
  crd: "repeated",
  defect: "repeated",
} as const satisfies FlagSpec;

/** What `serve` runs with: every flag checked, every file it names read. */
interface ServeOptions {
  readonly host: string;
  readonly port: number;
  readonly dialect: Dialect;
  readonly historyWindowMs: number;
  readonly compactionIntervalMs: number;
  readonly bookmarkIntervalMs: number;
  readonly watchBufferCapacity: number | undefined;
  readonly opaqueResourceVersions: boolean;
  readonly serviceClusterIpRange: string;
  readonly sideEffectPlugins: readonly SideEffectPlugin[];
  readonly auth: AuthConfig | undefined;
  readonly health: { readonly failChecks: readonly string[]; readonly shutdownDelayMs: number; readonly livezGracePeriodMs: number };
  readonly customResourceDefinitions: readonly CustomResourceDefinition[];
  readonly tls: TlsCredentials | undefined;
  readonly defects: ReadonlySet<DefectName>;
}

/**
 * The options `args` give, or "list-defects" for `--defect help`. Throws UsageError for bad flags,
 * TlsFilesError for a certificate or key that cannot be read. (An unknown --fail-check is found
 * by the server itself, when it is made.)
 */
function serveOptions(args: readonly string[]): ServeOptions | "list-defects" {
  const { values, positionals } = parseFlags(args, SERVE_FLAGS);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const requestedDefects = values.get("defect") ?? [];
  if (requestedDefects.includes("help")) return "list-defects";
  const defects = plantedDefects(requestedDefects);
  const port = values.get("port") ?? 0;
  const watchBufferCapacity = values.get("watch-buffer");
  if (watchBufferCapacity !== undefined && watchBufferCapacity < 1) throw new UsageError(`--watch-buffer must be at least 1, got ${watchBufferCapacity}`);
  if (port < 0 || port > 65535) throw new UsageError(`--port must be 0..65535, got ${port}`);
  let dialect;
  try {
    dialect = dialectByName(values.get("dialect") ?? "kubernetes");
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const serviceClusterIpRange = values.get("service-cluster-ip-range") ?? DEFAULT_SERVICE_CLUSTER_IP_RANGE;
  let sideEffectPlugins;
  try {
    sideEffectPlugins = (values.get("admission-plugin") ?? []).map(parseSideEffectPlugin);
    parseIpv4Cidr(serviceClusterIpRange); // a bad range is a usage error here, not a crash at the first Service
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const tls = loadTls(values.get("tls-cert-file"), values.get("tls-private-key-file"));
  const authorizationMode = authorizationModeFlag(values.get("authorization-mode"), values.get("token-file"), values.get("policy-file"));
  if (authorizationMode === "RBAC" && dialect.name !== "kubernetes") {
    throw new UsageError("--authorization-mode RBAC needs --dialect kubernetes (its bootstrap policy is kube-apiserver's)");
  }
  const auth = loadAuth(values.get("token-file"), values.get("policy-file"), authorizationMode);
  const health = {
    failChecks: values.get("fail-check") ?? [],
    shutdownDelayMs: durationFlagMs(values.get("shutdown-delay-duration") ?? "0s", "shutdown-delay-duration", true),
    livezGracePeriodMs: durationFlagMs(values.get("livez-grace-period") ?? "0s", "livez-grace-period", true),
  };
  const customResourceDefinitions = (values.get("crd") ?? []).map((file) => {
    try {
      return parseCustomResourceDefinition(readFileSync(file, "utf8"), file);
    } catch (error) {
      throw new UsageError(`--crd: ${(error as Error).message}`);
    }
  });
  return {
    host: values.get("host") ?? "127.0.0.1",
    port,
    dialect,
    historyWindowMs: durationFlagMs(values.get("history") ?? "5m", "history"),
    compactionIntervalMs: durationFlagMs(values.get("compaction-interval") ?? "5m", "compaction-interval"),
    bookmarkIntervalMs: durationFlagMs(values.get("bookmark-interval") ?? "1m", "bookmark-interval"),
    watchBufferCapacity,
    opaqueResourceVersions: values.get("opaque-resource-versions") === true,
    serviceClusterIpRange,
    sideEffectPlugins,
    auth,
    health,
    customResourceDefinitions,
    tls,
    defects,
  };
}

/** Makes the server, listens, and serves until SIGINT (at once) or SIGTERM (gracefully). */
async function serve(options: ServeOptions, output: CliOutput): Promise<number> {
  const { dialect, health, defects: planted } = options;
  let server: ApiServer;
  // `/metrics` reports the socket's connections, which exist only once the server listens.
  let listening: HttpServerHandle | undefined;
  try {
    server = new ApiServer({
      clock: realClock,
      // Uids and generated names need no secrecy; the continue-token key does (see ApiServerOptions).
      rng: new Rng(randomBytes(16).toString("hex")),
      tokenKey: randomBytes(32),
      dialect,
      historyWindowMs: options.historyWindowMs,
      compactionIntervalMs: options.compactionIntervalMs,
      bookmarkIntervalMs: options.bookmarkIntervalMs,
      watchFlushIntervalMs: SOCKET_WATCH_FLUSH_INTERVAL_MS,
      ...(options.watchBufferCapacity !== undefined && { watchBufferCapacity: options.watchBufferCapacity }),
      opaqueResourceVersions: options.opaqueResourceVersions,
      serviceClusterIpRange: options.serviceClusterIpRange,
      sideEffectPlugins: options.sideEffectPlugins,
      ...(options.auth !== undefined && { auth: options.auth }),
      health,
      customResourceDefinitions: options.customResourceDefinitions,
      build: { platform: goPlatform(process.platform, process.arch) },
      hostMetrics: () => hostMetricLines(listening),
      ...(planted.size > 0 && { defects: planted }),
      // Real clients (kubectl, the conformance suite) wait for each namespace's default ServiceAccount before creating Pods.
      defaultServiceAccounts: true,
      trackManagedFields: true,
    });
  } catch (error) {
    // An unknown --fail-check name, for one.
    throw new UsageError((error as Error).message);
  }
  let http: HttpServerHandle;
  try {
    http = await serveHttp(server.handle, {
      host: options.host,
      port: options.port,
      ...socketAnswers,
      ...(options.tls !== undefined && { tls: options.tls }),
    });
  } catch (error) {
    server.close();
    const why = listenRefusal(error, options.host, options.port);
    if (why === undefined) throw error;
    output.err(`orb-harness serve: ${why}`);
    return 2;
  }
  listening = http;
  // The handlers go in before the URL is printed: whoever waits for that line may signal at once.
  const stopRequested = new Promise<"now" | "graceful">((resolve) => {
    process.once("SIGINT", () => resolve("now"));
    // Graceful, as kube-apiserver: /readyz fails now while requests are still served through the
    // shutdown delay; then the listener closes and requests in flight finish (drain below).
    process.once("SIGTERM", () => {
      output.out(`shutting down: /readyz fails now, stopping in ${health.shutdownDelayMs / 1000} s`);
      server.beginShutdown(() => resolve("graceful"));
      process.once("SIGTERM", () => resolve("now"));
    });
  });
  output.out(`serving on ${http.url} (dialect ${dialect.name})`);
  if (planted.size > 0) output.err(`WARNING: this server is wrong on purpose: planted defects ${[...planted].join(", ")} (see --defect help)`);
  if ((await stopRequested) === "graceful") {
    output.out(`listener closed; ending watches; requests in flight have ${SHUTDOWN_GRACE_MS / 1000} s to finish`);
    const drained = http.drain();
    server.close(); // ends every watch cleanly: each stream ends, so its request finishes
    const cut = setTimeout(() => void http.close(), SHUTDOWN_GRACE_MS);
    await drained;
    clearTimeout(cut);
  } else {
    server.close();
    await http.close();
  }
  output.out("stopped");
  return 0;
}

/** The certificate and key to serve https with, or undefined for plain http. */
function loadTls(certFile: string | undefined, keyFile: string | undefined): TlsCredentials | undefined {
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined) throw new UsageError("--tls-private-key-file needs --tls-cert-file (give both or neither)");
  if (keyFile === undefined) throw new UsageError("--tls-cert-file needs --tls-private-key-file (give both or neither)");
  return readTlsFiles(certFile, keyFile);
}

/**
 * `--authorization-mode`, checked against the files given: RBAC judges users, so it needs tokens
 * (without them every caller would be system:anonymous); AlwaysAllow with a policy file would
 * ignore the file, which is surely not what was meant.
 */
function authorizationModeFlag(value: string | undefined, tokenFile: string | undefined, policyFile: string | undefined): AuthorizationMode | undefined {
  if (value === undefined) return undefined;
  const mode = AUTHORIZATION_MODES.find((known) => known === value);
  if (mode === undefined) throw new UsageError(`--authorization-mode must be ${AUTHORIZATION_MODES.join(" or ")}, got ${JSON.stringify(value)}`);
  if (mode === "RBAC" && tokenFile === undefined) throw new UsageError("--authorization-mode RBAC needs --token-file (RBAC authorizes users; without tokens every caller is anonymous)");
  if (mode === "AlwaysAllow" && policyFile !== undefined) throw new UsageError("--authorization-mode AlwaysAllow allows everything: drop --policy-file, or use RBAC to combine them");
  return mode;
}

function loadAuth(tokenFile: string | undefined, policyFile: string | undefined, authorizationMode: AuthorizationMode | undefined): AuthConfig | undefined {
  if (tokenFile === undefined && policyFile === undefined) return undefined;
  const read = (file: string, flag: string) => {
    try {
      return readFileSync(file, "utf8");
    } catch (error) {
      throw new UsageError(`${flag}: ${(error as Error).message}`);
    }
  };
  try {
    return {
      ...(tokenFile !== undefined && { tokens: parseStaticTokenFile(read(tokenFile, "--token-file")).tokens }),
      ...(policyFile !== undefined && { policy: parsePolicyFile(read(policyFile, "--policy-file")) }),
      ...(authorizationMode !== undefined && { authorizationMode }),
    };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message);
  }
}

/** What a user is told when the port cannot be had (a port in use, a privileged port, an address not on this machine), or undefined for another failure. */
function listenRefusal(error: unknown, host: string, port: number): string | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE") return `port ${port} on ${host} is in use (another server is listening there); choose another with --port, or --port 0 for any free one`;
  if (code === "EACCES") return `port ${port} on ${host} needs privileges this process does not have; choose one above 1023 with --port`;
  if (code === "EADDRNOTAVAIL") return `${host} is not an address of this machine (--host)`;
  return undefined;
}
