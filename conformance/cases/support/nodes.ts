/** Nodes the cases create (cluster-scoped), and their cleanup. */
import type { CaseContext } from "../../case-context.ts";

/** A Node body (cluster-scoped). */
export function nodeBody(name: string, labels: Record<string, string> = {}): Record<string, unknown> {
  return { apiVersion: "v1", kind: "Node", metadata: { name, labels } };
}

/** Deletes Nodes the case created (cleanup: cluster-scoped objects outlive the case's namespace). */
export async function deleteNodes(context: CaseContext, names: readonly string[]): Promise<void> {
  for (const name of names) await context.client.delete(`/api/v1/nodes/${name}`).catch(() => undefined);
}
