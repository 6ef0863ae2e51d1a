/**
 * What Kubernetes' defaulting and admission add to a new Pod (transcript pod-create), doc 1 §2.7's
 * "any field set by a mutating admission controller". The two NoExecute tolerations of 300 s for
 * not-ready and unreachable nodes come from the DefaultTolerationSeconds plugin; the node
 * lifecycle simulation evicts pods only after they run out.
 */
import type { Dialect } from "../../../spec/dialects.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import { isJsonObject, structItems } from "../patch/json-value.ts";

/** Seconds a pod tolerates a not-ready or unreachable node by default (Kubernetes' DefaultTolerationSeconds). */
export const DEFAULT_TOLERATION_SECONDS = 300;

type Json = Record<string, unknown>;

/** The pod with Kubernetes' defaults filled in where the client left fields out. */
export function withPodDefaults(pod: StoredObject, dialect: Dialect): StoredObject {
  const spec = (pod["spec"] ?? {}) as Json;
  const containers = structItems(spec["containers"]).map(withContainerDefaults);
  const serviceAccount = (spec["serviceAccountName"] ?? spec["serviceAccount"] ?? "default") as string;
  const defaulted: Json = {
    ...spec,
    containers,
    restartPolicy: spec["restartPolicy"] ?? "Always",
    terminationGracePeriodSeconds: spec["terminationGracePeriodSeconds"] ?? 30,
    dnsPolicy: spec["dnsPolicy"] ?? "ClusterFirst",
    serviceAccountName: serviceAccount,
    serviceAccount,
    securityContext: spec["securityContext"] ?? {},
    schedulerName: spec["schedulerName"] ?? "default-scheduler",
    tolerations: withDefaultTolerations(structItems(spec["tolerations"]), dialect),
    priority: spec["priority"] ?? 0,
    enableServiceLinks: spec["enableServiceLinks"] ?? true,
    preemptionPolicy: spec["preemptionPolicy"] ?? "PreemptLowerPriority",
  };
  const status = (pod["status"] ?? {}) as Json;
  return { ...pod, spec: defaulted, status: { phase: "Pending", ...status, qosClass: qosClass(containers) } };
}

/** A container with Kubernetes' defaults filled in (pods and pod templates alike). */
export function withContainerDefaults(container: Json): Json {
  const ports = container["ports"];
  return {
    ...container,
    // A port's protocol defaults to TCP (SetDefaults_ContainerPort; recorded in apply/recorded/, apply-port-without-protocol).
    ...(Array.isArray(ports) && { ports: ports.map((port) => (isJsonObject(port) && (port["protocol"] ?? "") === "" ? { ...port, protocol: "TCP" } : port)) }),
    resources: container["resources"] ?? {},
    terminationMessagePath: container["terminationMessagePath"] ?? "/dev/termination-log",
    terminationMessagePolicy: container["terminationMessagePolicy"] ?? "File",
    imagePullPolicy: container["imagePullPolicy"] ?? defaultPullPolicy(String(container["image"] ?? "")),
  };
}

/** Always for `:latest` or an untagged image, else IfNotPresent (Kubernetes' defaulting). */
function defaultPullPolicy(image: string): string {
  if (image.includes("@")) return "IfNotPresent";
  const lastSegment = image.slice(image.lastIndexOf("/") + 1);
  const tag = lastSegment.includes(":") ? lastSegment.slice(lastSegment.indexOf(":") + 1) : "latest";
  return tag === "latest" ? "Always" : "IfNotPresent";
}

/** Adds a 300 s NoExecute toleration for each of the two node taints the pod does not tolerate yet. */
function withDefaultTolerations(tolerations: Json[], dialect: Dialect): Json[] {
  const added = [dialect.taints.notReady, dialect.taints.unreachable]
    .filter((key) => !tolerations.some((t) => (t["key"] === key || (t["key"] === undefined && t["operator"] === "Exists")) && (t["effect"] === undefined || t["effect"] === "NoExecute")))
    .map((key) => ({ key, operator: "Exists", effect: "NoExecute", tolerationSeconds: DEFAULT_TOLERATION_SECONDS }));
  return [...tolerations, ...added];
}

/** Kubernetes' QoS class: BestEffort with no requests or limits, Guaranteed when every container's requests equal its limits. */
function qosClass(containers: Json[]): string {
  const resources = containers.map((c) => (c["resources"] ?? {}) as { requests?: Json; limits?: Json });
  if (resources.every((r) => Object.keys(r.requests ?? {}).length === 0 && Object.keys(r.limits ?? {}).length === 0)) return "BestEffort";
  const guaranteed = resources.every((r) => {
    const limits = r.limits ?? {};
    const requests = { ...limits, ...(r.requests ?? {}) };
    return ["cpu", "memory"].every((name) => limits[name] !== undefined && requests[name] === limits[name]);
  });
  return guaranteed ? "Guaranteed" : "Burstable";
}
