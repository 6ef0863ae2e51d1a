/**
 * Which dialect a server speaks (issue #5, `--dialect auto`): from its discovery, the group its
 * Leases are served in (coordination.k8s.io or the documents' coordination.orb.io); when discovery
 * lists neither or both, from the Protobuf media type it answers a list in (doc 1 §4.3:
 * application/vnd.orb.protobuf in the documents, application/vnd.kubernetes.protobuf on real
 * clusters). Kubernetes when neither tells.
 */
import { dialects, type Dialect } from "../../spec/dialects.ts";
import type { Transport } from "../client/conformance-client.ts";

/** The dialect `baseUrl` speaks, asked with `headers` (its credentials). */
export async function detectDialect(transport: Transport, baseUrl: string, headers: Readonly<Record<string, string>>): Promise<Dialect> {
  const byDiscovery = await servingCoordinationGroup(transport, baseUrl, headers);
  if (byDiscovery.length === 1) return byDiscovery[0]!;
  const byProtobuf = await answeringInProtobuf(transport, baseUrl, headers);
  if (byProtobuf.length === 1) return byProtobuf[0]!;
  return dialects.find((dialect) => dialect.name === "kubernetes")!;
}

/** Dialects whose coordination group `/apis` lists. */
async function servingCoordinationGroup(transport: Transport, baseUrl: string, headers: Readonly<Record<string, string>>): Promise<Dialect[]> {
  const response = await transport(new Request(`${baseUrl}/apis`, { headers: { ...headers, accept: "application/json" } })).catch(() => undefined);
  const body = (await response?.json().catch(() => ({}))) as { groups?: Array<{ name?: string }> } | undefined;
  const served = new Set((body?.groups ?? []).map((group) => group.name));
  return dialects.filter((dialect) => served.has(dialect.groups.coordination));
}

/** Dialects whose Protobuf media type a one-item list of namespaces is answered in (a read, never a write). */
async function answeringInProtobuf(transport: Transport, baseUrl: string, headers: Readonly<Record<string, string>>): Promise<Dialect[]> {
  const answering: Dialect[] = [];
  for (const dialect of dialects) {
    const request = new Request(`${baseUrl}/api/v1/namespaces?limit=1`, { headers: { ...headers, accept: dialect.protobufMediaType } });
    const response = await transport(request).catch(() => undefined);
    await response?.body?.cancel().catch(() => undefined);
    const contentType = response?.headers.get("content-type") ?? "";
    if (response?.status === 200 && contentType.split(";")[0]!.trim() === dialect.protobufMediaType) answering.push(dialect);
  }
  return answering;
}
