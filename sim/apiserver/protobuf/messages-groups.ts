/**
 * Message tables of the named groups the server serves: apps/v1 Deployment, coordination/v1 Lease,
 * policy/v1 Eviction, autoscaling/v1 Scale (the scale subresource), authorization/v1
 * (Self)SubjectAccessReview and SelfSubjectRulesReview, authentication/v1alpha1 SelfSubjectReview
 * (with authentication/v1 UserInfo). Field numbers, order and names are those of the
 * generated.proto files of k8s.io/api v0.26.0 (apps/v1, coordination/v1, policy/v1, autoscaling/v1,
 * authorization/v1, authentication/v1 and v1alpha1); pointer and omitempty facts are those of their
 * types.go (see field-model.ts). The Lease and authorization groups differ per dialect: kinds.ts
 * registers them under each dialect's name.
 */
import { f, listOf, type PackageDef } from "./field-model.ts";

export const appsV1Package: PackageDef = {
  protoPackage: "k8s.io.api.apps.v1",
  kinds: { groupVersions: ["apps/v1"], names: ["Deployment", "DeploymentList"] },
  messages: {
    Deployment: [f("metadata", 1, "ObjectMeta"), f("spec", 2, "DeploymentSpec"), f("status", 3, "DeploymentStatus")],
    DeploymentList: listOf("Deployment"),
    DeploymentSpec: [
      f("replicas", 1, "int32", "ptr"),
      f("selector", 2, "LabelSelector", "ptr", "keep"),
      f("template", 3, "PodTemplateSpec"),
      f("strategy", 4, "DeploymentStrategy"),
      f("minReadySeconds", 5, "int32"),
      f("revisionHistoryLimit", 6, "int32", "ptr"),
      f("paused", 7, "bool"),
      f("progressDeadlineSeconds", 9, "int32", "ptr"),
    ],
    DeploymentStrategy: [f("type", 1, "string"), f("rollingUpdate", 2, "RollingUpdateDeployment", "ptr")],
    RollingUpdateDeployment: [f("maxUnavailable", 1, "IntOrString", "ptr"), f("maxSurge", 2, "IntOrString", "ptr")],
    DeploymentStatus: [
      f("observedGeneration", 1, "int64"),
      f("replicas", 2, "int32"),
      f("updatedReplicas", 3, "int32"),
      f("readyReplicas", 7, "int32"),
      f("availableReplicas", 4, "int32"),
      f("unavailableReplicas", 5, "int32"),
      f("conditions", 6, "DeploymentCondition", "rep"),
      f("collisionCount", 8, "int32", "ptr"),
    ],
    DeploymentCondition: [
      f("type", 1, "string", "keep"),
      f("status", 2, "string", "keep"),
      f("lastUpdateTime", 6, "Time"),
      f("lastTransitionTime", 7, "Time"),
      f("reason", 4, "string"),
      f("message", 5, "string"),
    ],
  },
};

export const coordinationV1Package: PackageDef = {
  protoPackage: "k8s.io.api.coordination.v1",
  kinds: { groupVersions: ["coordination.k8s.io/v1"], names: ["Lease", "LeaseList"] },
  messages: {
    Lease: [f("metadata", 1, "ObjectMeta"), f("spec", 2, "LeaseSpec")],
    LeaseList: listOf("Lease"),
    LeaseSpec: [
      f("holderIdentity", 1, "string", "ptr"),
      f("leaseDurationSeconds", 2, "int32", "ptr"),
      f("acquireTime", 3, "MicroTime", "ptr"),
      f("renewTime", 4, "MicroTime", "ptr"),
      f("leaseTransitions", 5, "int32", "ptr"),
    ],
  },
};

export const policyV1Package: PackageDef = {
  protoPackage: "k8s.io.api.policy.v1",
  kinds: { groupVersions: ["policy/v1"], names: ["Eviction"] },
  messages: {
    Eviction: [f("metadata", 1, "ObjectMeta"), f("deleteOptions", 2, "DeleteOptions", "ptr")],
  },
};

