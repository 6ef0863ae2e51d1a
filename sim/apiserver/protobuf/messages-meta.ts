/**
 * Message tables of k8s.io/apimachinery: runtime (Unknown, TypeMeta, RawExtension), meta/v1
 * (ObjectMeta, ListMeta, Status, WatchEvent, DeleteOptions, LabelSelector, Condition, Time…),
 * util/intstr and api/resource. Field numbers, order and names are those of the generated.proto
 * files of apimachinery v0.26.0 (pkg/runtime, pkg/apis/meta/v1, pkg/util/intstr,
 * pkg/api/resource); pointer and omitempty facts are those of the Go types (see field-model.ts).
 */
import { f, type PackageDef } from "./field-model.ts";

export const runtimePackage: PackageDef = {
  protoPackage: "k8s.io.apimachinery.pkg.runtime",
  messages: {
    // runtime.TypeMeta: apiVersion first (meta/v1's TypeMeta numbers them the other way round).
    TypeMeta: [f("apiVersion", 1, "string"), f("kind", 2, "string")],
    // The envelope of doc 1 §2.6; typeMeta is a non-pointer struct, raw a []byte.
    Unknown: [f("typeMeta", 1, "TypeMeta"), f("raw", 2, "bytes", "ptr"), f("contentEncoding", 3, "string"), f("contentType", 4, "string")],
    RawExtension: [f("raw", 1, "bytes", "ptr")],
  },
};

export const intstrPackage: PackageDef = {
  protoPackage: "k8s.io.apimachinery.pkg.util.intstr",
  // type 0 = Int (intVal), 1 = String (strVal); Go writes all three fields.
  messages: { IntOrString: [f("type", 1, "int64"), f("intVal", 2, "int32"), f("strVal", 3, "string")] },
};

export const resourcePackage: PackageDef = {
  protoPackage: "k8s.io.apimachinery.pkg.api.resource",
  messages: { Quantity: [f("string", 1, "string")] },
};

export const metaV1Package: PackageDef = {
  protoPackage: "k8s.io.apimachinery.pkg.apis.meta.v1",
  kinds: { groupVersions: ["v1", "meta.k8s.io/v1"], names: ["Status", "DeleteOptions"] },
  messages: {
    // Time keeps whole seconds (Go drops nanos when marshalling); MicroTime keeps nanoseconds.
    Time: [f("seconds", 1, "int64"), f("nanos", 2, "int32")],
    MicroTime: [f("seconds", 1, "int64"), f("nanos", 2, "int32")],
    FieldsV1: [f("Raw", 1, "bytes", "ptr")],
    ObjectMeta: [
      f("name", 1, "string"),
      f("generateName", 2, "string"),
      f("namespace", 3, "string"),
      f("selfLink", 4, "string"),
      f("uid", 5, "string"),
      f("resourceVersion", 6, "string"),
      f("generation", 7, "int64"),
      f("creationTimestamp", 8, "Time"),
      f("deletionTimestamp", 9, "Time", "ptr"),
      f("deletionGracePeriodSeconds", 10, "int64", "ptr"),
      f("labels", 11, "string", "map"),
      f("annotations", 12, "string", "map"),
      f("ownerReferences", 13, "OwnerReference", "rep"),
      f("finalizers", 14, "string", "rep"),
      f("managedFields", 17, "ManagedFieldsEntry", "rep"),
    ],
    OwnerReference: [
      f("apiVersion", 5, "string", "keep"),
      f("kind", 1, "string", "keep"),
      f("name", 3, "string", "keep"),
      f("uid", 4, "string", "keep"),
      f("controller", 6, "bool", "ptr"),
      f("blockOwnerDeletion", 7, "bool", "ptr"),
    ],
    ManagedFieldsEntry: [
      f("manager", 1, "string"),
      f("operation", 2, "string"),
      f("apiVersion", 3, "string"),
      f("time", 4, "Time", "ptr"),
      f("fieldsType", 6, "string"),
      f("fieldsV1", 7, "FieldsV1", "ptr"),
      f("subresource", 8, "string"),
    ],
    ListMeta: [
      f("selfLink", 1, "string"),
      f("resourceVersion", 2, "string"),
      f("continue", 3, "string"),
      f("remainingItemCount", 4, "int64", "ptr"),
    ],
    Status: [
      f("metadata", 1, "ListMeta"),
      f("status", 2, "string"),
      f("message", 3, "string"),
      f("reason", 4, "string"),
      f("details", 5, "StatusDetails", "ptr"),
      f("code", 6, "int32"),
    ],
    StatusDetails: [
      f("name", 1, "string"),
      f("group", 2, "string"),
      f("kind", 3, "string"),
      f("uid", 6, "string"),
      f("causes", 4, "StatusCause", "rep"),
      f("retryAfterSeconds", 5, "int32"),
    ],
    StatusCause: [f("reason", 1, "string"), f("message", 2, "string"), f("field", 3, "string")],
    // A watch frame's payload (written without the envelope; the object inside is enveloped).
    WatchEvent: [f("type", 1, "string", "keep"), f("object", 2, "RawExtension", "keep")],
    DeleteOptions: [
      f("gracePeriodSeconds", 1, "int64", "ptr"),
      f("preconditions", 2, "Preconditions", "ptr"),
      f("orphanDependents", 3, "bool", "ptr"),
      f("propagationPolicy", 4, "string", "ptr"),
      f("dryRun", 5, "string", "rep"),
    ],
    Preconditions: [f("uid", 1, "string", "ptr"), f("resourceVersion", 2, "string", "ptr")],
    LabelSelector: [f("matchLabels", 1, "string", "map"), f("matchExpressions", 2, "LabelSelectorRequirement", "rep")],
    LabelSelectorRequirement: [f("key", 1, "string", "keep"), f("operator", 2, "string", "keep"), f("values", 3, "string", "rep")],
    Condition: [
      f("type", 1, "string", "keep"),
      f("status", 2, "string", "keep"),
      f("observedGeneration", 3, "int64"),
      f("lastTransitionTime", 4, "Time"),
      f("reason", 5, "string", "keep"),
      f("message", 6, "string", "keep"),
    ],
  },
};
