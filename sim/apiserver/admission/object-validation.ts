/**
 * Validating admission: the required fields of the served kinds, as Kubernetes' validation
 * reports them (422 Invalid with one FieldValueRequired cause per missing field). Names are
 * checked at stamping (object-stamping.ts).
 */
import type { StoredObject } from "../../store/stored-object.ts";
import type { StatusCause } from "../../../spec/doc1/errors.ts";
import { invalid } from "../api-error.ts";
import { structItems } from "../json-value.ts";
import type { ResourceType } from "../resource-types.ts";

type Json = Record<string, unknown>;

const required = (field: string): StatusCause => ({ reason: "FieldValueRequired", message: "Required value", field });

/** Throws 422 Invalid listing every required field `object` lacks. */
export function validateObject(type: ResourceType, object: StoredObject): void {
  const causes = missingFields(type.kind, object);
  if (causes.length > 0) throw invalid(type.kind, object.metadata.name, causes, type.group === "" ? undefined : type.group);
}

function missingFields(kind: string, object: StoredObject): StatusCause[] {
  const spec = (object["spec"] ?? {}) as Json;
  switch (kind) {
    case "Pod": {
      const containers = structItems(spec["containers"]);
      if (containers.length === 0) return [required("spec.containers")];
      return containers.flatMap((container, index) =>
        ["name", "image"].filter((field) => !container[field]).map((field) => required(`spec.containers[${index}].${field}`)),
      );
    }
    case "Service": {
      const ports = structItems(spec["ports"]);
      if (spec["clusterIP"] !== "None" && spec["type"] !== "ExternalName" && ports.length === 0) return [required("spec.ports")];
      return ports.filter((port) => typeof port["port"] !== "number").map((_, index) => required(`spec.ports[${index}].port`));
    }
    case "Deployment":
      return [spec["selector"] === undefined && required("spec.selector"), spec["template"] === undefined && required("spec.template")].filter(
        (cause): cause is StatusCause => cause !== false,
      );
    default:
      return [];
  }
}
