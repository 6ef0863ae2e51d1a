/**
 * Reaches a real server for `orb-harness record`: the administrator (and the restricted user) as
 * the conformance command reaches them (connectRemoteTarget: the /version probe, kubeconfig
 * credentials, TLS), plus the two identities that carry no credentials of the user's: anonymous
 * and an unknown token. Those two get a connection of their own that verifies the server but
 * presents no client certificate, or the server would take them for the administrator.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { KubeConfig } from "@kubernetes/client-node";
import { Agent, fetch as undiciFetch } from "undici";
import type { Transport } from "../client/conformance-client.ts";
import { connectRemoteTarget, TargetError } from "../targets/remote-target.ts";
import type { RecordTarget } from "./record-run.ts";

/** Where the server is, and who we are there. */
export type RecordConnectionOptions = (
  | { readonly server: string; readonly token?: string; readonly certificateAuthority?: string; readonly insecureSkipTlsVerify?: boolean }
  | { readonly kubeconfig: string; readonly context?: string }
) & { readonly restrictedToken?: string };

/** Connects (throws TargetError, one line, when the server cannot be reached or refuses us). */
export async function connectForRecording(options: RecordConnectionOptions): Promise<RecordTarget> {
  const restricted = options.restrictedToken === undefined ? {} : { restricted: { token: options.restrictedToken } };
  const target =
    "server" in options
      ? await connectRemoteTarget({
          server: options.server,
          credentials: {
            ...(options.token !== undefined && { token: options.token }),
            ...(options.certificateAuthority !== undefined && { certificateAuthority: options.certificateAuthority }),
            ...(options.insecureSkipTlsVerify === true && { insecureSkipTlsVerify: true }),
          },
          // Named, not detected: the recording sends the same requests whatever the server speaks.
          dialect: "kubernetes",
          ...restricted,
        })
      : await connectRemoteTarget({ kubeconfig: options.kubeconfig, ...(options.context !== undefined && { context: options.context }), dialect: "kubernetes", ...restricted });
  const bare = credentialFreeTransport(serverVerification(options));
  const unknownToken = `orb-record-unknown-${randomBytes(16).toString("hex")}`;
  return {
    url: target.url,
    admin: target.identity,
    restricted: target.restricted,
    anonymous: { transport: bare, authHeaders: {} },
    unknownToken: { transport: bare, authHeaders: { authorization: `Bearer ${unknownToken}` } },
    secrets: [...target.secrets, unknownToken],
  };
}

/** How to check the server's certificate, without any of the user's credentials. */
interface ServerVerification {
  readonly ca: string | undefined;
  readonly rejectUnauthorized: boolean;
}

function serverVerification(options: RecordConnectionOptions): ServerVerification {
  if ("server" in options) {
    return { ca: options.certificateAuthority === undefined ? undefined : readText(options.certificateAuthority), rejectUnauthorized: options.insecureSkipTlsVerify !== true };
  }
  const config = new KubeConfig();
  config.loadFromFile(options.kubeconfig); // connectRemoteTarget loaded it already, so this cannot fail on a readable file
  if (options.context !== undefined) config.setCurrentContext(options.context);
  const cluster = config.getCurrentCluster();
  const ca = cluster?.caData !== undefined ? Buffer.from(cluster.caData, "base64").toString("utf8") : cluster?.caFile !== undefined ? readText(cluster.caFile) : undefined;
  return { ca, rejectUnauthorized: cluster?.skipTLSVerify !== true };
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new TargetError(`cannot read certificate authority ${file}: ${(error as Error).message}`);
  }
}

function credentialFreeTransport(verification: ServerVerification): Transport {
  const dispatcher = new Agent({ connect: { ...(verification.ca !== undefined && { ca: verification.ca }), rejectUnauthorized: verification.rejectUnauthorized } });
  return async (request) => {
    const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
    const response = await undiciFetch(request.url, { method: request.method, headers: [...request.headers], ...(body !== undefined && { body }), dispatcher });
    return new Response(response.body as ReadableStream<Uint8Array> | null, { status: response.status, headers: [...response.headers] });
  };
}
