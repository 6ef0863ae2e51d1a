/**
 * The `fieldSelector` query parameter: its grammar, which fields each resource can be selected
 * by, the field values an object offers, and matching, as a Kubernetes 1.26 API server does it
 * (k8s.io/apimachinery fields.ParseSelector, the field label conversions of the core types, the
 * registries' selectable field sets).
 *
 * Doc 1 only names selectors (doc1/2.3/remaining-item-count/omitted-with-selector); all of this is
 * Kubernetes behaviour (not shown in doc 1). Errors are SelectorParseError (400 BadRequest, see
 * label-selector.ts) carrying Kubernetes' message, which transcript list-field-selector-bad shows
 * for an unsupported field: `"data.key" is not a known field selector: only "metadata.name",
 * "metadata.namespace"`.
 */
import { SelectorParseError } from "./label-selector.ts";
import { goQuote } from "../responses/go-text.ts";
import { record, text } from "../untyped-json.ts";

/** A term's operator. `=` and `==` mean the same; `!=` also holds when the field is absent (empty). */
export type FieldOperator = "=" | "==" | "!=";

/** One comma-separated term: a field, an operator and the unescaped value. */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: FieldOperator;
  readonly value: string;
}

/** A parsed field selector: the conjunction of its terms, in Kubernetes' order (terms sorted as text). */
export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
}

/** The fields every resource without its own list can be selected by. */
export const defaultSelectableFields: readonly string[] = Object.freeze(["metadata.name", "metadata.namespace"]);

// Resources whose kind registers its own field label conversion in Kubernetes 1.26 (core/v1
// Pod, Node, ReplicationController, Event, Namespace, Secret). Their unsupported-field message is
// "field label not supported: <field>"; every other resource gets the default conversion's
// message, the one transcript list-field-selector-bad shows. Later releases add fields (pods:
// spec.hostNetwork, status.podIPs; services: a list of their own with spec.clusterIP, spec.type);
// the transcripts do not show them for 1.26, so they are left out and services keep the default.
const RESOURCE_FIELDS: ReadonlyMap<string, readonly string[]> = new Map([
  [
    "pods",
    Object.freeze([
      "metadata.name",
      "metadata.namespace",
      "spec.nodeName",
      "spec.restartPolicy",
      "spec.schedulerName",
      "spec.serviceAccountName",
      "status.phase",
      "status.podIP",
      "status.nominatedNodeName",
    ]),
  ],
  ["nodes", Object.freeze(["metadata.name", "spec.unschedulable"])],
  ["replicationcontrollers", Object.freeze(["metadata.name", "metadata.namespace", "status.replicas"])],
  [
    "events",
    Object.freeze([
      "involvedObject.kind",
      "involvedObject.namespace",
      "involvedObject.name",
      "involvedObject.uid",
      "involvedObject.apiVersion",
      "involvedObject.resourceVersion",
      "involvedObject.fieldPath",
      "reason",
      "reportingComponent",
      "source",
      "type",
      "metadata.namespace",
      "metadata.name",
    ]),
  ],
  ["namespaces", Object.freeze(["status.phase", "metadata.name"])],
  ["secrets", Object.freeze(["type", "metadata.namespace", "metadata.name"])],
]);

/** The fields `resource` (plural, lowercase: "pods") can be selected by on a Kubernetes 1.26 server. */
export function supportedFieldSelectors(resource: string): readonly string[] {
  return RESOURCE_FIELDS.get(resource) ?? defaultSelectableFields;
}

/**
 * Parses a fieldSelector and checks its fields against `supportedFields`. Throws
 * SelectorParseError with Kubernetes' message for a term without an operator, a bad escape, an
 * unescaped ',' or '=' in a value, or an unsupported field (the first one in term order).
 * The unsupported-field wording follows the list: the default list gives the default
 * conversion's wording, any other list the custom conversions' one.
 */
export function parseFieldSelector(text: string, supportedFields: readonly string[]): FieldSelector {
  // Kubernetes sorts the raw terms as strings before reading them, so both which error is
  // reported first and the order of the requirements follow that sort.
  const terms = splitTerms(text).sort(compareStrings);
  const requirements: FieldRequirement[] = [];
  for (const term of terms) {
    if (term === "") continue; // "a=b,,c=d" and a trailing ',' are allowed
    const split = splitTerm(term);
    if (split === undefined) throw new SelectorParseError(`invalid selector: '${text}'; can't understand '${term}'`);
    requirements.push({ field: split.field, operator: split.operator, value: unescapeFieldSelectorValue(split.rawValue) });
  }
  // Only after the whole text parsed does the server convert field labels (the handler's
  // Transform), so a syntax error anywhere wins over an unsupported field.
  const supported = new Set(supportedFields);
  const defaultStyle = isDefaultList(supportedFields);
  for (const requirement of requirements) {
    if (!supported.has(requirement.field)) throw new SelectorParseError(unsupportedFieldMessage(requirement.field, defaultStyle));
  }
  return Object.freeze({ requirements: Object.freeze(requirements) });
}

/** Whether an object whose selectable fields are `fields` satisfies every term; a field it lacks reads as "". */
export function matchesFields(selector: FieldSelector, fields: Readonly<Record<string, string>>): boolean {
  return selector.requirements.every((requirement) => {
    const actual = Object.hasOwn(fields, requirement.field) ? fields[requirement.field]! : "";
    return requirement.operator === "!=" ? actual !== requirement.value : actual === requirement.value;
  });
}

/**
 * The selectable fields of `object`, a `resource` (plural) object in its JSON (v1) form: what a
 * Kubernetes 1.26 registry offers the selector. Absent fields read as "" (Kubernetes reads Go
 * zero values), booleans as "true"/"false", numbers in decimal.
 */
