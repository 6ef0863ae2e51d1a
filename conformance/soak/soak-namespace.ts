/**
 * The namespace a soak run works in: named from the seed plus a per-run part (so reruns of one
 * seed do not collide), created before anything else and deleted at the end, whatever happened
 * (also after Ctrl-C). The end waits, for a while, until it is gone: a real cluster's namespace
 * controller first deletes what is in it.
 */
import { randomBytes } from "node:crypto";
import { failureText, type SoakConnection } from "./soak-connection.ts";
import type { SoakPlan } from "./soak-plan.ts";

/** The soak could not use its namespace: the CLI prints the one line and exits 2. */
export class SoakNamespaceError extends Error {}

/** How the end of a run left the namespace. */
export type NamespaceCleanup = { readonly state: "gone" } | { readonly state: "terminating" } | { readonly state: "not-deleted"; readonly why: string };

const POLL_MS = 200;

/** `orb-soak-<from the seed>-<per run>`. */
export function soakNamespaceName(plan: SoakPlan): string {
  return `orb-soak-${plan.namespaceSuffix()}-${randomBytes(2).toString("hex")}`;
}

/** Creates the namespace; throws SoakNamespaceError when the server refuses (one that exists is never reused). */
export async function createSoakNamespace(connection: SoakConnection): Promise<void> {
  const answer = await connection.request("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: connection.namespace } });
  if (answer.type === "uncertain") {
    // The create may have happened without its answer: delete, so that nothing is left behind.
    const deleted = await connection.request("DELETE", `/api/v1/namespaces/${connection.namespace}`).catch(() => undefined);
    const left = deleted?.type === "answer" && (deleted.status === 200 || deleted.status === 202) ? " (it had been made: deleted again)" : deleted?.type === "answer" && deleted.status === 404 ? "" : " (it may exist: delete it by hand)";
    throw new SoakNamespaceError(`could not create namespace ${connection.namespace}: ${answer.error}${left}`);
  }
  if (answer.status !== 201) {
    const message = (answer.body as { message?: unknown } | undefined)?.message;
    throw new SoakNamespaceError(`could not create namespace ${connection.namespace}: HTTP ${answer.status}${typeof message === "string" ? ` ${message}` : ""}`);
  }
}

/** The ConfigMap kube-controller-manager's root-CA publisher puts in every new namespace. */
const ROOT_CA_CONFIG_MAP = "kube-root-ca.crt";

/**
 * On a cluster, waits up to `waitMs` for the root-CA ConfigMap to be published in the new
 * namespace: it appears just after the namespace, written by a client the history does not
 * record, and the checkers count objects no workload write made as present throughout. A cluster
 * without the publisher costs the wait once.
 */
export async function awaitPublishedConfigMaps(connection: SoakConnection, waitMs: number): Promise<void> {
  const deadline = performance.now() + waitMs;
  while (performance.now() < deadline) {
    const read = await connection.request("GET", `${connection.collectionPath}/${ROOT_CA_CONFIG_MAP}`);
    if (read.type === "answer" && read.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Deletes the namespace and waits up to `waitMs` for it to be gone. */
export async function deleteSoakNamespace(connection: SoakConnection, waitMs: number): Promise<NamespaceCleanup> {
  const path = `/api/v1/namespaces/${connection.namespace}`;
  const deleted = await connection.request("DELETE", path);
  if (deleted.type === "uncertain") return { state: "not-deleted", why: deleted.error };
  if (deleted.status === 404) return { state: "gone" };
  if (deleted.status !== 200 && deleted.status !== 202) return { state: "not-deleted", why: `HTTP ${deleted.status}` };
  const deadline = performance.now() + waitMs;
  while (performance.now() < deadline) {
    const read = await connection.request("GET", path).catch((error: unknown) => ({ type: "uncertain", error: failureText(error) }) as const);
    if (read.type === "answer" && read.status === 404) return { state: "gone" };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { state: "terminating" };
}
