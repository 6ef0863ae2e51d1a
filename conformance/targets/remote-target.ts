/**
 * A real endpoint as target: `--server URL` with a token, CA and client certificate, or a
 * kubeconfig loaded with @kubernetes/client-node (so exec credential plugins, client certificates
 * and tokens work as users expect). An unreachable or unauthorized target fails before any case.
 */
import { readFileSync } from "node:fs";
import type { RequestOptions as HttpsRequestOptions } from "node:https";
import { KubeConfig, type Cluster } from "@kubernetes/client-node";
import { Agent, fetch as undiciFetch } from "undici";
import { dialectByName, type Dialect } from "../../spec/dialects.ts";
import type { Transport } from "../client/conformance-client.ts";
import { detectDialect } from "./dialect-detection.ts";
import type { Identity, Target } from "./target.ts";

/** A target that cannot be used: the CLI prints the one-line reason and exits 2. */
export class TargetError extends Error {}

/** How to reach one identity on a real server. */
export interface Credentials {
  readonly token?: string;
  readonly certificateAuthority?: string;
  readonly clientCertificate?: string;
  readonly clientKey?: string;
  readonly insecureSkipTlsVerify?: boolean;
}

/** Where the target is and who we are there. */
export type RemoteTargetOptions = (
  | { readonly server: string; readonly credentials: Credentials }
  | { readonly kubeconfig: string; readonly context?: string; readonly insecureSkipTlsVerify?: boolean }
) & {
  readonly dialect: "orb" | "kubernetes" | "auto";
  /** The second identity, for authorization cases. */
  readonly restricted?: { readonly token: string } | { readonly kubeconfig: string; readonly context?: string };
};

const PROBE_TIMEOUT_MS = 10_000;
/** Why a server's certificate failed verification (node's error codes): the user must say whom to trust. */
const UNTRUSTED_CERTIFICATE = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/** Connects to a real server, checks it answers /version as us, and detects its dialect. */
export async function connectRemoteTarget(options: RemoteTargetOptions): Promise<Target> {
  // kubectl's --insecure-skip-tls-verify overrides the kubeconfig: for both identities, on the one server.
  const insecure = "kubeconfig" in options && options.insecureSkipTlsVerify === true;
  const main = "server" in options ? fromCredentials(options.server, options.credentials) : await fromKubeconfig(options.kubeconfig, options.context, insecure);
  const version = await probe(main.url, main.identity);
  const restricted =
    options.restricted === undefined
      ? undefined
      : "token" in options.restricted
        ? withToken(main, options.restricted.token)
        : (await fromKubeconfig(options.restricted.kubeconfig, options.restricted.context, insecure, "--restricted-context")).identity;
  const dialect: Dialect = options.dialect === "auto" ? await detectDialect(main.identity.transport, main.url, main.identity.authHeaders) : dialectByName(options.dialect);
  const secrets = [...main.secrets, ...(options.restricted && "token" in options.restricted ? [options.restricted.token] : [])];
  return {
    kind: "server" in options ? "server" : "kubeconfig",
    url: main.url,
    dialect,
    serverVersion: version,
    identity: main.identity,
    restricted,
    secrets,
    virtualTimeServer: undefined,
    close: async () => undefined,
  };
}

interface Connection {
  readonly url: string;
  readonly identity: Identity;
  readonly secrets: string[];
  /** Server verification only, no client certificate: what a token-only second identity uses. */
  readonly serverTls: { ca?: string | undefined; rejectUnauthorized: boolean };
}