export function fieldsOf(resource: string, object: Readonly<Record<string, unknown>>): Record<string, string> {
  const metadata = record(object["metadata"]);
  const name = text(metadata["name"]);
  const namespace = text(metadata["namespace"]);
  switch (resource) {
    case "pods": {
      const spec = record(object["spec"]);
      const status = record(object["status"]);
      // Kubernetes takes the first of status.podIPs; a v1 object may carry only status.podIP.
      const firstPodIP = Array.isArray(status["podIPs"]) ? text(record(status["podIPs"][0])["ip"]) : "";
      return {
        "metadata.name": name,
        "metadata.namespace": namespace,
        "spec.nodeName": text(spec["nodeName"]),
        "spec.restartPolicy": text(spec["restartPolicy"]),
        "spec.schedulerName": text(spec["schedulerName"]),
        "spec.serviceAccountName": text(spec["serviceAccountName"]),
        "status.phase": text(status["phase"]),
        "status.podIP": firstPodIP !== "" ? firstPodIP : text(status["podIP"]),
        "status.nominatedNodeName": text(status["nominatedNodeName"]),
      };
    }
    case "nodes":
      return { "metadata.name": name, "spec.unschedulable": String(record(object["spec"])["unschedulable"] === true) };
    case "namespaces":
      return { "metadata.name": name, "status.phase": text(record(object["status"])["phase"]) };
    case "secrets":
      return { "metadata.name": name, "metadata.namespace": namespace, type: text(object["type"]) };
    case "replicationcontrollers":
      return { "metadata.name": name, "metadata.namespace": namespace, "status.replicas": integerText(record(object["status"])["replicas"]) };
    case "events": {
      const involved = record(object["involvedObject"]);
      // "source" is the source component, or the reporting controller when there is none.
      const sourceComponent = text(record(object["source"])["component"]);
      const reportingController = text(object["reportingComponent"]);
      return {
        "metadata.name": name,
        "metadata.namespace": namespace,
        "involvedObject.kind": text(involved["kind"]),
        "involvedObject.namespace": text(involved["namespace"]),
        "involvedObject.name": text(involved["name"]),
        "involvedObject.uid": text(involved["uid"]),
        "involvedObject.apiVersion": text(involved["apiVersion"]),
        "involvedObject.resourceVersion": text(involved["resourceVersion"]),
        "involvedObject.fieldPath": text(involved["fieldPath"]),
        reason: text(object["reason"]),
        reportingComponent: reportingController,
        source: sourceComponent !== "" ? sourceComponent : reportingController,
        type: text(object["type"]),
      };
    }
    default:
      // A cluster-scoped object has no namespace, so metadata.namespace reads "" for it, as on
      // a real server (where `metadata.namespace=` selects every cluster-scoped object).
      return { "metadata.name": name, "metadata.namespace": namespace };
  }
}

/** A value escaped for a field selector (Kubernetes' fields.EscapeValue): '\\', ',' and '=' get a backslash. */
export function escapeFieldSelectorValue(value: string): string {
  return value.replace(/[\\,=]/g, (char) => `\\${char}`);
}

/**
 * A field selector value with its escapes removed (Kubernetes' fields.UnescapeValue): `\\`, `\,`
 * and `\=` stand for the character; any other escape, a lone trailing '\', or a bare ',' or '='
 * is an error.
 */
export function unescapeFieldSelectorValue(raw: string): string {
  let value = "";
  let escaped = false;
  for (const char of raw) {
    if (escaped) {
      if (char !== "\\" && char !== "," && char !== "=") {
        throw new SelectorParseError(`invalid field selector: invalid escape sequence: \\${char}`);
      }
      value += char;
      escaped = false;
    } else if (char === "\\") {
      escaped = true;
    } else if (char === "," || char === "=") {
      // Go prints the rune with %v, that is as its number: "=" is 61, "," is 44.
      throw new SelectorParseError(`invalid field selector: unescaped character in value: ${char.codePointAt(0)!}`);
    } else {
      value += char;
    }
  }
  if (escaped) throw new SelectorParseError("invalid field selector: invalid escape sequence: \\");
  return value;
}

/** The selector as text: terms joined by ",", values escaped; parsing it gives the same terms back. */
export function formatFieldSelector(selector: FieldSelector): string {
  return selector.requirements.map((r) => `${r.field}${r.operator}${escapeFieldSelectorValue(r.value)}`).join(",");
}

// Kubernetes' splitTerms: split on ',' except an escaped one; the escapes stay in the terms.
function splitTerms(text: string): string[] {
  if (text === "") return [];
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (escaped) escaped = false;
    else if (char === "\\") escaped = true;
    else if (char === ",") {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

// Kubernetes' splitTerm: the first position where "!=", "==" or "=" starts splits the term; the
// field part is not unescaped and not trimmed ("a = b" selects the field "a ").
function splitTerm(term: string): { field: string; operator: FieldOperator; rawValue: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const operator of ["!=", "==", "="] as const) {
      if (term.startsWith(operator, i)) return { field: term.slice(0, i), operator, rawValue: term.slice(i + operator.length) };
    }
  }
  return undefined;
}

function isDefaultList(fields: readonly string[]): boolean {
  return fields.length === defaultSelectableFields.length && defaultSelectableFields.every((field) => fields.includes(field));
}

function unsupportedFieldMessage(field: string, defaultStyle: boolean): string {
  return defaultStyle
    ? `${goQuote(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`
    : `field label not supported: ${field}`;
}

// Go's sort.Strings compares bytes; UTF-16 code-unit order agrees with it except between
// astral characters and U+E000..U+FFFF, which no field selector a client sends in practice holds.
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function integerText(value: unknown): string {
  return typeof value === "number" && Number.isInteger(value) ? String(value) : "0";
}
