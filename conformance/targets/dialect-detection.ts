/**
 * Which dialect a server speaks, from its discovery: the group its Leases are served in
 * (coordination.k8s.io or the documents' coordination.orb.io).
 */
import { dialects, type Dialect } from "../../spec/dialects.ts";
import type { Transport } from "../client/conformance-client.ts";

/** The dialect whose coordination group `/apis` lists; kubernetes when it lists neither. */
export async function detectDialect(transport: Transport, baseUrl: string, headers: Readonly<Record<string, string>>): Promise<Dialect> {
  const response = await transport(new Request(`${baseUrl}/apis`, { headers: { ...headers, accept: "application/json" } }));
  const body = (await response.json().catch(() => ({}))) as { groups?: Array<{ name?: string }> };
  const served = new Set((body.groups ?? []).map((group) => group.name));
  return dialects.find((dialect) => served.has(dialect.groups.coordination)) ?? dialects.find((dialect) => dialect.name === "kubernetes")!;
}