function fromCredentials(server: string, credentials: Credentials): Connection {
  const url = server.replace(/\/+$/, "");
  if (!/^https?:\/\//.test(url)) throw new TargetError(`--server must be an http(s) URL, got ${JSON.stringify(server)}`);
  const read = (file: string | undefined, what: string) => {
    if (file === undefined) return undefined;
    try {
      return readFileSync(file, "utf8");
    } catch (error) {
      throw new TargetError(`cannot read ${what} ${file}: ${(error as Error).message}`);
    }
  };
  const key = read(credentials.clientKey, "--client-key");
  const tls = {
    ca: read(credentials.certificateAuthority, "--certificate-authority"),
    cert: read(credentials.clientCertificate, "--client-certificate"),
    key,
    rejectUnauthorized: credentials.insecureSkipTlsVerify !== true,
  };
  const headers: Record<string, string> = credentials.token === undefined ? {} : { authorization: `Bearer ${credentials.token}` };
  return {
    url,
    identity: { transport: undiciTransport(tls), authHeaders: headers },
    secrets: [credentials.token, key].filter((s): s is string => s !== undefined),
    serverTls: { ca: tls.ca, rejectUnauthorized: tls.rejectUnauthorized },
  };
}

async function fromKubeconfig(path: string, context: string | undefined, insecureSkipTlsVerify: boolean, contextFlag = "--context"): Promise<Connection> {
  const config = new KubeConfig();
  try {
    config.loadFromFile(path);
  } catch (error) {
    throw new TargetError(`cannot load kubeconfig ${path}: ${withoutQuotedLines(error)}`);
  }
  if (context !== undefined) {
    // A context the file lacks is a mistyped name, not a file without a cluster: said as such, with the names it has.
    if (config.getContextObject(context) === null) {
      const names = config.getContexts().map((entry) => entry.name);
      throw new TargetError(`${contextFlag} ${context}: kubeconfig ${path} has no such context (${names.length === 0 ? "it has none" : `it has ${names.join(", ")}`})`);
    }
    config.setCurrentContext(context);
  }
  const cluster = config.getCurrentCluster();
  if (cluster === null) throw new TargetError(`kubeconfig ${path} has no current cluster${context === undefined ? "" : ` for context ${context}`}`);
  allowPlainHttp(config, cluster);
  const options: HttpsRequestOptions = {};
  try {
    await config.applyToHTTPSOptions(options);
  } catch (error) {
    throw new TargetError(`kubeconfig ${path}: cannot get credentials: ${withoutQuotedLines(error)}`);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) if (typeof value === "string") headers[name.toLowerCase()] = value;
  const text = (value: unknown) => (value === undefined ? undefined : Buffer.isBuffer(value) ? value.toString("utf8") : String(value));
  const key = text(options.key);
  const tls = { ca: text(options.ca), cert: text(options.cert), key, rejectUnauthorized: cluster.skipTLSVerify !== true && !insecureSkipTlsVerify };
  const secrets = [headers["authorization"]?.replace(/^Bearer /, ""), key].filter((s): s is string => s !== undefined && s !== "");
  return {
    url: cluster.server.replace(/\/+$/, ""),
    identity: { transport: undiciTransport(tls), authHeaders: headers },
    secrets,
    serverTls: { ca: tls.ca, rejectUnauthorized: tls.rejectUnauthorized },
  };
}

/**
 * The first line of an error about a kubeconfig: the YAML parser goes on to quote the lines around
 * the mistake, which may hold a token or a key (a user's credentials, printed to a CI log).
 */
function withoutQuotedLines(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!.trim();
}

/**
 * client-node refuses an http:// cluster unless insecure-skip-tls-verify is set; kubectl talks to
 * one as it is (`serve` listens on plain HTTP). Without TLS there is nothing to verify, so the flag
 * is set on that cluster only, for the credentials to be worked out as for any other.
 */
function allowPlainHttp(config: KubeConfig, cluster: Cluster): void {
  if (!cluster.server.startsWith("http:") || cluster.skipTLSVerify) return;
  config.loadFromOptions({
    clusters: config.clusters.map((entry) => (entry.name === cluster.name ? { ...entry, skipTLSVerify: true } : entry)),
    contexts: config.contexts,
    users: config.users,
    currentContext: config.currentContext,
  });
}

// Its own transport, without the main identity's client certificate: servers check certificates
// before tokens, so sharing it would make the "restricted" identity the main user.
function withToken(connection: Connection, token: string): Identity {
  return { transport: undiciTransport(connection.serverTls), authHeaders: { authorization: `Bearer ${token}` } };
}

function undiciTransport(tls: { ca?: string | undefined; cert?: string | undefined; key?: string | undefined; rejectUnauthorized: boolean }): Transport {
  const dispatcher = new Agent({ connect: { ...tls } });
  return async (request) => {
    const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
    const response = await undiciFetch(request.url, {
      method: request.method,
      headers: [...request.headers],
      ...(body !== undefined && { body }),
      // A caller's abort (a timeout, a watch closed by soak) ends the request and its connection.
      signal: request.signal,
      dispatcher,
    });
    // Hand back a web-standard Response, whatever fetch implementation produced it.
    return new Response(response.body as ReadableStream<Uint8Array> | null, { status: response.status, headers: [...response.headers] });
  };
}

async function probe(url: string, identity: Identity): Promise<string> {
  let response: Response;
  try {
    response = await Promise.race([
      identity.transport(new Request(`${url}/version`, { headers: { ...identity.authHeaders, accept: "application/json" } })),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer in ${PROBE_TIMEOUT_MS / 1000} s`)), PROBE_TIMEOUT_MS).unref()),
    ]);
  } catch (error) {
    const cause = (error as { cause?: { message?: string; code?: string } }).cause;
    if (cause?.code !== undefined && UNTRUSTED_CERTIFICATE.has(cause.code)) {
      throw new TargetError(
        `cannot reach ${url}: its certificate could not be verified (${cause.message}); give the CA that signed it with --certificate-authority FILE (in a kubeconfig: certificate-authority), or --insecure-skip-tls-verify to not verify it`,
      );
    }
    throw new TargetError(`cannot reach ${url}: ${(error as Error).message}${cause?.message ? ` (${cause.message})` : ""}`);
  }
  if (response.status === 401 || response.status === 403) throw new TargetError(`${url} refused our credentials: HTTP ${response.status} on /version`);
  if (response.status !== 200) throw new TargetError(`${url}/version answered HTTP ${response.status}`);
  const version = (await response.json().catch(() => ({}))) as { gitVersion?: string };
  return version.gitVersion ?? "";
}