export const authorizationV1Package: PackageDef = {
  protoPackage: "k8s.io.api.authorization.v1",
  kinds: {
    groupVersions: ["authorization.k8s.io/v1"],
    names: ["SubjectAccessReview", "SelfSubjectAccessReview", "LocalSubjectAccessReview", "SelfSubjectRulesReview"],
  },
  messages: {
    SubjectAccessReview: [f("metadata", 1, "ObjectMeta"), f("spec", 2, "SubjectAccessReviewSpec"), f("status", 3, "SubjectAccessReviewStatus")],
    LocalSubjectAccessReview: [
      f("metadata", 1, "ObjectMeta"),
      f("spec", 2, "SubjectAccessReviewSpec"),
      f("status", 3, "SubjectAccessReviewStatus"),
    ],
    SelfSubjectAccessReview: [
      f("metadata", 1, "ObjectMeta"),
      f("spec", 2, "SelfSubjectAccessReviewSpec"),
      f("status", 3, "SubjectAccessReviewStatus"),
    ],
    SubjectAccessReviewSpec: [
      f("resourceAttributes", 1, "ResourceAttributes", "ptr"),
      f("nonResourceAttributes", 2, "NonResourceAttributes", "ptr"),
      f("user", 3, "string"),
      f("groups", 4, "string", "rep"),
      f("extra", 5, "ExtraValue", "map"),
      f("uid", 6, "string"),
    ],
    SelfSubjectAccessReviewSpec: [
      f("resourceAttributes", 1, "ResourceAttributes", "ptr"),
      f("nonResourceAttributes", 2, "NonResourceAttributes", "ptr"),
    ],
    ResourceAttributes: [
      f("namespace", 1, "string"),
      f("verb", 2, "string"),
      f("group", 3, "string"),
      f("version", 4, "string"),
      f("resource", 5, "string"),
      f("subresource", 6, "string"),
      f("name", 7, "string"),
    ],
    NonResourceAttributes: [f("path", 1, "string"), f("verb", 2, "string")],
    SelfSubjectRulesReview: [
      f("metadata", 1, "ObjectMeta"),
      f("spec", 2, "SelfSubjectRulesReviewSpec"),
      f("status", 3, "SubjectRulesReviewStatus"),
    ],
    SelfSubjectRulesReviewSpec: [f("namespace", 1, "string")],
    SubjectRulesReviewStatus: [
      f("resourceRules", 1, "ResourceRule", "rep", "keep"),
      f("nonResourceRules", 2, "NonResourceRule", "rep", "keep"),
      f("incomplete", 3, "bool", "keep"),
      f("evaluationError", 4, "string"),
    ],
    ResourceRule: [
      f("verbs", 1, "string", "rep", "keep"),
      f("apiGroups", 2, "string", "rep"),
      f("resources", 3, "string", "rep"),
      f("resourceNames", 4, "string", "rep"),
    ],
    NonResourceRule: [f("verbs", 1, "string", "rep", "keep"), f("nonResourceURLs", 2, "string", "rep")],
    SubjectAccessReviewStatus: [
      f("allowed", 1, "bool", "keep"),
      f("denied", 4, "bool"),
      f("reason", 2, "string"),
      f("evaluationError", 3, "string"),
    ],
    // Go's `type ExtraValue []string`: a JSON list of strings.
    ExtraValue: [f("items", 1, "string", "rep")],
  },
};

// The scale subresource's kind (transcript scale-get-protobuf in transcripts-scale-and-reviews.jsonl).
export const autoscalingV1Package: PackageDef = {
  protoPackage: "k8s.io.api.autoscaling.v1",
  kinds: { groupVersions: ["autoscaling/v1"], names: ["Scale"] },
  messages: {
    Scale: [f("metadata", 1, "ObjectMeta"), f("spec", 2, "ScaleSpec"), f("status", 3, "ScaleStatus")],
    // `Replicas int32 json:"replicas,omitempty"`: 0 is left out of JSON (transcript scale-patch-zero).
    ScaleSpec: [f("replicas", 1, "int32")],
    ScaleStatus: [f("replicas", 1, "int32", "keep"), f("selector", 2, "string")],
  },
};

// authentication/v1's UserInfo, which SelfSubjectReview carries; its `extra` values are the
// ExtraValue of authorization/v1 above, the same message on the wire (a list of strings).
export const authenticationV1Package: PackageDef = {
  protoPackage: "k8s.io.api.authentication.v1",
  messages: {
    UserInfo: [f("username", 1, "string"), f("uid", 2, "string"), f("groups", 3, "string", "rep"), f("extra", 4, "ExtraValue", "map")],
  },
};

// SelfSubjectReview, alpha in Kubernetes 1.26 (transcript ssr-v1alpha1-protobuf-gate).
export const authenticationV1alpha1Package: PackageDef = {
  protoPackage: "k8s.io.api.authentication.v1alpha1",
  kinds: { groupVersions: ["authentication.k8s.io/v1alpha1"], names: ["SelfSubjectReview"] },
  messages: {
    SelfSubjectReview: [f("metadata", 1, "ObjectMeta"), f("status", 2, "SelfSubjectReviewStatus")],
    SelfSubjectReviewStatus: [f("userInfo", 1, "UserInfo")],
  },
};
