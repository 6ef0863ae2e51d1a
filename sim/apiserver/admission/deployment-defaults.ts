/**
 * What Kubernetes' defaulting adds to a Deployment (apps/v1 SetDefaults_Deployment and the pod
 * template's defaults), as a real kube-apiserver 1.26 stores it (transcript scale-deployment-after):
 * one replica, a RollingUpdate strategy of 25% / 25%, 10 old ReplicaSets kept, a 600 s progress
 * deadline, and the pod template's spec and container defaults (pod-defaults.ts, the ports'
 * protocol TCP included). Defaulting runs on every write, so
 * a field a client drops comes back. Keys keep Go's field order, as kube-apiserver prints them.
 */
import type { StoredObject } from "../../store/stored-object.ts";
import { isJsonObject, structItems } from "../patch/json-value.ts";
import { withContainerDefaults } from "./pod-defaults.ts";

type Json = Record<string, unknown>;

/** The Deployment with Kubernetes' defaults filled in where the client left fields out. */
export function withDeploymentDefaults(deployment: StoredObject): StoredObject {
  const spec = (deployment["spec"] ?? {}) as Json;
  const template = spec["template"];
  const strategy = (spec["strategy"] ?? {}) as Json;
  const strategyType = strategy["type"] ?? "RollingUpdate";
  const rollingUpdate = (strategy["rollingUpdate"] ?? {}) as Json;
  const defaulted: Json = {
    replicas: spec["replicas"] ?? 1,
    ...spec,
    ...(isJsonObject(template) && {
      template: {
        ...template,
        // Go writes an empty creationTimestamp as null: kube-apiserver's templates always carry it.
        metadata: { creationTimestamp: null, ...(isJsonObject(template["metadata"]) ? template["metadata"] : {}) },
        spec: withPodTemplateSpecDefaults((template["spec"] ?? {}) as Json),
      },
    }),
    strategy:
      strategyType === "RollingUpdate"
        ? { type: strategyType, ...strategy, rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%", ...rollingUpdate } }
        : { type: strategyType, ...strategy },
    revisionHistoryLimit: spec["revisionHistoryLimit"] ?? 10,
    progressDeadlineSeconds: spec["progressDeadlineSeconds"] ?? 600,
  };
  return { ...deployment, spec: defaulted };
}

/** A pod template's spec: the PodSpec defaults (not the admission plugins' tolerations and service account). */
function withPodTemplateSpecDefaults(spec: Json): Json {
  return {
    ...spec,
    ...(spec["initContainers"] !== undefined && { initContainers: structItems(spec["initContainers"]).map(withContainerDefaults) }),
    ...(spec["containers"] !== undefined && { containers: structItems(spec["containers"]).map(withContainerDefaults) }),
    restartPolicy: spec["restartPolicy"] ?? "Always",
    terminationGracePeriodSeconds: spec["terminationGracePeriodSeconds"] ?? 30,
    dnsPolicy: spec["dnsPolicy"] ?? "ClusterFirst",
    securityContext: spec["securityContext"] ?? {},
    schedulerName: spec["schedulerName"] ?? "default-scheduler",
  };
}
