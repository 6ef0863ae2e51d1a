/**
 * An embedded API server for the safety tests (issue #14), as a user would serve one (`serve
 * --token-file --policy-file`): auth on with one admin token, over a real socket (plain http, or
 * https with a given certificate). Every request that reaches it is logged (method, path, the
 * name in a JSON body) before it is answered, so a test can check what a run sent, whatever the
 * run's own transcripts say; `onRequest` may hold a request back (a slow server) or act on it.
 */
import { randomBytes } from "node:crypto";
import { parseCustomResourceDefinition } from "../../sim/apiserver/routing/custom-resources.ts";
import { parsePolicyFile, parseStaticTokenFile } from "../../sim/apiserver/auth/index.ts";
import { requestPath } from "../../sim/apiserver/routing/request-path.ts";
import { WIDGETS } from "../../sim/apiserver/routing/sample-custom-resource.ts";
import type { FetchHandler } from "../../sim/transport/http-server.ts";
import { startLoopbackServer } from "../../sim/transport/loopback-server.ts";
import type { TlsCredentials } from "../../sim/transport/tls-files.ts";
import { peekRequestBytes } from "../../sim/transport/request-bytes.ts";

/** One request as the server received it. */
export interface LoggedRequest {
  readonly method: string;
  /** The path as sent (still percent-encoded), without the query. */
  readonly path: string;
  /** metadata.name of a JSON request body, when it has one. */
  readonly bodyName: string | undefined;
}

/** How to start the server. */
export interface ObservedServerOptions {
  /** The admin's bearer token (group system:masters, allowed everything). */
  readonly token: string;
  /** History kept and how often it is compacted (default: doc 1 §8's 5 minutes each); given, bookmarks come every second, so a case waiting for one waits a second, not a minute. */
  readonly retention?: { readonly historyWindowMs: number; readonly compactionIntervalMs: number };
  /** A second user's bearer token: reads ConfigMaps, patches Deployments (the embedded target's restricted identity). */
  readonly restrictedToken?: string;
  readonly tls?: TlsCredentials;
  /** Called with each request before it is handled; the handling waits for the promise it returns. */
  readonly onRequest?: (request: LoggedRequest) => void | Promise<void>;
}

/** A running observed server. */
export interface ObservedServer {
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly log: readonly LoggedRequest[];
  /** Sends a request as the admin, straight to the handler (not logged): for fixtures and snapshots. */
  readonly transport: (request: Request) => Promise<Response>;
  close(): Promise<void>;
}

const ADMIN_GROUP = "system:masters";
const RESTRICTED_USER = "bystander-restricted";
const POLICY = `
- user: ${RESTRICTED_USER}
  apiGroups: [""]
  resources: [configmaps]
  verbs: [get, list, watch]
- user: ${RESTRICTED_USER}
  apiGroups: [apps]
  resources: [deployments]
  verbs: [patch]
- group: ${ADMIN_GROUP}
  apiGroups: ["*"]
  resources: ["*"]
  verbs: ["*"]
- group: ${ADMIN_GROUP}
  nonResourceURLs: ["*"]
  verbs: ["*"]
`;

/** Starts the server on 127.0.0.1 in the kubernetes dialect, serving the sample Widget type. */
export async function startObservedServer(options: ObservedServerOptions): Promise<ObservedServer> {
  const retention = options.retention === undefined ? {} : { ...options.retention, bookmarkIntervalMs: 1_000 };
  const log: LoggedRequest[] = [];
  // Logged as the router reads the path (dot segments kept), so the audit sees what was asked.
  const observe = (handle: FetchHandler) => async (request: Request): Promise<Response> => {
    const entry = { method: request.method, path: requestPath(request, new URL(request.url)), bodyName: await bodyName(request) };
    log.push(entry);
    await options.onRequest?.(entry);
    return handle(request);
  };
  const served = await startLoopbackServer({
    seed: randomBytes(16).toString("hex"),
    auth: { tokens: parseStaticTokenFile(tokenFile(options)).tokens, policy: parsePolicyFile(POLICY) },
    customResourceDefinitions: [parseCustomResourceDefinition(WIDGETS)],
    // As a cluster (and `serve`): each namespace gets its default ServiceAccount, which Pod cases wait for.
    defaultServiceAccounts: true,
    trackManagedFields: true,
    ...retention,
    wrap: observe,
    ...(options.tls !== undefined && { tls: options.tls }),
  });
  const authorization = `Bearer ${options.token}`;
  return {
    url: served.url,
    log,
    transport: (request) => {
      const headers = new Headers(request.headers);
      headers.set("authorization", authorization);
      return served.server.handle(new Request(request, { headers }));
    },
    close: () => served.close(),
  };
}

// Kubernetes' static token file: token,user,uid,"groups".
function tokenFile(options: ObservedServerOptions): string {
  const restricted = options.restrictedToken === undefined ? "" : `${options.restrictedToken},${RESTRICTED_USER},${RESTRICTED_USER}\n`;
  return `${options.token},bystander-admin,bystander-admin,"${ADMIN_GROUP}"\n${restricted}`;
}

async function bodyName(request: Request): Promise<string | undefined> {
  // Read as the server reads it: over a socket the adapter carries the body beside the Request.
  const bytes = await peekRequestBytes(request);
  if (bytes.byteLength === 0) return undefined;
  try {
    const name = (JSON.parse(new TextDecoder().decode(bytes)) as { metadata?: { name?: unknown } }).metadata?.name;
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}

