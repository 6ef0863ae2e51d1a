/**
 * The safety interlock (issue #5): the runner's client refuses any mutating request outside the
 * namespaces the run created and the cluster-scoped objects the run itself created, so a case —
 * buggy or not — can never touch anything else on a real cluster.
 */
import { parseRequestTarget } from "../../sim/apiserver/routing/request-target.ts";

/** A request the interlock stopped; the case is reported as an error. */
export class InterlockError extends Error {}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
// Virtual types (doc 1 §1): a POST asks a question and stores nothing, so it changes nothing.
const VIRTUAL_REVIEWS = new Set(["subjectaccessreviews", "selfsubjectaccessreviews", "localsubjectaccessreviews", "selfsubjectrulesreviews", "tokenreviews"]);

/** Tracks what the run owns and judges each mutating request. */
export class MutationInterlock {
  private readonly namespaces = new Set<string>();
  private readonly clusterObjects = new Set<string>();

  /** The run owns namespace `name` (call before creating it). */
  claimNamespace(name: string): void {
    this.namespaces.add(name);
  }

  /** Whether the run owns namespace `name`. */
  ownsNamespace(name: string): boolean {
    return this.namespaces.has(name);
  }

  /** Throws InterlockError unless `method path` (with `body`'s name for creates) stays within what the run owns. */
  checkRequest(method: string, path: string, bodyName: string | undefined): void {
    if (!MUTATING.has(method)) return;
    const pathOnly = path.split("?")[0]!;
    const target = parseRequestTarget(pathOnly);
    if (target.kind !== "resource") throw new InterlockError(`refused ${method} ${pathOnly}: not a resource path`);
    if (method === "POST" && target.name === undefined && VIRTUAL_REVIEWS.has(target.resource)) return;
    if (target.namespace !== undefined) {
      if (this.namespaces.has(target.namespace)) return;
      throw new InterlockError(`refused ${method} ${pathOnly}: namespace ${target.namespace} was not created by this run`);
    }
    if (target.resource === "namespaces" && target.group === "") {
      const name = target.name ?? bodyName;
      if (name !== undefined && this.namespaces.has(name)) return;
      throw new InterlockError(`refused ${method} ${pathOnly}: namespace ${name ?? "(collection)"} was not created by this run`);
    }
    const key = `${target.group}/${target.resource}/${target.name ?? bodyName ?? ""}`;
    if (method === "POST" && target.name === undefined && bodyName !== undefined) return;
    if (target.name !== undefined && this.clusterObjects.has(key)) return;
    throw new InterlockError(`refused ${method} ${pathOnly}: cluster-scoped object not created by this run`);
  }

  /** Records a cluster-scoped object the run created, so it may later change or delete it. */
  recordCreated(method: string, path: string, status: number, createdName: string | undefined): void {
    if (method !== "POST" || status >= 300 || createdName === undefined) return;
    const target = parseRequestTarget(path.split("?")[0]!);
    if (target.kind === "resource" && target.namespace === undefined && target.name === undefined && target.resource !== "namespaces") {
      this.clusterObjects.add(`${target.group}/${target.resource}/${createdName}`);
    }
  }
}
