/**
 * The object filter of a list, watch or deletecollection: labelSelector and fieldSelector
 * (Kubernetes; doc 1 §2.3 names selectors without defining them). Bad selectors are 400.
 */
import type { StoredObject } from "../../store/stored-object.ts";
import { badRequest } from "../responses/api-error.ts";
import { fieldsOf, matchesFields, parseFieldSelector, supportedFieldSelectors } from "./field-selector.ts";
import { matchesLabels, parseLabelSelector } from "./label-selector.ts";
import { optional } from "./query-options.ts";
import type { ResourceType } from "../routing/resource-types.ts";

/** The filter the request's selectors describe, or undefined when it has none. */
export function objectFilter(type: ResourceType, query: URLSearchParams): ((object: StoredObject) => boolean) | undefined {
  const labelText = optional(query, "labelSelector");
  const fieldText = optional(query, "fieldSelector");
  if (labelText === undefined && fieldText === undefined) return undefined;
  try {
    const labels = labelText === undefined ? undefined : parseLabelSelector(labelText);
    const fields = fieldText === undefined ? undefined : parseFieldSelector(fieldText, supportedFieldSelectors(type.resource));
    return (object) =>
      (labels === undefined || matchesLabels(labels, object.metadata["labels"] as Record<string, string> | undefined)) &&
      (fields === undefined || matchesFields(fields, fieldsOf(type.resource, object)));
  } catch (error) {
    throw badRequest((error as Error).message);
  }
}
