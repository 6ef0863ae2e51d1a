/**
 * The schema's facts: the field numbers the issue names (checked here one by one, so a slip in a
 * table shows as the field that moved), every table resolved, and every served kind of both
 * dialects (resource-types.ts) with a Protobuf form, its list included.
 */
import { describe, expect, it } from "vitest";
import { dialects } from "../../../spec/dialects.ts";
import { apiVersionOf, resourceTypes } from "../routing/resource-types.ts";
import { protobufKind, protobufKinds } from "./kinds.ts";
import { allMessages, mapEntryName, messageInfo, protoRoot } from "./schema.ts";

function fieldNumber(message: string, field: string): number {
  const found = messageInfo(message).type.fields[field];
  if (found === undefined) throw new Error(`${message} has no field ${field}`);
  return found.id;
}

describe("the Protobuf schema", () => {
  it("has Kubernetes' field numbers for the envelope and meta/v1", () => {
    const facts: Array<[string, string, number]> = [
      ["Unknown", "typeMeta", 1], ["Unknown", "raw", 2], ["Unknown", "contentEncoding", 3], ["Unknown", "contentType", 4],
      ["TypeMeta", "apiVersion", 1], ["TypeMeta", "kind", 2],
      ["RawExtension", "raw", 1],
      ["ObjectMeta", "name", 1], ["ObjectMeta", "generateName", 2], ["ObjectMeta", "namespace", 3], ["ObjectMeta", "selfLink", 4],
      ["ObjectMeta", "uid", 5], ["ObjectMeta", "resourceVersion", 6], ["ObjectMeta", "generation", 7], ["ObjectMeta", "creationTimestamp", 8],
      ["ObjectMeta", "deletionTimestamp", 9], ["ObjectMeta", "deletionGracePeriodSeconds", 10], ["ObjectMeta", "labels", 11],
      ["ObjectMeta", "annotations", 12], ["ObjectMeta", "ownerReferences", 13], ["ObjectMeta", "finalizers", 14], ["ObjectMeta", "managedFields", 17],
      ["ListMeta", "selfLink", 1], ["ListMeta", "resourceVersion", 2], ["ListMeta", "continue", 3], ["ListMeta", "remainingItemCount", 4],
      ["Time", "seconds", 1], ["Time", "nanos", 2], ["MicroTime", "seconds", 1], ["MicroTime", "nanos", 2],
      ["Status", "metadata", 1], ["Status", "status", 2], ["Status", "message", 3], ["Status", "reason", 4], ["Status", "details", 5], ["Status", "code", 6],
      ["StatusDetails", "name", 1], ["StatusDetails", "group", 2], ["StatusDetails", "kind", 3], ["StatusDetails", "causes", 4],
      ["StatusDetails", "retryAfterSeconds", 5], ["StatusDetails", "uid", 6],
      ["StatusCause", "reason", 1], ["StatusCause", "message", 2], ["StatusCause", "field", 3],
      ["WatchEvent", "type", 1], ["WatchEvent", "object", 2],
      ["IntOrString", "type", 1], ["IntOrString", "intVal", 2], ["IntOrString", "strVal", 3],
      ["Quantity", "string", 1],
      ["LeaseSpec", "holderIdentity", 1], ["LeaseSpec", "leaseDurationSeconds", 2], ["LeaseSpec", "acquireTime", 3],
      ["LeaseSpec", "renewTime", 4], ["LeaseSpec", "leaseTransitions", 5],
      ["ConfigMap", "data", 2], ["ConfigMap", "binaryData", 3], ["ConfigMap", "immutable", 4],
      ["Secret", "data", 2], ["Secret", "type", 3], ["Secret", "stringData", 4], ["Secret", "immutable", 5],
      ["PodSpec", "containers", 2], ["PodSpec", "tolerations", 22], ["PodSpec", "enableServiceLinks", 30], ["PodSpec", "preemptionPolicy", 31],
      ["Container", "terminationMessagePolicy", 20], ["Container", "envFrom", 19],
      ["ServiceSpec", "clusterIPs", 18], ["ServiceSpec", "ipFamilies", 19], ["ServiceSpec", "ipFamilyPolicy", 17], ["ServiceSpec", "internalTrafficPolicy", 22],
      ["DeploymentSpec", "progressDeadlineSeconds", 9], ["DeploymentStatus", "readyReplicas", 7],
    ];
    for (const [message, field, id] of facts) expect(fieldNumber(message, field), `${message}.${field}`).toBe(id);
  });

  it("declares maps as repeated {1: key, 2: value} entries and nests them in their message", () => {
    const labels = messageInfo("ObjectMeta").type.fields["labels"]!;
    expect(labels.repeated).toBe(true);
    expect(labels.resolvedType?.fullName).toBe(`.k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta.${mapEntryName({ name: "labels", id: 11, type: "string" })}`);
    const entry = protoRoot.lookupType("k8s.io.api.core.v1.NodeStatus.CapacityEntry");
    expect(entry.fields["key"]!.id).toBe(1);
    expect(entry.fields["value"]!.resolvedType?.fullName).toBe(".k8s.io.apimachinery.pkg.api.resource.Quantity");
  });

  it("resolves every message type in its Kubernetes package", () => {
    for (const info of allMessages().values()) {
      expect(protoRoot.lookupType(info.fullName)).toBe(info.type);
      for (const field of info.type.fieldsArray) expect(field.resolvedType !== null || field.resolved, `${info.name}.${field.name}`).toBe(true);
    }
    expect(messageInfo("Pod").fullName).toBe("k8s.io.api.core.v1.Pod");
    expect(messageInfo("Lease").fullName).toBe("k8s.io.api.coordination.v1.Lease");
    expect(messageInfo("Unknown").fullName).toBe("k8s.io.apimachinery.pkg.runtime.Unknown");
  });

  it("gives every kind served in either dialect a Protobuf form, and its list", () => {
    for (const dialect of dialects) {
      for (const type of resourceTypes(dialect)) {
        const apiVersion = apiVersionOf(type);
        expect(protobufKind(apiVersion, type.kind)?.message, `${dialect.name} ${apiVersion} ${type.kind}`).toBe(type.kind);
        // Virtual types (SubjectAccessReview) are only POSTed: no list.
        if (type.verbs.includes("list")) expect(protobufKind(apiVersion, `${type.kind}List`)?.message).toBe(`${type.kind}List`);
      }
    }
    expect(protobufKinds().length).toBeGreaterThan(20);
  });
});
